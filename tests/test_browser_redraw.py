"""The redraw path cannot corrupt (issue 17 item 3), in JupyterLab in Debian's Chromium: the
euler-rigid-body notebook (two explorers) draws both its figures every time it is opened, and
ipympl's copy of the picture for a saved notebook is made once the frames stop, not on every
frame.  (The fast drag of every explorer is in test_browser_chapters.py, on each chapter's
shared page.)

These two open their notebooks on pages of their own: the first is about opening, again and
again; the second counts the canvas copies from the page's first load on."""

from __future__ import annotations

from pathlib import Path

import lab_browser as lb
import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]


def test_a_notebook_draws_every_figure_every_time(lab, browser):
    for attempt in range(10):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("console", lambda m, errors=errors: errors.append(m.text)
                if "drawImage" in m.text else None)
        try:
            run = lb.open_notebook(page, lab, "chapters/greenwood-04/euler-rigid-body.ipynb")
            lb.run_all_cells(page, run)
            assert run.error_outputs == []
            # the last outputs may still be rendering when the kernel is idle
            page.wait_for_function(f"document.querySelectorAll('.{lb.EXPLORER_CLASS}').length"
                                   " >= 2", timeout=60_000)
            n = page.locator(f".{lb.EXPLORER_CLASS}").count()
            for i in range(n):
                page.locator(f".{lb.EXPLORER_CLASS}").nth(i).locator("canvas").first \
                    .scroll_into_view_if_needed()
                # A figure's first frame follows a round trip that may still be under way on
                # a loaded machine; one that never draws keeps a 0 × 0 canvas for good.
                try:
                    lb.wait_painted(page, i, fraction=0.005, timeout=60)
                except TimeoutError:
                    pytest.fail(f"run {attempt}: explorer {i} never drew (canvas "
                                f"{lb.canvas_size(page, i)})")
            assert errors == [] and run.js_errors == []
        finally:
            page.close()


#: Counts, in ``window.__offscreenEncodes``, the PNG encodings of canvases outside the page
#: (ipympl's offscreen canvas: its copy of the picture for a saved notebook).
COUNT_OFFSCREEN_ENCODES = """
(() => {
  window.__offscreenEncodes = 0;
  const encode = HTMLCanvasElement.prototype.toDataURL;
  HTMLCanvasElement.prototype.toDataURL = function (...args) {
    if (!this.isConnected) window.__offscreenEncodes += 1;
    return encode.apply(this, args);
  };
})();
"""
#: The explorer's DeferredSnapshot, as a Python expression.
SNAPSHOT = ("next(c for c in explorer.widget.children "
            "if type(c).__name__ == 'DeferredSnapshot')")


def test_the_saved_picture_is_copied_once_the_frames_stop(lab, browser):
    """ipympl copies its canvas to a data URL on every frame; the explorer's DeferredSnapshot
    skips that copy while frames arrive and makes one when they stop."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(COUNT_OFFSCREEN_ENCODES)
    try:
        run = lb.open_and_run(page, lab, "chapters/loparo-07/disk-link-friction.ipynb",
                              settle_ms=500)
        # the first frames' copy; then a pause longer than a press may take (slider_latency
        # gives up after 10 s), and the copies the old pause scheduled made
        page.wait_for_function("window.__offscreenEncodes >= 1", timeout=60_000)
        old_pause = int(lb.kernel_value(page, f"{SNAPSHOT}.settle_ms"))
        lb.run_in_kernel(page, f"{SNAPSHOT}.settle_ms = 15000")
        page.wait_for_timeout(old_pause + 1000)
        copies = int(lb.kernel_value(page, f"{SNAPSHOT}.snapshots"))
        page.evaluate("window.__offscreenEncodes = 0")
        for _ in range(3):
            lb.slider_latency(page)  # each press painted a new frame
        assert page.evaluate("window.__offscreenEncodes") == 0, "a frame was copied"
        page.wait_for_function("window.__offscreenEncodes >= 1", timeout=60_000)
        page.wait_for_timeout(1000)
        assert page.evaluate("window.__offscreenEncodes") == 1  # one copy for three frames
        assert int(lb.kernel_value(page, f"{SNAPSHOT}.snapshots")) == copies + 1
        assert run.js_errors == []
    finally:
        page.close()


@pytest.fixture(scope="module")
def plain_lab():
    """JupyterLab whose kernels take private_hooks' plain path (COMPANION_PLAIN_FIGURES=1):
    what a reader gets with a matplotlib or ipympl release the hooks were not tested with."""
    from companion.widgets.private_hooks import PLAIN_ENV

    with lb.jupyter_server(ROOT, env={PLAIN_ENV: "1"}) as server:
        yield server


def test_the_plain_path_draws_and_follows_a_slider(plain_lab, browser):
    """Without the private hooks (ipympl's own frames, no deferred snapshot) an explorer still
    draws its figure, as wide as its cell, and a slider's key press redraws it."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    lb.install_paint_probe(page)
    try:
        run = lb.open_and_run(page, plain_lab, "chapters/greenwood-04/knife-edge.ipynb")
        assert run.error_outputs == [] and run.js_errors == []
        assert lb.kernel_value(page, "__import__('companion.widgets.private_hooks')"
                                     ".widgets.private_hooks.enabled()") == "False"
        lb.wait_painted(page, 0)
        assert lb.kernel_value(page, "sum(type(c).__name__ == 'DeferredSnapshot' "
                                     "for c in explorer.widget.children)") == "0"
        lb.slider_latency(page)  # raises unless the picture changes
        fit = lb.wait_for_explorer_fit(page)
        assert fit["canvas"] > 0.8 * fit["area"] and fit["right"] >= -1, fit  # fills its cell
    finally:
        page.close()
