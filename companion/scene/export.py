"""Export a notebook to one HTML page that reads offline: every widget by its static form
(an explorer's PNG with its description, a stepper's derivation, a scene playing from its
keyframes), the equations typeset by MathJax inlined in the page, nothing fetched.

``jupyter nbconvert --to html`` would show each widget from the saved widget state through a
widget manager fetched from a CDN (blank without a network), and load MathJax from a CDN
too.  The ``companion`` template (in this package) fetches nothing: use :func:`export_html`,
or ``jupyter nbconvert --to html --template companion
--TemplateExporter.extra_template_basedirs=DIR`` with DIR = :data:`TEMPLATES`.  MathJax 3
comes from the ``django-static-mathjax`` package (the ``[book]`` extra), as for the book.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
from nbconvert.preprocessors import Preprocessor

#: Folder holding the ``companion`` nbconvert template.
TEMPLATES = Path(__file__).parent / "nbconvert"
#: The one MathJax file a page loads: TeX input, SVG output, every TeX extension built in,
#: so it loads nothing else (no fonts, no components).
MATHJAX_FILE = "es5/tex-svg-full.js"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def mathjax_file() -> Path:
    """MathJax 3's :data:`MATHJAX_FILE` from the ``django-static-mathjax`` package.

    Raises
    ------
    RuntimeError
        The package is not installed (the message says how to install it).
    """
    from importlib.resources import files

    try:
        path = Path(str(files("mathjax"))) / "static" / "mathjax" / MATHJAX_FILE
    except ModuleNotFoundError:
        path = None
    if path is None or not path.is_file():
        raise RuntimeError("MathJax is not installed: pip install -e '.[book]' (the "
                           "django-static-mathjax package; make book installs it)")
    return path


class StaticForms(Preprocessor):
    """The ``companion`` template's preprocessor: each widget output shows its static form
    (the widget view and the saved widget state are dropped, so nothing asks for a widget
    manager) and ``resources["companion"]["mathjax"]`` holds MathJax to inline."""

    def preprocess(self, nb: nbformat.NotebookNode,
                   resources: dict[str, Any]) -> tuple[nbformat.NotebookNode, dict[str, Any]]:
        nb.metadata.pop("widgets", None)
        for cell in nb.cells:
            for output in cell.get("outputs", []):
                output.get("data", {}).pop(WIDGET_VIEW, None)
        script = mathjax_file().read_text(encoding="utf-8")
        resources["companion"] = {
            "mathjax": re.sub(r"</(script)", r"<\\/\1", script, flags=re.IGNORECASE)}
        return nb, resources


def export_html(notebook: nbformat.NotebookNode) -> str:
    """The HTML page of an executed notebook that reads with no kernel and no network: every
    widget by its static form, the scenes playing, the math typeset by the page itself.

    Raises
    ------
    RuntimeError
        MathJax is not installed (see :func:`mathjax_file`).
    """
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(extra_template_basedirs=[str(TEMPLATES)], template_name="companion")
    return exporter.from_notebook_node(notebook)[0]
