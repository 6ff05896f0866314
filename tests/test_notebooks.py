"""Every notebook under ``chapters/`` runs, shows every widget with a static form (the static
book and an HTML export show that), is committed clean, and is reachable from the index."""

from __future__ import annotations

import math
import re
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from nbclient import NotebookClient

from tools.book import without_static_form

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
INDEX = CHAPTERS / "index.ipynb"
NOTEBOOKS = sorted(p for p in CHAPTERS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
IDS = [str(p.relative_to(ROOT)) for p in NOTEBOOKS]

#: Seconds a notebook's cells may take, all together, in a fresh kernel, before the run is
#: taken as hung: a guard against a hang, not a speed test (each takes 5–30 s here; a busy
#: machine must not fail it). benchmarks/ times the notebooks (disk_link.py --notebooks).
BUDGET = 300.0

#: Run before the notebook's first cell, in the same kernel: deprecation warnings raised from
#: the companion package are errors, as in the rest of the test suite (pyproject.toml).
WARNINGS_AS_ERRORS = """\
import warnings
for _category in (DeprecationWarning, PendingDeprecationWarning):
    warnings.filterwarnings("error", category=_category, module=r"companion(\\.|$)")
del _category
"""

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class NotebookFailed(AssertionError):
    """A notebook did not run through; the message names the notebook and the cell."""


def run_notebook(path: Path, kernel_name: str, budget: float = BUDGET) -> float:
    """Execute ``path`` top to bottom in a fresh kernel with cwd = its folder.

    Returns the seconds the cells took.  Raises :class:`NotebookFailed` naming the notebook and
    the failing cell's source when a cell raises or the budget runs out, or naming the cells
    that show a widget without a static form (``make book`` would refuse the notebook).
    """
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(WARNINGS_AS_ERRORS))
    where: dict = {"index": 0, "start": None}

    def on_cell_start(cell, cell_index):
        where["index"] = cell_index
        if where["start"] is None:
            where["start"] = time.monotonic()

    def remaining(cell) -> int:
        spent = 0.0 if where["start"] is None else time.monotonic() - where["start"]
        return max(1, math.ceil(budget - spent))  # nbclient reads 0 as "no timeout"

    client = NotebookClient(
        nb,
        kernel_name=kernel_name,
        resources={"metadata": {"path": str(path.parent)}},
        timeout_func=remaining,
        on_cell_start=on_cell_start,
    )
    try:
        client.execute()
    except Exception as exc:
        i = where["index"]
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        cell = "the warnings set-up" if i == 0 else f"cell {i}"
        source = nb.cells[i].source
        raise NotebookFailed(
            f"{name}: {cell} failed ({type(exc).__name__}):\n"
            f"----- source -----\n{source}\n----- error -----\n{_ANSI.sub('', str(exc))[-4000:]}"
        ) from None
    seconds = time.monotonic() - (where["start"] or time.monotonic())
    if seconds > budget:
        raise NotebookFailed(f"{path.name}: took {seconds:.1f} s, budget {budget:.0f} s")
    bare = without_static_form(nb, first=0)  # cell 0: the warnings set-up
    if bare:
        raise NotebookFailed(f"{path.name}: widgets with no static form (empty on a page "
                             f"without widgets: the book, an HTML export): {'; '.join(bare)}")
    return seconds


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs(path, python3_kernel):
    """The whole notebook, top to bottom, in a fresh kernel (5–35 s each: what a reader's
    "run all" costs; the browser tests run each once more, in JupyterLab)."""
    try:
        run_notebook(path, python3_kernel)
    except NotebookFailed as failure:
        pytest.fail(str(failure), pytrace=False)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_starts_with_the_widget_backend(path):
    code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    if code:  # the index has none
        assert code[0].source.splitlines()[0].strip() == "%matplotlib widget"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    dirty = [
        f"cell {i}: {len(c.outputs)} outputs, execution_count={c.execution_count}"
        for i, c in enumerate(nb.cells, start=1)
        if c.cell_type == "code" and (c.outputs or c.execution_count is not None)
    ]
    assert not dirty, f"clear the outputs of {path.name} before committing:\n" + "\n".join(dirty)
    assert "widgets" not in nb.metadata, f"{path.name} stores widget state: clear it"


def _relative_links(markdown: str) -> list[str]:
    targets = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", markdown)
    return [t for t in targets if not urlparse(t).scheme and not t.startswith("#")]


def test_index_links_every_notebook_and_every_link_resolves():
    nb = nbformat.read(INDEX, as_version=4)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    linked = set()
    for target in _relative_links(markdown):
        resolved = (INDEX.parent / unquote(target.split("#")[0])).resolve()
        assert resolved.exists(), f"chapters/index.ipynb links {target!r}, which does not exist"
        linked.add(resolved)
    unlinked = [str(p.relative_to(ROOT)) for p in NOTEBOOKS if p != INDEX and p not in linked]
    assert not unlinked, f"chapters/index.ipynb does not link: {unlinked}"


def test_readme_has_a_binder_link_per_notebook():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"urlpath=lab/tree/([^)\s&\"]+)", readme)
    assert targets, "README.md has no Binder links"
    missing = [t for t in targets if not (ROOT / unquote(t)).exists()]
    assert not missing, f"README.md Binder links to missing files: {missing}"
    linked = {(ROOT / unquote(t)).resolve() for t in targets}
    unlinked = [str(p.relative_to(ROOT)) for p in NOTEBOOKS if p not in linked]
    assert not unlinked, f"README.md's chapter table lacks: {unlinked}"


# --- the runner itself --------------------------------------------------------------------------


def _write(tmp_path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    path = tmp_path / "probe.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.mark.slow
def test_runner_names_failing_cell_and_makes_companion_deprecations_errors(
    tmp_path, python3_kernel
):
    path = _write(
        tmp_path,
        # cwd is the notebook's folder
        f"import os; assert os.getcwd() == {str(tmp_path)!r}",
        # a deprecation raised elsewhere stays a warning ...
        "import warnings\n"
        "warnings.warn_explicit('old', DeprecationWarning, 'x.py', 1, module='elsewhere')",
        # ... one raised from the companion package is an error
        "warnings.warn_explicit('old', DeprecationWarning, 'c.py', 1, module='companion.system')",
        "print('never reached')",
    )
    with pytest.raises(NotebookFailed) as failure:
        run_notebook(path, python3_kernel)
    message = str(failure.value)
    assert "probe.ipynb: cell 3 failed" in message
    assert "module='companion.system'" in message and "DeprecationWarning" in message


@pytest.mark.slow
def test_runner_names_widgets_without_static_form(tmp_path, python3_kernel):
    path = _write(tmp_path, "import ipywidgets as w\nfrom companion.widgets import Panel",
                  "Panel([w.FloatSlider(description='a'), w.HTML('<b>kept</b>')])",
                  "w.VBox([w.FloatSlider(description='b')])")
    with pytest.raises(NotebookFailed, match=r"probe.ipynb: widgets with no static form .*"
                                             r": cell 3: VBox\(children=\(FloatSlider[^;]*$"):
        run_notebook(path, python3_kernel)


@pytest.mark.slow
def test_runner_enforces_the_budget(tmp_path, python3_kernel):
    path = _write(tmp_path, "x = 1", "import time; time.sleep(30)")
    with pytest.raises(NotebookFailed, match=r"cell 2 failed \(CellTimeoutError\)"):
        run_notebook(path, python3_kernel, budget=3)
