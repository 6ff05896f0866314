"""The redraw path cannot corrupt (issue 17 item 3), in JupyterLab in Debian's Chromium:
after 30 fast slider moves the slider is where the keys took it and the canvas equals a whole
fresh frame of the final state, the euler-geodesic notebook draws both its figures every
time it is opened, and ipympl's copy of the picture for a saved notebook is made once the frames
stop, not on every frame."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from companion.devtools import lab_browser as lb

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]

#: Notebooks whose main explorer is the variable ``explorer``.
NOTEBOOKS = ["chapters/loparo-07/disk-link-friction.ipynb",
             "chapters/loparo-07/disk-link-rolling.ipynb",
             "chapters/greenwood-04/knife-edge.ipynb",
             "chapters/loparo-07/covariant-derivative.ipynb",
             "chapters/greenwood-04/euler-rigid-body.ipynb",
             "chapters/loparo-07/double-pendulum.ipynb",
             "chapters/loparo-07/euler-geodesic.ipynb"]


#: Key presses of a fast drag.
PRESSES = 30
#: The explorer's values, as a Python literal.
VALUES = "{name: float(value) for name, value in explorer.values.items()}"


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_fast_slider_moves_leave_the_canvas_intact(lab, browser, notebook):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        run = lb.open_and_run(page, lab, notebook, settle_ms=500)
        handle = page.locator(f".{lb.EXPLORER_CLASS}").first.locator(".noUi-handle").first
        handle.scroll_into_view_if_needed()
        handle.focus()
        before = ast.literal_eval(lb.kernel_value(page, VALUES))
        for _ in range(PRESSES):  # as fast as the keyboard repeats: frames overtake each other
            handle.press("ArrowRight", delay=0)
        lb.settle_explorer(page)
        after = ast.literal_eval(lb.kernel_value(page, VALUES))
        (moved,) = [name for name in before if after[name] != before[name]]
        step, high = ast.literal_eval(lb.kernel_value(
            page, f"(explorer.controls[{moved!r}].step, explorer.range_of({moved!r})[1])"))
        # every press counted: the slider never jumped back to a value the kernel echoed
        assert after[moved] == pytest.approx(min(before[moved] + PRESSES * step, high),
                                             abs=step / 2), f"{notebook}: {moved} fell back"
        after_drag = np.array(lb.canvas_pixels(page), dtype=float)
        painted = lb.paint_count(page)
        lb.run_in_kernel(page, "explorer.figure.canvas._force_full = True\n"
                               "explorer.figure.canvas.draw()")
        page.wait_for_function("n => window.__companionPaints.length > n", arg=painted,
                               timeout=60_000)
        fresh = np.array(lb.canvas_pixels(page), dtype=float)
        assert fresh.size and after_drag.shape == fresh.shape
        differing = np.mean(np.abs(after_drag - fresh) > 8)
        assert differing < 0.002, f"{notebook}: {differing:.1%} of the canvas is stale"
        assert run.js_errors == []
    finally:
        page.close()


def test_euler_geodesic_draws_every_figure_every_time(lab, browser):
    for attempt in range(10):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("console", lambda m, errors=errors: errors.append(m.text)
                if "drawImage" in m.text else None)
        try:
            run = lb.open_notebook(page, lab, "chapters/loparo-07/euler-geodesic.ipynb")
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
