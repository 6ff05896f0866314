"""Graded mode: the exercises' answers withheld from the kernel's public API.

Every exercise derives its answer with the engine when asked (``Exercise.expected()``,
``ChoiceExercise.right_index()``, the known mistakes, the solution's steps).  For a graded
set that is one call away from a student, so in graded mode those calls raise
:class:`Withheld`, the exercises' ``answer``/``right``/``mistakes``/``solution`` callables
are replaced by :class:`Refused` objects (which hold no reference to the engine's function:
``ex.answer.__closure__`` has nothing to unwrap), the choices lose their explanations (which
say which option is right), the exercise widgets show no Check and no Reveal, and an
autograder judges against an :class:`~companion.exercises.exercise.AnswerKey` read from the
answer-keys file the export writes outside the assignment
(:mod:`companion.exercises.assignment`), which students never receive.

Graded mode is on for every exercise set when the environment variable ``COMPANION_GRADED``
is ``1`` (or ``all``) as the package is imported, or after :func:`seal`, which an exported
assignment's first cell calls.  Set to a comma-separated list of exercise-set names
(``COMPANION_GRADED=knife_edge,euler_body``) it is on for those sets only — the one
assignment being graded — and the other notebooks' exercises keep their Check and Reveal.
There is no public way to turn it off again in that kernel.  What it does not protect (the
README says so): it is a state of one kernel, so a new interpreter without ``COMPANION_GRADED``
or ``importlib.reload`` of this module derives every answer again — the package ships the
engine and the exercise definitions, so a student's own key is computable in the student's
image (deriving it is the course's point; the per-student variants make it their own work);
the package's source; and a student's own code that edits the kernel's private state.
"""

from __future__ import annotations

import os
import weakref
from typing import Any

#: The environment variable that turns graded mode on at import.
ENV = "COMPANION_GRADED"

_setting = os.environ.get(ENV, "").strip()
_on = _setting.lower() in ("1", "true", "yes", "all")
_scopes = frozenset() if _on or _setting.lower() in ("0", "false", "no") else frozenset(
    n.strip() for n in _setting.split(",") if n.strip())
#: Every exercise made in this kernel, stripped of its answers when graded mode reaches it.
_LIVE: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


class Withheld(PermissionError):
    """An answer asked for in graded mode."""


def graded(scope: str | None = None) -> bool:
    """Whether graded mode is on in this kernel for the exercise set ``scope`` (for every set,
    with ``scope`` None: whether it is on everywhere)."""
    return _on or (scope is not None and scope in _scopes)


def seal() -> None:
    """Turn graded mode on for every set for the rest of this kernel's life (no undo)."""
    global _on
    _on = True
    for exercise in list(_LIVE.values()):
        strip(exercise)


def withhold(what: str, scope: str | None = None) -> None:
    """Raise :class:`Withheld` naming ``what`` when graded mode is on for ``scope``."""
    if graded(scope):
        Refused(what)()  # raises Withheld, with the one message for both


class Refused:
    """What stands in for an exercise's answer function in graded mode: calling it raises
    :class:`Withheld`; it keeps nothing of the function it replaced."""

    __slots__ = ("what",)

    def __init__(self, what: str):
        self.what = what

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise Withheld(f"{self.what} is withheld in graded mode: this exercise is graded by "
                       "the autograder; work it out (hints are still available)")


def protect(exercise: Any) -> None:
    """Register an exercise; strip it at once if graded mode is on for its set."""
    _LIVE[id(exercise)] = exercise
    if graded(getattr(exercise, "scope", None)):
        strip(exercise)


def strip(exercise: Any) -> None:
    """Replace the exercise's answer functions by :class:`Refused` and drop its choices'
    explanations (in place: the kernel keeps no way back to them)."""
    for name in exercise._ANSWERS:
        function = getattr(exercise, name, None)
        if function is not None and not isinstance(function, Refused):
            setattr(exercise, name, Refused(f"exercise {exercise.key!r}: its {name}"))
    options = getattr(exercise, "options", None)
    if options is not None:
        exercise.options = [type(o)(o.label, "") for o in options]
    exercise.__dict__.pop("_cache", None)
