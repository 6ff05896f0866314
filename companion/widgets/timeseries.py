"""A generic view for any model: chosen series against time, an optional path in a plane,
and the relative drift of every invariant.  Used where an example has no view of its own
(for instance a system the reader defines in a notebook)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import numpy as np

from companion.numerics import Trajectory
from companion.widgets import labels
from companion.widgets.explorer import View, few_ticks, rescale

if TYPE_CHECKING:
    from companion.system import System


class TimeSeriesView(View):
    """Series against time (left), a path ``(x, y)`` (right, optional), invariant drifts.

    Parameters
    ----------
    series
        Names of trajectory series to plot against time (states, series or invariants).
        ``None``: every state of the first trajectory and, without ``path``, the path
        :func:`default_path` finds among its states and series (for a model that is not a
        System, whose coordinates :meth:`for_system` cannot name).
    path
        Names of two series drawn against each other, e.g. ``("x", "y")``.
    """

    figsize = (9.0, 4.5)

    def __init__(self, series: Sequence[str] | None = None,
                 path: tuple[str, str] | None = None):
        self.series = None if series is None else list(series)
        self.path = path

    @classmethod
    def for_system(cls, system: System) -> TimeSeriesView:
        """The coordinates of ``system`` against time, and the :func:`default_path` among
        its coordinates and series."""
        q = [s.name for s in system.q]
        return cls(q, default_path(q, system.series))

    def setup(self, fig, trajectory: Trajectory) -> None:
        if self.series is None:
            self.series = list(trajectory.names)
            self.path = self.path or default_path(trajectory.names, trajectory.series)
        # the drift panel only when there is something to drift (the bicycle tracks none)
        ncols = 1 + bool(self.path) + bool(trajectory.invariants)
        self.ax_t = fig.add_subplot(1, ncols, 1)
        self.lines = {n: self.ax_t.plot(trajectory.t, trajectory[n], label=labels.plain(n))[0]
                      for n in self.series}
        self.ax_t.set(xlabel="t [s]", title="Against time")
        self.ax_t.legend(loc="upper right", fontsize="small")
        if self.path:
            self.ax_p = fig.add_subplot(1, ncols, 2)
            (self.path_line,) = self.ax_p.plot(*(trajectory[n] for n in self.path))
            self.ax_p.set(xlabel=labels.plain(self.path[0]), ylabel=labels.plain(self.path[1]),
                          aspect="equal",
                          title="Path")
            self.ax_p.set_adjustable("datalim")
        self.drifts = {}
        if trajectory.invariants:
            self.ax_d = fig.add_subplot(1, ncols, ncols)
            self.drifts = {n: self.ax_d.semilogy(trajectory.t, self._drift(trajectory, n),
                                                 label=labels.plain(n))[0]
                           for n in trajectory.invariants}
            self.ax_d.set(xlabel="t [s]", title="Relative drift of invariants",
                          ylim=(1e-16, 1e-6))
            self.ax_d.legend(loc="upper left", fontsize="small")
        few_ticks(self.ax_t, *([self.ax_p] if self.path else []))

    @staticmethod
    def _drift(trajectory: Trajectory, name: str) -> np.ndarray:
        values = trajectory.invariants[name]
        return np.abs(values - values[0]) / max(abs(values[0]), 1e-300) + 1e-17

    def refresh(self, trajectory: Trajectory) -> None:
        for name, line in self.lines.items():
            line.set_data(trajectory.t, trajectory[name])
        rescale(self.ax_t)
        if self.path:
            self.path_line.set_data(*(trajectory[n] for n in self.path))
            rescale(self.ax_p)
        for name, line in self.drifts.items():
            line.set_data(trajectory.t, self._drift(trajectory, name))

    def describe(self, trajectory: Trajectory) -> str:
        what = ", ".join(self.series)
        path = f"; the path {self.path[1]} against {self.path[0]}" if self.path else ""
        drifts = "; invariant drifts" if self.drifts else ""
        return f"{what} against time over {trajectory.t[-1]:.3g} s{path}{drifts}."


def default_path(names: Collection[str], series: Collection[str]) -> tuple[str, str] | None:
    """The path to draw among states ``names`` and ``series`` names: (x, y) when both exist,
    else the first declared point's (``x_<name>``, ``y_<name>``), else none."""
    named = {*names, *series}
    if {"x", "y"} <= named:
        return ("x", "y")
    return next(((k, f"y{k[1:]}") for k in series
                 if k.startswith("x_") and f"y{k[1:]}" in named), None)
