"""The scene in a real browser: every chapter notebook in JupyterLab (Debian's headless
Chromium), and a chapter exported to HTML opened from a file with the network blocked.

For each notebook: the scene's canvas is not blank, frames advance while it plays, the
keyboard scrubs it (the picture changes), a slider of the explorer replaces its motion, and
no JavaScript error is raised.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from companion.devtools import lab_browser as lb

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = lb.chapter_notebooks(ROOT)
#: The explorer slider a test moves, where the first one does not change the motion (the
#: knife edge's mass scales its forces but not its path).
MOTION_SLIDER = {"chapters/greenwood-04/knife-edge.ipynb": 1,
                 "chapters/greenwood-04/general-dynamical-equation.ipynb": 1,
                 "chapters/loparo-07/bridge.ipynb": 1,  # the knife edge's mass moves nothing
                 "chapters/loparo-07/nonholonomic.ipynb": 1}
#: Luminance variance of a canvas (0–255 scale) above which it shows something: a blank
#: white canvas has 0, a scene's bodies and grid give hundreds.
NOT_BLANK = 30.0

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]


def test_every_chapter_shows_a_scene():
    sources = {nb: nbformat.read(ROOT / nb, as_version=4) for nb in NOTEBOOKS}
    missing = [nb for nb, n in sources.items()
               if not any(call in c.source  # the workbench shows its system's scene
                          for call in ("scene_for(", "examples.scene(", "workbench(")
                          for c in n.cells if c.cell_type == "code")]
    assert missing == []


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_scene_in_jupyterlab(lab, browser, notebook):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        run = lb.open_notebook(page, lab, notebook)
        lb.run_all_cells(page, run)
        assert run.error_outputs == [], f"error outputs in {notebook}: {run.error_outputs}"
        page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
        page.locator(f".{lb.SCENE_CLASS}").first.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        first = lb.scene_pixels(page)
        assert first["variance"] > NOT_BLANK, f"{notebook}: the scene is blank"

        lb.scene_button(page).click()  # play
        page.wait_for_function("() => globalThis.__companionScenes.some(s => s.playing)")
        before = lb.scene_stats(page)
        page.wait_for_function(
            "n => globalThis.__companionScenes.filter(x => x.el.isConnected)[0].frames > n + 10",
            arg=before["frames"], timeout=20_000)
        assert lb.scene_stats(page)["time"] != before["time"], "time stands still while playing"
        lb.scene_button(page).click()  # pause

        scene = page.locator(f".{lb.SCENE_CLASS}").first
        scene.focus()
        scene.press("Home")
        start = lb.scene_pixels(page)["url"]
        for _ in range(8):
            scene.press("ArrowRight")
        assert lb.scene_stats(page)["time"] > 0
        assert lb.scene_pixels(page)["url"] != start, "scrubbing did not move the scene"

        shown = lb.scene_pixels(page)["url"]
        lb.scene_motion_latency(page, slider=MOTION_SLIDER.get(notebook, 0))  # raises if none
        page.wait_for_timeout(200)
        assert lb.scene_pixels(page)["url"] != shown, "the new motion looks the same"
        assert run.js_errors == [], f"JavaScript errors in {notebook}: {run.js_errors}"
    finally:
        context.close()


def _play_offline(browser, page_file: Path) -> None:
    """Open an exported page from file:// with every other request refused; the scene must be
    drawn and play without a kernel or a network."""
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    errors: list[str] = []
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        ("file:", "data:", "blob:")) else route.abort())
    lb.collect_page_errors(page, errors)
    try:
        page.goto(page_file.as_uri())
        page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=30_000)
        assert lb.scene_pixels(page)["variance"] > NOT_BLANK, "the exported scene is blank"
        lb.scene_button(page).click()
        page.wait_for_function(
            "() => globalThis.__companionScenes.some(s => s.playing && s.frames > 20 "
            "&& s.time > 0)", timeout=20_000)
        assert errors == [], f"JavaScript errors in the exported page: {errors}"
    finally:
        page.close()


@pytest.mark.slow
def test_exported_page_plays_offline(browser, tmp_path, python3_kernel):
    """nbconvert's HTML of an executed chapter, with the widget state saved (the companion
    template) and without it (the stock template: the scene's own HTML output plays)."""
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    from companion.scene.export import export_html

    path = ROOT / "chapters" / "loparo-07" / "disk-link-friction.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=180, kernel_name=python3_kernel, store_widget_state=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    assert "application/vnd.jupyter.widget-state+json" in nb.metadata.widgets
    with_state = tmp_path / "with-state.html"
    with_state.write_text(export_html(nb), encoding="utf-8")
    _play_offline(browser, with_state)

    del nb.metadata["widgets"]  # as after an export that kept no widget state
    without_state = tmp_path / "without-state.html"
    without_state.write_text(HTMLExporter().from_notebook_node(nb)[0], encoding="utf-8")
    _play_offline(browser, without_state)
