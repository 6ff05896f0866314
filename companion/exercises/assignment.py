"""Export an exercise set as an nbgrader assignment, graded by the same checker.

:func:`export_assignment` writes the *source* notebook of an nbgrader assignment (the one an
instructor puts under ``source/<assignment>/``; ``nbgrader generate_assignment`` makes the
student version from it).  It is a plain nbformat notebook whose cells carry nbgrader's cell
metadata (schema version 3), so the companion needs no nbgrader to write it:

- a locked read-only cell with the set's title and how to answer;
- per exercise, a locked read-only prompt cell; an answer cell (``solution``) holding the
  engine's answer between ``### BEGIN SOLUTION`` / ``### END SOLUTION``, which nbgrader
  replaces by a stub in the student version; and a locked autograder-test cell (``grade``,
  one point) that calls :func:`check_answer` — the same worker-sandboxed checker as the
  widgets, so a student's answer cannot hang or crash the autograder either.

A test cell passes when the checker accepts the answer (proved, or agreeing at every random
point); otherwise it fails with the checker's feedback as the message, which nbgrader shows
in the graded notebook.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import sympy as sp

from companion.exercises.check import Feedback
from companion.exercises.exercise import ChoiceExercise, Exercise, ExerciseSet

#: nbgrader's cell-metadata schema version written here.
SCHEMA_VERSION = 3
#: Points per autograded exercise.
POINTS = 1
#: An autograder test: it imports what it calls itself, so an answer cell that rebinds a
#: name cannot stand in for the checker; it prints nothing (nbgrader warns about output).
_TEST = ("from companion import examples\n"
         "from companion.exercises.assignment import check_answer\n\n"
         "feedback = check_answer(examples.exercises_for({set_name!r})[{key!r}], answer)")


class AnswerRejected(AssertionError):
    """An autograded answer the checker does not accept; the message is its feedback."""


def check_answer(exercise: Exercise | ChoiceExercise, answer: str | int) -> Feedback:
    """Judge an answer of an assignment; raise :class:`AnswerRejected` unless it is accepted.

    ``answer`` is the typed text of an expression exercise or the option number (from 1) of
    a choice exercise.
    """
    if isinstance(exercise, ChoiceExercise):
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise AnswerRejected(f"give the number of your choice (1 to {len(exercise.options)})")
        feedback = exercise.check(answer - 1 if 1 <= answer <= len(exercise.options) else None)
    else:
        if not isinstance(answer, str):
            raise AnswerRejected("give the answer as text in quotes, e.g. \"m*g*cos(theta)\"")
        feedback = exercise.check(answer)
    if not feedback.correct:
        raise AnswerRejected(feedback.message)
    return feedback


def _metadata(grade_id: str, *, grade: bool = False, solution: bool = False,
              locked: bool = False) -> dict:
    meta = {"schema_version": SCHEMA_VERSION, "grade": grade, "solution": solution,
            "locked": locked, "task": False, "grade_id": grade_id}
    if grade:
        meta["points"] = POINTS
    return {"nbgrader": meta}


def _typed(exercise: Exercise) -> str:
    """The engine's answer written with the names a reader types."""
    names: dict = {}
    for name, symbol in exercise.symbols().items():
        names.setdefault(symbol, sp.Symbol(name))
    return sp.sstr(exercise.expected().xreplace(names))


def _cells(set_name: str, exercise: Exercise | ChoiceExercise, number: int) -> list:
    ident = f"{set_name}-{exercise.key}"
    prompt = f"### Exercise {number}: {exercise.title}\n\n{exercise.prompt}\n\n"
    if isinstance(exercise, ChoiceExercise):
        prompt += "\n".join(f"{k}. {o.label}" for k, o in enumerate(exercise.options, 1))
        prompt += "\n\nSet `answer` to the number of your choice."
        solution = str(exercise.right_index() + 1)
    else:
        prompt += (f"Set `answer` to your expression as text, in sympy syntax. Names you may "
                   f"use: {', '.join(exercise.names)}"
                   + (f" (also {', '.join(exercise.aliases)})" if exercise.aliases else "")
                   + ".")
        solution = json.dumps(_typed(exercise))
    return [
        nbformat.v4.new_markdown_cell(prompt, metadata=_metadata(f"{ident}-prompt",
                                                                 locked=True)),
        nbformat.v4.new_code_cell(f"### BEGIN SOLUTION\nanswer = {solution}\n"
                                  "### END SOLUTION",
                                  metadata=_metadata(f"{ident}-answer", solution=True)),
        nbformat.v4.new_code_cell(_TEST.format(set_name=set_name, key=exercise.key),
                                  metadata=_metadata(f"{ident}-test", grade=True,
                                                     locked=True)),
    ]


def assignment_notebook(exercise_set: ExerciseSet) -> nbformat.NotebookNode:
    """The nbgrader source notebook of an exercise set (see the module docstring)."""
    set_name = exercise_set.example
    intro = (f"# {exercise_set.title}\n\nAnswer each exercise in the cell under it; the cell "
             "after that checks your answer with the companion's checker (an equivalent form "
             "of the right answer is accepted).")
    cells = [nbformat.v4.new_markdown_cell(intro, metadata=_metadata(f"{set_name}-intro",
                                                                     locked=True))]
    for number, exercise in enumerate(exercise_set, start=1):
        cells += _cells(set_name, exercise, number)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    return notebook


def export_assignment(exercise_set: ExerciseSet, path: str | Path) -> Path:
    """Write the nbgrader source notebook of ``exercise_set`` (from
    :func:`companion.examples.exercises_for`) to ``path`` and return the path."""
    path = Path(path)
    notebook = assignment_notebook(exercise_set)
    nbformat.validate(notebook)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path
