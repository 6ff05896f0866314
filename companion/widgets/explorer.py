"""Explorer: sliders for a system's parameters and initial conditions → re-simulate → update
one matplotlib figure in place, with a readout of invariants, residuals and events.

A :class:`View` draws a trajectory: it creates its artists once in :meth:`View.setup` and
moves them in :meth:`View.refresh` (``set_data`` and friends), so no figure is ever created
per update.  With the ipympl backend (``%matplotlib widget``) the figure is the live canvas;
under any other backend (Agg in tests, nbconvert) a PNG of the figure is shown instead.
"""

from __future__ import annotations

import base64
import functools
import html
import math
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as w
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import LogLocator, NullFormatter, NullLocator

from companion.model import Model, as_model
from companion.numerics import SingularConfigurationError, Trajectory
from companion.system import Parameter, ParameterTable
from companion.widgets import labels, private_hooks, style
from companion.widgets.background import _axes
from companion.widgets.frames import MATPLOTLIB_LOCK, changing, figure_png, safe_frames
from companion.widgets.lifecycle import close_tree, close_when_rerun, quietly, running_cell
from companion.widgets.responsive import STATUS_CLASS, FigureFitter, running_loop


class View:
    """How an explorer draws a trajectory.  Subclasses implement ``setup`` and ``refresh``.

    Attributes
    ----------
    figsize
        Nominal size of the view's figure (inches): the width then follows the output area
        (:class:`~companion.widgets.responsive.FigureFitter`, which stacks and lays out the
        panels: place the axes on gridspecs, with no ``tight_layout``).
    stack_below
        The figure width (CSS pixels, outside lecture mode) below which the panels are stacked:
        the narrowest at which side by side they keep their titles, ticks and legends whole.
    """

    figsize: tuple[float, float] = (9.0, 6.0)
    stack_below: float = style.STACK_BELOW_PX

    def setup(self, fig: Figure, trajectory: Trajectory) -> None:
        """Create the axes and artists on ``fig`` for a first trajectory."""
        raise NotImplementedError

    def refresh(self, trajectory: Trajectory) -> None:
        """Move the artists created in :meth:`setup` to show ``trajectory``."""
        raise NotImplementedError

    def describe(self, trajectory: Trajectory) -> str:
        """A one-paragraph text description of the figure (alt text)."""
        return ""

    def extra_widgets(self) -> list[w.Widget]:
        """Widgets shown under the figure (a play control), created in :meth:`setup`."""
        return []

    def close(self) -> None:
        """Free what :meth:`setup` made besides the figure and :meth:`extra_widgets`."""


#: A refit keeps an axis's limits while its data fit inside them and span at least this share
#: of them: a small slider move then leaves the ticks and labels as they were, and the frame is
#: drawn over the cached background (companion.widgets.background) instead of rendered whole.
KEEP_LIMITS_FILL = 0.4
#: When data outgrow an axis, its new limits leave this share of the data's span as room on
#: the side they grew toward: a drag in one direction then refits every few moves, not at each
#: (the disk–link energy panel was rendered whole on 4 of 10 moves of θ).
ROOM_TO_GROW = 0.25
#: Relative to a span, what counts as rounding noise at a limit (a sample time of −7e-18 s
#: computed for t = 0 must not refit a time axis, nor give it room below zero).
ROUNDING = 1e-9
#: The axes :func:`rescale` has fitted.
_FITTED: weakref.WeakSet = weakref.WeakSet()


def rescale(ax, *, x: bool = True, y: bool = True, y_floor: float = 0.0) -> None:
    """Fit the limits of ``ax`` to its current artists (after ``set_data``): an axis keeps its
    limits while the data fill them (:data:`KEEP_LIMITS_FILL`, in decades on a log axis), else
    they are fitted anew and rounded out to ticks.

    ``y_floor`` (the y-axis' units) is the smallest half-span the y-axis shows: a quantity zero
    up to integration noise (the slip velocity while a disk rolls) is drawn on the fixed axis
    ±``y_floor``, not fitted to the noise, which would change its ticks at every move."""
    # the first fit replaces matplotlib's tight default, which the next move would outgrow
    keep = ax in _FITTED
    ax.relim()
    # the limits set here stay until the next rescale (an artist added later, a cursor, must
    # not refit them tightly at the next draw); an equal-aspect axes keeps autoscaling on
    auto = None if ax.get_aspect() != "auto" else False
    for fit, axis, data, before, set_lim in (
            (x, ax.xaxis, ax.dataLim.intervalx, ax.get_xlim(), ax.set_xlim),
            (y, ax.yaxis, ax.dataLim.intervaly, ax.get_ylim(), ax.set_ylim)):
        if not fit or not np.all(np.isfinite(data)):
            continue  # no data to fit
        if axis is ax.yaxis and y_floor > 0 and np.all(np.abs(data) <= y_floor):
            set_lim(-y_floor, y_floor, auto=auto)
        elif keep and _fills(data, before, axis.get_scale()):
            set_lim(before, auto=auto)
        else:
            grown = _with_room(data, before) if keep and axis.get_scale() == "linear" else data
            set_lim(_round_out(axis, grown), auto=auto)
    _FITTED.add(ax)


