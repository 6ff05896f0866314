"""The rolling disk–link in the robotics form M q̈ + C q̇ + g = B τ and its ball-and-beam loop
linearized about the held disk (companion.examples.disk_link.robotics, ours)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.examples.disk_link import contact as ct
from companion.examples.disk_link import robotics as rb
from companion.examples.disk_link.checks import rolling_checks
from companion.examples.disk_link.parameters import SYMBOLS
from companion.geometry.metric import christoffel_first

Q, QDOT = [ct.theta, ct.s], [ct.theta_d, ct.s_d]


@pytest.fixture(scope="module")
def system():
    return examples.get("disk_link_rolling")


def test_rolling_model_in_robotics_form_is_passive_with_one_motor():
    r = rb.rolling_robotics_form()
    assert r["skew_check"] == sp.zeros(2, 2)
    assert r["M_dot_minus_2C"] != sp.zeros(2, 2)  # skew, not zero: θ̇ couples θ and s
    assert r["tau"] == sp.Matrix([ct.tau, 0])  # B = (1, 0)ᵀ: underactuated
    assert r["M"] == ct.mode_model("rolling").metric


def test_robotics_form_reproduces_the_pulled_back_equations():
    r = rb.rolling_robotics_form()
    d = ct.mode_model("rolling").derivation
    lhs = r["M"] * sp.Matrix(ct.ACCELS[:2]) + r["C"] * sp.Matrix(QDOT) + r["g"]
    rhs = d.mass_matrix * sp.Matrix(ct.ACCELS[:2]) - d.forcing + r["tau"]
    assert (lhs - rhs).applyfunc(sp.simplify) == sp.zeros(2, 1)


def test_skewness_needs_the_christoffel_c():
    """Another C with the same C q̇ (C′_ij = Σ_k (∂_k M_ij − ½ ∂_i M_jk) q̇^k) is not skew:
    passivity is a property of the Christoffel choice, so the check can fail."""
    r = rb.rolling_robotics_form()
    M = r["M"]
    other = sp.Matrix(2, 2, lambda i, j: sum(
        (M[i, j].diff(Q[k]) - M[j, k].diff(Q[i]) / 2) * QDOT[k] for k in range(2)))
    assert sp.expand(other * sp.Matrix(QDOT) - r["C"] * sp.Matrix(QDOT)) == sp.zeros(2, 1)
    M_dot = sum((M.diff(q) * v for q, v in zip(Q, QDOT, strict=True)), sp.zeros(2, 2))
    wrong = sp.expand(M_dot - 2 * other)
    assert sp.expand(wrong + wrong.T) != sp.zeros(2, 2)
    first = christoffel_first(M, Q)
    assert r["C"] == sp.Matrix(2, 2, lambda i, j: sp.expand(
        sum(first[i][j, k] * QDOT[k] for k in range(2))))


@pytest.mark.parametrize("feedback", [True, False])
def test_held_disk_is_an_equilibrium_and_both_linearizations_agree(system, feedback):
    rng = np.random.default_rng(3)
    for _ in range(3):
        pv = system.parameter_values({"m": rng.uniform(0.3, 3), "M": rng.uniform(0.5, 5),
                                      "r": rng.uniform(0.03, 0.2), "L": 1.0,
                                      "s_ref": rng.uniform(0.2, 0.9)})
        assert rb.equilibrium_residual(pv, feedback) < 1e-10
        derived, simulated = rb.linearize(pv, feedback), rb.linearize_simulated(system, pv,
                                                                                 feedback)
        assert derived.states == simulated.states == list(rb.STATES)
        np.testing.assert_allclose(derived.A, simulated.A, atol=1e-8)


def test_feedback_turns_a_saddle_into_a_stable_focus(system):
    pv = system.parameter_values({"s_ref": 0.6})
    closed, open_ = (rb.linearize(pv, fb).eigenvalues() for fb in (True, False))
    assert closed.real.max() < -0.4  # every mode decays
    real = open_[np.abs(open_.imag) < 1e-9].real
    assert len(real) == 2 and real[0] == pytest.approx(-real[1]) and real[1] > 2  # saddle
    assert np.abs(open_[np.abs(open_.imag) > 1e-9].real).max() < 1e-9  # and a centre
    # physics: det A = det(M⁻¹ ∂g/∂q) = −m²g²/det M < 0 without feedback, whatever the sizes
    r = rb.rolling_robotics_form()
    subs = dict(zip(SYMBOLS, system.parameter_vector(pv), strict=True)) | {ct.theta: 0,
                                                                          ct.s: 0.6}
    expected = float((r["g"].jacobian(Q).det() / r["M"].det()).subs(subs))
    assert np.prod(open_).real == pytest.approx(expected, rel=1e-10) and expected < 0


def test_input_matrix_is_the_motor_column(system):
    pv = system.parameter_values({"s_ref": 0.6})
    lin = rb.linearize(pv)
    mass = np.array(rb.rolling_robotics_form()["M"].subs(
        dict(zip(SYMBOLS, system.parameter_vector(pv), strict=True)) | {ct.s: 0.6}).evalf(),
        dtype=float)
    np.testing.assert_allclose(mass @ lin.B[2:, 0], [1.0, 0.0], atol=1e-12)
    assert not lin.B[:2].any()


def test_the_checks_pass_and_are_reconstructions():
    from companion.checks import RECONSTRUCTION

    mine = [c for c in rolling_checks({}) if "ball" in c.what]
    assert len(mine) == 2 and all(c.kind == RECONSTRUCTION for c in mine)
    for c in mine:
        ok, detail = c.run()
        assert ok, detail


@pytest.mark.parametrize("feedback", [True, False])
def test_simulated_motion_near_the_held_disk_follows_the_linear_equations(system, feedback):
    """Physics: the nonlinear rolling simulation, started 1 µm off the held disk, stays within
    1e-3 (relative) of e^{At} δx₀ for 2 s: decaying with the loop, growing without it."""
    from scipy.linalg import expm

    pv = system.parameter_values({"s_ref": 0.6})
    lin = rb.linearize(pv, feedback)
    offset = 1e-6
    run = system.simulate(2.0, {**pv, **rb.settings(pv, feedback)},
                          {"theta": 0.0, "s": 0.6 + offset, "theta_dot": 0.0, "s_dot": 0.0},
                          n_points=41)
    predicted = np.array([expm(lin.A * t) @ [0.0, offset, 0.0, 0.0] for t in run.t])
    simulated = np.stack([run["theta"], run["s"] - 0.6, run["theta_dot"], run["s_dot"]], 1)
    scale = np.abs(predicted).max()
    assert np.abs(simulated - predicted).max() < 1e-3 * scale
    final = np.abs(predicted[-1, 1])
    assert (final < 0.5 * offset) if feedback else (final > 20 * offset)
