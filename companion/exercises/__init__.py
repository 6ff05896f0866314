"""Self-study exercises closing each worked-example notebook: the exercise machinery.

Answers are typed in sympy syntax, read by a safe whitelist parser
(:mod:`companion.exercises.parse`) and compared symbolically with the engine's result
(:mod:`companion.exercises.check`).  The exercises themselves live in each worked example's
slice (``companion/examples/<name>/exercises.py``); a notebook shows them with::

    from companion import examples
    examples.show_exercises("euler_body")

A slice's builder returns 2–4 :class:`Exercise` objects whose ``answer``, ``mistakes`` and
``solution`` read the slice's system's derivation (never typed results).  A second set on the
same system, for another notebook, is a record of its own (``"knife_edge_kane"``).
"""

from __future__ import annotations

from companion.exercises.check import Feedback, Mistake
from companion.exercises.exercise import Exercise, ExerciseSet
from companion.exercises.parse import AnswerError, parse_answer

__all__ = ["AnswerError", "Exercise", "ExerciseSet", "Feedback", "Mistake", "parse_answer"]
