"""Executed notebooks exported to HTML read well without any widget or network: with
nbconvert's own template the explorer leaves a PNG with alt text and the stepper its
derivation as LaTeX; with the ``companion`` template (:func:`companion.scene.export.export_html`)
a page opened offline shows every figure with its description, typesets its math with the
MathJax inlined in it and asks nothing outside itself."""

from __future__ import annotations

from pathlib import Path

import lab_browser as lb
import nbformat
import pytest
from nbclient import NotebookClient
from nbconvert import HTMLExporter

from companion.scene import export

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


#: A reader's own notebook: an equation, an explorer with its scene, a workbench.
PROBE = [
    nbformat.v4.new_markdown_cell(
        "# My notes\n\nThe kinetic energy $$T = \\tfrac12 m v^2 + \\tfrac12 I \\dot\\phi^2$$ "
        "and the constraint $\\dot y \\cos\\phi - \\dot x \\sin\\phi = 0$."),
    nbformat.v4.new_code_cell(
        "from companion import examples\n"
        "explorer = examples.explorer('knife_edge')\n"
        "explorer"),
    nbformat.v4.new_code_cell("examples.scene('knife_edge', explorer)"),
    nbformat.v4.new_code_cell(
        "from companion.workbench import presets, workbench\n"
        "workbench(presets.chaplygin_sleigh())"),
]

_PAGE = r"""() => {
  const text = document.body.innerText;
  const figures = Array.from(document.querySelectorAll("figure img"))
    .map(img => ({alt: img.alt, caption: (img.closest("figure").querySelector("figcaption")
                  || {}).textContent || "", loaded: img.complete && img.naturalWidth > 0}));
  return {figures, typeset: document.querySelectorAll("mjx-container").length,
          errors: document.querySelectorAll("mjx-merror").length,
          raw: text.includes("$$") || text.includes("\\tfrac") || text.includes("\\dot"),
          scenes: document.querySelectorAll(".companion-scene").length,
          steps: text.includes("Step 1 of")};
}"""


@pytest.mark.browser
@pytest.mark.slow
def test_exported_page_reads_offline(python3_kernel, browser, tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.from_dict(c) for c in PROBE])
    # with the widget state stored, as JupyterLab saves it: nothing may need it
    NotebookClient(nb, timeout=300, kernel_name=python3_kernel,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert "widgets" in nb.metadata
    page_file = tmp_path / "notes.html"
    page_file.write_text(export.export_html(nb), encoding="utf-8")

    page = browser.new_page(viewport={"width": 1024, "height": 768})
    outside, errors = [], []

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    lb.collect_page_errors(page, errors)
    try:
        page.goto(page_file.as_uri())
        page.wait_for_function("() => window.MathJax && MathJax.startup"
                               " && MathJax.startup.promise")
        page.evaluate("() => MathJax.startup.promise")
        seen = page.evaluate(_PAGE)
    finally:
        page.close()
    assert outside == [], f"requests left the page: {outside}"
    assert errors == [], errors
    assert seen["typeset"] >= 2 and not seen["errors"] and not seen["raw"], seen
    described = [f for f in seen["figures"] if f["loaded"] and f["alt"]]
    # the explorer's figure, and the workbench's explorer: each with its description
    explorers = [f for f in described if f["alt"].startswith("Knife-edge dumbbell")]
    assert len(explorers) == 1 and explorers[0]["caption"] == explorers[0]["alt"], seen
    assert any(f["alt"].startswith("Chaplygin sleigh") for f in described), seen
    assert seen["scenes"] >= 2 and seen["steps"], seen  # both scenes play; the workbench's steps
