"""Explorer figures that follow the width of their output area (issue 17 item 1).

ipympl (0.10) draws a canvas of a fixed size in pixels, set by matplotlib's ``figsize``: its
front end does not follow its container (ipympl#297), and ``fig.canvas.layout.width = "100%"``
only widens the widget's outer box while the canvas inside keeps its size, so a figure wider
than its cell is cut off.  The size has to be changed where it is defined, in the kernel:

* a :class:`WidthProbe` (a tiny anywidget, ``responsive.js``) watches the explorer's width with a
  ``ResizeObserver`` and reports the width the figure may take (minus its toolbar);
* a :class:`FigureFitter` resizes the figure to it (``set_size_inches(forward=True)``, which
  ipympl forwards to its front end as a ``resize`` message), stacks the panels in one column
  when the width is below :func:`~companion.widgets.style.stack_below_px`, and runs matplotlib's
  constrained layout so that no label, legend or title is clipped at any width.

The probe's front end also mends what ipympl's leaves out for keyboard and screen-reader users
(issue 38, notes in ``responsive.js``): Tab and Escape leave the canvas (ipympl's keeps every
key: a keyboard trap), the canvas is an image named by :attr:`WidthProbe.description`, the
container's status line (:data:`STATUS_CLASS`) is a polite live region, and slider handles get
their label as name and their value rounded to the step, with its unit.

Two ways this goes wrong, which the probe avoids: an output that is hidden or detached
(JupyterLab detaches cells scrolled far away) measures 0 wide, and a 0-wide figure collapses
for good (widths below :data:`MIN_WIDTH_PX` are ignored); and an element whose width follows
the canvas (its own box) feeds the figure's width back to itself, so it never grows again
(the probe is a zero-height strip whose width comes from the output area, never the figure).

The layout engine runs when the size changes, and after an update only once the values settle
and only if something it measures changed (:func:`layout_key`), not on every frame: a pass
costs 0.4–0.8 of a draw (knife edge, double pendulum, Euler body), and a skipped one leaves the
same pixels (``benchmarks/explorer_timing.py``).
"""

from __future__ import annotations

import asyncio
import base64
import math
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as w
import numpy as np
import traitlets
from matplotlib.figure import Figure
from matplotlib.gridspec import GridSpec, SubplotSpec
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.text import Text
from matplotlib.ticker import NullLocator

from companion.widgets import frames, private_hooks, style
from companion.widgets.background import _apply_aspect, _axes, _is_3d, _rounded, _titles
from companion.widgets.frames import MATPLOTLIB_LOCK, changing, holding_matplotlib, lock_messages
from companion.widgets.lifecycle import close_tree

_ESM_SOURCE = (Path(__file__).parent / "responsive.js").read_text(encoding="utf-8")

#: Narrowest width the probe reports and a figure takes (CSS pixels): narrower readings come
#: from hidden or detached outputs, and narrower figures have no room for their tick labels.
MIN_WIDTH_PX = 280

#: Seconds after the last update before the layout is recomputed for the new tick labels.
SETTLE_SECONDS = 0.3

#: Space between panels (inches) side by side, and between stacked panels.
WIDE_PAD, STACKED_H_PAD = 0.04, 0.2

#: Share of its nominal size down to which a figure beside its scene keeps its text size; a
#: smaller one (a small screen) shrinks its text with it.  Measured on the Euler body's 2×2
#: figure in lecture mode: at 0.77 of nominal (1920×1080) its titles fit, at 0.51 (1280×720)
#: the polhode's title ran into the next panel's.
FULL_TEXT_SHARE = 0.75

#: Share of its nominal size below which a figure beside its scene does not shrink to fit the
#: screen's height (it runs below the fold instead), and, as the narrowest its column takes,
#: below which the scene moves under the figure.  Measured on the disk–link's five panels in
#: lecture mode: at 0.36 (1280×720, 1024×768) legends covered the neighbouring panels and tick
#: labels ran together; at 0.5 every title, label and legend stays in its own panel.
MIN_BESIDE_SCALE = 0.5

#: CSS class of a status line the probe's front end makes a polite live region (``role=status``).
STATUS_CLASS = "companion-status"

