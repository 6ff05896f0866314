"""The disk–link's modes printed as C (companion.examples.disk_link.compiled) against their
Python evaluation: the same numbers at any state, the same guard values, and the same runs —
switch times, events, samples — through the compiled integrator with events; the Python path
without a C compiler; clear errors."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion import examples
from companion.examples.disk_link import newton_euler as ne
from companion.examples.disk_link.compiled import OUTPUTS, CompiledContact, library
from companion.examples.disk_link.controller import link_torque
from companion.examples.disk_link.modes import MODES
from companion.examples.disk_link.parameters import SYMBOLS
from companion.examples.disk_link.view import FRICTION_PRESETS, ROLLING_PRESETS
from companion.numerics import c_rhs

pytestmark = pytest.mark.skipif(c_rhs.compiler() is None, reason="no C compiler")

#: A controller that does something, so that its torque is compared too.
LOOP = {"K_theta": 3.0, "D_theta": 0.5, "k_p": 0.4, "k_d": 0.2, "c_g": 0.5, "tau_0": 0.3}
#: Every parameter given, no two values alike: an index of p swapped anywhere shows.
DISTINCT = {"g": 9.7, "m": 1.3, "r": 0.11, "kappa": 0.55, "M": 2.9, "L": 1.7, "mu_s": 0.61,
            "mu_k": 0.23, "tau_0": 0.37, "K_theta": 3.1, "D_theta": 0.47, "k_p": 0.41,
            "k_d": 0.19, "s_ref": 0.83, "c_g": 0.71}


@pytest.fixture(scope="module")
def friction():
    return examples.get("disk_link_friction")


def _states(rng, mode, held, n=15):
    for _ in range(n):
        x = rng.normal(size=10)
        x[1] = abs(x[1])
        x[2] = abs(x[2]) if mode == "separated" else 0.0
        if held:
            x[4] = 0.0
        yield x


@pytest.mark.parametrize("values", [LOOP, DISTINCT], ids=["loop", "distinct"])
@pytest.mark.parametrize("held", [False, True])
def test_compiled_numbers_equal_the_python_ones_at_any_state(friction, held, values):
    modes = friction.integrator
    pv, p = friction.parameter_values(values), friction.parameter_vector(values)
    compiled = CompiledContact(p, held)
    rng = np.random.default_rng(7)
    for k, mode in enumerate(MODES):
        for x in _states(rng, mode, held):
            acc, n, f, tau = modes._accelerations(mode, x, p, pv, held)
            rate = modes._rhs(mode, p, pv, held)(0.0, x)
            energy, slip, x_d, y_d = modes._extras(*x[:8], *p)[:4]
            expected = dict(zip(OUTPUTS, [*rate, n, f, tau, slip, energy, x_d, y_d],
                                strict=True))
            got = dict(zip(OUTPUTS, compiled.along(x[:, None], [k])[:, 0], strict=True))
            for name in OUTPUTS:
                assert got[name] == pytest.approx(expected[name], rel=1e-12, abs=1e-12), \
                    (mode, name)
            np.testing.assert_allclose(compiled.rhs(k)(0.0, x), rate, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(
                acc, [got[a] for a in ("theta_ddot", "s_ddot", "h_ddot", "psi_ddot")],
                rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("values", [LOOP, DISTINCT], ids=["loop", "distinct"])
def test_compiled_guards_are_the_modes_guards(friction, values):
    """The C guards give, in order, what each mode's Guard functions give (L and μ_s read
    by name in Python, from p in C)."""
    modes = friction.integrator
    pv, p = friction.parameter_values(values), friction.parameter_vector(values)
    compiled = CompiledContact(p, False)
    python = modes._modes(p, pv, False, None)
    guards = compiled._lib.guards
    rng = np.random.default_rng(3)
    for k, mode in enumerate(MODES):
        for x in _states(rng, mode, False):
            params = compiled._p.copy()
            params[-2] = k
            values = np.empty(len(python[mode].guards))
            assert guards(0.0, x.ctypes.data, params.ctypes.data, values.ctypes.data) == 0
            expected = [g.fn(0.0, x) for g in python[mode].guards]
            np.testing.assert_allclose(values, expected, rtol=1e-12, atol=1e-12,
                                       err_msg=mode)


def test_one_order_of_p_from_the_system_to_the_c_code(friction):
    """p in the System's order (``parameter_vector``) is what C and Python index, with every
    value different: C's numbers at a state are Newton–Euler's for the same values by name, the
    controller's torque by name and v_slip = ṡ − r θ̇ + r ψ̇; a short p is refused."""
    for name in ("disk_link_rolling", "disk_link_friction"):
        assert examples.get(name).parameter_symbols == SYMBOLS
    p = friction.parameter_vector(DISTINCT)
    assert len(set(p)) == len(p) == len(SYMBOLS) == len(DISTINCT)
    compiled = CompiledContact(p, held=False)
    th, s, thd, sd = 0.31, 0.67, -0.43, 0.29
    for mode, psid, sign in (("rolling", thd - sd / DISTINCT["r"], 0.0),
                             ("slipping forward", 9.0, 1.0), ("slipping backward", -9.0, -1.0)):
        x = np.array([th, s, 0.0, 0.0, thd, sd, 0.0, psid, 0.0, 0.0])
        got = dict(zip(OUTPUTS, compiled.along(x[:, None], [MODES.index(mode)])[:, 0],
                       strict=True))
        tau = link_torque(x.tolist(), DISTINCT)
        state = {"theta": th, "s": s, "theta_dot": thd, "s_dot": sd, "psi_dot": psid}
        ref = ne.solve(state, DISTINCT, tau, mode.split()[0], sign)
        assert got["tau"] == pytest.approx(tau, rel=1e-12)
        assert got["v_slip"] == pytest.approx(sd - DISTINCT["r"] * (thd - psid), abs=1e-12)
        for key in ("theta_ddot", "s_ddot", "psi_ddot", "N", "F"):
            assert got[key] == pytest.approx(ref[key], rel=1e-10, abs=1e-10), (mode, key)
    with pytest.raises(ValueError, match="take 15 parameter values in the order"):
        CompiledContact(p[:-2], held=False)


