"""The book's knife edge plus forces of one's own (issue 36): results that depend on the
equations are computed from the extended system's own derivation, every method moves it, and
the book's system and its checks stay the book's."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.system import Parameter, System

C_DRAG, WIND = 0.3, 0.8


def knife_edge_with_drag_and_wind() -> System:
    """Example 4.4 with a drag −c v on particle 1 (in the u's, ``Q``) and a uniform wind W
    along y on both particles (per coordinate, ``Q_q``): the wind pushes across the blade."""
    book = examples.get("knife_edge")
    d = book.definition
    _, _, phi = d.q
    u1, _, _ = d.u
    _, l = d.parameter_symbols
    c, W = sp.symbols("c W", positive=True)
    return book.variant(  # its parts kept: series, observables, Kane's bodies
        name="knife_edge_drag_wind", Q=[-c * u1, 0], Q_q=[0, 2 * W, W * l * sp.cos(phi)],
        parameters=[*d.parameters,
                    Parameter(c, C_DRAG, 0.0, 2.0, "N s/m", "drag on particle 1"),
                    Parameter(W, WIND, -2.0, 2.0, "N", "wind on each particle, along y")])


def independent_blade_force(m, l, c, W, phi, u1, u2):
    """λ by Lagrange's multipliers in x, y, φ written here with plain sympy (not the
    package): M q̈ = Q + aᵀ λ − (velocity terms), a q̈ + ȧ q̇ = 0, with a = (−sin φ, cos φ, 0)
    the knife edge's row, so that λ is the blade's force on particle 1 across the rod."""
    t = sp.Symbol("t")
    ms, ls, cs, Ws = sp.symbols("m l c W")
    x, y, p = (sp.Function(n)(t) for n in "xyp")
    q = [x, y, p]
    qd = [e.diff(t) for e in q]
    x2, y2 = x + ls * sp.cos(p), y + ls * sp.sin(p)
    T = ms / 2 * (qd[0] ** 2 + qd[1] ** 2) + ms / 2 * (x2.diff(t) ** 2 + y2.diff(t) ** 2)
    Q = [-cs * qd[0], 2 * Ws - cs * qd[1], Ws * ls * sp.cos(p)]  # drag on 1, wind on both
    a = sp.Matrix([[-sp.sin(p), sp.cos(p), 0]])
    lam = sp.Symbol("lam")
    eqs = [sp.diff(T.diff(qd[i]), t) - T.diff(q[i]) - Q[i] - a[0, i] * lam for i in range(3)]
    eqs.append(sp.diff((a * sp.Matrix(qd))[0], t))
    qdd = [e.diff(t) for e in qd]
    solution = sp.solve(eqs, [*qdd, lam], dict=True)[0][lam]
    plain = sp.symbols("P V1 V2 V3")
    solution = solution.subs({qd[0]: plain[1], qd[1]: plain[2], qd[2]: plain[3]}).subs(
        p, plain[0])
    f = sp.lambdify([ms, ls, cs, Ws, *plain], solution, "numpy")
    return f(m, l, c, W, phi, u1 * np.cos(phi), u1 * np.sin(phi), u2)


def test_blade_force_with_drag_and_wind_is_the_independent_multiplier():
    system = knife_edge_with_drag_and_wind()
    traj = system.simulate(t_final=3.0, n_points=61)
    pv = traj.params
    expected = independent_blade_force(pv["m"], pv["l"], pv["c"], pv["W"], traj["phi"],
                                       traj["u_1"], traj["u_2"])
    np.testing.assert_allclose(traj["lambda"], expected, atol=1e-9)
    # the book's λ = m u₁u₂ written into the definition would be off by W cos φ here
    stale = pv["m"] * traj["u_1"] * traj["u_2"]
    assert np.max(np.abs(stale - expected)) > 0.5 * WIND
    # forces act, so the kinetic energy is a series, not an invariant whose drift is watched
    assert "energy" in traj.series and "energy" not in traj.invariants


def test_book_knife_edge_keeps_its_blade_force_and_energy():
    book = examples.get("knife_edge")
    traj = book.simulate(t_final=2.0, n_points=41)
    np.testing.assert_allclose(traj["lambda"], traj.params["m"] * traj["u_1"] * traj["u_2"],
                               atol=1e-12)
    assert traj.drift("energy") < 1e-8
    assert "lambda" not in book.series  # derived, never stored


@pytest.mark.slow
def test_extending_the_book_touches_nothing_else():
    """Knife edge + drag + wind simulated by every method, then the book's own checks (the
    knife edge's, §4.4's, the nonholonomic slice's) in the same process: all still hold."""
    from companion.verify import all_checks, run_checks

    book = examples.get("knife_edge")
    before = book.definition
    system = knife_edge_with_drag_and_wind()
    methods = system.applicable_methods()
    assert {"boltzmann_hamel", "lagrange_multipliers", "maggi", "kane"} <= set(methods)
    ends = {m: system.simulate(method=m, t_final=2.0, n_points=21).states[:, -1]
            for m in methods}
    for end in ends.values():
        np.testing.assert_allclose(end, ends["boltzmann_hamel"], atol=1e-7)
    # the wind turns the motion away from the book's
    book_end = book.simulate(t_final=2.0, n_points=21).states[:, -1]
    assert np.max(np.abs(book_end - ends["boltzmann_hamel"])) > 0.1
    assert examples.get("knife_edge") is book and book.definition is before
    outcomes = run_checks(all_checks(["knife_edge", "knife_edge_kane", "nonholonomic"]))
    assert len(outcomes) > 20
    failed = [o for o in outcomes if not o.matched]
    assert not failed, failed
