"""Faded worked examples (issue 37, §3): each practice notebook goes worked → faded → unaided,
and every practice exercise's key (the engine's) is accepted while a wrong answer is refused."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
import sympy as sp

from companion import practice
from tools.chapter_index import notebook_paths

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"
#: practice notebook → the practice set it shows
NOTEBOOKS = {"greenwood-04/practice-boltzmann-hamel.ipynb": "boltzmann_hamel",
             "greenwood-04/practice-kane.ipynb": "kane",
             "loparo-07/practice-pull-back.ipynb": "pull_back"}
STAGES = ("worked", "faded", "unaided")
EXERCISES = [(name, e.key) for name in practice.set_names()
             for e in practice.exercise_set(name)]


def stage_order(tags: list[list[str]]) -> list[str]:
    """The stages (worked, faded, unaided) in the order the cells carry them."""
    return [t for cell_tags in tags for t in cell_tags if t in STAGES]


def test_stage_order_check_can_fail():
    assert stage_order([["worked"], [], ["faded"], ["unaided"]]) == list(STAGES)
    assert stage_order([["faded"], ["worked"], ["unaided"]]) != list(STAGES)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_practice_notebook_goes_worked_faded_unaided(name):
    nb = nbformat.read(CHAPTERS / name, as_version=4)
    assert nb.cells[0].source.splitlines()[0] == "%matplotlib widget"
    tags = [list(c.metadata.get("tags", [])) for c in nb.cells]
    assert stage_order(tags) == list(STAGES), name
    shown = "\n".join(c.source for c in nb.cells if {"faded", "unaided"} & set(c.metadata.get(
        "tags", [])))
    assert f'practice.show("{NOTEBOOKS[name]}"' in shown
    assert name in notebook_paths(), "list it in chapter_index.BEYOND_THE_BOOKS"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_faded_and_unaided_exercise_is_shown(name):
    nb = nbformat.read(CHAPTERS / name, as_version=4)
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for exercise in practice.exercise_set(NOTEBOOKS[name]):
        assert f'"{exercise.key}"' in source, exercise.key


def typed(exercise, expr) -> str:
    """What a reader types for ``expr``: the aliases (``u_1dot``) for symbols like u̇₁."""
    by_target = {target: alias for alias, target in exercise.aliases.items()}
    return str(expr.xreplace({x: sp.Symbol(by_target[x.name]) for x in expr.free_symbols
                              if x.name in by_target}))


@pytest.mark.parametrize(("name", "key"), EXERCISES, ids=[k for _, k in EXERCISES])
def test_key_is_accepted_and_wrong_answers_refused(name, key):
    exercise = practice.exercise_set(name)[key]
    expected = exercise.expected()
    assert exercise.check(typed(exercise, expected)).proven, key
    wrong = expected + (sp.ones(*expected.shape) if expected.is_Matrix else 1)
    assert not exercise.check(typed(exercise, wrong)).correct, key
    for mistake in exercise.known_mistakes():
        feedback = exercise.check(typed(exercise, mistake.answer))
        assert not feedback.correct and mistake.message in feedback.message, (key, mistake.kind)


def test_unknown_names_get_a_clear_error():
    with pytest.raises(ValueError,
                       match="no practice set 'nope'; known: boltzmann_hamel, kane, pull_back"):
        practice.exercise_set("nope")
    with pytest.raises(ValueError, match="has no exercise 'nope'; known: sleigh_u1dot"):
        practice.show("boltzmann_hamel", only=["nope"])
