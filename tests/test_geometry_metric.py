"""The Riemannian toolkit of Loparo §7.2–7.3 on several coordinate maps, against independent
derivations (Cartesian Newton, sympy's LagrangesMethod, time differentiation, the spec's
double-pendulum mass matrix)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from sympy.physics.mechanics import dynamicsymbols

from companion.geometry.metric import (
    ambient_acceleration,
    christoffel,
    covariant_equations,
    flat,
    jacobian,
    kinetic_metric,
    pull_back_form,
    pull_back_metric,
    reaction_force,
    reaction_in_null_space,
)

RNG = np.random.default_rng(3)


def numeric(expr, symbols, values):
    return np.array(sp.lambdify(symbols, expr, modules="numpy")(*values), dtype=float)


def test_polar_coordinates_metric_and_christoffel():
    r, th = sp.symbols("r theta", positive=True)
    m = sp.Symbol("m", positive=True)
    J = jacobian([r * sp.cos(th), r * sp.sin(th)], [r, th])
    sigma = pull_back_metric(m * sp.eye(2), J)
    assert sigma == sp.diag(m, m * r**2)
    gamma = christoffel(sigma, [r, th])
    assert sp.simplify(gamma[0][1, 1] + r) == 0  # Γ^r_θθ = −r
    assert sp.simplify(gamma[1][0, 1] - 1 / r) == 0  # Γ^θ_rθ = 1/r
    assert gamma[0][0, 0] == 0 and gamma[1][1, 1] == 0


def test_polar_covariant_law_matches_cartesian_newton():
    r, th, rd, thd = sp.symbols("r theta rdot thetadot")
    m, Fx, Fy = sp.symbols("m F_x F_y")
    emb = [r * sp.cos(th), r * sp.sin(th)]
    J = jacobian(emb, [r, th])
    d = covariant_equations(pull_back_metric(m * sp.eye(2), J), [r, th], [rd, thd],
                            pull_back_form([Fx, Fy], J))
    acc = ambient_acceleration(emb, [r, th], [rd, thd], d.accelerations())
    syms = [r, th, rd, thd, m, Fx, Fy]
    for _ in range(5):
        vals = RNG.uniform(0.5, 2.0, len(syms))
        got = numeric(acc, syms, vals).ravel()
        np.testing.assert_allclose(got, vals[5:] / vals[4], rtol=1e-12)


def test_surface_of_revolution_against_lagrange():
    """Paraboloid z = c r² under gravity: the covariant equations equal sympy's Lagrange."""
    from sympy.physics.mechanics import LagrangesMethod, Lagrangian, Particle, Point, ReferenceFrame

    r, ph, rd, phd = sp.symbols("r phi rdot phidot")
    m, g, c = sp.symbols("m g c", positive=True)
    emb = [r * sp.cos(ph), r * sp.sin(ph), c * r**2]
    J = jacobian(emb, [r, ph])
    sigma = pull_back_metric(m * sp.eye(3), J)
    d = covariant_equations(sigma, [r, ph], [rd, phd], pull_back_form([0, 0, -m * g], J))

    rt, pt = dynamicsymbols("r phi")
    N = ReferenceFrame("N")
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", rt * sp.cos(pt) * N.x + rt * sp.sin(pt) * N.y + c * rt**2 * N.z)
    P.set_vel(N, P.pos_from(O).dt(N))
    part = Particle("p", P, m)
    part.potential_energy = m * g * c * rt**2
    lm = LagrangesMethod(Lagrangian(N, part), [rt, pt])
    lm.form_lagranges_equations()
    plain = {rt.diff(): rd, pt.diff(): phd, rt: r, pt: ph}
    lag = lm.mass_matrix.LUsolve(lm.forcing).subs(plain)
    syms = [r, ph, rd, phd, m, g, c]
    for _ in range(5):
        vals = RNG.uniform(0.3, 2.0, len(syms))
        np.testing.assert_allclose(numeric(d.accelerations(), syms, vals),
                                   numeric(lag, syms, vals), rtol=1e-10)


