"""Render a live figure as a cached background and the artists drawn over it (blitting).

Most of the time matplotlib spends rendering an explorer's figure goes to text: tick labels,
titles, axis labels (issue 17 item 7 measured text at about 60 % of the disk–link figure's
render).  A slider move changes the data, rarely what surrounds it.  :class:`LayeredRender`
therefore renders the figure in two layers:

* the **background**: the figure and axes faces, ticks, tick labels, axis labels and titles,
  rendered by matplotlib as usual (the data artists set aside for that render) and kept as a
  bitmap, together with a *key* of everything it depends on (the figure's size, each axes'
  position, limits, scales, tick formatters, titles and labels);
* the **data layer**: lines, collections, patches, texts, images and legends inside the axes,
  plus the figure's own texts and legends, drawn over that bitmap in their z-order, every frame.

While the key is unchanged a frame costs the data layer only; when it changes (the limits
follow a new motion, the window is resized, the toolbar zooms) the background is rendered anew.
On 3D axes the key holds the projection (view angle, limits, box), and the collections and
patches are projected and ordered by depth before they are drawn, as ``Axes3D.draw`` does.

A background render is mostly text too, most of it the last one's (when one panel's limits
change, the other panels' tick labels, the axis labels and titles come back at the same place):
a :class:`~companion.widgets.private_hooks.TextReplay` draws again the glyph images each text
left, keyed by the string, its font, colour, angle and exact position (the same pixels).  The
data layer's own texts (a clock that reads the same after a slider move) are replayed too.

Only :meth:`LayeredRender.render` sets artists aside and replays texts: ``savefig`` (the static
fallback's PNG) is unaffected.  The layers are matplotlib's public blitting API
(``set_animated``, ``copy_from_bbox``, ``restore_region``, each artist's ``draw``); the glyph
replay and the 3D projection are private hooks (:mod:`~companion.widgets.private_hooks`: on its
plain path a frame is the whole render, as matplotlib draws it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text

from companion.widgets import private_hooks
from companion.widgets.private_hooks import TextReplay, project_3d


def _data_artists(ax: Axes) -> Iterator[Artist]:
    """What a view moves or restyles on ``ax`` and its inset axes, in matplotlib's drawing
    order: every child but the axes' face, its axis (ticks, tick labels, axis labels) and its
    titles.  The spines are data-layer too, so that data drawn over the frame keep matplotlib's
    order (spines over lines)."""
    texts = set(ax.texts)
    for artist in ax.get_children():
        if isinstance(artist, Axes):
            yield from _data_artists(artist)
        elif artist is ax.patch or isinstance(artist, Axis):
            continue
        elif isinstance(artist, Text) and artist not in texts:
            continue  # a title
        else:
            yield artist


def _figure_artists(fig: Figure) -> list[Artist]:
    return [*fig.lines, *fig.patches, *fig.texts, *fig.images, *fig.legends]


def _rounded(values, digits: int = 9) -> tuple[float, ...]:
    """``values`` to ``digits`` significant digits: a layout or an equal aspect recomputed
    from the same inputs differs in the last bits, which must not count as a change."""
    return tuple(float(f"{v:.{digits}g}") for v in values)


def _is_3d(ax: Axes) -> bool:
    return getattr(ax, "name", "") == "3d"


def _axes(ax: Axes) -> list[Axis]:
    """The x, y (and z) axis of ``ax``."""
    return [getattr(ax, name) for name in ("xaxis", "yaxis", "zaxis") if hasattr(ax, name)]


def _titles(ax: Axes) -> list[Text]:
    """The centre, left and right titles of ``ax``."""
    return [c for c in ax.get_children() if isinstance(c, Text) and c not in ax.texts]


def _apply_aspect(ax: Axes) -> None:
    """What a render does first: an equal-aspect axes then shows the limits it is drawn with."""
    locator = ax.get_axes_locator()
    ax.apply_aspect(locator(ax, None) if locator else None)


def background_key(fig: Figure) -> tuple:
    """Everything the background bitmap depends on (after :func:`_apply_aspect`)."""
    parts: list[Any] = [_rounded(fig.bbox.bounds), fig.dpi, fig.get_facecolor(),
                        fig.get_suptitle()]
    for ax in fig.axes:
        _apply_aspect(ax)
        if _is_3d(ax):  # the view, the limits and the box: all in the projection
            parts.append((_rounded(ax.get_proj().ravel()), ax.get_zlabel()))
        parts.append((
            id(ax), ax.get_visible(), ax.axison, _rounded(ax.get_position().bounds),
            _rounded(ax.viewLim.intervalx), _rounded(ax.viewLim.intervaly),
            ax.get_xscale(), ax.get_yscale(),
            ax.get_title("left"), ax.get_title(), ax.get_title("right"),
            ax.get_xlabel(), ax.get_ylabel(), ax.get_facecolor(),
            # the tick labels' formatters: predict mode swaps them for none (explorer.py)
            *(id(axis.get_major_formatter()) for axis in _axes(ax)),
        ))
    return tuple(parts)


class LayeredRender:
    """Render an Agg ``canvas``'s figure (ipympl's among them) into its buffer as a cached
    background plus the data layer (see the module's notes)."""

    def __init__(self, canvas: FigureCanvasAgg):
        self.canvas = canvas
        self.figure: Figure = canvas.figure
        self._key: tuple | None = None
        self._background: Any = None
        self._sprites: dict[tuple, tuple[int, int, np.ndarray] | None] = {}
        #: Whether each frame is the whole render (the plain path of private_hooks).
        self.whole_only = not private_hooks.enabled()
        # the data layer's texts too: the disk–link's clock cost 3–4 ms a frame
        self.texts, self.data_texts = TextReplay(), TextReplay()
        #: Background renders and frames rendered: their ratio says how often the cache served.
        self.backgrounds = self.frames = 0

    def render(self) -> None:
        """Render a frame into the canvas's Agg buffer (the whole figure, as matplotlib renders
        it, when :attr:`whole_only`)."""
        fig = self.figure
        self.frames += 1
        if self.whole_only:
            FigureCanvasAgg.draw(self.canvas)
            return
        if background_key(fig) != self._key:
            self._render_background()
            self._key = background_key(fig)  # after the render: the limits it was drawn with
        else:
            self.canvas.restore_region(self._background)
        renderer = self.canvas.get_renderer()
        with self.data_texts.replaying(renderer):
            for ax in sorted(fig.axes, key=Artist.get_zorder):
                if ax.get_visible():
                    if _is_3d(ax):
                        project_3d(ax)
                    self._draw(sorted(_data_artists(ax), key=Artist.get_zorder), renderer)
            self._draw(sorted(_figure_artists(fig), key=Artist.get_zorder), renderer)
        # Drawn: as matplotlib's own render ends.  A figure left stale is drawn again after
        # every widget message (ipykernel runs pyplot's draw_all then), which asks the front end
        # for a draw after this frame: the two then kept each other drawing for good.
        fig.stale = False

    def _draw(self, artists: list[Artist], renderer: RendererAgg) -> None:
        """Draw the data layer's ``artists``; a legend as its cached picture."""
        for artist in filter(Artist.get_visible, artists):
            if isinstance(artist, Legend):
                self._draw_legend(artist, renderer)
            else:
                artist.draw(renderer)

    def _draw_legend(self, legend: Legend, renderer: RendererAgg) -> None:
        """Draw ``legend`` as its sprite: the legend drawn alone on a transparent picture,
        cropped to what it painted, kept with where it goes (pixels from left and bottom).

        A legend is mostly text, its layout and its glyphs: drawn every frame the disk–link
        figure's four legends took 70 of its 90 ms.  Alpha compositing is associative, so the
        cached picture laid over the data gives what drawing the legend there would."""
        key = (id(legend), tuple(t.get_text() for t in legend.texts),
               legend.get_title().get_text())
        if key not in self._sprites:
            alone = RendererAgg(renderer.width, renderer.height, renderer.dpi)
            legend.draw(alone)
            pixels = np.asarray(alone.buffer_rgba())
            painted = np.argwhere(pixels[..., 3])
            if painted.size == 0:
                self._sprites[key] = None
            else:
                (top, left), (bottom, right) = painted.min(axis=0), painted.max(axis=0) + 1
                # draw_image takes rows bottom first
                self._sprites[key] = (int(left), int(renderer.height - bottom),
                                      pixels[top:bottom, left:right][::-1].copy())
        if self._sprites[key] is not None:
            gc = renderer.new_gc()
            renderer.draw_image(gc, *self._sprites[key])
            gc.restore()

    def _render_background(self) -> None:
        """Render the figure without its data layer (matplotlib leaves animated artists out of
        a render that is not a save) and keep the bitmap."""
        set_aside = [a for ax in self.figure.axes for a in _data_artists(ax)]
        set_aside += _figure_artists(self.figure)
        was = [a.get_animated() for a in set_aside]
        for artist in set_aside:
            artist.set_animated(True)
        try:
            with self.texts.replaying(self.canvas.get_renderer()):
                FigureCanvasAgg.draw(self.canvas)
        finally:
            for artist, animated in zip(set_aside, was, strict=True):
                artist.set_animated(animated)
        self._background = self.canvas.copy_from_bbox(self.figure.bbox)
        self._sprites.clear()  # legends move with their axes
        self.backgrounds += 1
