"""The course kit's calls that read the catalog of worked examples: an exported assignment's
cells call these by the exercise set's name (:mod:`companion.exercises.assignment` writes the
cells and checks the answers; the exercises layer knows no catalog).
"""

from __future__ import annotations

import os

from companion import examples
from companion.exercises import assignment, graded
from companion.exercises.check import Feedback
from companion.exercises.exercise import ExerciseSet


def student_set(set_name: str, seed: str | None = None, *, show: bool = True) -> ExerciseSet:
    """The exercise set of an assignment in graded mode, with the student's numbers printed
    (``seed`` defaults to :func:`~companion.exercises.assignment.student_id`)."""
    graded.seal()
    seed = assignment.student_id() if seed is None else seed
    if show:
        numbers = assignment.draw_numbers(examples.exercises_for(set_name), seed)
        print(f"Your numbers ({seed}): "
              + ", ".join(f"{s.name} = {v}" for s, v in numbers.items())
              + ". Use them in every answer in place of these names.")
    return examples.exercises_for(set_name)


def grade(set_name: str, key: str, answer: object, variable: str, *, keys: str | None,
          release: str = assignment.RELEASE) -> Feedback | None:
    """An assignment's test cell: check the answer's form; where the answer keys can be read
    (the autograder), judge it against the student's own key
    (:func:`~companion.exercises.assignment.check_answer`).  In the student's kernel, without
    the keys, only the form is checked (returns None) — unless nbgrader is executing the
    notebook, where missing keys are
    :class:`~companion.exercises.assignment.AnswerUndecided`."""
    exercise = examples.exercises_for(set_name)[key]
    assignment.check_form(exercise, answer, variable)
    if assignment.stored_keys(keys) is None and not os.environ.get("NBGRADER_EXECUTION"):
        return None
    written = assignment.student_keys(set_name, keys)["keys"][key]
    return assignment.check_answer(exercise, answer, assignment.answer_key(written),
                                   release=release)


__all__ = ["grade", "student_set"]