def _with_room(data, limits) -> tuple[float, float]:
    """``data`` (low, high) widened by :data:`ROOM_TO_GROW` of its span on each side where it
    left ``limits``, never across zero (a time axis keeps starting at 0)."""
    low, high = (float(v) for v in data)
    span = high - low
    room, slack = ROOM_TO_GROW * span, ROUNDING * span
    if high > max(limits) + slack:
        high = high + room if high > slack else min(high + room, 0.0)
    if low < min(limits) - slack:
        low = low - room if low < -slack else max(low - room, 0.0)
    return low, high


def _round_out(axis, data) -> tuple[float, float]:
    """The data's interval rounded out to the axis' ticks, with no margin first (a margin
    would be rounded out to a whole tick: a time axis from −0.25 s)."""
    # the one setting swapped and restored: rc_context copies every setting, which made it
    # a third of the disk–link view's refresh (four panels, 0.7 ms a copy)
    params = matplotlib.rcParams
    mode, params["axes.autolimit_mode"] = params["axes.autolimit_mode"], "round_numbers"
    try:
        low, high = axis.get_major_locator().view_limits(*data)
    finally:
        params["axes.autolimit_mode"] = mode
    return float(low), float(high)


def drift_limits(ax) -> None:
    """Symmetric decade limits ±10ᵏ on the y-axis of ``ax``, for a quantity that should stay
    zero (a relative drift of an invariant; the x-axis is left alone).  The axis says how well
    the quantity is kept, and keeps still while the noise moves within a hundredfold, so its
    ticks (and the cached background) stay as they were over a slider drag."""
    ax.relim()
    largest = float(np.max(np.abs(ax.dataLim.intervaly)))
    if not np.isfinite(largest):
        return
    largest = max(largest, 1e-16)  # a relative drift below rounding is none
    now = ax.get_ylim()[1]
    if not (now > 0 and now == -ax.get_ylim()[0] and 1e-2 * now < largest <= now):
        now = 10.0 ** math.ceil(math.log10(largest))
    ax.set_ylim(-now, now)


def _fills(data, limits, scale: str) -> bool:
    """Whether ``data`` (low, high) lie within ``limits`` and span ``KEEP_LIMITS_FILL`` of them,
    measured in decades on a log axis."""
    low, high = sorted(limits)
    data = np.asarray(data, dtype=float)
    if scale == "log":
        if not (np.all(data > 0) and low > 0):
            return False
        data, low, high = np.log10(data), np.log10(low), np.log10(high)
    elif scale != "linear":
        return False
    slack = ROUNDING * (high - low)  # a time from −7e-18 s is inside an axis from 0
    return bool(low - slack <= data[0] <= data[1] <= high + slack
                and data[1] - data[0] >= KEEP_LIMITS_FILL * (high - low))


def _limits(ax) -> Callable[[], None]:
    """A call that puts back the view limits of ``ax`` and the data limits they were fitted to
    (an equal-aspect axes widens the one or the other by its data when drawn)."""
    view = [(axis, axis.get_view_interval().copy()) for axis in _axes(ax)]
    data = [(box, box.frozen()) for box in (ax.dataLim, getattr(ax, "zz_dataLim", None))
            if box is not None]

    def restore() -> None:
        for axis, (low, high) in view:
            axis.set_view_interval(low, high, ignore=True)
        for box, then in data:
            box.set(then)
        ax.stale = True

    return restore


def few_ticks(*axes, nbins: int = 4) -> None:
    """At most ``nbins`` intervals between ticks on the axes given, and no minor ticks on log
    axes: ticks and their labels are the bulk of the cost of redrawing a figure (a log axis
    over ten decades otherwise carries some ninety minor ticks)."""
    for ax in axes:
        if getattr(ax, "name", "") == "3d":
            continue
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if axis.get_scale() == "linear":
                ax.locator_params(axis=name, nbins=nbins)
            elif axis.get_scale() == "log":
                axis.set_major_locator(LogLocator(numticks=nbins + 1))
                axis.set_minor_locator(NullLocator())


#: CSS class of every explorer's outer box: browser tests and benchmarks find explorers by it.
EXPLORER_CLASS = "companion-explorer"
#: CSS class of preset buttons: scene.js presses the n-th on key n and, after a click, moves
#: the keyboard focus to the explorer's scene.
PRESET_CLASS = "companion-preset"
#: CSS class an explorer carries while a predict preset's outcome is hidden: lecture mode
#: holds back the cells that answer the prediction until then (lecture.js).
PREDICTING_CLASS = "companion-predicting"

#: The status line while a predict preset's outcome is hidden: the run's drifts, residuals
#: and events describe it ("energy kept to 0e+00" told of a motion with nothing to keep).
PREDICT_STATUS = "Predict first: press play to see the motion"