#: Elements beside the canvas, inside the explorer, that take width from it: ipympl's toolbar.
FIGURE_NEIGHBOURS = ".jupyter-matplotlib-toolbar"


class WidthProbe(anywidget.AnyWidget):
    """A zero-height strip, as wide as its container, that reports the width (CSS pixels) left
    for a figure in :attr:`width`; 0 until a front end has measured it."""

    _esm = _ESM_SOURCE
    width = traitlets.Int(0).tag(sync=True)
    #: The screen's height (CSS pixels) below the probe when its container is scrolled to the
    #: top, less the page's bottom reserve; 0 until measured.
    height = traitlets.Int(0).tag(sync=True)
    #: CSS class of the container the probe measures in (the explorer's box).
    scope_class = traitlets.Unicode("").tag(sync=True)
    #: CSS selector of elements in that container whose widths are not the figure's.
    reserve_selector = traitlets.Unicode(FIGURE_NEIGHBOURS).tag(sync=True)
    min_width = traitlets.Int(MIN_WIDTH_PX).tag(sync=True)
    #: Text alternative of the live figure in that container (WCAG 1.1.1): its canvas is an
    #: image with this name; the explorer rewrites it after every update.
    description = traitlets.Unicode("").tag(sync=True)
    debounce_ms = traitlets.Int(150).tag(sync=True)


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop while it handles a message, else None (scripts, tests)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class FigureFitter:
    """Keeps a figure as wide as its output area, its panels side by side or stacked.

    Parameters
    ----------
    figure
        The figure, its axes placed on gridspecs: that placement is the wide layout.
    redraw
        Called after the figure changed size or layout, to show it.
    scope_class
        CSS class of the box the probe measures (the explorer's).
    stack_below
        The breakpoint outside lecture mode (:func:`~companion.widgets.style.stack_below_px`).

    Attributes
    ----------
    probe
        The :class:`WidthProbe` to display with the figure.
    stacked
        Whether the panels are in one column.
    keep_aspect
        Keep the nominal aspect, as wide as the column and no taller than the probe's
        :attr:`~WidthProbe.height`, not the nominal height: a figure beside its scene
        (lecture mode) fits the screen, its text shrinking below :data:`FULL_TEXT_SHARE`.
    """

    def __init__(self, figure: Figure, redraw: Callable[[], None], *, scope_class: str = "",
                 stack_below: float = style.STACK_BELOW_PX):
        self.figure = figure
        self.stack_below = stack_below
        self._redraw = redraw
        self.nominal_inches = tuple(float(x) for x in figure.get_size_inches())
        self._engine = ConstrainedLayoutEngine(h_pad=WIDE_PAD, w_pad=WIDE_PAD)
        self._wide_specs = {ax: ax.get_subplotspec() for ax in figure.axes
                            if ax.get_subplotspec() is not None}
        #: the wide layout's panels (twin axes share one: subplot specs of one cell are equal)
        #: in the order the view created them, each with the share of the height it spans
        self._shares = {spec: _height_share(spec) for spec in self._wide_specs.values()}
        self.stacked = False
        self.keep_aspect = False
        self._text_scale = 1.0
        #: the size each text (each axis's tick labels) had before any scaling
        self._text_sizes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        #: :func:`layout_key` after the last layout pass
        self._laid_out: tuple = ()
        self._settle_handle: asyncio.TimerHandle | None = None
        self.probe = WidthProbe(scope_class=scope_class)
        self.probe.observe(self._on_size, names=["width", "height"])
        self.layout()  # holding the lock: the size arrives in a subshell's thread

    # ------------------------------------------------------------------ sizing
    @property
    def pixels_per_inch(self) -> float:
        """CSS pixels per inch of the figure (its dpi over the screen's pixel ratio)."""
        ratio = getattr(self.figure.canvas, "device_pixel_ratio", 1) or 1
        return self.figure.dpi / ratio

    def breakpoint_px(self) -> float:
        """The width (CSS pixels) below which the panels are stacked, in the current style."""
        return style.stack_below_px(self.stack_below)

    def width_px(self) -> float:
        """The figure's width in CSS pixels."""
        return float(self.figure.get_size_inches()[0]) * self.pixels_per_inch

    def fit(self, width_px: float) -> None:
        """Make the figure ``width_px`` CSS pixels wide (at least :data:`MIN_WIDTH_PX`), stack
        its panels below :meth:`breakpoint_px`, lay it out, redraw.

        The height is the view's nominal height side by side, and the sum of the panels'
        nominal heights when stacked: text keeps its size whatever the width.  With
        :attr:`keep_aspect`, the nominal shape scaled to fit the width and the probe's height
        (when measured), never below :data:`MIN_BESIDE_SCALE` for the height's sake: on a
        small screen the figure stays legible and the page scrolls.
        """
        try:
            pixels = float(width_px)
        except (TypeError, ValueError):
            pixels = math.nan
        if not 0 < pixels < math.inf:
            raise ValueError(f"a figure width must be a positive number of pixels, got "
                             f"{width_px!r}")
        width_px = max(pixels, MIN_WIDTH_PX)
        # the width arrives on a comm, possibly on another kernel thread than the sliders':
        # resize, lay out and render under the figure's one lock (frames.changing)
        with changing(self.figure):
            self._arrange(stacked=width_px < self.breakpoint_px())
            width_in = width_px / self.pixels_per_inch
            height_in = self.nominal_inches[1] * (sum(self._shares.values())
                                                  if self.stacked else 1.0)
            self._text_scale = 1.0
            if self.keep_aspect and not self.stacked:
                wide, high = (x * self.pixels_per_inch for x in self.nominal_inches)
                scale = width_px / wide
                if self.probe.height > 0:
                    scale = min(scale, max(self.probe.height / high, MIN_BESIDE_SCALE))
                width_in, height_in = (scale * x for x in self.nominal_inches)
                self._text_scale = min(1.0, scale / FULL_TEXT_SHARE)
            self.figure.set_size_inches(width_in, height_in, forward=True)
            self.layout()
            self._redraw()

    def narrowest_beside_px(self) -> float:
        """The narrowest column (CSS pixels) a figure beside its scene takes: narrower, the
        scene goes below it (:data:`MIN_BESIDE_SCALE` of the nominal width)."""
        return MIN_BESIDE_SCALE * self.nominal_inches[0] * self.pixels_per_inch

    def _on_size(self, change: dict[str, Any]) -> None:
        if change["name"] == "height" and not self.keep_aspect:
            return  # only a figure beside its scene follows the screen's height
        if self.probe.width >= MIN_WIDTH_PX:  # 0 until measured
            self.fit(self.probe.width)

    # ------------------------------------------------------------------ panels
    def _arrange(self, *, stacked: bool) -> None:
        """Put the panels side by side (the view's layout) or in one column."""
        if stacked == self.stacked:
            return
        self.stacked = stacked
        # stacked 3D panels draw their lower axis label a little below the box the layout
        # engine measures (ω_x of the Euler body's polhode ran into the next title)
        self._engine.set(h_pad=STACKED_H_PAD if stacked else WIDE_PAD)
        if not stacked:
            for ax, spec in self._wide_specs.items():
                ax.set_subplotspec(spec)
            return
        panels = list(self._shares)
        column = GridSpec(len(panels), 1, figure=self.figure,
                          height_ratios=list(self._shares.values()))
        for ax, spec in self._wide_specs.items():
            ax.set_subplotspec(column[panels.index(spec), 0])

    # ------------------------------------------------------------------ layout
    def layout(self) -> bool:
        """Run the constrained layout now; whether any panel moved."""
        with MATPLOTLIB_LOCK:
            before = [ax.get_position().bounds for ax in self.figure.axes]
            self._scale_texts()
            self._engine.execute(self.figure)
            after = [ax.get_position().bounds for ax in self.figure.axes]
            self._laid_out = layout_key(self.figure)
        return not np.allclose(before, after, atol=1e-4)

    def relayout(self) -> bool:
        """Run the constrained layout if anything it measures changed since the last pass
        (:func:`layout_key`); whether any panel moved."""
        with MATPLOTLIB_LOCK:
            return layout_key(self.figure) != self._laid_out and self.layout()

    def _scale_texts(self) -> None:
        """Give every text of the figure (titles, axis and tick labels, legends, texts in
        the axes; drawn since the last pass too) :attr:`_text_scale` times its own size."""
        sizes, factor = self._text_sizes, self._text_scale
        if factor == 1.0 and not sizes:
            return
        texts = [*self.figure.texts, *(t for legend in self.figure.legends
                                       for t in _legend_texts(legend))]
        for ax in self.figure.axes:
            for axis in _axes(ax):  # through tick_params: ticks made later take the size too
                ticks = axis.get_major_ticks()
                if ticks:
                    base = sizes.setdefault(axis, ticks[0].label1.get_fontsize())
                    axis.set_tick_params(which="both", labelsize=base * factor)
                texts += [axis.label, axis.offsetText]
            texts += [*_titles(ax), *ax.texts, *_legend_texts(ax.get_legend())]
        for text in texts:
            text.set_fontsize(sizes.setdefault(text, text.get_fontsize()) * factor)

    def data_changed(self) -> None:
        """The view drew new data: lay out again if anything the layout measures changed
        (:meth:`relayout`) — at once without an event loop, else :data:`SETTLE_SECONDS` after
        the last change, redrawing only when a panel moved (a drag is not slowed down by
        passes of about a whole render: 90–130 ms on the stacked disk–link figure).  A move
        that leaves every tick label as it was runs none (17 of 20 moves of the double
        pendulum's m₁, 2–3 of 20 of the knife edge's u₁, whose limits follow the motion)."""
        loop = running_loop()
        if loop is None:
            self.relayout()
            return
        if self._settle_handle is not None:
            self._settle_handle.cancel()
        self._settle_handle = loop.call_later(SETTLE_SECONDS, self._settle)

    def _settle(self) -> None:
        self._settle_handle = None
        with changing(self.figure):
            shown = not self.figure.stale  # the last frame shows the figure as it is
            if self.relayout():
                self._redraw()
            elif shown:
                # measuring (apply_aspect, a layout pass that moved nothing) marks the figure
                # stale; left so, pyplot's draw_all after the next widget message asks the
                # front end for a second frame of every slider move
                self.figure.stale = False

    def close(self) -> None:
        """Stop following the width; free the probe."""
        if self._settle_handle is not None:
            self._settle_handle.cancel()
            self._settle_handle = None
        self.probe.unobserve(self._on_size, names=["width", "height"])
        close_tree(self.probe)


