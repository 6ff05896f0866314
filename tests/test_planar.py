"""Planar multibody modelling (Loparo & Vakalis §7.3, §7.7): pull-back and joint forces."""

import numpy as np
import pytest
import sympy as sp

from companion.examples.double_pendulum.chain import chain_mechanism
from companion.geometry.planar import GROUND, Mechanism

RNG = np.random.default_rng(2026)


def _random_values(mech: Mechanism, d) -> dict:
    """Random positive parameters and random states, q̈ from the reduced equations."""
    vals = {s: RNG.uniform(0.3, 2.0) for s in d.parameters()}
    vals.update({s: RNG.uniform(-3, 3) for s in [*d.q, *d.u]})
    M = np.array(d.mass_matrix.subs(vals), dtype=float)
    f = np.array(d.forcing.subs(vals), dtype=float).ravel()
    vals.update(dict(zip(mech.qddot, np.linalg.solve(M, f), strict=True)))
    return vals


def _max_residual(mech: Mechanism, vals: dict) -> float:
    return max(abs(float(r.subs(vals))) for r in mech.newton_euler_residuals().values())


def test_simple_pendulum_tension_and_equation():
    th, w = sp.symbols("theta omega")
    m, l, g = sp.symbols("m l g", positive=True)
    mech = Mechanism([th], [w], g=g)
    mech.add_body("bob", m, 0, (l * sp.sin(th), -l * sp.cos(th), th))
    mech.add_joint("O", GROUND, "bob", (0, 0))
    d = mech.derive()
    assert sp.simplify(d.mass_matrix[0] - m * l**2) == 0
    assert sp.simplify(d.forcing[0] + m * g * l * sp.sin(th)) == 0
    # the rod pulls the bob towards O with the tension m(g cos θ + l θ̇²)
    R = d.result("joint_forces")["O"].subs(mech.qddot[0], -g / l * sp.sin(th))
    radial = sp.simplify(-(R[0] * sp.sin(th) - R[1] * sp.cos(th)))
    assert sp.simplify(radial - m * (g * sp.cos(th) + l * w**2)) == 0


def test_free_body_metric_is_ambient_and_newton_holds():
    x, y, p, vx, vy, vp = sp.symbols("x y phi v_x v_y v_phi")
    m, J, g, F = sp.symbols("m J g F", positive=True)
    mech = Mechanism([x, y, p], [vx, vy, vp], g=g)
    mech.add_body("puck", m, J, (x, y, p))
    mech.add_load("puck", (F, 0), point=(x, y + 1))  # off-centre push: torque −F
    d = mech.derive()
    assert d.mass_matrix == sp.diag(m, m, J)
    assert list(d.forcing) == [F, -m * g, -F]
    assert mech.joint_forces() == {}
    vals = _random_values(mech, d)
    assert _max_residual(mech, vals) < 1e-12


@pytest.mark.parametrize("n", [2, 3])
def test_chain_joint_forces_satisfy_every_body(n):
    mech = chain_mechanism(n, torques=True)
    mech.add_load(f"link {n}", (sp.Symbol("F_x"), 0), point=mech.joints["O"].point)
    d = mech.derive()
    for _ in range(3):
        assert _max_residual(mech, _random_values(mech, d)) < 1e-12


def test_rotational_check_can_fail():
    """With wrong accelerations the bodies' own rotational equations are violated."""
    mech = chain_mechanism(2)
    d = mech.derive()
    vals = _random_values(mech, d)
    vals[mech.qddot[0]] += 0.1
    res = {k: float(v.subs(vals)) for k, v in mech.newton_euler_residuals().items()}
    assert max(abs(v) for k, v in res.items() if k.endswith("θ")) > 1e-3
    assert max(abs(v) for k, v in res.items() if not k.endswith("θ")) < 1e-12


