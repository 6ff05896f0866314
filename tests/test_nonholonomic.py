"""The nonholonomic half of §7.9, reconstructed (issue 29), and the bridge's γ-test (issue 27
§1.2): every identity computed from the engine, and each can fail."""

from __future__ import annotations

import pytest
import sympy as sp

from companion.examples.bridge import computations as bridge
from companion.geometry.distribution import gamma_test, lie_bracket, structure_functions


def test_hamel_gamma_are_structure_functions_of_the_frame_in_both_examples():
    for name in ("euler_body", "knife_edge"):
        frame, engine = bridge.structure_function_identity(name)
        assert all((a - b).applyfunc(sp.simplify) == sp.zeros(3, 3)
                   for a, b in zip(frame, engine, strict=True))
        assert any(g != sp.zeros(3, 3) for g in frame)  # not vacuous


def test_gamma_test_of_the_knife_edge_and_the_counterexamples_to_C():
    g = bridge.knife_edge_gamma_test()
    assert g["gamma3_12"] == -1 and g["block"] == sp.Matrix([[0, -1], [1, 0]])
    counter = bridge.c_is_not_the_test()
    assert counter["x_ydot"]["C3"] != sp.zeros(3, 3)  # C³ ≠ 0 ...
    assert counter["x_ydot"]["block"] == sp.zeros(2, 2)  # ... yet holonomic
    assert counter["rescaled"]["C3"] != g["C3"]
    assert counter["rescaled"]["block"] == sp.exp(sp.Symbol("x")) * g["block"]


def test_bracket_sign_and_bad_input():
    x, y = sp.symbols("x y")
    assert lie_bracket([1, 0], [0, x], [x, y]) == sp.Matrix([0, 1])
    with pytest.raises(ValueError, match="columns of 2"):
        lie_bracket([1, 0, 0], [0, 1], [x, y])
    with pytest.raises(ValueError, match="singular"):
        structure_functions(sp.Matrix([[1, 0], [1, 0]]), [x, y])
    with pytest.raises(ValueError, match="n_constraints"):
        gamma_test(sp.eye(2), [x, y], 2)


# --------------------------------------------------------------- the constrained connection
def test_constrained_connection_gives_the_knife_edge_equations_and_the_blade_force():
    from companion import examples
    from companion.examples.nonholonomic import connection

    knife = examples.get("nonholonomic")
    bh = knife.derive("boltzmann_hamel")
    con = connection.constrained_connection(knife)
    assert (con.udot - bh.accelerations()).applyfunc(sp.simplify) == sp.zeros(2, 1)
    assert con.udot != sp.zeros(2, 1)  # the gyroscopic terms are there
    m = next(p for p in knife.parameter_symbols if p.name == "m")
    u1, u2 = knife.u_independent
    assert sp.simplify(con.multipliers[0] - m * u1 * u2) == 0
    assert (con.P * con.X - con.X).applyfunc(sp.simplify) == sp.zeros(3, 2)
    # ∇̃ has torsion: Γ̃ is not symmetric in its lower indices, unlike Levi-Civita's Γ
    assert any(g != g.T for g in con.Gamma_tilde)
    assert all(g == g.T for g in con.Gamma)


def test_only_the_orthogonal_u3_lets_the_constrained_T_work():
    from companion import examples
    from companion.examples.nonholonomic import connection

    knife = examples.get("nonholonomic")
    right = knife.derive("boltzmann_hamel").accelerations()
    choice = connection.orthogonal_quasi_velocities(knife)
    good = connection.renamed(choice.constrained.accelerations(), choice.u, knife.u)
    assert (good - right).applyfunc(sp.simplify) == sp.zeros(2, 1)
    assert connection.constrained_T_first(knife).accelerations() == sp.zeros(2, 1)  # wrong
    with pytest.raises(ValueError, match="1 frame columns"):
        connection.with_suppressed_frame(knife, [])


def test_no_constraint_is_refused():
    from companion import examples
    from companion.examples.nonholonomic import connection

    with pytest.raises(ValueError, match="no velocity constraint"):
        connection.constrained_connection(examples.get("euler_body"))


# ------------------------------------------------------------------------------- steering
def test_parking_moves_the_blade_by_epsilon_squared_along_the_bracket():
    from companion.examples.nonholonomic import steering

    q0 = (0.3, -0.2, 0.7)
    small = steering.parking(1e-3, q0=q0)
    assert small.relative_error < 1e-3
    assert abs(small.displacement[2]) < 1e-12  # the heading comes back
    assert abs(steering.parking(0.01, q0=q0).along_bracket - 1) < 1e-3
    assert abs(float(steering.scaling(q0=q0)["slope"]) - 2) < 0.01
    # the other order reverses the bracket
    reverse = steering.parking(0.01, q0=q0, legs=((0, 1), (1, 0), (0, -1), (-1, 0)))
    assert reverse.along_bracket < -0.99
    with pytest.raises(ValueError, match="epsilon must be positive"):
        steering.parking(0.0)


def test_nonholonomic_checks_pass_in_verify():
    from companion.verify import all_checks, run_checks

    outcomes = run_checks(all_checks(["nonholonomic"]))
    assert len(outcomes) == 8 and all(o.matched for o in outcomes)
    assert {o.check.kind for o in outcomes} == {"reconstruction"}


# ------------------------------------------------------------------ the bridge's other joints
def test_kane_on_the_double_pendulum_is_the_pull_back():
    k = bridge.kane_vs_pull_back()
    assert k["coefficients"] == k["J"] and k["difference"] == sp.zeros(2, 1)
    assert k["kane"] != sp.zeros(2, 1)


def test_robotics_form_is_passive_and_leaves_only_the_torques():
    r = bridge.robotics_form()
    assert r["skew_check"] == sp.zeros(2, 2) and r["M_dot_minus_2C"] != sp.zeros(2, 2)
    assert {s.name for s in r["tau"].free_symbols} == {"tau_1", "tau_2"}
    assert r["C"] != sp.zeros(2, 2) and r["g"] != sp.zeros(2, 1)


def test_body_and_spatial_frames_give_opposite_brackets():
    s = bridge.bracket_sign_on_so3()
    eps = bridge.levi_civita()
    assert s["body"] == eps and s["spatial"] == [-e for e in eps]
    # R is the attitude whose body rates are (4.89): Rᵀ Ṙ = ω̂ with ω = Ψ q̇
    from companion.examples.euler_body.system import build

    system = build()
    psi, _ = system.psi
    R = s["rotation"]
    R_dot = sum((R.diff(qi) * v for qi, v in zip(system.q, system.qdot, strict=True)),
                sp.zeros(3, 3))
    w = psi * sp.Matrix(system.qdot)
    hat = sp.Matrix([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
    assert (R.T * R_dot - hat).applyfunc(sp.trigsimp) == sp.zeros(3, 3)
