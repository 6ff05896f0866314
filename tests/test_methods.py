"""Lagrange with multipliers, Maggi and the general dynamical equation (Greenwood §4.4):
agreement with Boltzmann–Hamel and with sympy's own KanesMethod, multipliers, errors."""

import dataclasses

import numpy as np
import pytest
import sympy as sp
import sympy.physics.mechanics as me

from companion import examples
from companion.mechanics.agreement import (
    independent_accelerations,
    max_disagreement,
    random_states,
)
from companion.mechanics.lagrange import kinematics_of
from companion.numerics import CompiledEOM
from companion.system import Parameter, System

EXAMPLES = ["knife_edge", "euler_body"]
METHODS = ["lagrange_multipliers", "maggi", "kane"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_method_applies_to_the_book_examples(name):
    # Loparo's Arnold form (Euler's equations from B) applies to the rigid body as well.
    also = {"arnold"} if name == "euler_body" else set()
    assert set(examples.get(name).applicable_methods()) == {"boltzmann_hamel", *METHODS, *also}


@pytest.mark.parametrize("name", EXAMPLES)
def test_accelerations_agree_at_random_states(name):
    worst = max_disagreement(examples.get(name), n_states=25, seed=1)
    assert set(worst) >= set(METHODS)
    for method, diff in worst.items():
        assert diff < 1e-12, (method, diff)


def test_a_wrong_equation_would_be_caught():
    """The comparison is sensitive: a forcing term off by 0.1 % shows up far above 1e-12."""
    system = examples.get("knife_edge")
    d = system.derive("maggi")
    wrong = dataclasses.replace(d, forcing=d.forcing.applyfunc(lambda e: e * 1.001))
    t, q, u, p = next(random_states(system, 1, seed=3))
    pv = [p[s.name] for s in system.parameter_symbols]
    ref = independent_accelerations(system, "boltzmann_hamel", t, q, u, p)
    bad = CompiledEOM(wrong, system.parameter_symbols).udot(t, q, u, pv)
    assert np.max(np.abs(bad - ref)) > 1e-6


def test_the_c_library_fingerprint_tells_equations_apart_and_hashes_shared_subtrees_once(
        monkeypatch):
    from companion.numerics import c_rhs

    x, y = sp.symbols("x y")
    x_real = sp.Symbol("x", real=True)
    same = c_rhs.fingerprint([[x + y], sp.Matrix([[x, y]])])
    assert same == c_rhs.fingerprint([[x + y], sp.Matrix([[x, y]])])
    assert len({same, c_rhs.fingerprint([[x * y], sp.Matrix([[x, y]])]),
                c_rhs.fingerprint([[x_real + y], sp.Matrix([[x, y]])]),
                c_rhs.fingerprint([[x + y], sp.Matrix([[x], [y]])]),
                c_rhs.fingerprint([[x + y], [sp.Matrix([[x, y]])]])}) == 5
    # 30 nested levels, each using the level below twice: printed whole, 2**30 subtrees
    e = x
    for k in range(30):
        e = sp.sin(e + k) * sp.cos(e + k)
    printed = []
    srepr = sp.srepr
    monkeypatch.setattr(c_rhs.sp, "srepr", lambda a: printed.append(a) or srepr(a))
    c_rhs.fingerprint([[e]])
    assert len(printed) == len(set(printed)) <= 31  # each atom printed once: x and 0..29


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_c_right_hand_side_equals_the_python_one(name, tmp_path, monkeypatch):
    from companion.numerics import c_rhs

    if c_rhs.compiler() is None:
        pytest.skip("no C compiler")
    monkeypatch.setattr(c_rhs, "CACHE", tmp_path)  # compiled here, not loaded from a cache
    system = examples.get(name)
    eom = CompiledEOM(system.derive("boltzmann_hamel"), system.parameter_symbols)
    for t, q, u, p in random_states(system, 5, seed=2):
        pv = [p[s.name] for s in system.parameter_symbols]
        x = np.array([*q, *u], float)
        expected = eom.rhs(pv)(t, x)
        scale = 1 + np.abs(expected).max()
        assert np.max(np.abs(eom.c_rhs(pv)(t, x) - expected)) < 1e-12 * scale
        for method in system.applicable_methods():  # every method's program, Lagrange's too
            compiled = system.compiled(method)
            n = len(q) - compiled.n  # Arnold's form on SO(3): ω alone, no angles
            c, python = compiled.c_rhs(pv)(t, x[n:]), compiled.rhs(pv)(t, x[n:])
            assert np.max(np.abs(c - python)) < 1e-12 * scale
            assert np.max(np.abs(python - expected[n:])) < 1e-10 * scale
    assert list(tmp_path.glob("rhs_*.so"))
    # A singular mass matrix is refused clearly, not returned as inf or NaN.
    k = len(eom.derivation.u)
    singular = dataclasses.replace(eom.derivation, mass_matrix=sp.zeros(k, k))
    with pytest.raises(ValueError, match="mass matrix is singular"):
        CompiledEOM(singular, system.parameter_symbols).c_rhs(pv)(t, x)


@pytest.mark.parametrize("name", EXAMPLES)
def test_kane_equals_boltzmann_hamel_symbolically(name):
    system = examples.get(name)
    kane, bh = system.derive("kane"), system.derive("boltzmann_hamel")
    assert kane.u == bh.u
    diff = (kane.accelerations() - bh.accelerations()).applyfunc(sp.simplify)
    assert diff == sp.zeros(*diff.shape)


def test_maggi_equals_boltzmann_hamel_symbolically_for_the_knife_edge():
    system = examples.get("knife_edge")
    diff = system.derive("maggi").accelerations() - system.derive("boltzmann_hamel").accelerations()
    assert diff.applyfunc(sp.simplify) == sp.zeros(2, 1)


def test_knife_edge_multiplier_is_the_third_boltzmann_hamel_row():
    """λ (force per unit of the constraint row −ẋ sinφ + ẏ cosφ, positive towards the rod's
    left normal (−sinφ, cosφ)) equals the generalized force of the suppressed u_3."""
    system = examples.get("knife_edge")
    lam = system.derive("lagrange_multipliers").step("multipliers").expr
    bh = system.derive("boltzmann_hamel").constraint_forces()
    assert sp.simplify(lam[0] - bh[0]) == 0
    m, u1, u2 = (next(s for s in lam.free_symbols if s.name == n) for n in ("m", "u_1", "u_2"))
    assert sp.simplify(lam[0] - m * u1 * u2) == 0


def test_knife_edge_multiplier_numerically_at_random_states():
    system = examples.get("knife_edge")
    # in its own speeds (q̇, μ), which give λ (System.compiled maps it to (q, u))
    lagrange = CompiledEOM(system.derive("lagrange_multipliers"), system.parameter_symbols)
    lam_bh = sp.lambdify([*system.q, *system.u_independent, *system.parameter_symbols],
                         system.derive("boltzmann_hamel").constraint_forces()[0])
    for t, q, u, p in random_states(system, 10, seed=2):
        pv = [p[s.name] for s in system.parameter_symbols]
        qdot = system.compiled().parts(t, q, u, pv)[0]
        lam = lagrange.udot(t, q, [*qdot, 0.0], pv)[3]
        assert lam == pytest.approx(lam_bh(*q, *u, *pv), rel=1e-12, abs=1e-12)


def test_lagrange_form_sizes():
    d = examples.get("knife_edge").derive("lagrange_multipliers")
    assert d.mass_matrix.shape == (4, 4)  # 3 second-order equations + 1 constraint
    assert len(d.equations) == 4
    assert d.needs_multipliers and d.order == 2
    assert d.n_dynamical == 3 and d.n_first_order == 6 and d.n_constraint_equations == 1


@pytest.mark.parametrize("name", EXAMPLES)
def test_kane_agrees_with_sympy_kanesmethod(name):
    """Independent check: sympy's KanesMethod on the same model and kinematical equations."""
    system = examples.get(name)
    model = system.mechanics_model()
    k = len(system.u_independent)
    u = [me.dynamicsymbols(s.name) for s in system.u_independent]
    t = me.dynamicsymbols._t
    phi, phi_t = kinematics_of(system)
    to_dyn = {**dict(zip(system.q, model.q, strict=True)),
              **dict(zip(system.u_independent, u, strict=True))}
    qdot = (phi[:, :k] * sp.Matrix(system.u_independent) + phi_t).xreplace(to_dyn)
    kd = [qi.diff(t) - e for qi, e in zip(model.q, qdot, strict=True)]
    km = me.KanesMethod(model.frame, q_ind=list(model.q), u_ind=u, kd_eqs=kd)
    km.kanes_equations(list(model.bodies), list(model.loads))
    back = {v: k_ for k_, v in to_dyn.items()}
    args = [*system.q, *system.u_independent, *system.parameter_symbols]
    mm = sp.lambdify(args, km.mass_matrix.xreplace(back))
    ff = sp.lambdify(args, km.forcing.xreplace(back))
    for tt, q, uu, p in random_states(system, 10, seed=4):
        pv = [p[s.name] for s in system.parameter_symbols]
        expected = np.linalg.solve(np.array(mm(*q, *uu, *pv), float),
                                   np.array(ff(*q, *uu, *pv), float).ravel())
        got = independent_accelerations(system, "kane", tt, q, uu, p)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def _pendulum() -> System:
    th, thd, w = sp.symbols(r"theta \dot{\theta} omega")
    m, g, L = sp.symbols("m g L", positive=True)
    return System(
        name="pendulum", title="pendulum", q=[th], qdot=[thd], u=[w],
        definitions=[thd], T=m * L**2 * w**2 / 2, Q=[-m * g * L * sp.sin(th)],
        parameters=[Parameter(m, 1.0, 0.5, 2.0, positive=True),
                    Parameter(g, 9.81, 1.0, 10.0, positive=True),
                    Parameter(L, 1.0, 0.5, 2.0, positive=True)],
        initial=[Parameter(th, 0.3, -3.0, 3.0), Parameter(w, 0.0, -2.0, 2.0)],
    )


def test_kane_refuses_a_system_without_a_mechanics_model():
    system = _pendulum()
    with pytest.raises(NotImplementedError, match="mechanics_model"):
        system.derive("kane")
    assert system.applicable_methods() == ["boltzmann_hamel", "lagrange_multipliers", "maggi"]


def test_lagrange_and_maggi_apply_to_any_system_with_forces():
    worst = max_disagreement(_pendulum(), n_states=10)
    assert set(worst) == {"lagrange_multipliers", "maggi"}
    assert max(worst.values()) < 1e-12


def test_book_checks_of_section_4_4_match():
    from companion.book import greenwood_44
    from companion.examples.knife_edge.checks import methods_checks
    from companion.verify import run_checks

    outcomes = run_checks(methods_checks(greenwood_44.PRINTED["knife_edge_kane"]))
    assert len(outcomes) == 7
    assert all(o.matched for o in outcomes), [o.detail for o in outcomes if not o.matched]


def test_simulating_with_any_method_gives_the_same_motion():
    """System.simulate(method=...) works for every method, Lagrange's included (its q̈ is
    mapped to u̇), and the trajectories coincide."""
    system = examples.get("knife_edge")
    ref = system.simulate(3.0, n_points=50, method="boltzmann_hamel")
    for method in METHODS:
        traj = system.simulate(3.0, n_points=50, method=method)
        np.testing.assert_allclose(traj.states, ref.states, rtol=0, atol=1e-7)


def test_rigid_body_simulates_with_every_method():
    system = examples.get("euler_body")
    ref = system.simulate(2.0, n_points=20, method="boltzmann_hamel")
    for method in METHODS:
        traj = system.simulate(2.0, n_points=20, method=method)
        np.testing.assert_allclose(traj.states, ref.states, rtol=0, atol=1e-7)


def test_the_compiled_attitude_is_the_python_one(tmp_path, monkeypatch):
    """Euler's rigid body (ω, quaternion): the C right-hand side against the Python one, and
    the compiled DOP853 run against LSODA's."""
    from companion.geometry import attitude
    from companion.numerics import c_rhs

    if c_rhs.compiler() is None:
        pytest.skip("no C compiler")
    monkeypatch.setattr(c_rhs, "CACHE", tmp_path)
    system = examples.get("euler_body")
    attitude._compiled_attitude.cache_clear()  # compiled here, afresh
    values = system.parameter_values({"M_x": 0.3, "M_z": -0.2})  # the moments too
    p = [values[s.name] for s in system.parameter_symbols]
    compiled = attitude.attitude_rhs(system, system.method, p)
    monkeypatch.setattr(c_rhs, "compiler", lambda: None)
    python = attitude.attitude_rhs(system, system.method, p)
    assert isinstance(compiled, c_rhs.CRightHandSide) and not isinstance(
        python, c_rhs.CRightHandSide)
    rng = np.random.default_rng(5)
    for x in rng.normal(size=(10, 7)):
        np.testing.assert_allclose(compiled(0.0, x), python(0.0, x), rtol=1e-13, atol=1e-14)
    lsoda = system.simulate(params={"M_x": 0.3, "M_z": -0.2})
    monkeypatch.undo()
    fast = system.simulate(params={"M_x": 0.3, "M_z": -0.2})
    assert not np.array_equal(fast.states, lsoda.states)  # two integrators
    np.testing.assert_allclose(fast.states, lsoda.states, atol=1e-8)
    assert fast.max_residual("quaternion norm − 1") < 1e-10
