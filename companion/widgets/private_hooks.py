"""The one place the live figures reach into matplotlib's and ipympl's private internals.

Everything else in the package draws through their public APIs.  Each hook here is worth its
speed or mends a defect of ipympl's (the notes of :mod:`companion.widgets.frames` and
:mod:`companion.widgets.background` say which, with the figures measured); each is taken only
while :func:`enabled`: the installed matplotlib and ipympl are releases the hooks were tested
with (:data:`TESTED`), and ``COMPANION_PLAIN_FIGURES`` is not "1" ("0" takes them with any
release: how :mod:`tools.release_check` tries one outside the range).  Otherwise the
figures take the plain path, ipympl's own, public API only: each render has the same pixels
(``tests/test_private_hooks.py`` compares them), but it costs more, and ipympl's difference
frames come back, with their defect (a fast drag may leave a stale picture: the notes of
:mod:`companion.widgets.frames`).  Each canvas is hooked, or not, once, when it is built.

=====================  ==============================================  =========================
hook                   what it touches                                 plain path
=====================  ==============================================  =========================
whole PNG frames       ipympl ``Canvas``: ``_png_is_old``,             ipympl's own ``draw``
                       ``get_diff_image``, ``send_binary``,            (difference frames)
                       ``syncing_data_url``, ``_data_url``
deferred snapshot      ipympl's front end: ``handle_binary``,          none (ipympl copies its
                       ``offscreen_canvas``, ``_data_url``             canvas on every frame)
                       (``private_hooks.js``)
glyph replay           Agg ``renderer._renderer.draw_text_image``,     matplotlib draws each text
                       ``renderer.draw_text`` on the instance
3D projection          ``Axes3D.M``, ``Axes3D.invM``                   whole renders only
=====================  ==============================================  =========================

(The lock on each canvas's messages is not a hook: it wraps the canvas's public ``handle_event``,
on either path.)
"""

from __future__ import annotations

import functools
import os
import weakref
from base64 import b64encode
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as w
import numpy as np
import traitlets
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from packaging.version import Version

#: Releases the hooks are taken with: from the first, up to (not including) the second.  Their
#: tests pass in the kernel with matplotlib 3.8.4, 3.10.9 and 3.11.2 and ipympl 0.9.4, 0.9.8 and
#: 0.10.0 (``python -m tools.release_check``); in the browser with ipympl 0.10.0.
TESTED = {"matplotlib": ((3, 8), (3, 12)), "ipympl": ((0, 9, 4), (0, 11))}

#: "1" takes the plain path whatever the releases; "0" takes the hooks whatever the releases.
PLAIN_ENV = "COMPANION_PLAIN_FIGURES"

#: The message ipympl's front end expects with each frame (the PNG is its one buffer).
FRAME_MESSAGE = {"data": '{"type": "binary"}'}


def untested_releases() -> list[str]:
    """``"name release"`` of each installed package outside the releases :data:`TESTED`
    (``"name missing"`` when it is not installed)."""
    outside = []
    for package, (first, beyond) in TESTED.items():
        try:
            installed = version(package)
        except PackageNotFoundError:
            outside.append(f"{package} missing")
            continue
        if not first <= Version(installed).release < beyond:
            outside.append(f"{package} {installed}")
    return outside


@functools.cache
def tested_releases() -> bool:
    """Whether matplotlib and ipympl are releases :data:`TESTED` (read once per session)."""
    return not untested_releases()


def enabled() -> bool:
    """Whether a canvas built now takes the hooks: with tested releases, unless
    ``COMPANION_PLAIN_FIGURES`` is "1"; with any when it is "0".

    Raises
    ------
    ValueError
        ``COMPANION_PLAIN_FIGURES`` set to anything else.
    """
    choice = os.environ.get(PLAIN_ENV, "").strip()
    if choice not in ("", "0", "1"):
        raise ValueError(f"{PLAIN_ENV}={choice!r} is not understood: set it to 1 for ipympl's "
                         "own drawing, to 0 for the companion's hooks whatever the releases, "
                         "or unset it")
    return choice == "0" or (choice != "1" and tested_releases())