#: CSS class of the box :func:`responsive_figure` puts a figure in.
FIGURE_CLASS = "companion-figure"


class ResponsiveFigure(w.VBox):
    """The box :func:`responsive_figure` returns; without widgets (an HTML export, the static
    book) it shows the figure as a PNG."""

    @holding_matplotlib
    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["image/png"] = base64.b64encode(frames.figure_png(self.fitter.figure)).decode()
        return bundle


@holding_matplotlib
def responsive_figure(figure: Figure, description: str | None = None) -> ResponsiveFigure:
    """``figure`` (outside an explorer) as wide as its output area, its panels stacked when
    narrow: the live canvas under ipympl, else a PNG redrawn when the width changes.  The box
    keeps its :class:`FigureFitter` as ``box.fitter``.  ``description`` is the figure's text
    alternative (WCAG 1.1.1); by default its panels' titles and axis labels.
    """
    canvas = figure.canvas
    if isinstance(canvas, w.DOMWidget):
        lock_messages(canvas)
        shown: list[w.Widget] = [canvas, *private_hooks.canvas_helpers(canvas)]
        redraw: Callable[[], None] = canvas.draw_idle
    else:
        image = w.Image(format="png", layout={"max_width": "100%", "height": "auto"})
        shown = [image]

        def redraw() -> None:
            image.value = frames.figure_png(figure)

    fitter = FigureFitter(figure, redraw, scope_class=FIGURE_CLASS)
    fitter.probe.description = (figure_summary(figure) if description is None
                                else description)
    redraw()
    box = ResponsiveFigure([fitter.probe, *shown], layout={"width": "100%"})
    box.add_class(FIGURE_CLASS)
    box.fitter = fitter
    return box


