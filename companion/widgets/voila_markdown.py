"""Markdown images in Voilà, found the way JupyterLab finds them.

Voilà inlines a markdown image by asking its contents manager for the path *as written*, that
is relative to the server's root rather than to the notebook's folder; a chapter's
``![…](../images/diagram-knife_edge.png)`` then leaves the root, the contents manager raises
"outside root contents directory" and the page never finishes rendering.  This renderer tries
the path as Voilà does and, when that fails, the same path without its leading ``../`` below
the root and below ``chapters/`` (the roots ``make lecture`` and the browser tests serve).
Voilà takes it by name: ``--VoilaExporter.markdown_renderer_class=`` :data:`RENDERER`.
"""

from __future__ import annotations

import posixpath

from tornado.web import HTTPError
from voila.exporter import NB_CONVERT_760, VoilaMarkdownRenderer

#: The dotted name Voilà's ``markdown_renderer_class`` takes.
RENDERER = f"{__name__}.ChapterMarkdownRenderer"


def candidates(src: str) -> list[str]:
    """Where a notebook's relative image may be, seen from the server's root."""
    parts = posixpath.normpath(src).split("/")
    while parts and parts[0] == "..":
        parts.pop(0)
    inside = "/".join(parts)
    return [inside, f"chapters/{inside}"] if inside and inside != src else []


class ChapterMarkdownRenderer(VoilaMarkdownRenderer):
    """Voilà's image-inlining renderer, with a relative path that leaves the root retried."""

    def image(self, text: str, url: str, title: str | None = None) -> str:
        src = url if NB_CONVERT_760 else text  # nbconvert 7.6 passed the URL second
        try:
            return super().image(text, url, title)
        except HTTPError:
            pass
        for path in candidates(src):
            try:
                found = self.contents_manager.file_exists(path)
            except HTTPError:
                found = False
            if found:
                return super().image(*((text, path) if NB_CONVERT_760 else (path, url)), title)
        # not found anywhere: the browser gets the link as written (a broken image, not a hang)
        return super(VoilaMarkdownRenderer, self).image(text, url, title)