#: The canvases that send whole frames (:func:`send_whole_frames`).
_WHOLE_FRAMES: weakref.WeakSet = weakref.WeakSet()


# ------------------------------------------------------------------------------- ipympl
def front_end_ready(canvas: Any) -> bool:
    """Whether a front end has told the ipympl ``canvas`` it is ready, so that a render may be
    sent at once (before, a frame is better asked for).  False for a canvas on the plain path:
    ipympl's ``draw_idle`` asks its front end, whichever state it is in."""
    return canvas in _WHOLE_FRAMES and not canvas.syncing_data_url


def pretend_front_end_ready(canvas: Any) -> None:
    """Put the ipympl ``canvas`` in the state a front end's 'initialized' message leaves it in
    (frames no longer kept as a data URL), without a front end: for tests and benchmarks."""
    canvas.syncing_data_url = False


def send_whole_frames(canvas: Any, render: Callable[[], None], encode: Callable[[Any], bytes],
                      lock: AbstractContextManager) -> bool:
    """Make the ipympl ``canvas`` send every frame whole, as a PNG (``encode`` of its RGBA
    pixels), with a valid data URL until a front end is ready; False, the canvas left as it is,
    on the plain path (:func:`enabled`).

    ``render`` renders a frame into the canvas's Agg buffer: ``canvas.draw`` (also what the
    front end's 'draw' request calls) runs it holding ``lock``, then sends the frame.
    """
    if not enabled():
        return False

    def draw() -> None:
        with lock:
            canvas._png_is_old = True
            try:
                render()
            finally:
                canvas.manager.refresh_all()  # sends the frame: whole_frame, send_png

    def whole_frame() -> bytes | None:
        """The frame after a render, or None when nothing was rendered since the last one."""
        with lock:
            if not canvas._png_is_old:
                return None
            canvas._png_is_old = False
            canvas.set_image_mode("full")  # tells the front end only when the mode changes
            return encode(np.asarray(canvas.get_renderer().buffer_rgba()))

    def send_png(png: bytes) -> None:
        if canvas.syncing_data_url:  # no front end has said it is ready: keep a valid URL
            canvas._data_url = f"data:image/png;base64,{b64encode(png).decode('ascii')}"
        canvas.send(FRAME_MESSAGE, buffers=[png])

    canvas.draw = draw
    # what manager.refresh_all sends after each render, instead of matplotlib's difference
    canvas.get_diff_image = whole_frame
    canvas.send_binary = send_png
    _WHOLE_FRAMES.add(canvas)
    return True


class DeferredSnapshot(anywidget.AnyWidget):
    """Makes ipympl's copy of a canvas's picture (its ``_data_url``) once the frames stop,
    ``settle_ms`` after the last one, instead of on every frame before the frame can load
    (``private_hooks.js``).  Shown beside the canvas, zero pixels high."""

    _esm = (Path(__file__).parent / "private_hooks.js").read_text(encoding="utf-8")
    #: The ipympl canvas whose frames it lightens.
    canvas = traitlets.Instance(w.DOMWidget, allow_none=True).tag(
        sync=True, **w.widget_serialization)
    #: Milliseconds without a frame after which the copy is made.
    settle_ms = traitlets.Int(2000).tag(sync=True)
    #: How many copies the front end has made (it counts them here).
    snapshots = traitlets.Int(0).tag(sync=True)


def canvas_helpers(canvas: Any) -> list[w.Widget]:
    """The widgets to show beside the ipympl ``canvas``: its :class:`DeferredSnapshot`; none
    on the plain path (:func:`enabled`)."""
    return [DeferredSnapshot(canvas=canvas)] if enabled() else []