def figure_summary(figure: Figure) -> str:
    """A plain text alternative of ``figure`` made of what it shows in words: "Figure: <title>
    (<y label> against <x label>); …" for each panel with a title or labels."""
    panels = []
    for ax in figure.axes:
        title = ax.get_title() or ax.get_title("left")
        x, y = ax.get_xlabel(), ax.get_ylabel()
        axes = f"{y} against {x}" if x and y else (x or y)
        text = " ".join(part for part in (title, f"({axes})" if axes else "") if part)
        if text:
            panels.append(text)
    suptitle = figure.get_suptitle()
    return "Figure" + (f" {suptitle}" if suptitle else "") + (
        ": " + "; ".join(panels) if panels else "")


def layout_key(fig: Figure) -> tuple:
    """Everything matplotlib's constrained layout measures on ``fig``, found without measuring
    a text: the figure's size; each axes' place (after ``apply_aspect``, as a render) and 3D
    projection; the tick labels each axis shows, each string with its place along the axis;
    offset texts, axis labels, titles, legends, and texts not clipped to their axes.

    Two equal keys mean a layout pass would leave every panel where it is (the same pixels):
    the pass measures these texts, which costs about a whole render, and computing the key
    a few per cent of one (9 ms against 340 ms for a pass on the knife edge's figure)."""
    parts: list[Any] = [_rounded(fig.bbox.bounds), fig.dpi, _texts_key(fig.texts, placed=True),
                        fig.get_suptitle(), *(_legend_key(legend) for legend in fig.legends)]
    for ax in fig.axes:
        _apply_aspect(ax)
        if _is_3d(ax):
            parts.append(_rounded(ax.get_proj().ravel()))
        parts.append((ax.get_visible(), ax.axison, _rounded(ax.get_position().bounds),
                      *(_axis_key(axis) for axis in _axes(ax) if axis.get_visible()),
                      _texts_key(_titles(ax)),
                      _texts_key((t for t in ax.texts if not t.get_clip_on()), placed=True),
                      _legend_key(ax.get_legend())))
    return tuple(parts)


