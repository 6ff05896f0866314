"""Graded mode: the exercises' answers withheld from the kernel's public API.

Every exercise derives its answer with the engine when asked (``Exercise.expected()``,
``ChoiceExercise.right_index()``, the known mistakes, the solution's steps).  For a graded
set that is one call away from a student, so in graded mode those calls — and the
exercises' ``answer``/``right``/``mistakes``/``solution`` callables themselves — raise
:class:`Withheld` instead, the exercise widgets show no Check and no Reveal, and an
autograder judges against an :class:`AnswerKey` written into nbgrader's hidden tests
(:mod:`companion.exercises.assignment`), which the student version does not contain.

Graded mode is on when the environment variable ``COMPANION_GRADED`` is set (to anything but
``0``) as the package is imported — a hub sets it in the students' image — or after
:func:`seal`, which an exported assignment's first cell calls.  There is no public way to
turn it off again in that kernel.  What it does not protect (the README says so): the engine
itself (a student may derive the equations with it, which is the course's point), the
package's source, and a student's own code that edits the kernel's private state.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

#: The environment variable that turns graded mode on at import.
ENV = "COMPANION_GRADED"

_on = os.environ.get(ENV, "").strip() not in ("", "0")

F = TypeVar("F", bound=Callable[..., Any])


class Withheld(PermissionError):
    """An answer asked for in graded mode."""


def graded() -> bool:
    """Whether graded mode is on in this kernel."""
    return _on


def seal() -> None:
    """Turn graded mode on for the rest of this kernel's life (there is no undo)."""
    global _on
    _on = True


def withhold(what: str) -> None:
    """Raise :class:`Withheld` naming ``what`` when graded mode is on."""
    if _on:
        raise Withheld(f"{what} is withheld in graded mode: this exercise is graded by the "
                       "autograder; work it out (hints are still available)")


def guarded(function: F | None, what: str) -> F | None:
    """``function``, refusing to run in graded mode (None stays None)."""
    if function is None or getattr(function, "_withheld_in_graded_mode", False):
        return function

    def call(*args: Any, **kwargs: Any) -> Any:
        withhold(what)
        return function(*args, **kwargs)

    call._withheld_in_graded_mode = True  # type: ignore[attr-defined]
    return call  # type: ignore[return-value]
