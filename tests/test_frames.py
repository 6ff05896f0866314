"""The kernel side of the redraw path (issue 17): an ipympl canvas of an explorer sends every
frame whole and as a decodable PNG, before and after its front end is initialized, and an
explorer never writes a slider's own value back to the front end."""

from __future__ import annotations

import io
from base64 import b64decode

import matplotlib
import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

from companion import examples
from companion.widgets.frames import safe_frames

matplotlib.use("Agg")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def canvas():
    import matplotlib.pyplot as plt

    backend = matplotlib.get_backend()
    # importing ipympl's backend makes it pyplot's: later tests' figures would be widgets
    from ipympl.backend_nbagg import Canvas, FigureManager

    plt.switch_backend(backend)

    fig = Figure(figsize=(3, 2), dpi=50)
    canvas = Canvas(fig)
    FigureManager(canvas, 1)
    (line,) = fig.add_subplot().plot([0, 1], [0, 1])
    canvas.line = line
    safe_frames(canvas)
    canvas.frames = []
    canvas.send = lambda content, buffers=None: canvas.frames.append(
        (content, [bytes(b) for b in buffers or []]))
    yield canvas
    canvas.close()


def decoded(png: bytes) -> np.ndarray:
    assert png.startswith(PNG_SIGNATURE), "the frame is not a PNG (raw pixels cannot decode)"
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def frames(canvas) -> list[bytes]:
    return [buffers[0] for content, buffers in canvas.frames if buffers]


def test_frames_before_the_front_end_is_ready_are_png_with_a_valid_data_url(canvas):
    assert canvas.syncing_data_url  # no front end has said 'initialized'
    canvas.draw()
    (png,) = frames(canvas)
    rendered = np.asarray(canvas.get_renderer().buffer_rgba())
    assert np.array_equal(decoded(png), rendered)
    scheme = "data:image/png;base64,"
    assert canvas._data_url.startswith(scheme)
    assert b64decode(canvas._data_url[len(scheme):]) == png


def test_every_frame_is_whole_even_when_little_changed(canvas):
    canvas.syncing_data_url = False
    canvas.draw()
    canvas.line.set_ydata([0, 0.9])  # a small change: ipympl would send a difference
    canvas.draw()
    first, second = frames(canvas)
    rendered = np.asarray(canvas.get_renderer().buffer_rgba())
    assert np.array_equal(decoded(second), rendered)  # the whole picture, not a difference
    assert canvas._current_image_mode == "full"
    assert not np.array_equal(decoded(first), decoded(second))


def test_a_slider_value_is_not_echoed_back_for_rounding_noise():
    explorer = examples.explorer("knife_edge")
    slider = explorer.controls["u_1"]
    writes = []
    slider.observe(lambda change: writes.append(change["new"]), names="value")
    noisy = slider.min + 7 * slider.step + 1e-15  # what the front end's arithmetic sends
    slider.value = noisy
    assert explorer.values["u_1"] == pytest.approx(noisy)
    assert writes == [noisy], "the kernel wrote the slider back, pulling the reader's handle"
    explorer.close()


