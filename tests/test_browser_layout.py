"""Every chapter notebook fits its window (issue 17 item 1), in JupyterLab in Debian's Chromium.

Each notebook runs once, at 1400×1000 with JupyterLab's file browser open; the window is then
resized to 1024×768 (file browser closed) and back.  At each size: no output wider than its
output area, no button whose text is cut, no error output, and every explorer's figure within
its output area, wider than 0 and drawn (not blank) after the resize.  One JupyterLab server
for the module.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.devtools import lab_browser as lb

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = lb.chapter_notebooks(ROOT)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]

#: (width, height, file browser open)
WIDE_WITH_FILE_BROWSER = (1400, 1000, True)
SMALL_LAPTOP = (1024, 768, False)


def _set_window(page, size: tuple[int, int, bool]) -> None:
    width, height, file_browser = size
    page.set_viewport_size({"width": width, "height": height})
    if file_browser:
        page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
    else:
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    page.wait_for_timeout(600)  # the probe reports after 150 ms of quiet


def _layout_problems(page, size) -> list[str]:
    """Everything wrong with the page's layout at this size, in words."""
    where = f"{size[0]}×{size[1]}"
    problems = []
    for k in range(page.locator(lb.OUTPUT_AREA).count()):
        page.locator(lb.OUTPUT_AREA).nth(k).scroll_into_view_if_needed()
        problems += [f"{where}: {p}" for p in lb.outputs_wider_than_their_area(page, index=k)]
    problems += [f"{where}: button {b}" for b in lb.truncated_buttons(page)]
    for i in range(page.locator(f".{lb.EXPLORER_CLASS}").count()):
        page.locator(f".{lb.EXPLORER_CLASS}").nth(i).locator("canvas").first \
            .scroll_into_view_if_needed()
        fit = lb.wait_for_explorer_fit(page, i)
        if not fit["canvas"] > 0:
            problems.append(f"{where}: explorer {i} shows no canvas ({fit})")
        elif fit["left"] < -1 or fit["right"] < -1:
            problems.append(f"{where}: explorer {i}'s figure is {fit['canvas']:.0f} px wide in "
                            f"an output area of {fit['area']:.0f} px")
        page.wait_for_timeout(300)
        if lb.painted_fraction(page, i) < 0.005:
            problems.append(f"{where}: explorer {i}'s figure is blank")
    return problems


def test_every_chapter_notebook_is_checked():
    assert len(NOTEBOOKS) >= 10


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_fits_the_window(lab, browser, notebook):
    page = browser.new_page(viewport={"width": WIDE_WITH_FILE_BROWSER[0],
                                      "height": WIDE_WITH_FILE_BROWSER[1]})
    try:
        run = lb.open_notebook(page, lab, notebook)
        _set_window(page, WIDE_WITH_FILE_BROWSER)
        lb.run_all_cells(page, run)
        assert run.error_outputs == [], f"error outputs in {notebook}: {run.error_outputs}"
        problems = _layout_problems(page, WIDE_WITH_FILE_BROWSER)
        widths = [lb.explorer_canvas_fit(page, i)["canvas"]
                  for i in range(page.locator(f".{lb.EXPLORER_CLASS}").count())]

        _set_window(page, SMALL_LAPTOP)
        problems += _layout_problems(page, SMALL_LAPTOP)

        # and back: a figure that follows its area grows again
        _set_window(page, WIDE_WITH_FILE_BROWSER)
        for i, width in enumerate(widths):
            page.locator(f".{lb.EXPLORER_CLASS}").nth(i).scroll_into_view_if_needed()
            again = 0.0
            for _ in range(60):  # a debounce and a round trip to a busy kernel
                again = lb.explorer_canvas_fit(page, i)["canvas"]
                if abs(again - width) <= 4:
                    break
                page.wait_for_timeout(250)
            if abs(again - width) > 4:
                problems.append(f"explorer {i} is {again:.0f} px wide after the window came "
                                f"back to {WIDE_WITH_FILE_BROWSER[0]} px, was {width:.0f} px")
        assert problems == [], f"{notebook}:\n" + "\n".join(problems)
        errors = page.evaluate(lb._ERRORS)
        assert errors == [], f"error outputs in {notebook} after the resizes: {errors}"
        assert run.js_errors == [], f"JavaScript errors in {notebook}: {run.js_errors}"
    finally:
        page.close()
