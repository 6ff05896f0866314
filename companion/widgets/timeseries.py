"""A generic view for any model: chosen series against time, an optional path in a plane,
and the relative drift of every invariant.  Used where an example has no view of its own
(for instance a system the reader defines in a notebook)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from companion.numerics import Trajectory
from companion.widgets import labels, style
from companion.widgets.explorer import View, few_ticks, rescale

if TYPE_CHECKING:
    from companion.system import System


class TimeSeriesView(View):
    """Series against time (left, one panel per kind), a path ``(x, y)`` (optional), and the
    invariants' drifts.

    Parameters
    ----------
    series
        Names of trajectory series to plot against time in one panel (states, series or
        invariants).  ``None`` (and no ``panels``): every state of the first trajectory and,
        without ``path``, the path :func:`default_path` finds among its states and series (for
        a model that is not a System, whose coordinates :meth:`for_system` cannot name).
    path, path_unit
        Names of two series drawn against each other, e.g. ``("x", "y")``; the unit of the
        path's two axes (both lengths), printed after their names.
    panels
        ``(title, names)`` or ``(title, names, unit)``: one panel against time each, stacked,
        so that quantities of one kind share an axis (lengths, angles, speeds), the unit its
        y-label; replaces ``series``.
    split
        Titles of panels whose series are split by their ranges over the first motion
        (:func:`by_range`), one panel per group.
    """

    def __init__(self, series: Sequence[str] | None = None,
                 path: tuple[str, str] | None = None,
                 panels: Sequence[tuple[str, Sequence[str]] | tuple[str, Sequence[str], str]]
                 | None = None, split: Collection[str] = (), path_unit: str = ""):
        if panels is not None and series is not None:
            raise ValueError("give series (one panel) or panels, not both")
        self.panels = (None if panels is None and series is None
                       else [(title, list(names), *rest) for title, names, *rest in panels or []
                             if names] or [("Against time", list(series or []))])
        self.path = path
        self.path_unit = path_unit
        self.split = set(split)

    @property
    def figsize(self) -> tuple[float, float]:
        """Taller for stacked panels, so that each keeps a legible height."""
        return (9.0, max(4.5, 1.9 * len(self.panels or ())))

    @property
    def series(self) -> list[str] | None:
        """Every name plotted against time, panel after panel."""
        return None if self.panels is None else [n for _, names, *_ in self.panels
                                                 for n in names]

    @classmethod
    def for_system(cls, system: System) -> TimeSeriesView:
        """The coordinates of ``system`` grouped by kind (:func:`coordinate_kinds`: lengths,
        angles), each kind in its own panel, the independent speeds in others by unit (linear,
        angular: :func:`speed_units`), its declared observables (:func:`observable_panels`:
        the constraint forces together, the kinetic energy alone), each panel with its unit,
        and the :func:`default_path` among its coordinates and series, in the lengths' unit.
        Angles whose ranges in the first motion differ more than :data:`RANGE_RATIO` times go
        to panels of their own (:func:`by_range`)."""
        kinds = coordinate_kinds(system)
        units = {p.name: p.unit.strip() for p in system.initial}
        q = [s.name for s in system.q]
        lengths = [n for n in q if kinds[n] == "length"]
        angles = [n for n in q if kinds[n] == "angle"]
        speeds = speed_units(system)
        panels = [("Positions", lengths, length_unit(system)),
                  ("Angles", angles, _common_unit(angles, units) or "rad")]
        for title, rate in (("Speeds", False), ("Angular speeds", True)):
            names = [n for n, unit in speeds.items() if unit.startswith("rad") == rate]
            panels.append((title, names, _common_unit(names, speeds)))
        return cls(panels=[*panels, *observable_panels(system)], split={"Angles"},
                   path=default_path(q, system.series), path_unit=length_unit(system))

    def setup(self, fig, trajectory: Trajectory) -> None:
        if self.panels is None:
            self.panels = [("Against time", list(trajectory.names))]
            self.path = self.path or default_path(trajectory.names, trajectory.series)
        unsplit = self.figsize
        # a panel to split: one per group of by_range, titled with its members when several
        panels = []
        for title, names, *unit in self.panels:
            groups = by_range(trajectory, names) if title in self.split else [names]
            panels += [(title if len(groups) == 1 else
                        f"{title} ({', '.join(map(labels.plain, group))})", group, *unit)
                       for group in groups]
        self.panels = panels
        rows = len(self.panels)
        if self.figsize != unsplit:  # the first motion split a panel
            fig.set_size_inches(style.figure_size(self.figsize))
        # the drift panel only when there is something to drift (the bicycle tracks none)
        ncols = 1 + bool(self.path) + bool(trajectory.invariants)
        grid = fig.add_gridspec(rows, ncols)
        self.axes_t, self.lines = [], {}
        for row, (title, names, *unit) in enumerate(self.panels):
            ax = fig.add_subplot(grid[row, 0], sharex=self.axes_t[0] if self.axes_t else None)
            self.lines.update({n: ax.plot(trajectory.t, trajectory[n], label=labels.plain(n))[0]
                               for n in names})
            ax.set(title=title, xlabel="t [s]" if row == rows - 1 else None,
                   ylabel=f"[{unit[0]}]" if unit and unit[0] else None)
            # one time axis: its tick labels under the last panel only (on the five panels
            # of issue 36's robot, a third of a layout pass and of a render)
            ax.tick_params(labelbottom=row == rows - 1)
            # where it covers the fewest points of the curves (issue 36: at the upper right
            # it hid the robot's rising wheel angles); matplotlib places it again each draw
            ax.legend(loc="best", fontsize="small")
            self.axes_t.append(ax)
        self.ax_t = self.axes_t[0]
        if self.path:
            self.ax_p = fig.add_subplot(grid[:, 1])
            (self.path_line,) = self.ax_p.plot(*(trajectory[n] for n in self.path))
            unit = f" [{self.path_unit}]" if self.path_unit else ""
            self.ax_p.set(xlabel=labels.plain(self.path[0]) + unit,
                          ylabel=labels.plain(self.path[1]) + unit, aspect="equal", title="Path")
            self.ax_p.set_adjustable("datalim")
        self.drifts = {}
        if trajectory.invariants:
            self.ax_d = fig.add_subplot(grid[:, ncols - 1])
            self.drifts = {n: self.ax_d.semilogy(trajectory.t, self._drift(trajectory, n),
                                                 label=labels.plain(n))[0]
                           for n in trajectory.invariants}
            self.ax_d.set(xlabel="t [s]", title="Relative drift of invariants",
                          ylim=(1e-16, 1e-6))
            self.ax_d.legend(loc="best", fontsize="small")
        few_ticks(*self.axes_t, *([self.ax_p] if self.path else []))

    @staticmethod
    def _drift(trajectory: Trajectory, name: str) -> np.ndarray:
        values = trajectory.invariants[name]
        return np.abs(values - values[0]) / max(abs(values[0]), 1e-300) + 1e-17

    def refresh(self, trajectory: Trajectory) -> None:
        for name, line in self.lines.items():
            line.set_data(trajectory.t, trajectory[name])
        for ax in self.axes_t:
            rescale(ax)
        if self.path:
            self.path_line.set_data(*(trajectory[n] for n in self.path))
            rescale(self.ax_p)
        for name, line in self.drifts.items():
            line.set_data(trajectory.t, self._drift(trajectory, name))

    def describe(self, trajectory: Trajectory) -> str:
        what = "; ".join(f"{title[0].lower()}{title[1:]}: {', '.join(names)}"
                         for title, names, *_ in self.panels)
        path = f"; the path {self.path[1]} against {self.path[0]}" if self.path else ""
        drifts = "; invariant drifts" if self.drifts else ""
        return f"Against time over {trajectory.t[-1]:.3g} s, {what}{path}{drifts}."


def first_controls(system: System, at_least: int = 6) -> list[str]:
    """The sliders an explorer of ``system`` shows first: the parameters its forces use (a
    torque, a damping constant), then the start values of the independent speeds, then the
    other numbers in order, ``at_least`` in all; the rest go under "more parameters"."""
    used = set().union(*(sp.sympify(e).free_symbols for e in system.definition.Q or ()))
    forces = [p.name for p in system.parameters if p.symbol in used]
    speeds = {u.name for u in system.u_independent}
    starts = [p.name for p in system.initial if p.name in speeds]
    first = forces + starts
    rest = [p.name for p in (*system.parameters, *system.initial) if p.name not in first]
    return first + rest[:max(0, at_least - len(first))]


#: Units that name a coordinate's kind outright.
_ANGLE_UNITS = {"rad", "deg", "°"}
_LENGTH_UNITS = {"m", "cm", "mm", "km"}
#: Names of coordinates that are angles by the books' habit (θ, φ, ψ …, with any subscript).
_ANGLE_NAME = re.compile(r"\\?(theta|phi|psi|alpha|beta|gamma|delta|chi|eta|varphi|vartheta)"
                         r"(_.*)?$", re.IGNORECASE)


def coordinate_kinds(system: System) -> dict[str, str]:
    """``"angle"`` or ``"length"`` for each coordinate of ``system``: its start value's unit
    when it names one (rad, m …); else an angle when it appears inside a trigonometric function
    of the quasi-velocity definitions, T or the constraints, or when it is named as the books
    name angles (θ, φ, ψ, α …); else a length."""
    units = {p.name: p.unit.strip() for p in system.initial}
    trig = set().union(*(call.free_symbols for expr in (*(system.definition.definitions or ()),
                                                        system.definition.T)
                         for call in sp.sympify(expr).atoms(sp.sin, sp.cos, sp.tan)))
    kinds = {}
    for s in system.q:
        unit = units.get(s.name, "")
        angle = unit in _ANGLE_UNITS or (unit not in _LENGTH_UNITS and (
            s in trig or _ANGLE_NAME.match(s.name)))
        kinds[s.name] = "angle" if angle else "length"
    return kinds


#: Ratio of two angles' ranges over the first motion beyond which they get panels of their
#: own: within it, the smaller spans at least a fifth of the axis.  A differential-drive
#: robot's heading φ (118 rad over 20 s) beside its wheel angles (516 and 988 rad), 8.4×
#: apart, drew as a flat line.
RANGE_RATIO = 5.0


def by_range(trajectory: Trajectory, names: Sequence[str]) -> list[list[str]]:
    """``names`` in groups whose ranges (max − min over ``trajectory``) are within
    :data:`RANGE_RATIO` of their group's largest: in order of decreasing range, a name
    joins the last group while within the ratio of its first (largest) name, else starts the
    next one; names that do not move join the last group.  Each group keeps the order of
    ``names``."""
    spans = {n: float(np.ptp(trajectory[n])) for n in names}
    groups: list[list[str]] = []
    for name in sorted(names, key=lambda n: -spans[n]):
        if not groups or 0 < spans[name] * RANGE_RATIO < spans[groups[-1][0]]:
            groups.append([name])
        else:
            groups[-1].append(name)
    return [[n for n in names if n in group] for group in groups]


def speed_units(system: System, speeds: Sequence[sp.Symbol] | None = None) -> dict[str, str]:
    """The unit of each of ``speeds`` (default: the independent speeds of ``system``): its
    start value's unit when given; else rad/s when its definition uses only rates of angles
    (:func:`coordinate_kinds`), else the lengths' unit (:func:`length_unit`) per second."""
    units = {p.name: p.unit.strip() for p in system.initial}
    kinds = coordinate_kinds(system)
    rates = dict(zip(system.definition.qdot or (), (s.name for s in system.q), strict=False))
    definitions = dict(zip((s.name for s in system.u), system.definition.definitions
                           or system.definition.qdot or (), strict=False))
    out = {}
    for u in system.u_independent if speeds is None else speeds:
        used = {rates[s] for s in sp.sympify(definitions.get(u.name, 0)).free_symbols
                if s in rates}
        out[u.name] = units.get(u.name) or (
            "rad/s" if used and all(kinds[n] == "angle" for n in used)
            else f"{length_unit(system)}/s")
    return out


