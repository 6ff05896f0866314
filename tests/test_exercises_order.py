"""Where a prediction's follow-up points (issue 37 review, strike 4): an exercise's ``then``
text that sends the reader to "the explorer above" or "below" must match the notebook that
shows it, where the explorer really is."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from companion import examples
from tests.test_teaching import shown_exercises

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"
NOTEBOOKS = sorted(p for p in CHAPTERS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
DIRECTION = re.compile(r"explorer (above|below)")


def direction_errors(sources: list[str], then_of: dict[tuple[str, str], str]) -> list[str]:
    """For each cell showing exercises whose ``then`` says "explorer above/below", whether an
    ``examples.explorer(`` cell lies on that side."""
    explorers = [i for i, s in enumerate(sources) if "examples.explorer(" in s]
    errors = []
    for i, source in enumerate(sources):
        for example, only, skip in shown_exercises(source):
            for (name, key), then in then_of.items():
                if name != example or (only is not None and key not in only) or key in skip:
                    continue
                for side in DIRECTION.findall(then):
                    if not [j for j in explorers if (j < i if side == "above" else j > i)]:
                        errors.append(f"cell {i}: {name}.{key} says 'explorer {side}'")
    return errors


def _then_texts() -> dict[tuple[str, str], str]:
    return {(name, exercise.key): getattr(exercise, "then", "")
            for name in examples.exercise_set_names()
            for exercise in examples.exercises_for(name)
            if DIRECTION.search(getattr(exercise, "then", "") or "")}


def test_direction_errors_can_fail():
    then = {("knife_edge", "turning"): "Now press ▶ in the explorer above."}
    shows = 'examples.show_exercises("knife_edge", only=["turning"])'
    assert direction_errors([shows, 'examples.explorer("knife_edge")'], then) == [
        "cell 0: knife_edge.turning says 'explorer above'"]
    assert direction_errors(['examples.explorer("knife_edge")', shows], then) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_prediction_points_to_where_its_explorer_is(path):
    sources = [c.source if c.cell_type == "code" else ""
               for c in nbformat.read(path, as_version=4).cells]
    assert direction_errors(sources, _then_texts()) == []
