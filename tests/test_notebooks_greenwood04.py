"""The Greenwood ch. 4 notebooks run headless (nbclient) in under 30 s each and are stored
without outputs."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pytest

CHAPTER = Path(__file__).resolve().parents[1] / "chapters" / "greenwood-04"
NOTEBOOKS = ["boltzmann-hamel.ipynb", "euler-rigid-body.ipynb", "knife-edge.ipynb"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_stored_clean(name):
    nb = nbformat.read(CHAPTER / name, 4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[0].source.strip() == "%matplotlib widget"
    assert all(not c.outputs and c.execution_count is None for c in code)


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_runs_headless(name):
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(CHAPTER / name, 4)
    start = time.perf_counter()
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(CHAPTER)}}).execute()
    assert time.perf_counter() - start < 30
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
