"""The redraw path cannot corrupt (issue 17 item 2), in JupyterLab in Debian's Chromium:
after 30 fast slider moves the canvas equals a whole fresh frame of the final state, and the
euler-geodesic notebook draws both its figures every time it is opened."""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def lab():
    with lb.jupyter_server(ROOT) as server:
        yield server


@pytest.fixture(scope="module")
def browser():
    with lb.chromium() as b:
        yield b


#: Issue 17 (open): after the scene merge a fast drag still left ~1.8% of the canvas stale,
#: and euler-geodesic's second figure failed to draw once in 10 opens.
OPEN_REDRAW_DEFECT = pytest.mark.xfail(strict=False, reason="issue 17 (open): stale canvas "
                                       "after fast drags; a figure that sometimes never draws")


@OPEN_REDRAW_DEFECT
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_fast_slider_moves_leave_the_canvas_intact(lab, browser, notebook):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        run = lb.open_and_run(page, lab, notebook, settle_ms=500)
        handle = page.locator(f".{lb.EXPLORER_CLASS}").first.locator(".noUi-handle").first
        handle.scroll_into_view_if_needed()
        handle.focus()
        for _ in range(30):  # as fast as the keyboard repeats: frames overtake each other
            handle.press("ArrowRight", delay=0)
        lb.wait_kernel_idle(page, settle=1.5)
        page.wait_for_timeout(500)
        after_drag = np.array(lb.canvas_pixels(page), dtype=float)
        lb.run_in_kernel(page, "explorer.figure.canvas._force_full = True\n"
                               "explorer.figure.canvas.draw()")
        page.wait_for_timeout(800)
        fresh = np.array(lb.canvas_pixels(page), dtype=float)
        assert fresh.size and after_drag.shape == fresh.shape
        differing = np.mean(np.abs(after_drag - fresh) > 8)
        assert differing < 0.002, f"{notebook}: {differing:.1%} of the canvas is stale"
        assert run.js_errors == []
    finally:
        page.close()


@OPEN_REDRAW_DEFECT
def test_euler_geodesic_draws_every_figure_every_time(lab, browser):
    for attempt in range(10):
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("console", lambda m, errors=errors: errors.append(m.text)
                if "drawImage" in m.text else None)
        try:
            run = lb.open_notebook(page, lab, "chapters/loparo-07/euler-geodesic.ipynb")
            lb.run_all_cells(page, run)
            page.wait_for_timeout(1000)
            n = page.locator(f".{lb.EXPLORER_CLASS}").count()
            assert n >= 2
            for i in range(n):
                page.locator(f".{lb.EXPLORER_CLASS}").nth(i).locator("canvas").first \
                    .scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                assert lb.painted_fraction(page, i) > 0.005, \
                    f"run {attempt}: explorer {i} never drew"
            assert errors == [] and run.js_errors == []
        finally:
            page.close()
