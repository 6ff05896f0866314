"""Quaternion attitude helpers against their definitions."""

import numpy as np

from companion.geometry.lie import euler_angles_from_rotations
from companion.numerics.rotations import (
    quaternion_from_euler_angles,
    quaternion_product,
    quaternion_rate_scalar,
    rotate,
    rotation_matrices,
)


def test_quaternion_rate_is_half_q_times_omega():
    rng = np.random.default_rng(3)
    for _ in range(10):
        q, w = rng.normal(size=4), rng.normal(size=3)
        expected = 0.5 * quaternion_product(q, np.array([0.0, *w]))
        assert np.allclose(quaternion_rate_scalar(list(q), list(w)), expected, atol=1e-15)


def test_euler_angles_round_trip_and_rotation():
    angles = np.array([0.3, -0.7, 1.1])
    q = quaternion_from_euler_angles(*angles)
    assert np.allclose(euler_angles_from_rotations(rotation_matrices(q[:, None]))[:, 0], angles)
    # type I: R = Rz(ψ) Ry(θ) Rx(φ); body x-axis maps to the first column of R
    psi, theta, _ = angles
    x_axis = rotate(q[:, None], np.array([[1.0], [0.0], [0.0]]))[:, 0]
    expected = [np.cos(psi) * np.cos(theta), np.sin(psi) * np.cos(theta), -np.sin(theta)]
    assert np.allclose(x_axis, expected)
