"""The widgets depend on the small :class:`~companion.model.Model` protocol, not on System:
every worked example satisfies it, and a closed-form model that is not a System drives an
explorer, its view and :func:`companion.explore`, its values validated by their own
:class:`~companion.system.Parameter` and ranged by the explorer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sympy as sp  # noqa: E402

from companion import Model, Parameter, Trajectory, examples, explore  # noqa: E402
from companion.system import ParameterTable, sample_times  # noqa: E402
from companion.widgets.explorer import Explorer  # noqa: E402
from companion.widgets.timeseries import TimeSeriesView  # noqa: E402

omega, x = sp.symbols("omega x")


class ClosedFormOscillator:
    """x(t) = x₀ cos(ωt), ẋ(t) = −x₀ ω sin(ωt): a model with no equations to integrate."""

    name = "closed_form_oscillator"
    title = "Harmonic oscillator, closed form"
    parameters = [Parameter(omega, 1.0, 0.1, 5.0, "rad/s", "angular frequency",
                            positive=True)]
    initial = [Parameter(x, 1.0, -2.0, 2.0, "m", "initial displacement")]

    def __init__(self) -> None:
        self.runs = 0  # how many motions were computed (a refused value computes none)

    def simulate(self, t_final: float | None = None, params: Mapping[Any, Any] | None = None,
                 initial: Mapping[Any, Any] | None = None, *, n_points: int | None = None,
                 **options: Any) -> Trajectory:
        if options:
            raise ValueError(f"unknown option(s) {', '.join(options)}; this model has none")
        t = sample_times(4.0 if t_final is None else t_final,
                         200 if n_points is None else n_points)
        pv = ParameterTable(tuple(self.parameters)).values(params)
        x0 = ParameterTable(tuple(self.initial), "initial condition(s)",
                            "initial").values(initial)["x"]
        w = pv["omega"]
        self.runs += 1
        x_t, v_t = x0 * np.cos(w * t), -x0 * w * np.sin(w * t)
        return Trajectory(t, np.array([x_t, v_t]), ["x", "x_dot"], pv,
                          invariants={"energy": (v_t**2 + w**2 * x_t**2) / 2})


def closed_form(w: float, x0: float = 1.0) -> np.ndarray:
    """The displacement the model must return at its default 200 samples over 4 s."""
    return x0 * np.cos(w * np.linspace(0.0, 4.0, 200))


@pytest.mark.parametrize("name", examples.names())
def test_every_worked_example_is_a_model(name):
    assert isinstance(examples.get(name), Model)


def test_the_protocol_check_can_fail():
    assert isinstance(ClosedFormOscillator(), Model)
    assert not isinstance(object(), Model)
    assert not isinstance(ClosedFormOscillator.parameters[0], Model)


def test_an_explorer_refuses_what_is_not_a_model():
    with pytest.raises(TypeError, match="an Explorer needs a Model: .* got str 'knife_edge'"):
        Explorer("knife_edge", TimeSeriesView())
    with pytest.raises(TypeError, match="explore needs a Model: .* got str 'knife_edge'"):
        explore("knife_edge")


def test_a_closed_form_model_drives_an_explorer():
    model = ClosedFormOscillator()
    explorer = Explorer(model, TimeSeriesView())
    assert set(explorer.controls) == {"omega", "x"}
    assert explorer.view.series == ["x", "x_dot"] and explorer.view.path is None
    np.testing.assert_array_equal(explorer.trajectory["x"], closed_form(1.0))

    traj = explorer.update(omega=2.0)
    assert traj is not None, explorer.error
    np.testing.assert_array_equal(traj["x"], closed_form(2.0))
    assert traj.params == {"omega": 2.0} and explorer.controls["omega"].value == 2.0
    assert explorer.describe().startswith("Harmonic oscillator, closed form (ω = 2, x = 1).")

    runs = model.runs
    assert explorer.update(omega=50.0) is None  # the explorer's own range
    assert explorer.error == "ω = 50 is outside this explorer's range [0.1, 5]"
    assert explorer.update(omega=float("nan")) is None  # the parameter's own rule
    assert explorer.error == "omega must be finite, got nan"
    assert explorer.update(omega=-1) is None
    assert explorer.error == "omega (angular frequency) must be > 0, got -1.0"
    assert explorer.update(x="far") is None and "x must be a" in explorer.error
    assert model.runs == runs  # refused before the model is asked
    assert explorer.values["omega"] == 2.0 and explorer.trajectory is traj
    explorer.close()


def test_explore_takes_any_model():
    model = ClosedFormOscillator()
    explorer = explore(model, params={omega: 3.0}, initial={"x": 0.5})
    assert explorer.values == {"omega": 3.0, "x": 0.5}
    np.testing.assert_array_equal(explorer.trajectory["x"], closed_form(3.0, 0.5))
    with pytest.raises(ValueError, match=r"explore\(closed_form_oscillator\): x = 5 is "
                                         r"outside this explorer's range \[-2, 2\]"):
        explore(model, initial={x: 5.0})
    with pytest.raises(ValueError, match="unknown parameter.* k; known: omega"):
        explore(model, params={"k": 1.0})
    assert explorer.closed  # replaced by the refused one, which is closed too
