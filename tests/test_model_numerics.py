"""The numeric model's plumbing (issue 36): one validation per simulation, one integrate(),
and bad numeric input blamed on its real cause."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.mechanics.definition import Parameter, ParameterTable
from companion.numerics.errors import SingularConfigurationError, StepLimitError
from companion.numerics.integrate import integrate
from companion.numerics.simulate import Guards
from companion.system import OdeIntegrator, System


@pytest.fixture(scope="module")
def knife():
    return examples.get("knife_edge")


def test_a_simulation_checks_each_parameter_once(knife, monkeypatch):
    knife.simulate(t_final=1.0)
    calls: list[str] = []
    check = Parameter.check

    def counted(self, value):
        calls.append(self.name)
        return check(self, value)

    monkeypatch.setattr(Parameter, "check", counted)
    knife.simulate(t_final=1.0, params={"m": 2.0})
    assert calls.count("m") == 1
    assert calls.count("u_1") == 1


def test_values_a_table_checked_are_not_checked_again(knife, monkeypatch):
    table = knife.parameter_table
    checked = table.values({"m": 2})
    calls: list[str] = []
    check = Parameter.check
    monkeypatch.setattr(Parameter, "check",
                        lambda self, v: calls.append(self.name) or check(self, v))
    assert table.values(checked) is checked and dict(checked) == {"m": 2.0, "l": 1.0}
    assert dict(table.values({"l": 3}, checked)) == {"m": 2.0, "l": 3.0} and calls == ["l"]
    other = ParameterTable((table.entries[0], Parameter(sp.Symbol("l"), 1.0, 0.1, 2.0)))
    assert dict(other.values(checked)) == dict(checked) and calls == ["l", "m", "l"]
    with pytest.raises(TypeError, match="not support item assignment"):
        checked["m"] = -1.0


def test_a_slider_move_checks_the_moved_value_once(monkeypatch):
    explorer = examples.explorer("knife_edge")
    try:
        calls: list[str] = []
        check = Parameter.check
        monkeypatch.setattr(Parameter, "check",
                            lambda self, v: calls.append(self.name) or check(self, v))
        assert explorer.update(m=2.0) is not None
        assert calls == ["m"]  # by the explorer: simulate takes its checked values
        assert explorer.update(m=-1.0) is None and explorer.values["m"] == 2.0
        assert explorer.error.startswith("m (") and "must be > 0, got -1.0" in explorer.error
    finally:
        explorer.close()


def test_guards_are_a_value_the_part_runs_without_the_model():
    t = np.linspace(0.0, 1.0, 3)
    states = np.array([[0.5, 0.0, -0.5], [1.0, np.inf, 1.0]])
    guards = Guards("toy", {"k": 1e200}, ("x",), conditioning=lambda t, q: np.abs(q[0]),
                    held=("u_2",), constrained=lambda t, q: [q[0], 1.0])
    with pytest.raises(ValueError, match=r"the motion of toy is not finite from t = 0.5 s on: "
                       r".*far from 1 meant \(k = 1e\+200\)"):
        guards.finite(t, states)
    with pytest.raises(SingularConfigurationError, match=r"singular along the motion "
                       r"\(t = 0.5: x = 0\)"):
        guards.regular(t, states, "along the motion")
    # u_2 = x ẋ + 1 with ẋ = u from the right-hand side
    residual = guards.residuals(lambda t, x: np.array([x[1], 0.0]), t[[0, 2]], states[:, [0, 2]])
    np.testing.assert_array_equal(residual["u_2 (nonholonomic)"], [1.5, 0.5])


@pytest.mark.parametrize("rtol, message", [
    (1e-20, r"rtol = 1e-20 asks for more digits than double precision holds: give rtol ≥ 2.2e-14"),
    (1.0, r"rtol = 1 lets each step's error be as large as the values themselves: give "
          r"rtol < 1"),
])
def test_a_tolerance_out_of_reach_is_named(knife, rtol, message):
    with pytest.raises(ValueError, match=message):
        knife.simulate(rtol=rtol)


def test_too_many_steps_blames_the_time_span():
    f = lambda t, x: np.array([x[1], -1e4 * x[0]])  # noqa: E731  a fast oscillator
    with pytest.raises(StepLimitError, match=r"would take too many steps \(about 1e\+12 "
                       r"between two samples, extrapolated from its first 500, which covered "
                       r"0.238 s; LSODA takes 100000\) before t_final = 1e\+09 s: the time "
                       "span is the cause"):  # refused by the probe, before integrating
        integrate(f, np.array([1.0, 0.0]), np.linspace(0.0, 1e9, 3))
    # about 3e5 steps between samples: within the probe's margin, refused by LSODA itself
    with pytest.raises(StepLimitError, match=r"took too many steps \(LSODA: 100000 between two "
                       r"samples\) before t_final = 286 s: the time span is the cause"):
        integrate(f, np.array([1.0, 0.0]), np.linspace(0.0, 286.0, 3))


def test_dop853_c_refuses_a_python_right_hand_side(knife):
    with pytest.raises(ValueError, match="compiled with a right-hand side compiled to C, and "
                       "this one is Python"):
        integrate(lambda t, x: -x, np.ones(1), np.linspace(0, 1, 3), solver="dop853-c")
    with pytest.raises(ValueError, match="give backend='c'"):
        OdeIntegrator(solver="dop853-c")


def test_a_parameter_that_makes_the_start_singular_is_blamed():
    """A wheel whose radius may be set to 0 inside its slider range: Ψ = [[0, r], [1, −r]]."""
    x, th = sp.symbols("x theta")
    xd, thd = sp.symbols(r"\dot{x} \dot{\theta}")
    u1, u2 = sp.symbols("u_1 u_2")
    m, r, J = sp.symbols("m r J")
    wheel = System(
        name="wheel", title="a wheel rolling on a line", q=[x, th], qdot=[xd, thd], u=[u1, u2],
        definitions=[r * thd, xd - r * thd], n_constraints=1,
        T=m / 2 * (u1 + u2) ** 2 + J / 2 * (u1 / r) ** 2,
        parameters=[Parameter(m, 1, 0.1, 2, "kg", "mass", positive=True),
                    Parameter(r, 0.5, 0, 1, "m", "wheel radius"),
                    Parameter(J, 0.1, 0.01, 1, "kg m²", "inertia", positive=True)],
        initial=[Parameter(x, 0, -1, 1, "m", "x"), Parameter(th, 0, -1, 1, "rad", "θ"),
                 Parameter(u1, 1, -2, 2, "m/s", "v")])
    assert abs(wheel.simulate(t_final=1.0)["x"][-1] - 1.0) < 1e-9
    with pytest.raises(ValueError, match=r"r = 0 \(wheel radius\) makes the equations of wheel "
                       r"singular from the start \(with r = 0.5 they are not\)") as caught:
        wheel.simulate(t_final=1.0, params={"r": 0.0})
    assert "gimbal lock" not in str(caught.value)  # the parameter is the cause (issue 36)
    assert "Start further away" not in str(caught.value)
    # The same radius as the default: the middle of its range shows the cause.
    at_zero = wheel.variant(parameters=[replace(p, default=0.0) if p.name == "r" else p
                                        for p in wheel.parameters])
    with pytest.raises(ValueError, match=r"^r = 0 \(wheel radius\) makes the equations of "
                       r"wheel singular from the start \(with r = 0.5 they are not\)"):
        at_zero.simulate(t_final=1.0)


def test_nonholonomic_constraints_have_residuals(knife):
    traj = knife.simulate(t_final=2.0, n_points=41)
    assert set(traj.residuals) == {"u_3 (nonholonomic)"}
    assert traj.max_residual("u_3 (nonholonomic)") < 1e-12


def test_the_comparison_counts_first_order_equations_as_the_derivation(knife):
    from companion.api import compare_methods

    table = compare_methods([knife])
    for row in table.rows:
        assert row.first_order_odes == knife.derive(row.method).n_first_order, row.method
