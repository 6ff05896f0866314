"""How a frame gets from the kernel to an ipympl canvas in the browser, made safe.

ipympl's front end (``MPLCanvasModel`` in ``src/mpl_widget.ts``, ipympl 0.10) keeps one
``Image`` per figure: each frame it receives becomes that image's ``src`` (a blob URL), and when
the image has loaded it is painted onto the offscreen canvas and copied to every view.  When the
figure's size changes (the ``_size`` state and the ``resize`` message that follow the front
end's ``initialized`` message) that same image is drawn into the resized canvas *before* the
views are resized.  Two things on this path corrupt what a reader sees:

* **Difference frames.**  A difference frame is painted on top of the last frame that loaded.
  When two frames arrive while the first is still decoding (a fast slider drag: the kernel does
  not wait for the browser), the first one's ``src`` is replaced before it loads, so it is
  never painted, and every later difference lands on a stale picture, for good.
* **Raw frames before the front end is initialized.**  Until its front end says it is
  initialized, ipympl's ``Canvas`` replaces the PNG it is given by the raw RGBA buffer (to build
  the data URL a saved notebook keeps) and sends *that* as the frame.  The browser cannot
  decode raw pixels as a PNG, the image is left 'broken', and the next ``_size`` change or
  ``resize`` message throws in ``drawImage`` ("Error setting state: ... The HTMLImageElement
  provided is in the 'broken' state") before the views are resized: the figure stays 0 × 0.

And in the kernel, matplotlib runs in two threads at once: JupyterLab (≥ 4.4, setting
``commsOverSubshells``, default "perCommTarget") sends widget messages to a kernel subshell,
which ipykernel 7 runs in its own thread, and routes each reply to the thread that last sent
on that comm.  A slider's update and the canvas's ``draw`` request then ran in different
threads: one render cleared the Agg buffer while the other encoded it (a frame with most of
the figure missing).  Two *different* figures are no safer: they share matplotlib's mathtext
parser, font cache and FreeType (a cell laying out one figure while the subshell laid out
another failed with a ParseException, or took the kernel down with a segmentation fault).

And one cost: on every frame, before the frame can load, ipympl's front end encodes its offscreen
canvas as a PNG data URL (the picture a saved notebook keeps), on the page's main thread —
10–20 ms per slider move for the 930 × 850 disk–link figure in Chromium, a quarter of its
slider-to-pixels time.  A :class:`~companion.widgets.private_hooks.DeferredSnapshot` lets each
frame through ipympl's own handler with that copy skipped and makes one copy once the frames
stop.

So :func:`safe_frames` makes a canvas send whole frames only, always as PNG, with a valid data
URL (private hooks: :mod:`~companion.widgets.private_hooks`, which otherwise leaves the frames
to ipympl), and all the package's drawing holds one lock, :data:`MATPLOTLIB_LOCK`: each render
and encoding, whoever moves a figure's artists (:func:`changing`), every message of the
canvases we build (:func:`lock_messages`) and the package's calls that draw in the main thread
(:func:`holding_matplotlib`).  The reader's own cells are not hooked: a cell that draws its own
figures while one of ours is moved runs beside it as beside any other ipympl figure.
"""

from __future__ import annotations

import functools
import io
import struct
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import numpy as np
from matplotlib.figure import Figure

from companion.widgets import private_hooks
from companion.widgets.background import LayeredRender

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


#: The lock of all matplotlib work in this kernel, whichever thread does it (re-entrant: an
#: update that holds it may render).
MATPLOTLIB_LOCK = threading.RLock()

P = ParamSpec("P")
R = TypeVar("R")