def test_branched_tree():
    """Two pendulums hanging from the ends of a pivoted bar: a tree, not a chain."""
    a, b, c, wa, wb, wc = sp.symbols("alpha beta gamma w_a w_b w_c")
    g = sp.Symbol("g")
    mech = Mechanism([a, b, c], [wa, wb, wc], g=g)
    mech.add_body("bar", 2, sp.Rational(2, 3), (0, 0, a))
    mech.add_joint("O", GROUND, "bar", (0, 0), torque=sp.Symbol("tau"))
    for name, ang, sgn in (("left", b, -1), ("right", c, 1)):
        end = (sgn * sp.cos(a), sgn * sp.sin(a))
        mech.add_body(name, 1, sp.Rational(1, 10),
                      (end[0] + sp.sin(ang) / 2, end[1] - sp.cos(ang) / 2, ang))
        mech.add_joint(f"pin {name}", "bar", name, end)
    d = mech.derive()
    for _ in range(2):
        assert _max_residual(mech, _random_values(mech, d)) < 1e-12


def test_bad_input_is_explained():
    th, w = sp.symbols("theta omega")
    mech = Mechanism([th], [w])
    mech.add_body("A", 1, 1, (0, 0, th))
    with pytest.raises(ValueError, match="unknown body"):
        mech.add_joint("O", GROUND, "B", (0, 0))
    with pytest.raises(ValueError, match="coordinates only"):
        mech.add_body("B", 1, 1, (w, 0, th))
    with pytest.raises(ValueError, match=r"\(x, y, θ\)"):
        mech.add_body("B", 1, 1, (0, th))
    with pytest.raises(ValueError, match="positive mass"):
        mech.add_body("B", 0, 1, (0, 0, th))
    with pytest.raises(ValueError, match="non-negative central"):
        mech.add_body("B", 1, -1, (0, 0, th))
    mech.add_joint("O", GROUND, "A", (0, 0))
    with pytest.raises(ValueError, match="only trees"):
        mech.add_joint("O2", GROUND, "A", (1, 0))
    with pytest.raises(ValueError, match="no bodies"):
        Mechanism([th], [w]).derive()
    with pytest.raises(ValueError, match="positive whole number"):
        chain_mechanism(0)


def test_rolling_point_contact_disk_on_link():
    """A disk rolling on a pivoted link (the shape of Loparo & Vakalis §7.10): the contact is a
    joint whose point moves along the link; the builder needs nothing special for it."""
    th, s, wth, ws = sp.symbols("theta s omega v")
    M_, d, JO, m, r, ID, g = sp.symbols("M d J_O m r I_D g", positive=True)
    e1 = sp.Matrix([sp.cos(th), sp.sin(th)])
    e2 = sp.Matrix([-sp.sin(th), sp.cos(th)])
    mech = Mechanism([th, s], [wth, ws], g=g)
    mech.add_body("link", M_, JO - M_ * d**2, (*(d * e1), th))
    mech.add_joint("O", GROUND, "link", (0, 0), torque=sp.Symbol("tau"))
    centre = s * e1 + r * e2
    mech.add_body("disk", m, ID, (*centre, th - s / r))  # rolling: ψ̇ = θ̇ − ṡ/r
    mech.add_joint("contact", "link", "disk", tuple(s * e1))
    d_ = mech.derive()
    k = m + ID / r**2
    expected = sp.Matrix([[JO + m * s**2 + r**2 * k, -r * k], [-r * k, k]])
    assert (d_.mass_matrix - expected).applyfunc(sp.simplify) == sp.zeros(2, 2)
    vals = _random_values(mech, d_)
    assert _max_residual(mech, vals) < 1e-12
    # normal force on the disk, along e₂ (the formula of the fact sheet)
    R = d_.result("joint_forces")["contact"]
    N = (R.T * e2)[0]
    tdd = mech.qddot[0]
    N_expected = m * (s * tdd + 2 * ws * wth - r * wth**2) + m * g * sp.cos(th)
    assert abs(float((N - N_expected).subs(vals))) < 1e-12