def _runs():
    for name, presets in (("disk_link_friction", FRICTION_PRESETS),
                          ("disk_link_rolling", ROLLING_PRESETS)):
        yield name, {}, {}
        for preset in presets.values():
            yield name, preset.values, {}
        yield name, {"theta": 0.3}, {"link_held": True}
        yield name, {"theta": -0.5, "tau_0": 2.0}, {}
        # starting on a guard's zero and leaving the link at once: the run stops at t = 0
        yield name, {"s": 0.0, "s_dot": -0.5}, {}
        yield name, {"s": 1.0, "s_dot": 0.5}, {}
    # a held link's nearly polynomial motion: steps of 0.7 s passed the pivot and came back
    for values in ({"mu_s": 0.5136, "tau_0": -0.6389, "K_theta": 3.7112, "theta": 0.2937,
                    "s": 0.9409, "s_dot": 0.5046},
                   {"mu_s": 0.8844, "tau_0": -0.5555, "K_theta": 3.4067, "theta": -0.2873,
                    "s": 0.1993, "s_dot": -0.878}):
        yield "disk_link_rolling", values, {"link_held": True}


@pytest.mark.parametrize("name, values, options", list(_runs()))
def test_compiled_runs_switch_where_the_python_runs_do(name, values, options):
    """Segments integrated in C with their guards located in C (SciPy's DOP853 and brentq
    transcribed) against ``solve_ivp`` with Python guards: the same switches, to rounding."""
    system = examples.get(name)
    params = {k: v for k, v in values.items() if k in system.parameter_values()}
    initial = {k: v for k, v in values.items() if k not in params}
    runs = {backend: system.simulate(
        params=params, initial=initial, **options,
        integrator=dataclasses.replace(system.integrator, backend=backend))
        for backend in ("python", "c")}
    a, b = runs["python"], runs["c"]
    assert [(s.source, s.target) for s in a.switches] == \
        [(s.source, s.target) for s in b.switches]
    np.testing.assert_allclose([s.t for s in a.switches], [s.t for s in b.switches],
                               rtol=0, atol=1e-12)
    assert a.events == b.events
    np.testing.assert_allclose(a.t, b.t, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.states, b.states, rtol=1e-9, atol=1e-9)
    for series in ("N", "F", "tau", "v_slip", "mode"):
        np.testing.assert_allclose(a[series], b[series], rtol=1e-8, atol=1e-8)
    for run in (a, b):  # the disk never passes the pivot or the tip: the run stops there
        assert np.all(np.diff(run.t) >= 0)
        assert -1e-9 <= run["s"].min() and run["s"].max() <= run.params["L"] + 1e-9


def test_without_a_compiler_the_modes_run_in_python(friction, monkeypatch, tmp_path):
    compiled = friction.simulate()
    monkeypatch.setattr(c_rhs, "compiler", lambda: None)
    monkeypatch.setattr(c_rhs, "CACHE", tmp_path)  # nothing built yet
    library.cache_clear()
    try:
        python = friction.simulate()
        assert [s.target for s in python.switches] == [s.target for s in compiled.switches]
        with pytest.raises(RuntimeError, match="no C compiler"):
            friction.simulate(integrator=dataclasses.replace(friction.integrator,
                                                             backend="c"))
    finally:
        library.cache_clear()


def test_a_bad_backend_is_refused(friction):
    with pytest.raises(ValueError, match="backend must be"):
        dataclasses.replace(friction.integrator, backend="fortran")
