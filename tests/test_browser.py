"""Real-browser tests: every chapter notebook in JupyterLab, and one page in Voilà, driven in
Debian's headless Chromium with Playwright (never a downloaded browser).

For each notebook: open it, wait until the kernel is really ready, run all cells, fail on any
JavaScript error or error output, move one slider of the main explorer and check that the
figure changed.
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


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    context.close()


def test_every_chapter_notebook_is_tested():
    assert len(NOTEBOOKS) >= 3


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_in_jupyterlab(lab, page, notebook):
    run = lb.open_notebook(page, lab, notebook)
    lb.run_all_cells(page, run)
    assert run.js_errors == [], f"JavaScript errors in {notebook}: {run.js_errors}"
    assert run.error_outputs == [], f"error outputs in {notebook}: {run.error_outputs}"
    page.wait_for_selector(f".{lb.EXPLORER_CLASS} canvas", timeout=60_000)
    page.wait_for_timeout(500)
    before = lb.explorer_canvas_snapshot(page)
    assert before, f"{notebook}: the main explorer shows no figure"
    lb.slider_latency(page)  # raises when the figure does not change
    assert lb.explorer_canvas_snapshot(page) != before
    assert run.js_errors == [], f"JavaScript errors after moving a slider: {run.js_errors}"


def test_lecture_mode_in_voila(browser):
    notebook = "chapters/greenwood-04/knife-edge.ipynb"
    with lb.jupyter_server(ROOT, app="voila", env={"COMPANION_LECTURE": "1"}) as voila:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        lb.install_paint_probe(page)
        errors: list[str] = []
        lb.collect_page_errors(page, errors)
        page.goto(voila.link(f"voila/render/{notebook}"), timeout=120_000)
        page.wait_for_selector(f".{lb.EXPLORER_CLASS} canvas", timeout=120_000)
        page.wait_for_timeout(1000)
        assert page.locator(".jp-InputArea-editor:visible").count() == 0, \
            "lecture mode must not show code"
        lb.slider_latency(page)
        assert errors == []
        page.close()