#: Style of an explorer's buttons: their text is never cut to an ellipsis ("ne" for "next").
EXPLORER_CSS = style.whole_buttons_css(EXPLORER_CLASS) + style.SCREEN_READER_CSS

#: Seconds a slider change that is part of a drag waits for newer ones (inside a kernel).
COALESCE_SECONDS = 0.01
#: A slider change this soon after the last update ended is taken for part of a drag: it was
#: probably queued while that update ran, and the next ones with it.  A change after a pause
#: (a key press, a click) updates at once, without the wait.
DRAG_SECONDS = 0.05


def slider_grid(low: float, high: float, default: float) -> tuple[float, float, float]:
    """``(min, max, step)`` of a slider over ``[low, high]``: the coarsest 1-2-5 step giving at
    least 100 positions that lands on ``default`` and on both ends.  The front end snaps a value
    to ``min + k·step`` and writes it back, so a default off the grid would change (m = 0.992).
    """
    span = high - low
    if not span > 0:
        raise ValueError(f"a slider needs low < high, got [{low}, {high}]")
    decade = 10.0 ** math.floor(math.log10(span / 100))
    for step in (c * decade * 10.0 ** k for k in (1, 0, -1, -2, -3) for c in (5, 2, 1)):
        if span / step >= 100 and all(abs(x / step - round(x / step)) < 1e-6
                                      for x in (span, default - low)):
            return low, high, step
    return low, high, span / 200


@dataclass(frozen=True)
class Preset:
    """Values an instructor reaches in one click, with the question to ask before playing.

    Parameters
    ----------
    label, values
        The button's text; parameter and initial-condition values by name (the rest keep
        their defaults).
    prompt
        What to predict before pressing play.
    predict
        With a prompt, a *predict* preset: the figure's curves and texts, the readout's
        events and a following scene's caption stay hidden until the motion has been played
        (:data:`PLAYED_SHARE` of it) or "reveal" is clicked (:meth:`Explorer.reveal`).
    speed
        The playback speed a following scene takes (one of :data:`PLAYBACK_SPEEDS`): a motion
        over in under a second is played at ¼× for a room to follow it.
    """

    label: str
    values: Mapping[str, float] = field(default_factory=dict)
    prompt: str = ""
    predict: bool = True
    speed: float = 1.0

    def __post_init__(self) -> None:
        if self.speed not in PLAYBACK_SPEEDS:
            raise ValueError(f"preset {self.label!r}: speed {self.speed!r} is not one of the "
                             f"scene's speeds {', '.join(map(str, PLAYBACK_SPEEDS))}")

    @property
    def asks(self) -> bool:
        """Whether the preset hides its outcome until played (a predict preset's prompt)."""
        return self.predict and bool(self.prompt)


#: The scene's playback speeds (its speed menu, scene.js).
PLAYBACK_SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
#: Share of a predict preset's motion to play before its outcome is shown.
PLAYED_SHARE = 0.9
#: Share of the width the figure takes when its scene is placed beside it (lecture mode).
BESIDE_SHARE = 0.56

#: The narrowest a scene beside its figure gets (CSS pixels); narrower, it goes below.
SCENE_MIN_PX = 360


#: Live explorers by (notebook cell, system name, key): building a new explorer under a key
#: closes the old.
_LIVE: dict[tuple[str | None, str, str], Explorer] = {}


def live_explorers() -> list[Explorer]:
    """The explorers that are open (not closed nor replaced)."""
    return list(_LIVE.values())