def _axis_key(axis) -> tuple:
    """The tick labels ``axis`` draws (each with its place, a share of the axis' length, as
    matplotlib's ``Axis._update_ticks`` chooses them), its offset text, label and tick
    settings."""
    low, high = sorted(axis.get_view_interval())
    scale = axis.get_transform()
    ends = scale.transform(np.array([[low], [high]]))[:, 0]
    ticks: list[Any] = []
    for ticker in (axis.major, axis.minor):
        if isinstance(ticker.locator, NullLocator):
            continue
        values = np.asarray(ticker.locator(), dtype=float)
        names = ticker.formatter.format_ticks(values)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = (scale.transform(values[:, None])[:, 0] - ends[0]) / (ends[1] - ends[0])
        ticks += [(name, *_rounded([s])) for name, s in zip(names, share, strict=True)
                  if name and -1e-10 <= s <= 1 + 1e-10]
        ticks.append(ticker.formatter.get_offset())
    return (tuple(ticks), *_texts_key([axis.label]),
            repr(sorted(axis.get_tick_params().items())))


def _texts_key(texts, placed: bool = False) -> tuple:
    """What sets the size of each text in ``texts`` that is shown and laid out, and with
    ``placed`` its place (a text the view put; the others' follow from the rest of the key)."""
    return tuple((t.get_text(), t.get_fontsize(), t.get_rotation(), t.get_ha(), t.get_va(),
                  _rounded(t.get_transform().transform(t.get_position())) if placed else ())
                 for t in texts if t.get_visible() and t.get_in_layout() and t.get_text())


def _height_share(spec: SubplotSpec) -> float:
    """The fraction of the figure's height a panel spans in the wide layout."""
    ratios = np.asarray(spec.get_gridspec().get_height_ratios()
                        or [1.0] * spec.get_gridspec().nrows, dtype=float)
    return float(ratios[spec.rowspan].sum() / ratios.sum())


def _legend_texts(legend) -> list[Text]:
    return [] if legend is None else [*legend.get_texts(), legend.get_title()]


def _legend_key(legend) -> tuple:
    if legend is None or not legend.get_visible():
        return ()
    return _texts_key(_legend_texts(legend)), _rounded(legend.get_bbox_to_anchor().bounds)
