"""Configuration constraints f(q, t) = 0 in the System definition, and linearization about a
steady motion, on a pendulum written in Cartesian coordinates (closed forms known)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from companion.system import Evaluation, Parameter, System


def cartesian_pendulum(**changes) -> System:
    """A particle on a rod of length l: q = (x, y), y dependent through x² + y² = l²."""
    x, y = sp.symbols("x y")
    xd, yd = sp.symbols(r"\dot{x} \dot{y}")
    m, g, l = sp.symbols("m g l", positive=True)
    u = sp.Symbol("u")
    spec = dict(
        name="cartesian_pendulum", q=[x, y], qdot=[xd, yd], u=[u], definitions=[xd],
        T_qdot=m * (xd**2 + yd**2) / 2, Q_q=[0, -m * g],
        holonomic=[x**2 + y**2 - l**2], dependent=[y],
        parameters=[Parameter(m, 1.0, 0.1, 2.0, "kg", positive=True),
                    Parameter(g, 9.81, 1.0, 20.0, "m/s²", positive=True),
                    Parameter(l, 0.5, 0.1, 2.0, "m", positive=True)],
        initial=[Parameter(x, 0.1, -0.4, 0.4, "m"), Parameter(y, -0.5, -1.0, 0.0, "m"),
                 Parameter(u, 0.0, -1.0, 1.0, "m/s")],
        evaluation=Evaluation(t_final=2.0, n_points=50))
    spec.update(changes)
    return System(**spec)


def test_the_constraint_rate_is_a_constrained_quasi_velocity():
    system = cartesian_pendulum()
    assert system.n_constraints == 1 and len(system.u) == 2
    x, y = system.q
    assert sp.expand(system.definitions[1] - (2 * x * system.qdot[0]
                                              + 2 * y * system.qdot[1])) == 0


def test_dependent_coordinate_is_solved_at_the_start():
    system = cartesian_pendulum()
    values = system.complete_configuration({"x": 0.3, "y": -0.1, "u": 0.0})
    assert values["y"] == pytest.approx(-0.4, abs=1e-13)  # Newton from below: y = −√(l² − x²)


def test_motion_keeps_the_constraint_and_the_energy():
    system = cartesian_pendulum()
    traj = system.simulate()
    x, y = traj["x"], traj["y"]
    assert np.max(np.abs(x**2 + y**2 - 0.25)) < 1e-8
    # every motion carries the constraint's residual, the same numbers
    assert np.allclose(traj.residuals["configuration constraint"], x**2 + y**2 - 0.25,
                       rtol=0, atol=1e-15)
    # Small swing: the period is close to 2π √(l/g), seen in x crossing zero.
    crossings = traj.t[1:][np.diff(np.sign(x)) != 0]
    assert len(crossings) >= 2


@pytest.mark.parametrize("method", ["boltzmann_hamel", "maggi"])
def test_linearization_about_the_bottom_gives_the_pendulum_frequency(method):
    system = cartesian_pendulum()
    if method not in system.applicable_methods():
        pytest.skip(f"{method} does not apply")
    lin = system.linearize({"x": 0.0, "u": 0.0}, method=method)
    assert lin.states == ["x", "u"]
    omega = np.sqrt(9.81 / 0.5)
    np.testing.assert_allclose(np.sort(lin.eigenvalues().imag), [-omega, omega], rtol=1e-9)
    np.testing.assert_allclose(lin.eigenvalues().real, 0.0, atol=1e-9)
    if lin.B is not None:  # a force τ along u = ẋ at the bottom accelerates the mass: 1/m
        np.testing.assert_allclose(lin.B, [[0.0], [1.0]], atol=1e-12)


def test_linearization_refuses_a_motion_that_is_not_steady():
    system = cartesian_pendulum()
    with pytest.raises(ValueError, match="not steady"):
        system.linearize({"x": 0.2, "u": 0.0})


def test_linearization_refuses_a_coordinate_that_is_not_cyclic():
    system = cartesian_pendulum()
    with pytest.raises(ValueError, match="dependent coordinate cannot be cyclic"):
        system.linearize({"x": 0.0, "u": 0.0}, cyclic=["y"])
    with pytest.raises(ValueError, match="unknown coordinates"):
        system.linearize({"x": 0.0, "u": 0.0}, cyclic=["z"])


def test_bad_constraints_are_refused_clearly():
    x, y = sp.symbols("x y")
    xd = sp.Symbol(r"\dot{x}")
    with pytest.raises(ValueError, match="as many"):
        cartesian_pendulum(dependent=[])
    with pytest.raises(ValueError, match="not among q"):
        cartesian_pendulum(dependent=[sp.Symbol("z")])
    with pytest.raises(ValueError, match="uses the rates"):
        cartesian_pendulum(holonomic=[x * xd])
    with pytest.raises(ValueError, match="does not depend on any coordinate"):
        cartesian_pendulum(holonomic=[sp.Integer(1)])
    with pytest.raises(ValueError, match="do not determine the dependent"):
        cartesian_pendulum(holonomic=[x - 0.1])
    with pytest.raises(ValueError, match="neither a coordinate"):
        cartesian_pendulum(holonomic=[x**2 + y**2 - sp.Symbol("L") ** 2])


def test_an_impossible_start_is_refused():
    system = cartesian_pendulum()
    with pytest.raises(ValueError, match="no configuration"):
        system.simulate(initial={"x": 0.9})


def test_time_is_never_taken_for_a_parameter():
    system = cartesian_pendulum()
    d = system.derive()
    assert sp.Symbol("t") not in set(d.parameters())


def test_every_applicable_method_takes_the_constraint_and_they_agree():
    from companion.mechanics.agreement import max_disagreement

    system = cartesian_pendulum()
    assert {"boltzmann_hamel", "lagrange_multipliers", "maggi"} <= set(
        system.applicable_methods())
    worst = max_disagreement(system, n_states=5)
    assert max(worst.values()) < 1e-12, worst
