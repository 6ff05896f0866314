"""Explorer: sliders for a system's parameters and initial conditions → re-simulate → update
one matplotlib figure in place, with a readout of invariants, residuals and events.

A :class:`View` draws a trajectory: it creates its artists once in :meth:`View.setup` and
moves them in :meth:`View.refresh` (``set_data`` and friends), so no figure is ever created
per update.  With the ipympl backend (``%matplotlib widget``) the figure is the live canvas;
under any other backend (Agg in tests, nbconvert) a PNG of the figure is shown instead.
"""

from __future__ import annotations

import asyncio
import base64
import html
import io
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as w
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import LogLocator, NullLocator

from companion.numerics import SingularConfigurationError, Trajectory
from companion.system import Parameter, System
from companion.widgets import style


class View:
    """How an explorer draws a trajectory.  Subclasses implement ``setup`` and ``refresh``.

    Attributes
    ----------
    figsize
        Size of the figure the explorer creates for this view, in inches.
    """

    figsize: tuple[float, float] = (9.0, 6.0)

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
        """Widgets shown under the figure (e.g. a :class:`~companion.widgets.play.PlayControl`),
        created in :meth:`setup`."""
        return []


def rescale(ax, *, x: bool = True, y: bool = True) -> None:
    """Fit the limits of ``ax`` to its current artists (after ``set_data``)."""
    ax.relim()
    ax.autoscale_view(scalex=x, scaley=y)


def few_ticks(*axes, nbins: int = 4) -> None:
    """At most ``nbins`` intervals between ticks on the axes given, and no minor ticks on log
    axes: ticks and their labels are the bulk of the cost of redrawing a figure (a log axis
    over ten decades otherwise carries some ninety minor ticks)."""
    for ax in axes:
        if getattr(ax, "name", "") == "3d":
            continue
        for axis, scale in (("x", ax.get_xscale()), ("y", ax.get_yscale())):
            target = ax.xaxis if axis == "x" else ax.yaxis
            if scale == "linear":
                ax.locator_params(axis=axis, nbins=nbins)
            elif scale == "log":
                target.set_major_locator(LogLocator(numticks=nbins + 1))
                target.set_minor_locator(NullLocator())


#: CSS class of every explorer's outer box: browser tests and benchmarks find explorers by it.
EXPLORER_CLASS = "companion-explorer"

#: Seconds a slider change waits for newer ones before the update runs (inside a kernel).
COALESCE_SECONDS = 0.01


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop while it handles a message, else None (scripts, tests)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _is_widget(canvas: Any) -> bool:
    return isinstance(canvas, w.DOMWidget)


