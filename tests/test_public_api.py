"""The public API for a reader's own system (``from companion import System, ...``): define,
list the methods that apply, derive, check agreement, compare cost, simulate, explore — and
a clear error for every kind of bad input."""

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sympy as sp  # noqa: E402

import companion  # noqa: E402
from companion import (  # noqa: E402
    Evaluation,
    Parameter,
    System,
    compare_methods,
    explore,
    max_disagreement,
)

x, y, phi = sp.symbols("x y phi")
xd, yd, phid = sp.symbols("xdot ydot phidot")
u1, u2, u3 = sp.symbols("u_1 u_2 u_3")
m, I, k = sp.symbols("m I k", positive=True)
F = sp.Symbol("F")

SLEIGH_U = [xd * sp.cos(phi) + yd * sp.sin(phi), phid, -xd * sp.sin(phi) + yd * sp.cos(phi)]
MASS = [Parameter(m, 1.0, 0.1, 5.0, "kg", "mass", positive=True),
        Parameter(I, 0.2, 0.01, 1.0, "kg·m²", "moment of inertia", positive=True)]


def sleigh(**changes) -> System:
    """The knife edge as a reader types it: T in q̇, the constraint as the last u."""
    spec = dict(
        name="sleigh", q=[x, y, phi], qdot=[xd, yd, phid], u=[u1, u2, u3],
        definitions=SLEIGH_U, T_qdot=m * (xd**2 + yd**2) / 2 + I * phid**2 / 2,
        n_constraints=1, parameters=MASS,
        initial=[*(Parameter(s, 0.0, -1.0, 1.0) for s in (x, y, phi)),
                 Parameter(u1, 1.0, -2.0, 2.0), Parameter(u2, 0.5, -2.0, 2.0)],
        evaluation=Evaluation(invariants={"energy": m * u1**2 / 2 + I * u2**2 / 2},
                              t_final=5.0))
    spec.update(changes)
    return System(**spec)


def spring(**changes) -> System:
    spec = dict(name="spring", q=[x], qdot=[xd], T=m * xd**2 / 2, Q_q=[-k * x],
                parameters=[MASS[0], Parameter(k, 4.0, 0.1, 10.0, "N/m", positive=True)],
                initial=[Parameter(x, 0.5, -1.0, 1.0, "m"), Parameter(xd, 0.0, -1.0, 1.0)],
                evaluation=Evaluation(t_final=3.0))
    spec.update(changes)
    return System(**spec)


def test_importing_companion_stays_light():
    code = "import sys, companion; print('sympy' in sys.modules, 'companion.system' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]
    assert {"System", "Parameter", "compare_methods", "explore"} <= set(dir(companion))
    assert set(companion.__all__) == {"__version__", *companion._PUBLIC}
    for name in companion._PUBLIC:  # each the package's own object, under its own name
        obj = getattr(companion, name)
        if name == "METHODS":  # the registry, filled when the system layer is imported
            assert {"boltzmann_hamel", "lagrange_multipliers", "maggi"} <= set(obj)
        else:
            assert obj.__name__ == name and obj.__module__.startswith("companion."), name
    with pytest.raises(AttributeError, match="no attribute 'Sistem'"):
        companion.Sistem  # noqa: B018
    # the README's ``companion.examples.get("knife_edge")`` after a bare ``import companion``
    code = "import companion; print(companion.examples.get('knife_edge').name)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split() == ["knife_edge"]


def test_kinetic_energy_in_qdot_is_converted_to_the_quasi_velocities():
    s = sleigh()
    assert sp.expand(s.T - (m * (u1**2 + u3**2) / 2 + I * u2**2 / 2)) == 0


def test_forces_per_coordinate_are_converted_with_phi():
    s = sleigh(Q_q=[F, 0, 0], parameters=[*MASS, Parameter(F, 0.0, -1.0, 1.0, "N")])
    assert [sp.simplify(e) for e in s.Q] == [F * sp.cos(phi), 0]  # Q_u = Φᵀ Q_q, n − m rows


