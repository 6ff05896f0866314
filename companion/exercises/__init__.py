"""Self-study exercises closing each worked-example notebook: the exercise machinery.

Answers are typed in sympy syntax, read by a safe whitelist parser
(:mod:`companion.exercises.parse`) and compared with the engine's result
(:mod:`companion.exercises.check`), both inside a sandboxed grading process
(:mod:`companion.exercises.worker`) that no answer can hang or crash.  The exercises
themselves live in each worked example's slice (``companion/examples/<name>/exercises.py``);
a notebook shows them with::

    from companion import examples
    examples.show_exercises("euler_body")

A slice's builder returns typed exercises (:class:`Exercise`) and choices
(:class:`ChoiceExercise`) whose answers the engine derives, never typed results.  A second
set on the same system, for another notebook, is a record of its own (``"knife_edge_kane"``).

The package imports lazily: the grading worker imports only the parser and the checker.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public names and the modules they live in, imported on first use.
_LAZY = {
    "AnswerError": "companion.exercises.parse", "parse_answer": "companion.exercises.parse",
    "Feedback": "companion.exercises.check", "Mistake": "companion.exercises.check",
    "ChoiceExercise": "companion.exercises.exercise", "Exercise": "companion.exercises.exercise",
    "ExerciseSet": "companion.exercises.exercise", "Option": "companion.exercises.exercise",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_LAZY)