class Explorer:
    """Sliders → simulate → one figure updated in place.

    Parameters
    ----------
    system
        The :class:`~companion.system.System` to explore.
    view
        The :class:`View` that draws its trajectories.
    controls
        Names of parameters and initial conditions that get sliders (default: all).
    simulate_kwargs
        Extra keyword arguments for ``system.simulate`` (``t_final``, ``n_points``, ...).

    Attributes
    ----------
    controls
        Sliders by name.
    figure
        The one matplotlib figure.
    trajectory
        The last successful simulation.
    widget
        The ipywidgets box to display.
    on_update
        Functions called with each new trajectory after an update (a scene replaces its
        motion this way).
    """

    def __init__(self, system: System, view: View, *, controls: Sequence[str] | None = None,
                 simulate_kwargs: Mapping[str, Any] | None = None):
        self.system = system
        self.view = view
        self.simulate_kwargs = dict(simulate_kwargs or {})
        spec: dict[str, Parameter] = {p.name: p for p in (*system.parameters, *system.initial)}
        self._param_names = {p.name for p in system.parameters}
        names = list(spec) if controls is None else list(controls)
        unknown = [n for n in names if n not in spec]
        if unknown:
            raise ValueError(f"no parameter or initial condition named {', '.join(unknown)}; "
                             f"known: {', '.join(spec)}")
        self.values: dict[str, float] = {n: p.default for n, p in spec.items()}
        self.controls: dict[str, w.FloatSlider] = {
            n: self._slider(spec[n]) for n in names}
        self._quiet = False
        self._pending: dict[str, float] = {}
        self._flush_scheduled = False
        self.n_updates = 0
        self.on_update: list[Callable[[Trajectory], None]] = []
        for slider in self.controls.values():
            slider.observe(self._on_slider, names="value")

        self.readout = w.HTML()
        self.error: str | None = None
        #: Seconds the last update spent simulating, moving the artists, rendering the figure.
        self.elapsed = self.refresh_seconds = self.render_seconds = 0.0
        self.trajectory = self._simulate()
        with plt.ioff(), style.rc_context():
            self.figure = plt.figure(figsize=style.figure_size(view.figsize))
            view.setup(self.figure, self.trajectory)
            few_ticks(*self.figure.axes)  # every view, whatever it set up: cheap redraws
        self._image_shown = False
        self._live_canvas = _is_widget(self.figure.canvas)
        if self._live_canvas:
            canvas = self.figure.canvas
            canvas.header_visible = False
            canvas.toolbar_position = "right"
            self._image = None
            shown = canvas
        else:
            self._image = w.Image(format="png")
            shown = self._image
        self._readout()
        sliders = w.GridBox(list(self.controls.values()),
                            layout={"grid_template_columns": "repeat(2, max-content)"})
        self.widget = w.VBox([sliders, self.readout, shown, *view.extra_widgets()])
        self.widget.add_class(EXPLORER_CLASS)

    # ----------------------------------------------------------------- controls
    def _slider(self, p: Parameter) -> w.FloatSlider:
        label = f"{p.name}" + (f" [{p.unit}]" if p.unit else "")
        return w.FloatSlider(value=p.default, min=p.low, max=p.high, step=(p.high - p.low) / 200,
                             description=label, description_allow_html=False,
                             tooltip=p.description, continuous_update=True,
                             readout_format=".3g", **style.control_layout())

    def _on_slider(self, change: dict) -> None:
        if self._quiet:
            return
        name = next(n for n, s in self.controls.items() if s is change["owner"])
        self._pending[name] = change["new"]
        loop = _running_loop()
        if loop is None:
            self.flush()
        elif not self._flush_scheduled:
            # Slider moves that arrive while an update is being computed are already queued in
            # the kernel; waiting a moment lets them all be read, so one update serves them
            # all and the figure ends on the last value instead of working through a backlog.
            self._flush_scheduled = True
            loop.call_later(COALESCE_SECONDS, self.flush)

    def flush(self) -> Trajectory | None:
        """Apply every slider change received since the last update, in one update."""
        self._flush_scheduled = False
        if not self._pending:
            return self.trajectory
        values, self._pending = self._pending, {}
        return self.update(**values)

    def update(self, **values: Any) -> Trajectory | None:
        """Set values (by parameter name), re-simulate and redraw; synchronous.

        Returns the new trajectory, or ``None`` when the values are refused or the motion
        cannot be simulated; the reason is then shown in the readout (and in ``error``).
        """
        self.n_updates += 1
        previous = dict(self.values)
        self.values.update(values)
        self._show_values(values)
        try:
            self._check_ranges(values)
            traj = self._simulate()
        except (ValueError, SingularConfigurationError) as exc:
            self.error = str(exc)
            self.values = previous
            self._show_values(previous)
            self._readout()
            return None
        self.error = None
        self.trajectory = traj
        for listener in self.on_update:  # first: a scene's message is cheap, figures are not
            listener(traj)
        start = time.perf_counter()
        with style.rc_context():
            self.view.refresh(traj)
        self._readout()
        self.refresh_seconds = time.perf_counter() - start
        start = time.perf_counter()
        self.redraw()
        self.render_seconds = time.perf_counter() - start
        return traj

    def _check_ranges(self, values: Mapping[str, Any]) -> None:
        """Refuse values outside a slider's range: the ranges are where the example is known
        to simulate quickly and meaningfully (a spin of 10⁶ rad/s would block the kernel)."""
        for name, value in values.items():
            slider = self.controls.get(name)
            if slider is not None and isinstance(value, (int, float)) \
                    and not slider.min <= value <= slider.max:
                raise ValueError(f"{name} = {value:g} is outside this explorer's range "
                                 f"[{slider.min:g}, {slider.max:g}]")

    def _show_values(self, values: Mapping[str, Any]) -> None:
        """Move sliders to the values given (those in range), without triggering updates."""
        self._quiet = True
        try:
            for name, value in values.items():
                slider = self.controls.get(name)
                if slider is not None and isinstance(value, (int, float)) \
                        and slider.min <= value <= slider.max:
                    slider.value = value
        finally:
            self._quiet = False

    def _simulate(self) -> Trajectory:
        start = time.perf_counter()
        params = {n: v for n, v in self.values.items() if n in self._param_names}
        initial = {n: v for n, v in self.values.items() if n not in self._param_names}
        traj = self.system.simulate(params=params, initial=initial, **self.simulate_kwargs)
        self.elapsed = time.perf_counter() - start
        return traj

    # ----------------------------------------------------------------- drawing
    def redraw(self) -> None:
        """Render the live canvas now, which also sends the new image to the front end (one
        message, where ``draw_idle`` would first ask the front end to ask back for a draw:
        a round trip saved on every slider move).  A static figure is re-rendered only once
        shown (the PNG fallback), since a non-interactive canvas would draw for nobody."""
        if self._live_canvas:
            canvas = self.figure.canvas
            if getattr(canvas, "syncing_data_url", True):
                canvas.draw_idle()  # no front end has shown the canvas yet: let it ask
            else:
                canvas.draw()
        elif self._image_shown:
            self._image.value = self.png()

    def png(self) -> bytes:
        """The figure as PNG bytes."""
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", dpi=80)
        return buf.getvalue()

    def _readout(self) -> None:
        self.readout.value = f"<div style='{style.text_css()}'>{self.readout_html()}</div>"

    def readout_html(self) -> str:
        """Invariant drifts, residuals, events (or the error) as HTML."""
        if self.error is not None:
            return (f"<span style='color:#b00020'><b>Cannot simulate:</b> "
                    f"{html.escape(self.error)}</span>")
        traj = self.trajectory
        items = [f"{html.escape(k)} drift {traj.drift(k):.1e}" for k in traj.invariants]
        items += [f"max |{html.escape(k)}| {traj.max_residual(k):.1e}" for k in traj.residuals]
        items.append(f"simulated in {1e3 * self.elapsed:.0f} ms")
        text = " · ".join(items)
        if traj.events:
            text += "<br>" + "<br>".join(f"⚠ {html.escape(e)}" for e in traj.events)
        return text

    def describe(self) -> str:
        """Alt text: the system, the values used and what the figure shows."""
        values = ", ".join(f"{k} = {v:.3g}" for k, v in self.values.items()
                           if isinstance(v, (int, float)) and np.isfinite(v))
        body = self.view.describe(self.trajectory) if self.trajectory is not None else ""
        return f"{self.system.title} ({values}). {body}".strip()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        if self._image is not None and not self._image_shown:
            self._image_shown = True
            self._image.value = self.png()
        bundle = dict(self.widget._repr_mimebundle_() or {})
        png = self.png()
        alt = html.escape(self.describe(), quote=True)
        bundle["text/plain"] = f"{self.describe()}\n{self.readout_html()}"
        bundle["text/html"] = (
            f"<img alt=\"{alt}\" src=\"data:image/png;base64,"
            f"{base64.b64encode(png).decode()}\"><br>{self.readout_html()}")
        return bundle

    def __repr__(self) -> str:
        return f"<Explorer of {self.system.name}: {len(self.controls)} controls>"