def test_a_readers_system_derives_agrees_compares_and_simulates():
    s = sleigh()
    assert s.applicable_methods() == ["boltzmann_hamel", "lagrange_multipliers", "maggi"]
    with pytest.raises(NotImplementedError, match="mechanics_model"):
        s.derive("kane")
    worst = max_disagreement(s, n_states=5)
    assert set(worst) == {"lagrange_multipliers", "maggi"}
    assert max(worst.values()) < 1e-10
    table = compare_methods([s])
    assert [r.method for r in table.rows] == ["boltzmann_hamel", "lagrange_multipliers", "maggi"]
    assert [why for _, method, why in table.skipped if method == "kane"]
    traj = s.simulate(n_points=50)
    assert traj.drift("energy") < 1e-9
    # The sleigh moves along its heading at constant speed and turns at a constant rate.
    np.testing.assert_allclose(traj["phi"], 0.5 * traj.t, atol=1e-9)
    np.testing.assert_allclose(traj["x"], 2 * np.sin(0.5 * traj.t), atol=1e-8)


def test_a_generic_explorer_opens_for_any_system():
    explorer = explore(sleigh(), n_points=40)
    assert set(explorer.controls) == {"m", "I", "x", "y", "phi", "u_1", "u_2"}
    assert explorer.update(u_2=1.0) is not None and explorer.error is None
    assert "x" in explorer.view.describe(explorer.trajectory)


def test_a_spring_moves_as_cos_omega_t():
    traj = spring().simulate(n_points=4)
    np.testing.assert_allclose(traj["x"], 0.5 * np.cos(2.0 * traj.t), atol=1e-9)


# ------------------------------------------------------------------ clear errors
def test_an_initial_value_left_out():
    with pytest.raises(ValueError, match=r"no initial value for y in sleigh"):
        sleigh(initial=[Parameter(x, 0.0, -1, 1), Parameter(phi, 0.0, -1, 1),
                        Parameter(u1, 1.0, -2, 2), Parameter(u2, 0.5, -2, 2)])


def test_a_symbol_both_parameter_and_coordinate():
    with pytest.raises(ValueError, match="x is both a parameter and a coordinate"):
        spring(parameters=[MASS[0], Parameter(k, 4.0, 0.1, 10.0), Parameter(x, 0.5, -1, 1)])


def test_a_parameter_differing_from_T_only_in_its_assumptions():
    plain_m = sp.Symbol("m")  # T uses m with positive=True
    with pytest.raises(ValueError, match=r"m .* differ only in their assumptions "
                                         r"\(no assumptions vs positive=True"):
        spring(parameters=[Parameter(plain_m, 1.0, 0.1, 5.0), Parameter(k, 4.0, 0.1, 10.0)])


def test_a_symbol_that_is_nothing():
    with pytest.raises(ValueError, match="uses c, which is neither a coordinate"):
        spring(T=sp.Symbol("c") * m * xd**2 / 2)


def test_params_not_a_mapping():
    with pytest.raises(TypeError, match=r"params must be a mapping of names to values, e\.g\. "
                                        r"\{'m': 1, 'k': 4\}; got list"):
        spring().simulate(params=[1.0, 4.0])
    with pytest.raises(TypeError, match="initial must be a mapping"):
        spring().simulate(initial=0.5)


def test_T_typed_in_qdot_where_the_quasi_velocities_were_expected():
    with pytest.raises(ValueError, match=r"T is written in q̇ \(phidot, xdot, ydot\)"
                                         r".*pass it as T_qdot"):
        sleigh(T_qdot=None, T=m * (xd**2 + yd**2) / 2 + I * phid**2 / 2)


@pytest.mark.parametrize("value", [-1e-9, 0, "tight", float("nan"), float("inf"), True])
def test_tolerances_that_are_not_positive_numbers(value):
    with pytest.raises(ValueError, match="rtol must be a positive number"):
        spring().simulate(rtol=value)
    with pytest.raises(ValueError, match="atol must be a positive number"):
        spring().simulate(atol=value)


