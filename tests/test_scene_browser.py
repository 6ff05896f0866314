"""The scene in a real browser: every chapter notebook shows one, and a chapter exported to
HTML, opened from a file with the network blocked, draws and plays it (Debian's headless
Chromium).  Each chapter's scene in JupyterLab (drawn, playing, scrubbed, following the
explorer) is checked on the chapter's shared page in test_browser_chapters.py."""

from __future__ import annotations

from pathlib import Path

import lab_browser as lb
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Luminance variance of a canvas (0–255 scale) above which it shows something: a blank
#: white canvas has 0, a scene's bodies and grid give hundreds.
NOT_BLANK = 30.0

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]


def test_every_chapter_with_an_explorer_shows_a_scene():
    sources = {nb: nbformat.read(ROOT / nb, as_version=4)
               for nb in lb.notebooks_showing(ROOT, "explorer")}
    missing = [nb for nb, n in sources.items()
               if not any(call in c.source  # the workbench shows its system's scene
                          for call in ("scene_for(", "examples.scene(", "workbench(")
                          for c in n.cells if c.cell_type == "code")]
    assert missing == []


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
