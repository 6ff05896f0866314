"""Loparo & Vakalis Example 2 (reconstructed): the double pendulum and n-link chains."""

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.book import loparo_examples
from companion.checks import RECONSTRUCTION
from companion.examples.double_pendulum import checks as pendulum_checks
from companion.examples.double_pendulum.chain import chain, kane_chain
from companion.mechanics.small_oscillations import normal_modes
from companion.verify import run_checks


@pytest.fixture(scope="module")
def system():
    return examples.get("double_pendulum")


def _accelerations_agree(d_a, d_b, q, u, params, trials=5, seed=3):
    """Both derivations give the same q̈ at random states and random parameters."""
    rng = np.random.default_rng(seed)
    args = [*q, *u, *params]
    fa = sp.lambdify(args, [d_a[0], d_a[1]], modules="numpy")
    fb = sp.lambdify(args, [d_b[0], d_b[1]], modules="numpy")
    worst = 0.0
    for _ in range(trials):
        x = [*rng.uniform(-3, 3, 2 * len(q)), *rng.uniform(0.3, 2.0, len(params))]
        (Ma, fa_), (Mb, fb_) = fa(*x), fb(*x)
        qa = np.linalg.solve(np.array(Ma, float), np.array(fa_, float).ravel())
        qb = np.linalg.solve(np.array(Mb, float), np.array(fb_, float).ravel())
        worst = max(worst, np.max(np.abs(qa - qb)) / max(1.0, np.max(np.abs(qb))))
    return worst


def test_registered_and_marked_reconstruction(system):
    assert "double_pendulum" in examples.names()
    record = examples.worked("double_pendulum")
    assert record.reconstruction and "reconstructed" in record.notebook.source


@pytest.mark.parametrize("method", ["pull_back", "boltzmann_hamel"])
def test_agrees_with_kane_at_random_states(system, method):
    d = system.derive(method)
    M, F, th, om = kane_chain(2, torques=True)
    params = system.parameter_symbols
    worst = _accelerations_agree((d.mass_matrix, d.forcing), (M, F), d.q, d.u, params)
    assert worst < 1e-12


def test_the_generated_right_hand_side_equals_the_derivation_and_refuses_a_singular_mass(system):
    from companion.numerics import SingularConfigurationError
    from companion.system import OdeIntegrator

    d = system.derive(system.method)
    values = system.parameter_values()
    p = [values[s.name] for s in system.parameter_symbols]
    x = np.array([1.8, 2.4, 0.3, -0.2])
    at = dict(zip([*d.q, *d.u], x.tolist(), strict=True))
    at.update(zip(system.parameter_symbols, p, strict=True))
    expected = [float(e.xreplace(at)) for e in [*d.kinematics, *d.accelerations()]]
    python = OdeIntegrator()  # the compiled M u̇ = f in Python
    assert np.allclose(python.rhs(system, p)(0.0, x), expected, rtol=1e-13, atol=0)
    massless = [0.0 if s.name in ("m_2", "J_2") else v
                for s, v in zip(system.parameter_symbols, p, strict=True)]
    with pytest.raises(ValueError, match="m_2 .* must be > 0"):  # refused before the code
        python.rhs(system, massless)
    compiled = system.compiled().rhs(massless)  # the generated code itself, unguarded
    with pytest.raises(SingularConfigurationError, match="singular"):
        compiled(0.0, x)


def test_point_mass_case(system):
    d = system.derive("pull_back")
    point = {pv_s: 0 for pv_s in system.parameter_symbols if pv_s.name.startswith("J_")}
    point.update({s: sp.Symbol("l_" + s.name[2:], positive=True)
                  for s in system.parameter_symbols if s.name.startswith("a_")})
    M = d.mass_matrix.xreplace(point)
    m1, m2, l1, l2 = (next(s for s in M.free_symbols if s.name == n)
                      for n in ("m_1", "m_2", "l_1", "l_2"))
    th1, th2 = d.q
    expected = sp.Matrix([[(m1 + m2) * l1**2, m2 * l1 * l2 * sp.cos(th1 - th2)],
                          [m2 * l1 * l2 * sp.cos(th1 - th2), m2 * l2**2]])
    assert (M - expected).applyfunc(sp.simplify) == sp.zeros(2, 2)


def test_normal_modes_of_equal_point_masses(system):
    pv = system.parameter_values({"g": 9.81})
    assert pv["J_1"] == pv["J_2"] == 0 and pv["a_1"] == pv["l_1"] == 1.0
    w2, modes = normal_modes(system.derive("pull_back"),
                             {s: pv[s.name] for s in system.parameter_symbols})
    g, l = 9.81, 1.0
    assert np.allclose(w2, [g / l * (2 - np.sqrt(2)), g / l * (2 + np.sqrt(2))], rtol=1e-12)
    # slow mode in phase, fast mode in opposition, amplitude ratio √2
    assert np.isclose(modes[1, 0] / modes[0, 0], np.sqrt(2))
    assert np.isclose(modes[1, 1] / modes[0, 1], -np.sqrt(2))


def test_simulated_joint_forces_satisfy_each_body(system):
    traj = system.simulate(params={"J_1": 0.05, "a_1": 0.6, "tau_2": 0.3, "m_2": 0.7})
    for name in traj.residuals:
        assert traj.max_residual(name) < 1e-10, name
    assert traj["R O"].shape == (2, len(traj.t))