@pytest.mark.parametrize("params", [{"k": 1e300}, {"m": 1e-300, "k": 1e300}])
def test_parameter_values_so_large_the_numbers_overflow(params):
    with pytest.raises(ValueError, match="leave the floating-point range.*k = 1e\\+300"):
        spring().simulate(params=params)


def test_a_t_final_so_small_the_run_would_be_nan():
    with pytest.raises(ValueError, match="t_final = 1e-300 s is too short"):
        spring().simulate(1e-300)
    traj = spring().simulate(1e-12, n_points=3)  # short but representable: a real motion
    assert np.all(np.isfinite(traj.states))


def test_unknown_simulate_options_and_methods():
    with pytest.raises(ValueError, match="unknown keyword.*link_held.*options: none"):
        spring().simulate(link_held=True)
    with pytest.raises(ValueError, match="unknown method 'newton'"):
        spring().derive("newton")


def test_the_mechanics_layer_comparison_takes_systems_not_names():
    from companion.mechanics.comparison import compare_methods as compare_systems

    with pytest.raises(TypeError, match="takes systems, got 'knife_edge'"):
        compare_systems(["knife_edge"])


# ------------------------------------------------------------------ the contract
def test_derivations_have_typed_fields_and_keyed_steps():
    s = sleigh()
    bh, lag = s.derive("boltzmann_hamel"), s.derive("lagrange_multipliers")
    assert (bh.speeds, bh.order, bh.n_dynamical, bh.n_first_order) == ("u", 1, 2, 5)
    assert (lag.speeds, lag.order, lag.n_dynamical, lag.n_first_order) == ("qdot", 2, 3, 6)
    assert lag.needs_multipliers and not bh.needs_multipliers and len(lag.multipliers) == 1
    assert len(bh.kinematical_equations) == 3
    assert lag.step("multipliers").eq is None and bh.step("phi").eq == "(4.81)"
    with pytest.raises(KeyError, match="no step with key 'lambda'.*keys: kinetic_energy"):
        lag.step("lambda")
    with pytest.raises(KeyError, match="has no result 'reaction'"):
        bh.result("reaction")


def test_the_default_method_and_integrator_are_fields():
    s = spring(method="maggi")
    assert s.derive().method == "maggi"
    np.testing.assert_allclose(s.simulate(n_points=4)["x"],
                               spring().simulate(n_points=4, integrator="dop853")["x"],
                               atol=1e-8)


def test_the_readme_example_runs():
    import pathlib
    import re

    readme = (pathlib.Path(__file__).parents[1] / "README.md").read_text()
    section = readme.split("## Your own system", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 12
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102 - the README's own example
    assert namespace["traj"].t[-1] == 5.0
    # the next block, on the same sleigh: linearize with cyclic= and the stability sweep
    stability = re.findall(r"```python\n(.*?)```", section, re.S)[1]
    assert "stability_sweep" in stability
    exec(stability, namespace)  # noqa: S102
    assert namespace["sweep"].stable.tolist() == [True] * 3 and namespace["sweep"].critical == []


def test_every_step_of_every_worked_derivation_has_a_unique_key():
    from collections import Counter

    from companion import examples

    for name in examples.names():
        system = examples.get(name)
        for method in system.applicable_methods():
            keys = [s.key for s in system.derive(method).steps]
            assert None not in keys, (name, method)
            assert not [k for k, c in Counter(keys).items() if c > 1], (name, method)


def test_no_system_subclass_overrides_the_contract():
    import inspect

    from companion import examples
    from companion.model import Model

    for name in examples.names():
        cls = type(examples.get(name))
        if not issubclass(cls, System):  # a model of its own (the disk–link), no System
            assert isinstance(examples.get(name), Model), name
            continue
        for base in inspect.getmro(cls)[: inspect.getmro(cls).index(System)]:
            overridden = {"simulate", "rhs", "evaluate", "derive", "initial_state"} & set(
                vars(base))
            assert not overridden, (name, base.__name__, overridden)
