"""The workbench: one call lays out everything the companion can do with a system.

``workbench(system)`` shows, one under the other: which methods apply and how far their
accelerations lie from Boltzmann–Hamel's at random states, the derivation step by step, an
explorer, the scene of the points the system declares, and what each method costs (Greenwood
§4.4): the pieces every chapter uses; nothing here derives or simulates.

A definition that cannot be built, or a part that fails on the reader's system (a motion
that meets a singular configuration, say), is shown as one line in place of that part.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as w
import numpy as np
from IPython.display import Markdown

from companion.mechanics.agreement import max_disagreement
from companion.mechanics.comparison import BOOK_METHODS, compare_methods
from companion.scene import scene_for
from companion.scene.points import declared_points
from companion.system import System
from companion.widgets import labels
from companion.widgets.explorer import Explorer, Preset
from companion.widgets.lifecycle import close_tree
from companion.widgets.method_selector import MethodSelector
from companion.widgets.timeseries import TimeSeriesView, first_controls
from companion.workbench.define import DefinitionError, Draft

#: Largest relative difference of accelerations still called agreement (round-off of the
#: compiled equations is ~1e-15; a wrong term gives differences of order one).
AGREEMENT_TOLERANCE = 1e-9

#: What a reader's definition or values can raise inside a part (SingularConfigurationError
#: and NonFiniteMotionError are ValueErrors); anything else is a bug of ours and propagates.
READER_ERRORS = (ValueError, TypeError, NotImplementedError, ZeroDivisionError)

#: CSS class of the workbench's outer box (browser tests find it by this).
WORKBENCH_CLASS = "companion-workbench"


def _error_html(what: str, message: str) -> str:
    return (f"<div><span style='color:#b00020'><b>{html.escape(what)}"
            f":</b> {html.escape(' '.join(message.split()))}</span></div>")


class Workbench:
    """Methods and their agreement, the stepper, the explorer, the scene and the cost table of
    one system.

    Parameters
    ----------
    system
        A :class:`~companion.system.System`, or a :class:`~companion.workbench.define.Draft`
        from :func:`~companion.workbench.define.define` (built here, so that a bad definition
        is reported in the workbench).
    n_states
        Random states (drawn over the slider ranges) at which the methods are compared.
    simulate_kwargs
        Passed to the explorer's simulations (``t_final``, ``method``, …).

    Attributes
    ----------
    system
        The system, or ``None`` when the definition could not be built.
    errors, seconds
        By part ("definition", "methods", …): one line for each part that could not be
        shown; what building each took (``benchmarks/workbench.py`` prints them).
    agreement, skipped
        By method: the largest relative difference of its u̇ from Boltzmann–Hamel's; why one
        of Greenwood's methods does not apply.
    selector, explorer, scene, table, widget
        The parts (``None`` when not shown), and the ipywidgets box to display.
    """

    def __init__(self, system: System | Draft, *, n_states: int = 20,
                 simulate_kwargs: dict[str, Any] | None = None):
        self.errors: dict[str, str] = {}
        self.seconds: dict[str, float] = {}
        self.agreement: dict[str, float] = {}
        self.skipped: dict[str, str] = {}
        self.selector = self.explorer = self.scene = self.table = self._cost = None
        self.system = self._attempt("definition", lambda: _built(system))
        if self.system is None:
            parts = [w.HTML(_error_html("Cannot build this system", self.errors["definition"]))]
        else:
            parts = self._parts(n_states, dict(simulate_kwargs or {}))
        self.widget = w.VBox(parts, layout={"width": "100%"})
        self.widget.add_class(WORKBENCH_CLASS)

    def _attempt(self, part: str, make: Callable[[], Any]) -> Any:
        """``make()``, or ``None`` with the one-line reason kept in ``errors[part]``."""
        start = time.perf_counter()
        try:
            return make()
        except READER_ERRORS as exc:
            self.errors[part] = " ".join(str(exc).split()) or type(exc).__name__
            return None
        finally:
            self.seconds[part] = time.perf_counter() - start

    def _parts(self, n_states: int, simulate_kwargs: dict[str, Any]) -> list[w.Widget]:
        system = self.system
        heading = w.HTML(f"<h3>{html.escape(system.title)}</h3><div>"
                         f"{html.escape(self.summary())}</div>")
        methods = self._attempt("methods", lambda: self._methods_table(n_states))
        self.selector = self._attempt("stepper", lambda: MethodSelector(
            lambda _: system, [system.name], system.name, "boltzmann_hamel",
            methods=system.applicable_methods()))
        self.explorer = self._attempt("explorer", lambda: Explorer(
            system, TimeSeriesView.for_system(system), essential=first_controls(system),
            simulate_kwargs=simulate_kwargs, presets=speeds_doubled(system), key="workbench"))
        if self.explorer is not None and declared_points(self.explorer.trajectory):
            self.scene = self._attempt("scene", lambda: scene_for(self.explorer))
        self.table = self._attempt("cost", lambda: compare_methods([system]))
        if self.table is not None:
            self._cost = w.Output()
            self._cost.append_display_data(Markdown(self.table.markdown(COST_COLUMNS)))
        return [heading,
                *self._section("Methods and their agreement", "methods", methods),
                *self._section("The derivation, step by step", "stepper",
                               self.selector and self.selector.widget),
                *self._section("Explorer", "explorer", self.explorer and self.explorer.widget),
                *self._section("Scene", "scene", self.scene, missing=(
                    "declare points to draw, e.g. points={'P': (x, y)}, to get a scene")),
                *self._section("What each method costs (Greenwood §4.4)", "cost",
                               self._cost)]

    def _section(self, title: str, part: str, content: w.Widget | str | None,
                 missing: str = "") -> list[w.Widget]:
        head = w.HTML(f"<h4>{html.escape(title)}</h4>")
        if part in self.errors:
            return [head, w.HTML(_error_html("Cannot show this part", self.errors[part]))]
        if content is None:
            return [head, w.HTML(f"<i>{html.escape(missing)}</i>")] if missing else []
        return [head, w.HTML(content) if isinstance(content, str) else content]

    # ----------------------------------------------------------------- methods
    def _methods_table(self, n_states: int) -> str:
        """An HTML table: each applicable method's equations and agreement, then why the
        others of Greenwood §4.4 do not apply."""
        system = self.system
        applicable = system.applicable_methods()
        self.agreement = max_disagreement(system, n_states=n_states)
        for method in BOOK_METHODS:
            if method not in applicable:
                try:
                    system.derive(method)
                except NotImplementedError as exc:
                    self.skipped[method] = " ".join(str(exc).split())
        rows = []
        for method in applicable:
            d = system.derive(method)
            if method == "boltzmann_hamel":
                verdict = "the reference"
            else:
                diff = self.agreement[method]
                verdict = (f"{diff:.0e} — " + ("agrees" if diff <= AGREEMENT_TOLERANCE
                                                else "<b>disagrees</b>"))
            rows.append(f"<tr><td>{html.escape(method)}</td><td>{d.n_dynamical} × order "
                        f"{d.order}</td><td>{verdict}</td></tr>")
        rows += [f"<tr><td>{html.escape(m)}</td><td colspan=2><i>does not apply: "
                 f"{html.escape(why)}</i></td></tr>" for m, why in self.skipped.items()]
        return (f"<div>Largest difference of u̇ from "
                f"Boltzmann–Hamel's, relative, at {n_states} random states over the slider "
                "ranges:<table><tr><th>method</th><th>equations</th><th>difference</th></tr>"
                + "".join(rows) + "</table></div>")

    def summary(self) -> str:
        """One line: coordinates, speeds, constraints, parameters (or why the definition
        failed)."""
        s = self.system
        if s is None:
            return f"The definition failed, so there is no system: {self.errors['definition']}"
        m = s.n_constraints
        kind = "rheonomic" if s.t is not None or any(s.psi[1]) else "scleronomic"
        names = ", ".join(labels.plain(x.name) for x in s.q)
        return (f"{len(s.q)} coordinates ({names}), "
                f"{len(s.u_independent)} independent speeds, {m} nonholonomic constraint"
                f"{'' if m == 1 else 's'}, {kind}; {len(s.parameters)} parameters.")

    def agrees(self) -> bool:
        """Whether the definition made a system and every applicable method agreed with
        Boltzmann–Hamel."""
        return self.system is not None and all(
            np.isfinite(d) and d <= AGREEMENT_TOLERANCE for d in self.agreement.values())

    def static_html(self) -> str:
        """The workbench for a page without widgets: each part's static form in its place
        (the derivation's steps, the explorer's figure, the scene playing by itself)."""
        static: dict[int, str] = {}
        if self.selector is not None:
            stepper = self.selector.stepper
            static[id(self.selector.widget)] = (stepper.html() if stepper is not None
                                                else self.selector.message.value)
        if self.explorer is not None:
            static[id(self.explorer.widget)] = self.explorer._repr_mimebundle_().get(
                "text/html", "")
        if self.scene is not None:  # lecture mode's scene carries no static copy: none here
            static[id(self.scene)] = self.scene._repr_mimebundle_()[0].get("text/html", "")
        if self.table is not None:
            static[id(self._cost)] = self.table.html(COST_COLUMNS)
        return "".join(static[id(part)] if id(part) in static else part.value
                       for part in self.widget.children)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_() or {})
        lines = [f"Cannot build this system: {self.errors['definition']}"] if (
            self.system is None) else [self.summary(), *(f"{k}: {v}" for k, v in
                                                          self.errors.items())]
        bundle["text/plain"] = "\n".join(lines)
        bundle["text/html"] = self.static_html()
        return bundle

    def close(self) -> None:
        """Close the explorer (its figure) and every widget of the workbench."""
        if self.explorer is not None:
            self.explorer.close()
        close_tree(self.widget)


def _built(system: System | Draft) -> System:
    if isinstance(system, Draft):
        return system.build()
    if not isinstance(system, System):
        raise DefinitionError(f"the workbench takes a System or a definition from define(), "
                              f"got {type(system).__name__}")
    return system


#: The cost table's columns in the workbench: one system, so no "example"; the narrowest set
#: that still says what each method costs (the table fits a notebook beside the file browser).
COST_COLUMNS = ("method", "equations", "first-order ODEs", "multipliers",
                "count_ops after cse", "time [s]")


#: ``workbench(system)``: the :class:`Workbench` of a System or a :func:`define` draft.
workbench = Workbench


__all__ = ["AGREEMENT_TOLERANCE", "Workbench", "WORKBENCH_CLASS", "workbench"]


def speeds_doubled(system: System) -> dict[str, Preset]:
    """An instructor's preset for any system: its nonzero start speeds doubled (within their
    sliders).  Without forces and time in the equations the path is the same, traced twice as
    fast (time scales out); gravity, springs or a turntable change it: a question for any
    reader's system."""
    speeds = {s.name for s in system.u_independent}
    values = {p.name: min(max(2.0 * p.default, p.low), p.high) for p in system.initial
              if p.name in speeds and p.default}
    if not values:
        return {}
    return {"speeds doubled": Preset(
        "start speeds ×2", values,
        "Twice the start speeds: the same path traced twice as fast, or another path?")}
