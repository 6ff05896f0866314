"""One list of worked examples: every slice is in it, the README's chapter table and the index
notebook are generated from it (and fail here when stale), and each record's parts exist."""

from __future__ import annotations

import inspect
from dataclasses import replace
from pathlib import Path

import nbformat
import pytest

from companion import examples
from tools import chapter_index

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
RECORDS = examples.worked_examples()


def test_readme_table_and_index_are_not_stale():
    assert chapter_index.main(["--check"]) == 0, "run `make index`"


def test_a_new_record_makes_them_stale(monkeypatch):
    notebook, records = examples.notebooks()[0]
    extra = replace(notebook, path="greenwood-04/new.ipynb", title="A new example")
    monkeypatch.setattr(examples, "notebooks", lambda: [(notebook, records), (extra, records)])
    readme = chapter_index.README.read_text(encoding="utf-8")
    assert "A new example" in chapter_index.readme_text(readme) != readme
    index = chapter_index.INDEX.read_text(encoding="utf-8")
    assert "greenwood-04/new.ipynb" in chapter_index.index_text(index)


def test_every_chapter_notebook_has_a_record_and_every_record_a_notebook():
    on_disk = {str(p.relative_to(CHAPTERS)) for p in CHAPTERS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts and p.name != "index.ipynb"}
    listed = {nb.path for nb, _ in examples.notebooks()}
    listed |= {nb.path for nb in chapter_index.BEYOND_THE_BOOKS}  # the workbench
    assert listed == on_disk


def test_names_are_unique_and_every_slice_is_collected():
    names = examples.names()
    assert len(names) == len(set(names))
    packages = {p.name for p in (ROOT / "companion" / "examples").iterdir()
                if (p / "__init__.py").exists()}
    owners = {r.system.module.split(".")[2] for r in RECORDS}
    assert packages == owners


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_every_part_of_a_record_resolves(record):
    parts = [record.system, record.explorer, record.checks, record.independent,
             record.exercises[1] if record.exercises else None]
    for part in filter(None, parts):
        # the slice's own function, under the name the record gives (not an alias of
        # another slice's code, not a module attribute that happens to be callable)
        function = part.resolve()
        assert inspect.isfunction(function), part
        assert (function.__module__, function.__name__) == (part.module, part.attribute), part


@pytest.mark.parametrize("record", [r for r in RECORDS if r.reconstruction],
                         ids=[r.name for r in RECORDS if r.reconstruction])
def test_reconstructions_say_so(record):
    nb = nbformat.read(CHAPTERS / record.notebook.path, as_version=4)
    assert "worked instance of the method of" in nb.cells[0].source
    assert "reconstructed" in record.notebook.title


def test_unknown_names_get_a_clear_error():
    with pytest.raises(ValueError, match="unknown example 'nope'; known: .*knife_edge"):
        examples.get("nope")
    with pytest.raises(ValueError, match="has no explorer"):
        examples.explorer("heavy_top")


def test_records_sharing_a_system_share_the_instance():
    assert examples.get("knife_edge_kane") is examples.get("knife_edge")
    assert "knife_edge_kane" not in examples.system_names()


def test_index_wording_matches_what_the_notebooks_do():
    """The knife edge's notebook does not steer (the nonholonomic one does); Example 1 (§7.5)
    and §7.6 are marked reconstructed (our copy of Loparo & Vakalis stops inside §7.4)."""
    rows = {nb.path: nb for nb, _ in examples.notebooks()}
    knife = rows["greenwood-04/knife-edge.ipynb"]
    assert "steer" not in knife.summary.lower()
    geodesic = rows["loparo-07/euler-geodesic.ipynb"]
    assert "Example 1 (§7.5, reconstructed)" in geodesic.source
    assert "reconstructed" in geodesic.title
    lie_group = rows["loparo-07/lie-group.ipynb"]
    assert "§7.6 (reconstructed)" in lie_group.source and "reconstructed" in lie_group.title
    assert "frobenius" not in rows["loparo-07/bridge.ipynb"].summary.lower()
    readme = (CHAPTERS.parent / "README.md").read_text(encoding="utf-8")
    assert "steer the blade" not in readme and "knife-edge steering" not in readme


def test_every_notebook_is_on_a_reading_path_and_every_step_exists():
    from tools import chapter_index as ci

    on_a_path = {p for _, steps in ci.READING_PATHS.values() for p in steps}
    listed = set(ci.notebook_paths())
    assert on_a_path <= listed, f"paths name notebooks the index lacks: {on_a_path - listed}"
    assert listed - on_a_path == set(), "every notebook belongs to a reading path"


def test_reading_time_follows_the_notebook(tmp_path, monkeypatch):
    import json

    from tools import chapter_index as ci

    (tmp_path / "chapters").mkdir()
    cells = [{"cell_type": "markdown", "source": ["word " * 730]},
             *({"cell_type": "code", "source": ["1"]} for _ in range(4)),
             # the lecturer's notes are not the student's reading
             {"cell_type": "markdown", "metadata": {"tags": ["presenter-notes"]},
              "source": ["note " * 900]}]
    (tmp_path / "chapters" / "x.ipynb").write_text(json.dumps({"cells": cells}))
    monkeypatch.setattr(ci, "ROOT", tmp_path)
    assert ci.minutes("x.ipynb") == 15  # 7.3 min of prose + 4 code cells, up to 5 min