class Explorer:
    """Sliders → simulate → one figure updated in place.

    Parameters
    ----------
    system
        The :class:`~companion.model.Model` to explore: only its name, title, parameters,
        initial values and ``simulate`` are used.
    view
        The :class:`View` that draws its trajectories.
    controls, essential
        Names of parameters and initial conditions that get sliders (default: all); those
        shown first, the others under "more parameters" (default: the first six).
    simulate_kwargs
        Extra keyword arguments for ``system.simulate`` (``t_final``, ``n_points``, ...).
    limits
        Ranges that depend on other values, ``{name: values -> (low, high)}`` (the disk's
        position within the link length, μ_k ≤ μ_s); the slider follows them.
    presets, preset
        :class:`Preset` s by name, and the one to start from (default: none).
    key
        Explorers of one system under one key (default ``preset`` or "main") built by one
        notebook cell (or a script) replace each other.  A cell run again closes what its
        earlier run built (:func:`~companion.widgets.lifecycle.close_when_rerun`).

    Raises
    ------
    TypeError
        ``system`` is not a :class:`~companion.model.Model`.
    ValueError
        Unknown control, limit or preset names.

    Attributes
    ----------
    controls, essential
        Sliders by name; the names of those shown first, in order.
    figure, widget
        The one matplotlib figure; the ipywidgets box to display.
    trajectory
        The last successful simulation.
    predicting
        True while a predict preset's outcome is hidden (see :class:`Preset`).
    on_update, on_predict, on_close
        Functions called with each new trajectory after an update (a scene replaces its
        motion), with ``predicting`` whenever it changes (a scene hides its caption), and
        once the explorer is closed (a scene following it closes too).
    """

    def __init__(self, system: Model, view: View, *, controls: Sequence[str] | None = None,
                 essential: Sequence[str] | None = None,
                 simulate_kwargs: Mapping[str, Any] | None = None,
                 limits: Mapping[str, Callable[[Mapping[str, float]], tuple[float, float]]]
                 | None = None,
                 presets: Mapping[str, Preset] | None = None, preset: str | None = None,
                 key: str | None = None):
        self.system = as_model(system, "an Explorer")
        self.view = view
        self.simulate_kwargs = dict(simulate_kwargs or {})
        self.spec: dict[str, Parameter] = {
            p.name: p for p in (*system.parameters, *system.initial)}
        #: The parameters' and the initial values' tables, and the values now (checked).
        self._tables = (ParameterTable(tuple(system.parameters)),
                        ParameterTable(tuple(system.initial), "initial condition(s)", "initial"))
        self._values = tuple(table.values(None) for table in self._tables)
        names = list(self.spec) if controls is None else list(controls)
        self._known(names)
        self.limits = dict(limits or {})
        self._known(self.limits)
        self.presets = dict(presets or {})
        if preset is not None and preset not in self.presets:
            raise ValueError(f"no preset {preset!r}; known: {', '.join(self.presets) or 'none'}")
        self.defaults: dict[str, float] = {n: p.default for n, p in self.spec.items()}
        # A preset that asks is applied once built (below): the figure's axes are first fitted
        # to the defaults' motion, never to the outcome the page hides.
        asks = preset is not None and self.presets[preset].asks
        if preset is not None and not asks:
            self._set(self.presets[preset].values)
        self.closed = False
        self.key = (running_cell(), system.name, key or preset or "main")
        previous = _LIVE.pop(self.key, None)
        if previous is not None:
            previous.close()

        self.controls: dict[str, w.FloatSlider] = {n: self._slider(self.spec[n]) for n in names}
        self._quiet = False
        self._pending: dict[str, float] = {}
        self._flush_scheduled = False
        self._updated_at = -math.inf  # time.monotonic() when the last flush ended
        self.n_updates = 0
        self.on_update: list[Callable[[Trajectory], None]] = []
        self.on_close: list[Callable[[], None]] = []
        #: The playback speed of the last preset chosen (1 after reset): a scene takes it.
        self.playback_speed = 1.0 if preset is None else self.presets[preset].speed
        for slider in self.controls.values():
            slider.observe(self._on_slider, names="value")
        self._follow_limits()

        self.readout = w.HTML()
        self.readout.add_class(STATUS_CLASS)  # a polite live region (responsive.js)
        self.prompt = w.HTML(layout={"flex": "1 1 auto"})
        self.predicting = False
        self.on_predict: list[Callable[[bool], None]] = []
        #: While predicting: the axes' limits shown (those of the last motion shown), and what
        #: :meth:`reveal` undoes (hidden artists, tick labels, the limits fitted to the motion).
        self._shown_limits: list[Callable[[], None]] = []
        self._undo: list[Callable[[], None]] = []
        self.reveal_button = w.Button(description="reveal the outcome", icon="eye",
                                      tooltip="show the curves and the scene's caption now",
                                      layout={"width": "auto", "display": "none"})
        self.reveal_button.on_click(lambda _: self.reveal())
        self.error: str | None = None
        #: Seconds the last update spent simulating, moving the artists, rendering the figure.
        self.elapsed = self.refresh_seconds = self.render_seconds = 0.0
        self.trajectory = self._simulate()
        # the package's own drawing in the main thread: no widget message's render beside it
        with MATPLOTLIB_LOCK:
            with plt.ioff(), style.rc_context():
                self.figure = plt.figure(figsize=style.figure_size(view.figsize))
                view.setup(self.figure, self.trajectory)
                few_ticks(*self.figure.axes)  # every view, whatever it set up: cheap redraws
                style.pin_cycle_colours(self.figure)  # drawn outside this style's context
            self._live_canvas = isinstance(self.figure.canvas, w.DOMWidget)
            if self._live_canvas:
                canvas = self.figure.canvas
                canvas.header_visible = False
                canvas.toolbar_position = "right"
                self.layers = safe_frames(canvas)
                self._image = None
                shown: list[w.Widget] = [canvas, *private_hooks.canvas_helpers(canvas)]
            else:
                self._image = w.Image(format="png", layout={"max_width": "100%", "height": "auto"})
                shown = [self._image]
            # after the canvas: its device pixel ratio sets how wide an inch is on screen
            self.fitter = FigureFitter(self.figure, self.redraw, scope_class=EXPLORER_CLASS,
                                       stack_below=view.stack_below)
            self._readout()
        style_sheet = w.HTML(EXPLORER_CSS, layout={"height": "0px"})
        play = getattr(view, "play", None)
        if play is not None:  # its cursor follows a scene's playback too
            play.on_sample(lambda i: self.trajectory is not None and play.playing
                           and self.played_to(float(self.trajectory.t[i])))
        self._figure_column = [self.fitter.probe, *shown, *view.extra_widgets()]
        self.widget = w.VBox([style_sheet, self._control_panel(names, essential),
                              w.HBox([self.prompt, self.reveal_button],
                                     layout={"align_items": "center"}),
                              self.readout, *self._figure_column],
                             layout={"width": "100%"})
        self.widget.add_class(EXPLORER_CLASS)
        _LIVE[self.key] = self  # only once built: a failed build leaves nothing half-made live
        close_when_rerun(self.close)
        if asks and self._live_canvas:  # a page that can play it: predict first
            self.apply_preset(preset)
        elif asks:  # a static page shows the preset played
            self.update(**{**self.defaults, **self.presets[preset].values})

    # ----------------------------------------------------------------- controls
    def _known(self, names: Sequence[str] | Mapping[str, Any]) -> None:
        unknown = [n for n in names if n not in self.spec]
        if unknown:
            raise ValueError(f"no parameter or initial condition named {', '.join(unknown)}; "
                             f"known: {', '.join(self.spec)}")

    def _slider(self, p: Parameter) -> w.FloatSlider:
        low, high, step = slider_grid(p.low, p.high, p.default)
        return w.FloatSlider(value=self.values[p.name], min=low, max=high, step=step,
                             description=labels.with_unit(p.name, p.unit),
                             description_allow_html=True, tooltip=p.description or p.name,
                             continuous_update=True, readout_format=".4g",
                             **style.control_layout())

    def _control_panel(self, names: list[str], essential: Sequence[str] | None) -> w.Widget:
        """Essential sliders in a wrapping grid, the rest under "more parameters", then the
        reset and preset buttons."""
        first = list(essential) if essential is not None else names[:6]
        self._known(first)
        self.essential = [n for n in first if n in names]
        rest = [n for n in names if n not in first]
        parts: list[w.Widget] = [self._grid([self.controls[n] for n in self.essential])]
        if rest:
            parts.append(w.Accordion([self._grid([self.controls[n] for n in rest])],
                                     titles=("more parameters",), selected_index=None))
        reset = w.Button(description="reset", tooltip="every value back to its default",
                         icon="undo", layout={"width": "auto"})
        reset.on_click(lambda _: self.reset())
        buttons = [reset]
        for name, preset in self.presets.items():
            button = w.Button(description=preset.label, tooltip=preset.prompt,
                              layout={"width": "auto"})
            button.on_click(lambda _, name=name: self.apply_preset(name))
            button.add_class(PRESET_CLASS)  # keys 1–9 and the focus move find it (scene.js)
            buttons.append(button)
        parts.append(w.HBox(buttons, layout={"flex_flow": "row wrap"}))
        return w.VBox(parts)

    @staticmethod
    def _grid(sliders: list[w.Widget]) -> w.GridBox:
        # As many columns as fit: the grid wraps to one column in a narrow output area.
        return w.GridBox(sliders, layout={
            "grid_template_columns": f"repeat(auto-fill, minmax({style.slider_width()}, 1fr))",
            "width": "100%"})

    def _snapped(self, name: str, value: float) -> float:
        """``value`` on the slider's grid, without the rounding noise of the front end."""
        slider = self.controls[name]
        k = round((value - slider.min) / slider.step)
        return float(f"{slider.min + k * slider.step:.12g}")

    def _on_slider(self, change: dict) -> None:
        if self._quiet:
            return
        name = next(n for n, s in self.controls.items() if s is change["owner"])
        value = self._snapped(name, change["new"])
        if math.isclose(value, self.values[name], rel_tol=0, abs_tol=1e-9 * self.controls[
                name].step) and name not in self._pending:
            return  # the front end snapped a value we sent: nothing changed
        self.reveal()  # the reader moved on from the question
        self._pending[name] = value
        loop = running_loop()
        if loop is None:
            self.flush()
        elif not self._flush_scheduled:
            self._flush_scheduled = True
            if time.monotonic() - self._updated_at < DRAG_SECONDS:
                # moves queued while the last update ran are all read first: one update serves
                # them, ending on the last value instead of working through a backlog
                loop.call_later(COALESCE_SECONDS, self.flush)
            else:
                loop.call_soon(self.flush)

    def flush(self) -> Trajectory | None:
        """Apply every slider change received since the last update, in one update."""
        if self.closed:  # a change queued before close()
            return None
        with changing(self.figure):
            self._flush_scheduled = False
            if not self._pending or self.closed:
                return self.trajectory
            values, self._pending = self._pending, {}
            try:
                return self.update(**values)
            finally:
                self._updated_at = time.monotonic()

    def reset(self) -> Trajectory | None:
        """Every value back to its default (the parameters' defaults, not a preset's)."""
        self.prompt.value = ""
        self.reveal()
        self.playback_speed = 1.0
        self._pending.clear()  # slider moves queued before the click: older than it
        return self.update(**self.defaults)

    def apply_preset(self, name: str) -> Trajectory | None:
        """Go to preset ``name`` (the rest at defaults) and show its prompt."""
        if name not in self.presets:
            raise ValueError(f"no preset {name!r}; known: {', '.join(self.presets) or 'none'}")
        preset = self.presets[name]
        self.playback_speed = preset.speed
        self._pending.clear()  # slider moves queued before the click would undo the preset
        # Hidden before the update, not after it: no frame of the new motion, no caption of
        # it (read aloud by a screen reader) and no axis fitted to it reaches the page first.
        if preset.asks:
            self._hide_outcome()  # the update draws
        else:
            self.reveal()
        traj = self.update(**{**self.defaults, **preset.values})
        if traj is None:
            self.reveal()  # refused: the motion shown stays, with the reason
        elif preset.prompt:
            self.prompt.value = (f"<div><b>Predict before you press "
                                 f"play:</b> {html.escape(preset.prompt)}</div>")
        return traj

    def place_beside(self, widget: w.Widget) -> None:
        """Show ``widget`` (the explorer's scene) to the right of the figure, the figure
        taking :data:`BESIDE_SHARE` of the width at its own aspect and never stacking its
        panels: one explorer and its scene on one screen (lecture mode, :meth:`Scene.follow`)."""
        # The columns grow from no width in proportion to their shares (in per cent: factors
        # summing below 1 would leave a column alone on its line short of the whole width),
        # each to its least width at least: where both do not fit, the scene wraps below.
        left = w.VBox(self._figure_column, layout={
            "flex": f"{100 * BESIDE_SHARE:.0f} 1 0px",
            "min_width": f"{self.fitter.narrowest_beside_px():.0f}px"})
        right = w.VBox([widget], layout={"flex": f"{100 * (1 - BESIDE_SHARE):.0f} 1 0px",
                                         "min_width": f"{SCENE_MIN_PX}px",
                                         "padding": "0 0 0 12px"})
        head = [c for c in self.widget.children if c not in self._figure_column]
        self.widget.children = (*head, w.HBox([left, right], layout={
            "width": "100%", "flex_flow": "row wrap"}))
        self.fitter.keep_aspect = True
        self.fitter.stack_below = 0.0

    def _hide_outcome(self) -> None:
        """Predict mode: hide the outcome (the artists in the axes, the numbers on every axis,
        the readout's events, a following scene's caption); the axes keep their limits until
        it is revealed (:meth:`update`): limits fitted to the hidden curves tell it (a
        constraint force's axis of ±1e-12 says it is zero).  Nothing to do while predicting."""
        if self.predicting:
            return
        self._shown_limits = [_limits(ax) for ax in self.figure.axes]
        self._hide_artists()
        for axis in [axis for ax in self.figure.axes for axis in _axes(ax)]:
            self._undo.append(functools.partial(axis.set_major_formatter,
                                                axis.get_major_formatter()))
            axis.set_major_formatter(NullFormatter())  # no tick labels, no offset (1e-12)
        self._set_predicting(True)

    def _hide_artists(self) -> None:
        """Hide the curves, markers, patches, texts and images shown in the axes (those a
        view's refresh drew anew too), to show them again on :meth:`reveal`."""
        shown = [a for ax in self.figure.axes
                 for a in (*ax.lines, *ax.collections, *ax.patches, *ax.texts, *ax.images)
                 if a.get_visible()]
        for artist in shown:
            artist.set_visible(False)
            self._undo.append(functools.partial(artist.set_visible, True))

    def reveal(self) -> None:
        """End predict mode: show what :meth:`apply_preset` hid (nothing if not predicting)."""
        if not self.predicting:
            return
        for undo in self._undo:
            undo()
        self._shown_limits, self._undo = [], []
        self._set_predicting(False)

    def played_to(self, t: float) -> None:
        """Playback reached time ``t``: past :data:`PLAYED_SHARE` of the motion, reveal."""
        if self.predicting and self.trajectory is not None:
            t0, t1 = float(self.trajectory.t[0]), float(self.trajectory.t[-1])
            if t >= t0 + PLAYED_SHARE * (t1 - t0):
                self.reveal()

    def _set_predicting(self, on: bool) -> None:
        """Enter or leave predict mode; leaving it redraws (entering, the update draws)."""
        self.predicting = on
        self.fitter.data_changed()  # the tick labels went or came back: lay out again
        self.reveal_button.layout.display = "" if on else "none"
        (self.widget.add_class if on else self.widget.remove_class)(PREDICTING_CLASS)
        self._readout()
        for listener in list(self.on_predict):
            listener(on)
        if not on:
            with changing(self.figure):
                self.redraw()

    def update(self, **values: Any) -> Trajectory | None:
        """Set values (by parameter name), re-simulate and redraw; synchronous.

        Returns the new trajectory, or ``None`` when the values are refused or the motion
        cannot be simulated; the reason is then shown in the readout (and in ``error``).
        """
        if self.closed:
            raise RuntimeError(f"this explorer of {self.system.name} was closed (a newer one "
                               "replaced it, or close() was called); build a new one")
        with changing(self.figure):  # widget messages may arrive on another kernel thread
            self.n_updates += 1
            previous = self._values
            try:
                self._set(values)
                given = {name: self.values[name] for name in values}
                self._follow_dependents(given)
                # the values typed first, so that the message names them; the sliders move only
                # once every value is in its range (a limit with low > high is a refused trait)
                self._check_ranges({**given, **self.values})
                self._follow_limits()
                traj = self._simulate()
            except (ValueError, SingularConfigurationError) as exc:
                self.error = str(exc)
                self._values = previous
                self._follow_limits()
                self._readout()
                return None
            self.error = None
            self.trajectory = traj
            # first: a scene's message is cheap, figures are not; over a copy, because a
            # listener may remove itself (the bicycle's one-shot C build) and must not make the
            # loop skip the next one (the scene)
            for listener in list(self.on_update):
                listener(traj)
            start = time.perf_counter()
            with style.rc_context():
                self.view.refresh(traj)
            if self.predicting:  # the limits fitted to the hidden motion wait for the reveal
                self._hide_artists()
                self._undo += [_limits(ax) for ax in self.figure.axes]  # the last ones win
                for restore in self._shown_limits:
                    restore()
            self.fitter.data_changed()
            self._readout()
            self.refresh_seconds = time.perf_counter() - start
            start = time.perf_counter()
            self.redraw()
            self.render_seconds = time.perf_counter() - start
            return traj

    @property
    def values(self) -> dict[str, float]:
        """The values now by name: the parameters', then the initial values'."""
        return {**self._values[0], **self._values[1]}

    def _set(self, values: Mapping[str, Any]) -> None:
        """Set values, each checked once by its parameter's rule through the model's tables
        (:meth:`~companion.system.Parameter.check`), which ``simulate`` then takes as checked;
        the slider ranges are checked after (:meth:`_check_ranges`)."""
        self._known(values)
        self._values = tuple(table.values({n: values[n] for n in table.names if n in values}, now)
                             for table, now in zip(self._tables, self._values, strict=True))

    def range_of(self, name: str) -> tuple[float, float]:
        """Where ``name`` may go now: its slider's range, narrowed by a dependent limit."""
        p = self.spec[name]
        low, high = p.low, p.high
        if name in self.limits:
            dep_low, dep_high = self.limits[name](self.values)
            low, high = max(low, dep_low), min(high, dep_high)
        return low, high

    def _follow_dependents(self, given: Mapping[str, float]) -> None:
        """A value whose range depends on others (μ_k ≤ μ_s) and that was not given itself
        moves into its new range: moving μ_s below μ_k drags μ_k along, never a dead zone."""
        for name in self.limits:
            if name not in given and name in self.values:
                low, high = self.range_of(name)
                value = self.values[name]
                if low <= high and not low <= value <= high:
                    self._set({name: min(max(value, low), high)})

    def _check_ranges(self, values: Mapping[str, float]) -> None:
        """Refuse values outside their range: the ranges are where the example is known to
        simulate quickly and meaningfully (a spin of 10⁶ rad/s would block the kernel)."""
        for name, value in values.items():
            low, high = self.range_of(name)
            if not low - 1e-12 <= value <= high + 1e-12:
                raise ValueError(f"{labels.plain(name)} = {value:g} is outside this explorer's "
                                 f"range [{low:g}, {high:g}]")

    def _follow_limits(self) -> None:
        """Sliders show the current values, over their current ranges (without updates)."""
        with quietly(self):
            for name, slider in self.controls.items():
                low, high = self.range_of(name)
                if name in self.limits and (slider.min, slider.max) != (low, high):
                    # widen first so that no bound ever crosses the value (a refused trait)
                    slider.min, slider.max = min(slider.min, low), max(slider.max, high)
                    slider.value = min(max(self.values[name], low), high)
                    slider.min, slider.max = low, high
                value = self.values[name]
                # Only a real change goes to the front end: echoing a value that differs by
                # rounding noise (0.6200000000000001 → 0.62) would arrive after the reader's
                # later moves and pull the slider back (issue 17).
                if slider.min <= value <= slider.max and not math.isclose(
                        slider.value, value, rel_tol=0, abs_tol=1e-9 * slider.step):
                    slider.value = value

    def _simulate(self) -> Trajectory:
        start = time.perf_counter()
        params, initial = self._values
        traj = self.system.simulate(params=params, initial=initial, **self.simulate_kwargs)
        self.elapsed = time.perf_counter() - start
        return traj

    # ----------------------------------------------------------------- lifecycle
    def close(self) -> None:
        """Free the widgets (in the front end and in the kernel's registry) and the figure;
        called too when a newer explorer of its system and key is built, and when its cell
        runs again.  It lets go of everything it made: IPython's output history (``Out[5]``)
        may keep the explorer object, and must not keep its figure (0.7–7 MB each)."""
        if self.closed:
            return
        self.closed = True
        if _LIVE.get(self.key) is self:
            del _LIVE[self.key]
        for slider in self.controls.values():
            slider.unobserve(self._on_slider, names="value")
        self.predicting, self._shown_limits, self._undo = False, [], []
        self.view.close()
        self.fitter.close()
        close_tree(self.widget)
        plt.close(self.figure)
        self.on_update.clear()  # a scene's show, which holds its keyframes
        self.on_predict.clear()
        closing, self.on_close = self.on_close, []
        for listener in closing:
            listener()
        self.trajectory = self.figure = self.view = self.fitter = self.layers = None
        self.widget = self._image = None
        self.controls, self._figure_column = {}, []

    # ----------------------------------------------------------------- drawing
    def redraw(self) -> None:
        """Render the live canvas now, which sends the image to the front end (``draw_idle``
        would ask the front end to ask back for a draw: a round trip per slider move); the
        PNG fallback only once shown (else it would draw for nobody)."""
        if self._live_canvas:
            canvas = self.figure.canvas
            if private_hooks.front_end_ready(canvas):
                canvas.draw()
            else:
                canvas.draw_idle()  # no front end has shown the canvas yet: let it ask
        elif self._image is not None and self._image.value:  # shown already
            self._image.value = self.png()

    def png(self) -> bytes:
        """The figure as PNG bytes."""
        return figure_png(self.figure, dpi=80)

    def _readout(self) -> None:
        """Show the status line, and give screen readers the outcome: the status line is a
        polite live region that starts with the view's description of the motion (visually
        hidden: the figure shows it), and the live figure is named by :meth:`describe`."""
        outcome = (html.escape(self.view.describe(self.trajectory))
                   if self.error is None and self.trajectory is not None
                   and not self.predicting else "")
        self.readout.value = (f"<div><span class='{style.SCREEN_READER_CLASS}'>{outcome}</span>"
                              f"{self.readout_html()}</div>")
        self.fitter.probe.description = self.describe()

    def readout_html(self) -> str:
        """A plain-language status line (or the error), and the figures behind it on demand:
        every invariant's drift, every residual, the events; while predicting, only that a
        prediction is asked (:data:`PREDICT_STATUS`)."""
        if self.error is not None:
            return (f"<span style='color:#b00020'><b>Cannot simulate:</b> "
                    f"{html.escape(self.error)}</span>")
        # every figure of the hidden run tells of it (a drift of 0e+00), and so does the
        # time it took (a motion that turns takes longer to simulate)
        if self.predicting:
            return PREDICT_STATUS
        # the timing is not the outcome: a live region reading it after every move is noise
        timing = f"<span aria-hidden='true'>simulated in {1e3 * self.elapsed:.0f} ms</span>"
        traj = self.trajectory
        status = []
        if traj.invariants:
            kept = ", ".join(html.escape(k) for k in traj.invariants)
            status.append(f"{kept} kept to {max(map(traj.drift, traj.invariants)):.0e}")
        if traj.residuals:
            worst = max(traj.max_residual(k) for k in traj.residuals)
            status.append(f"constraints held to {worst:.0e}")
        if traj.events:
            status.append(f"⚠ {html.escape(traj.events[0])}"
                          + (f" (+{len(traj.events) - 1} more)" if len(traj.events) > 1 else ""))
        status.append(timing)
        details = [f"{html.escape(k)} drift {traj.drift(k):.1e}" for k in traj.invariants]
        details += [f"max |{html.escape(k)}| {traj.max_residual(k):.1e}" for k in traj.residuals]
        details += [f"⚠ {html.escape(e)}" for e in traj.events]
        return (" · ".join(status) + "<details><summary>details</summary>"
                + "<br>".join(details) + "</details>")

    def describe(self) -> str:
        """Alt text: the system, the values used and what the figure shows."""
        values = ", ".join(f"{labels.plain(k)} = {v:.3g}" for k, v in self.values.items()
                           if np.isfinite(v))
        body = (self.view.describe(self.trajectory)  # the outcome: not while predicting
                if self.trajectory is not None and not self.predicting else "")
        return f"{self.system.title} ({values}). {body}".strip()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        if self.closed:
            return {"text/plain": repr(self)}
        png, text, readout = self.png(), self.describe(), self.readout_html()
        if self._image is not None and not self._image.value:
            self._image.value = png
        bundle = dict(self.widget._repr_mimebundle_() or {})
        bundle["text/plain"] = f"{text}\n{readout}"
        bundle["text/html"] = (
            f"<figure><img alt=\"{html.escape(text, quote=True)}\" src=\"data:image/png;base64,"
            f"{base64.b64encode(png).decode()}\"><figcaption>{html.escape(text)}"
            f"</figcaption></figure>{readout}")
        return bundle

    def __repr__(self) -> str:
        if self.closed:
            return f"<Explorer of {self.system.name}: closed>"
        return f"<Explorer of {self.system.name}: {len(self.controls)} controls>"
