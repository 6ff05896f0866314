"""An executed chapter exported to HTML with nbconvert reads well without any widget: the
explorer leaves a PNG with alt text, the stepper leaves the derivation as LaTeX."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "chapters" / "greenwood-04" / "knife-edge.ipynb"


@pytest.mark.slow
def test_html_export_has_figures_alt_text_and_equations(python3_kernel):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # Without stored widget state, as after a plain `jupyter nbconvert --execute` with no
    # widget manager: every widget must leave a static output of its own.
    NotebookClient(nb, timeout=120, kernel_name=python3_kernel, store_widget_state=False,
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    html, _ = HTMLExporter().from_notebook_node(nb)
    assert "data:image/png;base64," in html, "no static figure in the export"
    assert 'alt="Knife-edge dumbbell' in html, "the figure has no alt text"
    assert "Step 1 of" in html, "the derivation is missing from the export"
    assert r"\Psi" in html and r"\gamma" in html, "the derivation's LaTeX is missing"
