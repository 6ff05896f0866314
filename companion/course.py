"""The course kit's calls that read the catalog of worked examples: an exported assignment's
cells call these by the exercise set's name (:mod:`companion.exercises.assignment` writes the
cells and checks the answers; the exercises layer knows no catalog).

Each call poses the set on the student's own system: the variant of the worked example's
system that the student id draws, where the slice declares variants
(:mod:`companion.exercises.variant`), with the student's own numbers.
"""

from __future__ import annotations

from contextlib import suppress
from functools import cache

from companion import examples
from companion.exercises import assignment, graded
from companion.exercises.check import Feedback
from companion.exercises.exercise import ExerciseSet
from companion.exercises.variant import describe


def _show(markdown: str) -> None:
    from IPython.display import Markdown, display

    display(Markdown(markdown))


#: What the assignment's first cell fixed for the kernel's life: the student id (read before
#: any answer cell runs, so a later cell cannot change whose key is used) and, where the
#: autograder gave the keys file, that student's keys of each set.  In-process state: code in
#: a submission can still reach it (see the README's "what is protected").
_fixed: dict = {"keys": {}}


def _student() -> str:
    if "student" not in _fixed:
        _fixed["student"] = assignment.student_id()
    return _fixed["student"]


def _keys(set_name: str) -> dict | None:
    """The student's keys of ``set_name``, read once from the autograder's keys file (None
    without one); what could not be read is raised again by every test cell."""
    if set_name not in _fixed["keys"]:
        try:
            _fixed["keys"][set_name] = assignment.read_keys(set_name, _student())
        except assignment.AnswerUndecided as error:
            _fixed["keys"][set_name] = str(error)
    found = _fixed["keys"][set_name]
    if isinstance(found, str):
        raise assignment.AnswerUndecided(found)
    return found


def own_set(set_name: str, seed: str | None = None) -> ExerciseSet:
    """The exercise set of ``set_name`` posed on the system of the student ``seed`` (default:
    the one the assignment's first cell fixed); built once per kernel."""
    return _own_set(set_name, _student() if seed is None else seed)


@cache
def _own_set(set_name: str, seed: str) -> ExerciseSet:
    return examples.exercises_for(set_name).for_student(seed)


def student_set(set_name: str, seed: str | None = None) -> ExerciseSet:
    """The assignment's first cell: the exercise set in graded mode on the student's own
    system, its variant and numbers shown.  It fixes the student id for the kernel's life and,
    in the autograder, reads the student's keys from the file
    :data:`~companion.exercises.assignment.KEYS_ENV` names (and removes that variable from
    ``os.environ``), before any answer cell runs."""
    graded.seal()
    seed = _student() if seed is None else seed
    if assignment.autograding():  # the autograder: its worker starts meanwhile
        from companion.exercises.worker import grader

        grader().start()
    with suppress(assignment.AnswerUndecided):  # raised again by each test cell
        _keys(set_name)
    own = own_set(set_name, seed)
    numbers = assignment.draw_numbers(own, seed)
    _show(f"Student {seed}.\n\n" + describe(own.variant, own.system(), numbers))
    return own


def prompt(set_name: str, key: str, seed: str | None = None) -> None:
    """Show exercise ``key``'s question posed on the student's own system (an assignment's
    question cell)."""
    _show(assignment.prompt_text(own_set(set_name, seed)[key]))


def grade(set_name: str, key: str, answer: object, variable: str, *,
          release: str = assignment.RELEASE) -> Feedback | None:
    """An assignment's test cell: check the answer's form and, where the autograder gave the
    keys (read by :func:`student_set`), judge it against the student's own key.  Without keys
    only the form is checked (returns None) — unless nbgrader is autograding, where missing
    keys, or keys for another variant, are
    :class:`~companion.exercises.assignment.AnswerUndecided`."""
    own = own_set(set_name)
    assignment.check_form(own[key], answer, variable)
    written = _keys(set_name)
    if written is None:
        if not assignment.autograding():
            return None
        raise assignment.AnswerUndecided(
            f"NEEDS THE INSTRUCTOR: no answer keys: run nbgrader autograde with "
            f"{assignment.KEYS_ENV} set to the file export_assignment wrote")
    variant = None if own.variant is None else own.variant.key
    if written.get("variant") != variant:
        raise assignment.AnswerUndecided(
            f"NEEDS THE INSTRUCTOR: the answer keys were written for the variant "
            f"{written.get('variant')!r}, the student's is {variant!r}; export the keys again")
    return assignment.check_answer(own[key], answer, assignment.answer_key(written["keys"][key]),
                                   release=release)


__all__ = ["grade", "own_set", "prompt", "student_set"]