def test_renders_from_two_kernel_threads_never_mix(canvas):
    """Widget messages may be handled on a kernel subshell's thread while the main thread
    renders too: every frame sent must still be one whole render."""
    import threading

    canvas.syncing_data_url = False
    ax = canvas.figure.axes[0]
    for k in range(12):  # enough text that a render spans many thread switches
        ax.text(0.1, k / 12, f"label {k} " * 3, fontsize=6)
    canvas.draw()
    reference = decoded(frames(canvas)[-1])
    canvas.frames.clear()

    def render_often():
        for _ in range(15):
            canvas.draw()

    threads = [threading.Thread(target=render_often) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sent = frames(canvas)
    assert len(sent) == 30
    broken = sum(not np.array_equal(decoded(png), reference) for png in sent)
    assert broken == 0, f"{broken} of {len(sent)} frames mix two renders"


def test_a_slider_move_sends_one_frame_and_asks_for_no_second():
    """In ``%matplotlib widget`` (interactive) mode, a slider move is rendered once: neither
    pyplot's auto-draw while the view moves its artists, nor the ``draw_all`` that ipykernel
    runs after every widget message (after the settle pass measured the layout), may ask the
    front end for a draw of a frame it already has (measured in Chromium: every move rendered,
    sent and decoded twice, the second frame replacing the first before it was painted)."""
    import asyncio

    import matplotlib.pyplot as plt
    from matplotlib._pylab_helpers import Gcf

    from companion.widgets.responsive import SETTLE_SECONDS

    backend = matplotlib.get_backend()
    plt.switch_backend("module://ipympl.backend_nbagg")
    try:
        explorer = examples.explorer("knife_edge")
        canvas = explorer.figure.canvas
        canvas.syncing_data_url = False  # a front end shows it
        sent, asked = [], []
        canvas.send = lambda content, buffers=None: sent.append(len(buffers or []))
        canvas.send_event = lambda kind, **kwargs: asked.append(kind)
        name = next(iter(explorer.controls))

        async def move() -> None:
            explorer.update(**{name: explorer.values[name] + explorer.controls[name].step})
            Gcf.draw_all()  # after the slider's message
            await asyncio.sleep(SETTLE_SECONDS + 0.2)  # the settle pass runs
            Gcf.draw_all()  # after the next widget message

        with plt.ion():
            asyncio.run(move())
        assert sent == [1], "the move's frame was not sent exactly once"
        assert "draw" not in asked, "the kernel asked the front end for a second frame"
        explorer.close()
    finally:
        plt.switch_backend(backend)


def _free_elsewhere() -> bool:
    """Whether another thread could take the matplotlib lock now (a widget message's render
    in a subshell, say)."""
    import threading

    from companion.widgets.frames import MATPLOTLIB_LOCK

    got: list[bool] = []

    def attempt() -> None:
        got.append(MATPLOTLIB_LOCK.acquire(blocking=False))
        if got[-1]:
            MATPLOTLIB_LOCK.release()

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join()
    return got[0]


def test_every_canvas_message_is_handled_holding_the_matplotlib_lock(canvas):
    """The front end's draw requests, resizes and pixel ratios arrive on a subshell's thread:
    they must not run beside a render or a layout of any figure (two threads measuring text
    in matplotlib fail, or crash the kernel)."""
    held = []
    canvas.handle_draw = lambda event: held.append(not _free_elsewhere())
    canvas.handle_set_dpi_ratio = lambda event: held.append(not _free_elsewhere())
    canvas._handle_custom_msg({"type": "draw"}, [])
    canvas._handle_custom_msg({"type": "set_dpi_ratio", "dpi_ratio": 2}, [])
    assert held == [True, True]
    assert _free_elsewhere(), "the lock stayed held after the message"


def test_no_hook_or_lock_on_the_readers_cells():
    """Building an explorer (and its figure fitter) registers no pre/post_run_cell callback,
    and the reader's next cell runs without the matplotlib lock: the package serialises its
    own drawing only."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        events = ("pre_run_cell", "post_run_cell", "pre_execute", "post_execute")

        def ours(event: str) -> list:  # matplotlib's own (draw_all_if_interactive) may come
            return [c for c in shell.events.callbacks[event]
                    if getattr(c, "__module__", "").startswith("companion")]

        before = {event: ours(event) for event in events}
        shell.user_ns["examples"] = examples
        shell.user_ns["free_elsewhere"] = _free_elsewhere
        built = shell.run_cell('explorer = examples.explorer("knife_edge")')
        assert built.success, built.error_in_exec
        for event, callbacks in before.items():
            assert ours(event) == callbacks, f"a {event} callback was added"
        during = shell.run_cell("free_elsewhere()")
        assert during.success and during.result is True, "the reader's cell held the lock"
        shell.user_ns["explorer"].close()
    finally:
        InteractiveShell.clear_instance()


def test_the_packages_own_drawing_holds_the_matplotlib_lock(monkeypatch):
    """An explorer's construction (its view's axes, the fitter's layout), its PNG, a fit to a
    new width, a responsive figure and a diagram lay out and render holding the lock, so that
    no widget message's render in a subshell thread runs beside them."""
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    from companion import diagrams
    from companion.widgets.responsive import responsive_figure

    held: dict[str, list[bool]] = {}

    def spy(owner, name):
        original = getattr(owner, name)

        def recorded(*args, **kwargs):
            held.setdefault(name, []).append(not _free_elsewhere())
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, recorded)

    figure = Figure(figsize=(3, 2))  # the reader's own figure: not ours to lock
    figure.add_subplot().plot([0, 1], [1, 0])
    spy(Figure, "add_subplot")
    spy(Figure, "savefig")
    spy(ConstrainedLayoutEngine, "execute")
    explorer = examples.explorer("knife_edge")
    explorer.png()
    explorer.fitter.fit(500.0)
    explorer.close()
    box = responsive_figure(figure)
    box._repr_mimebundle_()
    diagrams.figure(diagrams.names()[0])
    assert set(held) == {"add_subplot", "savefig", "execute"}, held
    assert all(all(flags) for flags in held.values()), held
    assert _free_elsewhere(), "the lock stayed held"


def test_without_isal_the_frames_are_zlibs_and_decode_to_the_same_pixels(monkeypatch):
    """``isal`` is optional (pyproject's extra ``fast``): without it the PNG frames are deflated
    by zlib, and decode to the same pixels as ISA-L's."""
    import sys
    import zlib

    from companion.widgets import frames

    rng = np.random.default_rng(28)
    rgba = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)
    rgba[:20, :30] = (255, 255, 255, 255)  # a compressible part, as a figure has
    monkeypatch.setitem(sys.modules, "isal", None)  # `import isal` raises ImportError
    assert frames._deflate() is zlib.compress
    monkeypatch.setattr(frames, "_compress", zlib.compress)
    fallback = frames.png_of(rgba)
    monkeypatch.undo()
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(fallback)).convert("RGBA")), rgba)
    pytest.importorskip("isal")
    assert frames._deflate() is not zlib.compress
    fast = frames.png_of(rgba)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(fast)).convert("RGBA")), rgba)
