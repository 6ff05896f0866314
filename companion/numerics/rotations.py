"""Unit quaternions for attitude: kinematics, conversion to and from type I Euler angles.

Quaternions are (w, x, y, z) with the rotation taking body components to space components.
Arrays of quaternions have shape (4, N).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def quaternion_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a ⊗ b (columns of shape (4, ...))."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ])


def quaternion_rate_scalar(quat: list[float], omega: list[float]) -> list[float]:
    """q̇ = ½ q ⊗ (0, ω) for the body-axis angular velocity ω, on plain floats (right-hand
    sides are evaluated once per integration step, where numpy arrays cost more than math)."""
    w, x, y, z = quat
    a, b, c = omega
    return [0.5 * (-x * a - y * b - z * c), 0.5 * (w * a + y * c - z * b),
            0.5 * (w * b - x * c + z * a), 0.5 * (w * c + x * b - y * a)]


def axis_quaternion(angle: Any, axis: int) -> np.ndarray:
    """Quaternions (4, N) of turns by ``angle`` about body axis ``axis`` (0 x, 1 y, 2 z)."""
    half = np.atleast_1d(np.asarray(angle, dtype=float)) / 2
    q = np.zeros((4, half.size))
    q[0], q[1 + axis] = np.cos(half), np.sin(half)
    return q


def quaternion_from_euler_angles(psi: Any, theta: Any, phi: Any) -> np.ndarray:
    """Type I Euler angles (ψ about z, then θ about the new y, then φ about the new x): shape
    (4,) for numbers, (4, N) for arrays of N angles (a motion)."""
    q = quaternion_product(quaternion_product(axis_quaternion(psi, 2),
                                              axis_quaternion(theta, 1)), axis_quaternion(phi, 0))
    return q[:, 0] if np.ndim(psi) == 0 else q


def rotation_matrices(quat: np.ndarray) -> np.ndarray:
    """The rotations (body → space), shape (N, 3, 3), of unit quaternions (4, N)."""
    w, x, y, z = quat / np.linalg.norm(quat, axis=0)
    return np.moveaxis(np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]), -1, 0)


def rotate(quat: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Rotate body-axis vectors v (3, N) to space axes with unit quaternions (4, N)."""
    return np.einsum("nij,jn->in", rotation_matrices(quat), v)
