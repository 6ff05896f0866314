"""Export an exercise set as an nbgrader assignment, graded by the same checker.

:func:`export_assignment` writes the *source* notebook of an nbgrader assignment (the one an
instructor puts under ``source/<assignment>/``; ``nbgrader generate_assignment`` makes the
student version from it).  It is a plain nbformat notebook whose cells carry nbgrader's cell
metadata (schema version 3), so the companion needs no nbgrader to write it:

- a locked read-only cell with the set's title and how to answer, and a locked code cell
  that turns graded mode on (:func:`companion.exercises.graded.seal`): from there on the
  kernel's public API withholds every answer, in the student's kernel and in the
  autograder's;
- per exercise, a locked read-only prompt cell; an answer cell (``solution``) holding the
  engine's answer between ``### BEGIN SOLUTION`` / ``### END SOLUTION``, which nbgrader
  replaces by a stub in the student version; each exercise has its own answer variable
  (``answer_1``, ``answer_2``, …), so a blank answer cell is no answer, never the previous
  exercise's; and a locked autograder-test cell (``grade``, one point) whose visible part
  checks only the answer's form (:func:`check_form`) and whose
  hidden part (``### BEGIN HIDDEN TESTS`` … ``### END HIDDEN TESTS``, removed from the
  student version and put back by ``nbgrader autograde``) holds the :class:`AnswerKey` and
  calls :func:`check_answer` — the same worker-sandboxed checker as the widgets, so a
  student's answer cannot hang or crash the autograder either.

So the expected answers are written only inside solution regions and hidden tests, never in
what a student receives.  A test cell passes when the checker accepts the answer (proved, or
agreeing at every random point); otherwise it fails with the checker's feedback as the
message, which nbgrader shows in the graded notebook.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import sympy as sp

from companion.exercises.check import UNDECIDED, Feedback, Mistake
from companion.exercises.exercise import AnswerKey, ChoiceExercise, Exercise, ExerciseSet

#: nbgrader's cell-metadata schema version written here.
SCHEMA_VERSION = 3
#: Points per autograded exercise.
POINTS = 1
#: What a rejected answer's feedback says in graded mode, by default (see :func:`released`).
RELEASE = "kind"
#: The environment variable naming a file to which :func:`check_answer` appends one JSON line
#: per judged answer (the grade record an instructor reads for "undecided" outcomes).
RECORD_ENV = "COMPANION_GRADE_RECORD"
#: An autograder test: it imports what it calls itself, so an answer cell that rebinds a
#: name cannot stand in for the checker; it prints nothing (nbgrader warns about output).
#: Each exercise has its own answer variable, read with ``globals().get`` so that a blank
#: answer cell is judged as no answer, never as the previous exercise's.  The answer key is
#: only in the hidden part.
_TEST = ("from companion import examples\n"
         "from companion.exercises.assignment import answer_key, check_answer, check_form\n\n"
         "exercise = examples.exercises_for({set_name!r})[{key!r}]\n"
         "check_form(exercise, globals().get({variable!r}), {variable!r})\n"
         "### BEGIN HIDDEN TESTS\n"
         "check_answer(exercise, {variable}, answer_key({key_literal}), release={release!r})\n"
         "### END HIDDEN TESTS")
#: The assignment's first code cell: graded mode on in whichever kernel runs the notebook.
_SEAL = "from companion.exercises import graded\n\ngraded.seal()"


class AnswerRejected(AssertionError):
    """An autograded answer the checker does not accept; the message is its feedback."""


class AnswerUndecided(AnswerRejected):
    """An answer the checker could not decide, even on a second try with twice the budget:
    nbgrader scores the cell 0 like any failed test, but the error's name (and the grade
    record, :data:`RECORD_ENV`) flags it for the instructor, who re-grades it with a larger
    budget (``COMPANION_CHECK_SECONDS``) or by hand."""


#: What :func:`released` says for each kind of mistake at the ``"kind"`` level (kinds not
#: listed keep the checker's message, which names no part of the key: a shape, a parse
#: error, the kind of a factor, symbols that do not belong, wrong matrix entries).
_KIND_TEXT = {
    "known_mistake": "Not accepted: a mistake this exercise anticipates.",
    "near_miss": "Not accepted: very close to the right answer, but not equal.",
    "index_order": "Not accepted: check the index order.",
    "sign": "Not accepted: look for a sign error.",
    "transpose": "Not accepted: rows and columns are swapped.",
    "wrong": "Not accepted: not equivalent to the right answer.",
    "choice": "Not accepted: not the right option.",
}
_KEEP = {"unreadable", "shape", "factor", "extra_symbol", "entries", "timeout", "too_large",
         "no_checker"}


def released(feedback: Feedback, level: str = RELEASE) -> str:
    """The part of the checker's feedback an instructor releases to students.

    ``"verdict"``: accepted or not; ``"kind"``: the kind of mistake (:data:`_KIND_TEXT`),
    never an exercise's own hint text (those may name parts of the answer); ``"message"``:
    the checker's whole message, as the self-study widgets show it.

    Raises
    ------
    ValueError
        Another level.
    """
    if level not in ("verdict", "kind", "message"):
        raise ValueError(f"release={level!r}: choose 'verdict', 'kind' or 'message'")
    if feedback.correct:
        return "Accepted."
    if level == "message" or feedback.verdict == UNDECIDED:
        return feedback.message
    if level == "verdict":
        return "Not accepted."
    if feedback.hint_kind in _KEEP:
        return feedback.message
    return _KIND_TEXT.get(feedback.hint_kind, _KIND_TEXT["known_mistake"])


def _plain(exercise: Exercise | ChoiceExercise, answer: object, variable: str) -> str | int:
    """``answer`` as a plain ``str`` or ``int`` (a subclass with an ``__eq__`` of its own
    cannot fool the comparison), or :class:`AnswerRejected` naming what to give."""
    if answer is None:
        raise AnswerRejected(f"no answer given: set {variable} in the cell above")
    if isinstance(exercise, ChoiceExercise):
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise AnswerRejected(f"give the number of your choice (1 to {len(exercise.options)})")
        return int.__index__(answer)
    if not isinstance(answer, str):
        raise AnswerRejected("give the answer as text in quotes, e.g. \"m*g*cos(theta)\"")
    return str.__str__(answer)


def check_form(exercise: Exercise | ChoiceExercise, answer: object,
               variable: str = "answer") -> None:
    """Raise :class:`AnswerRejected` unless ``answer`` has the form the exercise asks for:
    text for a typed exercise, an option number from 1 for a choice; ``None`` (the
    exercise's variable ``variable`` never set) is no answer.  Judges nothing."""
    _plain(exercise, answer, variable)


def check_answer(exercise: Exercise | ChoiceExercise, answer: str | int,
                 key: AnswerKey | None = None, *, release: str = "message") -> Feedback:
    """Judge an answer of an assignment; raise :class:`AnswerRejected` (with the feedback
    :func:`released` at ``release``) unless it is accepted, :class:`AnswerUndecided` when
    the checker could not decide.

    ``answer`` is the typed text of an expression exercise or the option number (from 1) of
    a choice exercise, coerced to a plain ``str`` or ``int`` first.  It is judged against
    ``key`` (the hidden tests' answer key), else against the engine's answer (withheld in
    graded mode).  A prediction's feedback does not send the reader to an explorer: a
    handout has none.  With the environment variable :data:`RECORD_ENV` set, one JSON line
    per answer goes to that file.
    """
    answer = _plain(exercise, answer, "answer")
    if isinstance(exercise, ChoiceExercise):
        feedback = exercise.check(answer - 1 if 1 <= answer <= len(exercise.options) else None,
                                  key=key, then=False)
    else:
        feedback = exercise.check(answer, key=key)
    _record(exercise, feedback)
    if feedback.verdict == UNDECIDED:
        raise AnswerUndecided(f"NEEDS THE INSTRUCTOR (the checker could not decide): "
                              f"{feedback.message}")
    if not feedback.correct:
        raise AnswerRejected(released(feedback, release))
    return feedback


def _record(exercise: Exercise | ChoiceExercise, feedback: Feedback) -> None:
    path = os.environ.get(RECORD_ENV, "").strip()
    if not path:
        return
    outcome = ("undecided" if feedback.verdict == UNDECIDED
               else "accepted" if feedback.correct else "rejected")
    line = {"submission": str(Path.cwd()), "exercise": exercise.key, "outcome": outcome,
            "verdict": feedback.verdict, "kind": feedback.hint_kind}
    with open(path, "a", encoding="utf-8") as record:
        record.write(json.dumps(line) + "\n")


def answer_key(written: dict) -> AnswerKey:
    """The :class:`AnswerKey` that :func:`written_key` wrote into a hidden test (trusted text
    of the instructor's notebook: the expressions are sympy's ``srepr``)."""
    if "right" in written:
        return AnswerKey(right=int(written["right"]))
    return AnswerKey(expected=sp.sympify(written["expected"]),
                     mistakes=tuple(Mistake(sp.sympify(a), message, kind)
                                    for a, message, kind in written["mistakes"]))


def written_key(exercise: Exercise | ChoiceExercise) -> dict:
    """The engine's answer key of ``exercise`` as plain data for a hidden test (read back by
    :func:`answer_key`)."""
    if isinstance(exercise, ChoiceExercise):
        return {"right": exercise.right_index()}
    return {"expected": sp.srepr(exercise.expected()),
            "mistakes": [[sp.srepr(m.answer), m.message, m.kind]
                         for m in exercise.known_mistakes()]}


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


def _cells(set_name: str, exercise: Exercise | ChoiceExercise, number: int,
           release: str) -> list:
    ident = f"{set_name}-{exercise.key}"
    variable = f"answer_{number}"
    prompt = f"### Exercise {number}: {exercise.title}\n\n{exercise.prompt}\n\n"
    if isinstance(exercise, ChoiceExercise):
        prompt += "\n".join(f"{k}. {o.label}" for k, o in enumerate(exercise.options, 1))
        prompt += f"\n\nSet `{variable}` to the number of your choice."
        solution = str(exercise.right_index() + 1)
    else:
        prompt += (f"Set `{variable}` to your expression as text, in sympy syntax. Names you may "
                   f"use: {', '.join(exercise.names)}"
                   + (f" (also {', '.join(exercise.aliases)})" if exercise.aliases else "")
                   + ".")
        solution = json.dumps(_typed(exercise))
    return [
        nbformat.v4.new_markdown_cell(prompt, metadata=_metadata(f"{ident}-prompt",
                                                                 locked=True)),
        nbformat.v4.new_code_cell(f"### BEGIN SOLUTION\n{variable} = {solution}\n"
                                  "### END SOLUTION",
                                  metadata=_metadata(f"{ident}-answer", solution=True)),
        nbformat.v4.new_code_cell(_TEST.format(set_name=set_name, key=exercise.key,
                                               variable=variable, release=release,
                                               key_literal=repr(written_key(exercise))),
                                  metadata=_metadata(f"{ident}-test", grade=True,
                                                     locked=True)),
    ]


def assignment_notebook(exercise_set: ExerciseSet, *,
                        release: str = RELEASE) -> nbformat.NotebookNode:
    """The nbgrader source notebook of an exercise set (see the module docstring); a rejected
    answer's feedback is :func:`released` at ``release``."""
    released(Feedback(False, "", "wrong"), release)  # an unknown level fails here, not later
    set_name = exercise_set.example
    intro = (f"# {exercise_set.title}\n\nRun the cells from the top.  Answer each exercise in "
             "the cell under it; the cell after that checks only that your answer has the "
             "right form.  Your answers are judged when the assignment is graded, by the "
             "companion's checker (an equivalent form of the right answer is accepted); the "
             "companion withholds every exercise's answer in this notebook (graded mode).")
    cells = [nbformat.v4.new_markdown_cell(intro, metadata=_metadata(f"{set_name}-intro",
                                                                     locked=True)),
             nbformat.v4.new_code_cell(_SEAL, metadata=_metadata(f"{set_name}-graded-mode",
                                                                 locked=True))]
    for number, exercise in enumerate(exercise_set, start=1):
        cells += _cells(set_name, exercise, number, release)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    return notebook


def export_assignment(exercise_set: ExerciseSet, path: str | Path, *,
                      release: str = RELEASE) -> Path:
    """Write the nbgrader source notebook of ``exercise_set`` (from
    :func:`companion.examples.exercises_for`) to ``path``, say where, and return the path;
    ``release`` is what a rejected answer's feedback says (see :func:`released`)."""
    path = Path(path)
    notebook = assignment_notebook(exercise_set, release=release)
    nbformat.validate(notebook)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    print(f"wrote the nbgrader source notebook {path.resolve()} "
          f"({len(exercise_set)} graded exercises)")
    return path
