"""The worked examples, one slice each, in one list.

Notebooks, widgets, tests, benchmarks, the chapter index and ``verify`` all reach the examples
through this module, so there is exactly one definition of each.  The list is collected from
the slice packages below this one (each exports ``EXAMPLES``): adding a worked example is adding
a slice and its notebook, no shared file is edited.  Systems are built on first use.

A notebook calls a few verbs::

    from companion import examples
    system = examples.get("knife_edge")          # the shared System
    examples.explorer("knife_edge")              # its explorer
    examples.scene("knife_edge", explorer)       # its scene, following the explorer
    examples.show_exercises("knife_edge")        # its exercises
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from functools import cache, partial
from typing import Any

from companion.examples.record import Notebook, Part, WorkedExample
from companion.model import Model
from companion.system import System

__all__ = ["Notebook", "Part", "WorkedExample", "build", "exercise_set_names", "exercises_for",
           "explorer", "get", "independent_models", "method_selector", "names", "notebooks",
           "scene", "show_exercises", "system_names", "worked", "worked_examples"]


@cache
def worked_examples() -> tuple[WorkedExample, ...]:
    """Every worked example, in the order of the books (systems beyond the books last)."""
    found: list[WorkedExample] = []
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            found.extend(importlib.import_module(f"{__name__}.{info.name}").EXAMPLES)
    seen: set[str] = set()
    cited: dict[Part, Any] = {}
    for record in found:
        if record.name in seen:
            raise RuntimeError(f"two worked examples are called {record.name!r}")
        seen.add(record.name)
        if cited.setdefault(record.system, record.citations) != record.citations:
            raise RuntimeError(f"{record.name!r} cites other numbers than its system's records")
    return tuple(sorted(found, key=lambda r: (r.notebook is None,
                                              r.notebook.order if r.notebook else (),
                                              r.name)))


def names() -> list[str]:
    """Names of every worked example."""
    return [r.name for r in worked_examples()]


def system_names() -> list[str]:
    """One name per distinct system (records that share a system, like the knife edge by
    Boltzmann–Hamel and by Kane's form, count once): what loops over every system use."""
    first: dict[Part, str] = {}
    for record in worked_examples():
        first.setdefault(record.system, record.name)
    return list(first.values())


def worked(name: str) -> WorkedExample:
    """The record of a worked example."""
    for record in worked_examples():
        if record.name == name:
            return record
    raise ValueError(f"unknown example {name!r}; known: {', '.join(names())}")


def build(name: str) -> System | Model:
    """A fresh, unshared system of a worked example (benchmarks time derivations on these)."""
    record = worked(name)
    system = record.system()
    return system.variant(citations=record.citations) if record.citations else system


@cache
def _shared(system_part: Part) -> System | Model:
    return build(next(r.name for r in worked_examples() if r.system == system_part))


def get(name: str) -> System | Model:
    """The system of a worked example (built once, then shared by every record using it): a
    :class:`System`, or a :class:`~companion.model.Model` of its own (the disk on the link,
    whose hybrid contact modes are no System)."""
    return _shared(worked(name).system)


def explorer(name: str, **kwargs: Any):
    """The ready explorer of a worked example on its shared system (kwargs go to the view's
    factory and on to :class:`~companion.widgets.Explorer`)."""
    record = worked(name)
    if record.explorer is None:
        raise ValueError(f"{name!r} has no explorer; these do: "
                         f"{', '.join(r.name for r in worked_examples() if r.explorer)}")
    return record.explorer(get(name), **kwargs)


def scene(name: str, explorer=None, **kwargs: Any):
    """The scene a worked example's slice declares (:class:`~companion.scene.Scene`), of the
    explorer's motion and following it, or of the system's default motion without one."""
    from companion.scene import Scene, scene_for

    declare = worked(name).scene.resolve()  # every record names one (tests/test_scene.py)
    if explorer is not None:
        return scene_for(explorer, declare, **kwargs)
    return Scene(declare, get(name).simulate(), **kwargs)


def independent_models() -> dict[str, Part]:
    """``{name: kane_model}`` for every worked example with a model by sympy's KanesMethod;
    ``kane_model(system) -> KaneModel``."""
    return {r.name: r.independent for r in worked_examples() if r.independent is not None}


def exercise_set_names() -> list[str]:
    """Names of the worked examples that have exercises."""
    return [r.name for r in worked_examples() if r.exercises is not None]


def exercises_for(name: str):
    """The exercise set of a worked example, each exercise attached to the shared system; a
    set whose slice declares variants of the system draws a student's own with
    ``for_student(seed)`` (:class:`~companion.exercises.exercise.ExerciseSet`)."""
    if name not in exercise_set_names():
        raise ValueError(f"no exercises for {name!r}; known: {', '.join(exercise_set_names())}")
    return _exercise_set(name)


def _exercise_set(name: str, seed: str | None = None):
    """The exercise set of ``name`` on its shared system, or on the variant of its system that
    ``seed`` draws."""
    from companion.exercises.exercise import ExerciseSet
    from companion.exercises.variant import draw_variant

    record = worked(name)
    title, builder = record.exercises
    variant = None if seed is None else draw_variant(record.variants(), name, seed)
    system = None if variant is None else variant.system()
    exercises = builder() if system is None else builder(system)
    for exercise in exercises:
        exercise.system_of = (lambda: get(name)) if system is None else (lambda: system)
    draw = None if record.variants is None or seed is not None else partial(_exercise_set, name)
    return ExerciseSet(example=name, title=title, exercises=exercises, draw=draw, variant=variant)


def show_exercises(name: str, *, only: Sequence[str] | None = None,
                   skip: Sequence[str] = (), title: str | None = None, first: int = 1) -> None:
    """Display the exercises of a worked example in a notebook (works in Voilà too).

    ``only`` shows just the exercises with those keys (a prediction shown before the cell that
    answers it, a retrieval question in a later notebook), ``skip`` leaves those out (the
    closing set, without the predictions shown earlier), ``title`` replaces the set's heading
    (with ``only`` and no ``title`` there is none: the closing set has the set's, and a page
    shows a heading once); ``first`` is the first exercise's number (a notebook numbers its
    exercises on from those shown further up; ``tests/test_lecture_content.py`` checks every
    notebook).
    Returns nothing, so that ending a cell with this call does not display them
    twice; use ``exercises_for(name).widget()`` to get the widget itself.
    """
    from IPython.display import display

    display(exercises_shown(name, only=only, skip=skip, title=title).widget(first=first))


def exercises_shown(name: str, *, only: Sequence[str] | None = None, skip: Sequence[str] = (),
                    title: str | None = None):
    """The :class:`~companion.exercises.exercise.ExerciseSet` :func:`show_exercises` shows (same
    arguments but ``first``): with ``only`` and no ``title``, under no heading."""
    if title is None and only is not None:
        title = ""
    return exercises_for(name).chosen(only, skip, title)


def method_selector(example: str = "knife_edge", method: str = "kane"):
    """Dropdowns of every worked example and every method above the chosen derivation's
    stepper (:class:`~companion.widgets.method_selector.MethodSelector`)."""
    from companion.widgets.method_selector import MethodSelector

    return MethodSelector(get, names(), example=example, method=method)


def notebooks() -> list[tuple[Notebook, list[WorkedExample]]]:
    """The chapter notebooks in book order, each with the worked examples it teaches."""
    table: dict[str, tuple[Notebook, list[WorkedExample]]] = {}
    for record in worked_examples():
        if record.notebook is not None:
            table.setdefault(record.notebook.path, (record.notebook, []))[1].append(record)
    return list(table.values())