def holding_matplotlib(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` (which lays out or renders a figure in the main thread) run holding
    :data:`MATPLOTLIB_LOCK`: no widget message's render in a subshell thread runs beside it."""

    @functools.wraps(function)
    def held(*args: P.args, **kwargs: P.kwargs) -> R:
        with MATPLOTLIB_LOCK:
            return function(*args, **kwargs)

    return held


@holding_matplotlib
def figure_png(figure: Figure, **savefig: Any) -> bytes:
    """PNG bytes of ``figure`` saved with ``savefig``'s keyword arguments (a static form)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", **savefig)
    return buffer.getvalue()


@contextmanager
def changing(figure: Figure) -> Iterator[None]:
    """Hold :data:`MATPLOTLIB_LOCK` while changing ``figure``'s artists and rendering the frame
    that shows them, without pyplot's auto-draw.

    In interactive mode (``%matplotlib widget``) pyplot calls ``draw_idle`` as soon as an artist
    goes stale; ipympl's ``draw_idle`` asks the front end to ask back for a draw, so every
    slider move was rendered, encoded, sent and decoded twice (measured in Chromium on the
    disk–link explorer: a second 30–50 ms render after each update, and its frame replacing
    the first before that one was painted).  Whoever changes the figure here renders it.
    """
    with MATPLOTLIB_LOCK:
        callback, figure.stale_callback = figure.stale_callback, None
        try:
            yield
        finally:
            figure.stale_callback = callback


#: Compression level of the frames (ISA-L's deflate 0–3, zlib's 0–9): the fastest.  A frame
#: crosses a local socket once, so encoding time matters more than size.
PNG_COMPRESS_LEVEL = 1


def _deflate() -> Any:
    """ISA-L's ``compress`` with the optional ``isal`` (see :func:`png_of`), else zlib's."""
    try:
        from isal import isal_zlib
    except ImportError:
        return zlib.compress
    return isal_zlib.compress


_compress = _deflate()


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + tag + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))


def png_of(rgba: np.ndarray) -> bytes:
    """PNG bytes of an RGBA image (rows × columns × 4, uint8).

    Not Pillow's: it tries a filter on every row, which costs more than the compression on a
    figure (33 ms against 13 ms for an 1100 × 850 frame, a 10 % larger PNG).  The rows go
    unfiltered to ISA-L's deflate (optional: ``pip install companion[fast]``), the same zlib
    stream as zlib's fastest level, about ten times faster (1.0 ms against 9.9 ms for the
    stacked 930 × 1618 disk–link frame, 3 % smaller); without ``isal``, zlib's."""
    height, width, channels = rgba.shape
    if channels != 4 or rgba.dtype != np.uint8:
        raise ValueError(f"png_of takes rows × columns × 4 uint8 pixels, got {rgba.shape} "
                         f"{rgba.dtype}")
    rows = np.empty((height, 1 + 4 * width), dtype=np.uint8)
    rows[:, 0] = 0  # filter type: none
    rows[:, 1:] = rgba.reshape(height, 4 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (PNG_SIGNATURE + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", _compress(rows, PNG_COMPRESS_LEVEL))
            + _png_chunk(b"IEND", b""))


def safe_frames(canvas: Any) -> LayeredRender:
    """Make an ipympl ``canvas`` send every frame whole and as PNG (see the module's notes),
    rendered by the returned :class:`~companion.widgets.background.LayeredRender`, its messages
    handled holding :data:`MATPLOTLIB_LOCK`.

    A whole frame replaces the picture, whichever frames before it the browser dropped, and is
    also the data URL ipympl keeps until the front end is initialized (no second encoding).  On
    the plain path (:mod:`~companion.widgets.private_hooks`) the canvas keeps ipympl's own
    drawing and the returned renderer is not used.
    """
    layers = LayeredRender(canvas)
    lock_messages(canvas)
    private_hooks.send_whole_frames(canvas, layers.render, png_of, MATPLOTLIB_LOCK)
    return layers


def lock_messages(canvas: Any) -> None:
    """Handle every event of the ipympl ``canvas`` (the front end's draw requests, resizes,
    device pixel ratio, the toolbar's clicks: all go through its ``handle_event``) holding
    :data:`MATPLOTLIB_LOCK`."""
    canvas.handle_event = holding_matplotlib(canvas.handle_event)