def test_pull_back_equals_kinetic_energy_by_time_differentiation():
    """J^T σ J against the metric of T = ½ m |d j(x(t))/dt|² (no Jacobian used)."""
    a, b = sp.symbols("a b", positive=True)
    u, v = sp.symbols("u v")
    ut, vt = dynamicsymbols("u v")
    emb = lambda s, t: [(a + b * sp.cos(t)) * sp.cos(s), (a + b * sp.cos(t)) * sp.sin(s),  # noqa: E731
                        b * sp.sin(t)]  # a torus
    vel = sp.Matrix(emb(ut, vt)).diff(dynamicsymbols._t)
    ud, vd = sp.symbols("udot vdot")
    T = (vel.T * vel)[0] / 2
    T = T.subs({ut.diff(): ud, vt.diff(): vd}).subs({ut: u, vt: v})
    sigma = pull_back_metric(sp.eye(3), jacobian(emb(u, v), [u, v]))
    assert (kinetic_metric(T, [ud, vd]) - sigma).applyfunc(sp.simplify) == sp.zeros(2, 2)


def test_double_pendulum_pull_back_matches_spec():
    """The spec's M(q) of the two-link pendulum (Loparo Example 2) as an independent check."""
    t1, t2 = sp.symbols("theta_1 theta_2")
    m1, m2, J1, J2, a1, a2, l1 = sp.symbols("m_1 m_2 J_1 J_2 a_1 a_2 l_1", positive=True)
    f = [a1 * sp.sin(t1), -a1 * sp.cos(t1), t1,
         l1 * sp.sin(t1) + a2 * sp.sin(t2), -l1 * sp.cos(t1) - a2 * sp.cos(t2), t2]
    M = pull_back_metric(sp.diag(m1, m1, J1, m2, m2, J2), jacobian(f, [t1, t2]))
    spec = sp.Matrix([[J1 + m1 * a1**2 + m2 * l1**2, m2 * l1 * a2 * sp.cos(t1 - t2)],
                      [m2 * l1 * a2 * sp.cos(t1 - t2), J2 + m2 * a2**2]])
    assert (M - spec).applyfunc(lambda e: sp.simplify(sp.expand_trig(e))) == sp.zeros(2, 2)


def test_geodesics_of_flat_metric_are_straight_lines():
    x, y, xd, yd = sp.symbols("x y xd yd")
    d = covariant_equations(sp.eye(2) * 3, [x, y], [xd, yd], method="geodesic")
    assert d.accelerations() == sp.zeros(2, 1)
    assert d.method == "geodesic"


def test_reaction_is_normal_on_the_sphere_and_check_can_fail():
    th, ph, thd, phd = sp.symbols("theta phi thetadot phidot")
    m, R, g = sp.symbols("m R g", positive=True)
    emb = [R * sp.sin(th) * sp.cos(ph), R * sp.sin(th) * sp.sin(ph), R * sp.cos(th)]
    J = jacobian(emb, [th, ph])
    F = [0, 0, -m * g]
    d = covariant_equations(pull_back_metric(m * sp.eye(3), J), [th, ph], [thd, phd],
                            pull_back_form(F, J))
    Rf = reaction_force(m * sp.eye(3), emb, [th, ph], [thd, phd], d.accelerations(), F)
    assert reaction_in_null_space(J, Rf)
    assert not reaction_in_null_space(J, sp.Matrix(F))  # gravity has a tangential part
    # numeric form: R ∥ position (normal to the sphere)
    syms = [th, ph, thd, phd, m, R, g]
    vals = [1.0, 0.3, 0.7, -1.2, 2.0, 1.5, 9.81]
    Rn, Jn = numeric(Rf, syms, vals).ravel(), numeric(J, syms, vals)
    pos = numeric(sp.Matrix(emb), syms, vals).ravel()
    assert np.linalg.norm(np.cross(Rn, pos)) < 1e-12 * np.linalg.norm(Rn) * np.linalg.norm(pos)
    assert reaction_in_null_space(Jn, Rn)
    assert not reaction_in_null_space(Jn, np.array([0.0, 0.0, -19.62]))


