"""The double-pendulum notebook is stored clean, says it is a reconstruction, and runs
headless (nbclient) in under 30 s."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "chapters" / "loparo-07" / "double-pendulum.ipynb"


def test_stored_clean_and_marked():
    nb = nbformat.read(NOTEBOOK, 4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[0].source.strip() == "%matplotlib widget"
    assert all(not c.outputs and c.execution_count is None for c in code)
    assert "worked instance of the method of §7.7–7.8" in nb.cells[0].source


@pytest.mark.slow
def test_runs_headless():
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, 4)
    start = time.perf_counter()
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    assert time.perf_counter() - start < 30
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
