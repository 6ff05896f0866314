"""Markdown images of a chapter notebook render in Voilà (lecture mode) instead of hanging it."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest
from nbconvert.filters.markdown_mistune import MarkdownWithMath
from tornado.web import HTTPError

from companion.widgets import voila_markdown

ROOT = Path(__file__).resolve().parents[1]

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/"
                       "PchI7wAAAABJRU5ErkJggg==")


class ChaptersRoot:
    """A contents manager serving ``chapters/`` the way Jupyter's does: a path that leaves the
    root is an HTTP 404, not a missing file."""

    files = {"images/diagram-x.png": PNG}

    def file_exists(self, path: str) -> bool:
        if path.startswith(".."):
            raise HTTPError(404, f"{path} is outside root contents directory")
        return path in self.files

    def get(self, path: str, format: str) -> dict:
        return {"content": base64.b64encode(self.files[path]).decode()}


def render(markdown: str) -> str:
    renderer = voila_markdown.ChapterMarkdownRenderer(
        escape=False, attachments={}, contents_manager=ChaptersRoot(), anchor_link_text="¶")
    return MarkdownWithMath(renderer=renderer).render(markdown)


def test_voilas_own_renderer_fails_on_a_chapters_relative_image():
    """The reason for the renderer: Voilà's raises (and the page never finishes)."""
    from voila.exporter import VoilaMarkdownRenderer

    renderer = VoilaMarkdownRenderer(escape=False, attachments={}, contents_manager=ChaptersRoot(),
                                     anchor_link_text="¶")
    with pytest.raises(HTTPError):
        MarkdownWithMath(renderer=renderer).render("![a diagram](../images/diagram-x.png)")


def test_an_image_beside_the_chapters_folder_is_inlined():
    html = render("![a diagram](../images/diagram-x.png)")
    assert f'src="data:image/png;base64,{base64.b64encode(PNG).decode()}"' in html
    assert 'alt="a diagram"' in html


def test_an_image_found_nowhere_keeps_its_link_instead_of_raising():
    html = render("![gone](../images/missing.png)")
    assert 'src="../images/missing.png"' in html


@pytest.mark.parametrize(("src", "expected"), [
    ("../images/x.png", ["images/x.png", "chapters/images/x.png"]),
    ("../../chapters/images/x.png", ["chapters/images/x.png", "chapters/chapters/images/x.png"]),
    ("images/x.png", []),  # already relative to the root: Voilà's own lookup decides
])
def test_candidates(src, expected):
    assert voila_markdown.candidates(src) == expected


def test_make_lecture_and_the_browser_tests_use_the_renderer():
    dry = subprocess.run(["make", "-n", "lecture"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert f"--VoilaExporter.markdown_renderer_class={voila_markdown.RENDERER}" in dry
    source = (ROOT / "tests/lab_browser.py").read_text()
    assert "voila_markdown.RENDERER" in source
