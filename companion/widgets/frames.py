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
* **Raw frames before the front end is initialized.**  While ``syncing_data_url`` is true,
  ``Canvas.send_binary`` replaces the PNG it is given by the raw RGBA buffer (to build the
  data URL) and sends *that* as the frame.  The browser cannot decode raw pixels as a PNG, the
  image is left 'broken', and the next ``_size`` change or ``resize`` message throws in
  ``drawImage`` ("Error setting state: ... The HTMLImageElement provided is in the 'broken'
  state") before the views are resized: the figure stays 0 × 0 pixels.

And in the kernel, one figure is changed and rendered from two threads at once: JupyterLab
(≥ 4.4, setting ``commsOverSubshells``, default "perCommTarget") sends widget messages to a
kernel subshell, which ipykernel 7 runs in its own thread, and ipykernel routes each reply to
the thread that last sent on that comm.  A slider's update and the canvas's ``draw`` request
then run in different threads; one render clears the Agg buffer while the other is encoding
it, and the browser gets a frame with most of the figure missing.

:func:`safe_frames` makes a canvas send whole frames only, always as PNG, with a valid data URL,
each render and encoding holding :func:`figure_lock`; whoever moves the figure's artists holds
it too.
"""

from __future__ import annotations

import io
import json
import threading
import weakref
from base64 import b64encode
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from PIL import Image

#: The message ipympl's front end expects with each frame (the PNG is its one buffer).
FRAME_MESSAGE = {"data": json.dumps({"type": "binary"})}


_LOCKS: weakref.WeakKeyDictionary[Figure, threading.RLock] = weakref.WeakKeyDictionary()
_LOCKS_LOCK = threading.Lock()


def figure_lock(figure: Figure) -> threading.RLock:
    """The lock serializing the changes and renders of ``figure`` across kernel threads
    (re-entrant: an update that holds it may render)."""
    with _LOCKS_LOCK:
        lock = _LOCKS.get(figure)
        if lock is None:
            lock = _LOCKS[figure] = threading.RLock()
        return lock


#: zlib level of the frames: the fastest.  A frame crosses a local socket once, so encoding
#: time matters more than size (level 1 takes about 0.7× the time of Pillow's default level 6
#: on the disk–link figure, for a PNG about 10% larger).
PNG_COMPRESS_LEVEL = 1


def png_of(rgba: np.ndarray) -> bytes:
    """PNG bytes of an RGBA image (rows × columns × 4, uint8)."""
    out = io.BytesIO()
    Image.fromarray(rgba).save(out, format="png", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def safe_frames(canvas: Any) -> None:
    """Make an ipympl ``canvas`` send every frame whole and as PNG (see the module's notes).

    A whole frame replaces the picture, whichever frames before it the browser dropped (and
    costs no comparison with the last frame); its PNG is also exactly the data URL that ipympl
    keeps until the front end is initialized, so that URL costs no second encoding.
    """
    lock = figure_lock(canvas.figure)
    render = canvas.draw

    def locked_render() -> None:
        with lock:
            render()  # which also sends the frame (manager.refresh_all)

    def whole_frame() -> bytes | None:
        """The frame after a render, or None when nothing was rendered since the last one."""
        with lock:
            if not canvas._png_is_old:
                return None
            canvas._png_is_old = False
            canvas.set_image_mode("full")  # tells the front end only when the mode changes
            return png_of(np.asarray(canvas.get_renderer().buffer_rgba()))

    def send_png(png: bytes) -> None:
        if canvas.syncing_data_url:  # no front end has said it is ready: keep a valid URL
            canvas._data_url = f"data:image/png;base64,{b64encode(png).decode('ascii')}"
        canvas.send(FRAME_MESSAGE, buffers=[png])

    canvas.draw = locked_render  # also what the front end's 'draw' request calls
    # what manager.refresh_all sends after each render, instead of matplotlib's difference
    canvas.get_diff_image = whole_frame
    canvas.send_binary = send_png
