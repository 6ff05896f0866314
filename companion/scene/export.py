"""Export a notebook to one HTML page whose scenes play offline, from the saved widget state.

``jupyter nbconvert --to html`` keeps the widget state, but its page fetches require.js and
the widget manager from a CDN, so opened without a network it shows no widget.  The
``companion`` template (in this package) plays the scenes from that state by itself: use
:func:`export_html`, or ``jupyter nbconvert --to html --template companion
--TemplateExporter.extra_template_basedirs=DIR`` with DIR = :data:`TEMPLATES`.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

#: Folder holding the ``companion`` nbconvert template.
TEMPLATES = Path(__file__).parent / "nbconvert"


def export_html(notebook: nbformat.NotebookNode) -> str:
    """The HTML page of an executed notebook (with its widget state), scenes playing offline."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(extra_template_basedirs=[str(TEMPLATES)], template_name="companion")
    return exporter.from_notebook_node(notebook)[0]