# ------------------------------------------------------------------------------ matplotlib
class TextReplay:
    """Glyph images of the texts an Agg renderer drew, replayed when the same text is drawn at
    the same place again (the notes of :mod:`companion.widgets.background`).

    Inside :meth:`replaying`, ``renderer.draw_text`` of a plain (not mathtext) string looks up
    the string, its font properties, colour, alpha, antialiasing, angle, its position to
    FreeType's 1/64 pixel and the canvas's height and dpi.  A miss draws the text as matplotlib
    does and records each glyph image it hands to the Agg renderer; a hit hands those images
    over again.  Entries not used in a render are dropped after it.  Made on the plain path
    (:func:`enabled` when it is made), :meth:`replaying` changes nothing.
    """

    def __init__(self) -> None:
        self._glyphs: dict[tuple, list[tuple]] = {}
        #: Texts replayed and drawn in the last render (for tests and benchmarks).
        self.replayed = self.drawn = 0
        self.active = enabled()

    @contextmanager
    def replaying(self, renderer: RendererAgg) -> Iterator[None]:
        """Replay texts drawn by ``renderer`` until the block ends."""
        self.replayed = self.drawn = 0
        if not self.active:
            yield
            return
        used: dict[tuple, list[tuple]] = {}
        original = renderer.draw_text

        def draw_text(gc, x, y, s, prop, angle, ismath=False, mtext=None):
            if ismath:
                return original(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
            # font features and language shape the glyphs from matplotlib 3.11 on
            shaping = (None if mtext is None or not hasattr(mtext, "get_fontfeatures") else
                       (tuple(mtext.get_fontfeatures() or ()), mtext.get_language()))
            key = (s, hash(prop), tuple(gc.get_rgb()), gc.get_alpha(), gc.get_antialiased(),
                   angle, round(64 * x), round(64 * y), renderer.height, renderer.dpi, shaping)
            glyphs = self._glyphs.get(key)
            if glyphs is None:
                glyphs = self._record(renderer, lambda: original(gc, x, y, s, prop, angle,
                                                                 ismath=ismath, mtext=mtext))
                self.drawn += 1
            else:
                for image, left, top, rotation in glyphs:
                    renderer._renderer.draw_text_image(image, left, top, rotation, gc)
                self.replayed += 1
            used[key] = glyphs

        renderer.draw_text = draw_text
        try:
            yield
        finally:
            del renderer.draw_text  # the class's method again
            self._glyphs = used

    @staticmethod
    def _record(renderer: RendererAgg, draw: Callable[[], None]) -> list[tuple]:
        """Run ``draw`` and return the glyph images it handed to the Agg renderer (copied:
        matplotlib reuses its buffers)."""
        agg, glyphs = renderer._renderer, []

        class Recorder:
            def __getattr__(self, name):
                return getattr(agg, name)

            @staticmethod
            def draw_text_image(image, left, top, rotation, gc):
                glyphs.append((np.array(image, dtype=np.uint8), left, top, rotation))
                agg.draw_text_image(image, left, top, rotation, gc)

        renderer._renderer = Recorder()
        try:
            draw()
        finally:
            renderer._renderer = agg
        return glyphs


def project_3d(ax: Axes) -> None:
    """What ``Axes3D.draw`` does before drawing its artists: the projection matrix, then each
    collection's and patch's projection, ordered by depth (``computed_zorder``)."""
    from matplotlib.collections import Collection
    from matplotlib.patches import Patch

    ax.M = ax.get_proj()
    ax.invM = np.linalg.inv(ax.M)
    shapes = [a for a in ax.get_children()
              if isinstance(a, (Collection, Patch)) and hasattr(a, "do_3d_projection")
              and a.get_visible()]
    if not ax.computed_zorder:
        for artist in shapes:
            artist.do_3d_projection()
        return
    zorder = {Collection: 0, Patch: 0}
    base = max(axis.get_zorder() for axis in (ax.xaxis, ax.yaxis, ax.zaxis)) + 1
    for artist in sorted(shapes, key=lambda a: a.do_3d_projection(), reverse=True):
        kind = Collection if isinstance(artist, Collection) else Patch
        artist.zorder = base + zorder[kind]
        zorder[kind] += 1
