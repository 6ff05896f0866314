"""Self-study exercises closing each worked-example notebook.

Answers are typed in sympy syntax, read by a safe whitelist parser
(:mod:`companion.exercises.parse`) and compared with the engine's result
(:mod:`companion.exercises.check`), both inside a sandboxed grading process
(:mod:`companion.exercises.worker`) that no answer can hang or crash.  In a notebook::

    from companion.exercises import show_exercises
    show_exercises("euler_body")

Adding exercises for another example or text: write one builder
per worked example returning 2–4 :class:`Exercise` objects whose ``answer``, ``mistakes`` and
``solution`` read the registered system's derivation (never typed results), export
``SETS = {set_name: (title, builder)}`` and add the module to ``_MODULES`` below.  A set is
named after its example (``Exercise.example``, the registry name); a second set on the same
example, for another notebook, gets a name of its own (``"knife_edge_kane"``).

The package imports lazily: the grading worker imports only the parser and the checker.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Modules defining exercise sets: each has ``SETS = {example: (title, builder)}``.
_MODULES: tuple[str, ...] = ("companion.exercises.greenwood", "companion.exercises.loparo",
                             "companion.exercises.understanding",
                             "companion.exercises.boltzmann_hamel")
#: A set ``<name>_concepts`` (predictions and conceptual choices) is shown after ``<name>``.
CONCEPTS = "_concepts"

#: Public names and the modules they live in, imported on first use.
_LAZY = {
    "AnswerError": "companion.exercises.parse", "parse_answer": "companion.exercises.parse",
    "Feedback": "companion.exercises.check", "Mistake": "companion.exercises.check",
    "Exercise": "companion.exercises.exercise", "ExerciseSet": "companion.exercises.exercise",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _sets() -> dict:
    table: dict = {}
    for module in _MODULES:
        table.update(importlib.import_module(module).SETS)
    return table


def names() -> list[str]:
    """Names of the exercise sets (mostly the registry names of their examples)."""
    return list(_sets())


def exercises_for(example: str):
    """The exercises of a worked example (an ``ExerciseSet``), by the set's name (see
    :func:`names`)."""
    from companion.exercises.exercise import ExerciseSet

    table = _sets()
    if example not in table:
        raise ValueError(f"no exercises for {example!r}; known: {', '.join(table) or 'none'}")
    title, build = table[example]
    return ExerciseSet(example=example, title=title, exercises=build())


def show_exercises(example: str) -> None:
    """Display the exercises of a worked example in a notebook (works in Voilà too).

    The set's understanding exercises (``<example>_concepts``), if any, follow it.  Returns
    nothing, so that ending a cell with this call does not display them twice; use
    ``exercises_for(example).widget()`` to get the widget itself.
    """
    from IPython.display import display

    for name in shown_sets(example):
        display(exercises_for(name).widget())


def shown_sets(example: str) -> list[str]:
    """The sets :func:`show_exercises` displays for ``example``: its own, then its
    understanding set when there is one."""
    table = _sets()
    if example not in table:
        raise ValueError(f"no exercises for {example!r}; known: {', '.join(table) or 'none'}")
    return [example, *([example + CONCEPTS] if example + CONCEPTS in table else [])]


__all__ = ["AnswerError", "Exercise", "ExerciseSet", "Feedback", "Mistake", "exercises_for",
           "names", "parse_answer", "show_exercises", "shown_sets"]