@pytest.mark.parametrize("call", [
    lambda: flat(sp.Matrix([[1, 2, 3]]), [1, 2, 3]),
    lambda: pull_back_metric(sp.Matrix([[1, 1], [0, 1]]), sp.eye(2)),
    lambda: pull_back_metric(sp.eye(3), sp.eye(2)),
    lambda: pull_back_form([1, 2], sp.eye(3)),
    lambda: christoffel(sp.eye(3), sp.symbols("x y")),
    lambda: jacobian([sp.Symbol("x")], dynamicsymbols("x y")),
    lambda: kinetic_metric("x +* 2", sp.symbols("x")),
    lambda: reaction_in_null_space(sp.eye(3), sp.Matrix([1, 2])),
    lambda: reaction_in_null_space(np.eye(3), np.ones(2)),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_christoffel_against_sympy_diffgeom():
    """Γ^i_kl of the sphere and of the paraboloid metrics against sympy.diffgeom."""
    from sympy.diffgeom import TensorProduct, metric_to_Christoffel_2nd
    from sympy.diffgeom.rn import R2_r

    u, v = sp.symbols("x y")
    R = sp.Symbol("R", positive=True)
    fields = {u: R2_r.x, v: R2_r.y}
    forms = (R2_r.dx, R2_r.dy)
    for sigma in (sp.diag(R**2, R**2 * sp.sin(u) ** 2), sp.diag(1 + 4 * u**2, u**2)):
        g = sum((sigma[i, j].subs(fields) * TensorProduct(a, b)
                 for i, a in enumerate(forms) for j, b in enumerate(forms)), sp.S.Zero)
        reference = metric_to_Christoffel_2nd(g)  # reference[i, k, l] = Γ^i_kl
        back = {f: s for s, f in fields.items()}
        ours = christoffel(sigma, [u, v])
        assert any(reference[i, k, l] != 0 for i in range(2) for k in range(2) for l in range(2))
        for i in range(2):
            for k in range(2):
                for l in range(2):
                    assert sp.simplify(reference[i, k, l].subs(back) - ours[i][k, l]) == 0


def test_levi_civita_properties_on_the_sphere_and_a_failing_connection():
    """Def. 7.3 on the sphere's metric: torsion-free and metric-compatible; a doubled metric
    derivative (wrong connection) is caught."""
    import sympy as sp

    from companion import examples
    from companion.geometry import metric

    sphere = examples.get("sphere_particle")
    torsion, compatibility = metric.levi_civita_residuals(sphere.induced_metric, sphere.q)
    assert all(t == sp.zeros(2, 2) for t in torsion)
    assert all(c == sp.zeros(2, 2) for c in compatibility)
    real = metric.christoffel
    try:
        metric.christoffel = lambda s, q: [2 * g for g in real(s, q)]
        _, wrong = metric.levi_civita_residuals(sphere.induced_metric, sphere.q)
    finally:
        metric.christoffel = real
    assert any(c != sp.zeros(2, 2) for c in wrong)


def test_covariant_acceleration_is_the_tangential_part():
    """Def. 7.4 / Fig. 7.1: P(d²j/dt²) = J ∇̃_ẋ ẋ along a run, and P is a projection."""
    import numpy as np
    import sympy as sp

    from companion import examples
    from companion.examples.sphere_particle.view import acceleration_parts
    from companion.geometry.metric import tangential_projection

    sphere = examples.get("sphere_particle")
    P = tangential_projection(sphere.ambient_metric, sphere.J)
    assert sp.simplify(P * P - P) == sp.zeros(3, 3)
    run = sphere.simulate(t_final=1.0, n_points=50)
    for k in (5, 25, 45):
        parts = acceleration_parts(sphere, run, k)
        assert np.allclose(parts["tangential"], parts["covariant"], atol=1e-10)
        assert abs(parts["normal"] @ np.cross(parts["point"], parts["tangential"])) < 1e-9
        assert np.linalg.norm(parts["normal"]) > 1e-3  # the split is not trivial


@pytest.mark.parametrize(("name", "method"), [("sphere_particle", "geometric"),
                                              ("double_pendulum", "pull_back"),
                                              ("disk_link_rolling", "pull_back")])
def test_loparo_steppers_use_the_pulled_back_notation(name, method):
    """Issue 14 item 8: σ̃ = j*σ, F̃ and ∇̃; the constrained law is (7.2); no step repeats an
    earlier one under another name."""
    from companion import examples

    d = examples.get(name).derive(method)
    law = next(s for s in d.steps if s.title.startswith("Newton's law"))
    assert law.eq == "(7.2)" and "∇̃" in law.title and "σ̃" in law.title
    assert any(s.symbol == r"\tilde\sigma" for s in d.steps)
    assert any(s.symbol == r"\tilde F" for s in d.steps)
    assert any(s.eq == "Def. 7.3" for s in d.steps)
    shown = [str(s.expr) for s in d.steps]
    assert len(shown) == len(set(shown)), [s.title for s in d.steps]