def test_default_run_conserves_energy(system):
    traj = system.simulate()
    assert traj.drift("energy") < 1e-9


def test_bad_parameters(system):
    with pytest.raises(ValueError, match="J_1 must be ≥ 0"):
        system.simulate(params={"J_1": -0.1})
    with pytest.raises(ValueError, match="m_2"):
        system.simulate(params={"m_2": 0})
    with pytest.raises(ValueError, match="unknown"):
        system.simulate(params={"mass": 1})


def test_chain3_agrees_with_kane():
    s = chain(3)
    d = s.derive("pull_back")
    M, F, th, om = kane_chain(3)
    worst = _accelerations_agree((d.mass_matrix, d.forcing), (M, F), d.q, d.u,
                                 s.parameter_symbols)
    assert worst < 1e-12
    traj = s.simulate(t_final=2.0, n_points=50)
    assert traj.drift("energy") < 1e-8
    assert max(traj.max_residual(k) for k in traj.residuals) < 1e-10


def test_book_checks_match_and_can_fail():
    table = loparo_examples.PRINTED["double_pendulum"]
    outcomes = run_checks(pendulum_checks.checks(table))
    assert outcomes and all(o.matched for o in outcomes), [o.detail for o in outcomes]
    assert all(o.check.kind == RECONSTRUCTION for o in outcomes)
    wrong = {**table, "EX2_M": {**table["EX2_M"], "M22": "J_2 + 2*m_2*a_2**2"}}
    bad = run_checks(pendulum_checks.checks(wrong))
    assert [o.matched for o in bad].count(False) >= 2  # M22 and the θ₂ equation


@pytest.fixture
def c_rhs_of(system, tmp_path, monkeypatch):
    """The double pendulum's C right-hand side for given parameters, compiled afresh."""
    from companion.numerics import c_rhs

    if c_rhs.compiler() is None:
        pytest.skip("no C compiler")
    monkeypatch.setattr(c_rhs, "CACHE", tmp_path)
    return lambda p: system.compiled(system.method).c_rhs(p)


def test_the_compiled_dop853_takes_scipys_steps(system, c_rhs_of):
    from scipy.integrate import solve_ivp

    values = system.parameter_values()
    f = c_rhs_of([values[s.name] for s in system.parameter_symbols])
    x0 = system.initial_state(system.initial_values(), values)
    t = np.linspace(0.0, 2.0, 201)
    states = f.solve_events(x0, t, 1e-12, 1e-13).y
    scipy = solve_ivp(f, (0.0, 2.0), x0, method="DOP853", t_eval=t, rtol=1e-12, atol=1e-13)
    assert f.nfev == scipy.nfev  # the same initial step, accepted and rejected steps
    assert np.abs(states - scipy.y).max() < 1e-12  # and the same dense output
    assert np.array_equal(states[:, 0], x0)


def test_our_dop853_table_is_scipys_to_the_last_bit():
    """Our literal copy of the published DOP853 table equals SciPy's private one, bit for bit
    (skipped when a SciPy release no longer has that module: ours stands alone then)."""
    from companion.numerics import dop853_coefficients as ours

    scipys = pytest.importorskip("scipy.integrate._ivp.dop853_coefficients")
    for name in ("N_STAGES", "N_STAGES_EXTENDED", "INTERPOLATOR_POWER"):
        assert getattr(ours, name) == getattr(scipys, name), name
    for name in ("A", "B", "C", "E3", "E5", "D"):
        theirs = np.asarray(getattr(scipys, name), dtype=float)
        assert getattr(ours, name).shape == theirs.shape, name
        assert np.array_equal(getattr(ours, name), theirs), name


def test_the_compiled_dop853_reports_failures(system, c_rhs_of):
    from companion.numerics import SingularConfigurationError
    from companion.numerics.errors import StepLimitError

    values = system.parameter_values()
    p = [values[s.name] for s in system.parameter_symbols]
    x0 = system.initial_state(system.initial_values(), values)
    t = np.linspace(0.0, 20.0, 11)
    with pytest.raises(StepLimitError, match="too many steps"):
        c_rhs_of(p).solve_events(x0, t, 1e-12, 1e-13, max_steps=10)
    massless = [0.0 if s.name in ("m_2", "J_2") else v
                for s, v in zip(system.parameter_symbols, p, strict=True)]
    with pytest.raises(SingularConfigurationError, match="mass matrix became singular"):
        c_rhs_of(massless).solve_events(x0, t, 1e-12, 1e-13)


def test_simulate_runs_the_compiled_dop853_and_lsoda_without_a_compiler(system, monkeypatch):
    from companion.numerics import c_rhs

    if c_rhs.compiler() is None:
        pytest.skip("no C compiler")
    compiled = system.simulate(t_final=2.0)
    monkeypatch.setattr(c_rhs, "compiler", lambda: None)
    fallback = system.simulate(t_final=2.0)  # the symbolic right-hand side, LSODA
    assert not np.array_equal(compiled.states, fallback.states)  # two integrators
    assert np.abs(compiled.states - fallback.states).max() < 1e-9
    assert compiled.drift("energy") < 1e-11 and fallback.drift("energy") < 1e-10