def length_unit(system: System) -> str:
    """The unit the length coordinates of ``system`` share (their start values'), else m:
    the companion's numbers are SI (its scenes report distances in m)."""
    units = {p.name: p.unit.strip() for p in system.initial}
    kinds = coordinate_kinds(system)
    return _common_unit([n for n in kinds if kinds[n] == "length"], units) or "m"


#: The unit of a generalized force conjugate to a speed of each unit (its power in W).
_FORCE_UNITS = {"m/s": "N", "rad/s": "N·m"}


#: Titles of the constraint-force panels by unit: a λ conjugate to an angular speed is a torque.
_FORCE_TITLES = {"N·m": "Constraint torques"}


def observable_panels(system: System) -> list[tuple[str, list[str], str]]:
    """A panel for each kind of observable ``system`` declares: its constraint forces
    (:data:`~companion.model.CONSTRAINT_FORCES`, λ_r conjugate to the constrained u_r, in N
    or N·m as u_r is in m/s or rad/s by :func:`speed_units`) one panel per unit, its kinetic
    energy (:data:`~companion.model.KINETIC_ENERGY`, J) alone, any other under its own name."""
    from companion.model import CONSTRAINT_FORCES, KINETIC_ENERGY

    constrained = speed_units(system, system.u[len(system.u_independent):]).values()
    forces: dict[str, list[str]] = {}
    panels: list[tuple[str, list[str], str]] = []
    for name, observable in system.observables.items():
        names = list(observable.expressions(name, system))
        if observable is CONSTRAINT_FORCES:
            for force, unit in zip(names, constrained, strict=True):
                forces.setdefault(_FORCE_UNITS.get(unit, ""), []).append(force)
        else:
            panels.append(("Kinetic energy", names, "J") if observable is KINETIC_ENERGY
                          else (labels.plain(name), names, ""))
    return [*((_FORCE_TITLES.get(unit, "Constraint forces"), group, unit)
              for unit, group in forces.items()), *panels]


def _common_unit(names: Sequence[str], units: dict[str, str]) -> str:
    """The unit all ``names`` share in ``units``, else none."""
    found = {units.get(n, "") for n in names}
    return found.pop() if len(found) == 1 else ""


def default_path(names: Collection[str], series: Collection[str]) -> tuple[str, str] | None:
    """The path to draw among states ``names`` and ``series`` names: (x, y) when both exist,
    else the first declared point's (``x_<name>``, ``y_<name>``), else none."""
    named = {*names, *series}
    if {"x", "y"} <= named:
        return ("x", "y")
    return next(((k, f"y{k[1:]}") for k in series
                 if k.startswith("x_") and f"y{k[1:]}" in named), None)
