"""Export an exercise set as an nbgrader assignment, graded by the same checker.

:func:`export_assignment` writes the *source* notebook of an nbgrader assignment (the one an
instructor puts under ``source/<assignment>/``; ``nbgrader generate_assignment`` makes the
student version from it) and, outside that folder, a file of **every student's answer keys**.
The notebook is plain nbformat with nbgrader's cell metadata (schema version 3), so the
companion needs no nbgrader to write it:

- a locked introduction and a locked cell (:data:`_SETUP`) that turns graded mode on and
  shows the student's own system: the variant their id draws where the slice declares
  variants (:mod:`companion.exercises.variant`), and numbers drawn with the id as seed
  (:func:`draw_numbers`), so the engine's answer — and the key — differs between students;
- per exercise, a locked heading, a locked question (:data:`_PROMPT`), an answer cell
  (:data:`_SOLUTION`) setting the exercise's own variable (``answer_1``, …) and a locked
  autograder test (:data:`_TEST`): the answer's form is checked everywhere, and where the
  autograder has the keys file (:data:`KEYS_ENV`) the answer is judged against that
  student's key by the same worker-sandboxed checker as the widgets, so an answer cannot
  hang or crash the autograder.

The keys are derived by the engine in the instructor's kernel, at export (:func:`answer_keys`,
each on the student's own variant and numbers), and written only to the keys file
(owner-readable), never into a notebook, so nbgrader's checksums of locked cells hold and
its "checksum has changed" warning means a student edited a locked cell.  A test cell passes
when the checker accepts the answer (proved, or agreeing at every random point); otherwise
it fails with the feedback an instructor chose to release (:func:`released`), or with
:class:`AnswerUndecided` when the checker could not decide (flagged, never a silent 0).

Two commands serve the grading, outside any kernel: ``python -m
companion.exercises.assignment audit <course>/submitted`` (:func:`audit`) reads the
submissions before nbgrader runs them and flags code beyond answers (student code runs in the
test cells' kernel, so no check inside it is tamper-proof), and ``… undecided <course>``
(:func:`undecided`, :func:`mark_undecided`) lists the undecided cells after ``nbgrader
autograde`` and marks them for manual grading in its gradebook.
"""

from __future__ import annotations

import ast
import json
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import sympy as sp

from companion.exercises.check import UNDECIDED, Feedback, Mistake
from companion.exercises.exercise import AnswerKey, ChoiceExercise, Exercise, ExerciseSet
from companion.exercises.variant import seeded

if TYPE_CHECKING:  # nbformat is imported by the export only: a grading kernel never needs it
    import nbformat

#: Points per autograded exercise unless the instructor gives others.
POINTS = 1
#: The instructor's text of a manually graded derivation cell (nbgrader hands students
#: "YOUR ANSWER HERE" in its place).
_DERIVATION = ("**Show your derivation** of exercise {number} (graded by hand, {points:g} "
               "points): write the steps that lead to your answer, in Markdown and LaTeX.")
#: What a rejected answer's feedback says in graded mode, by default (see :func:`released`).
RELEASE = "kind"
#: The environment variable naming a file to which :func:`check_answer` appends one JSON line
#: per judged answer (the grade record an instructor reads for "undecided" outcomes).
RECORD_ENV = "COMPANION_GRADE_RECORD"
#: The environment variable that names the answer-key file where the autograder runs (read
#: once, by the assignment's first cell, and then removed from ``os.environ``).
KEYS_ENV = "COMPANION_KEYS"
#: The environment variable that names the student outside the autograder (an instructor
#: previewing a student's notebook); ignored while nbgrader autogrades.
STUDENT_ENV = "COMPANION_STUDENT"
#: The student id of nbgrader's source directory (the instructor's own run).
SOURCE_ID = "source"
#: The assignment's first code cell: graded mode on, the student's own system and numbers shown.
_SETUP = ("from companion import course\n\n"
          "exercises = course.student_set({set_name!r})")
#: An autograder test, the same text in the source and the student version (so nbgrader's
#: checksums of locked cells hold: no hidden region).  It imports what it calls itself, so an
#: answer cell that rebinds a name cannot stand in for the checker, and reads the exercise's
#: own answer variable with ``globals().get``, so a blank answer cell is judged as no answer,
#: never as the previous exercise's.  It names no keys file: the autograder's keys are read
#: by the first cell from :data:`KEYS_ENV` (see :func:`companion.course.student_set`).
_TEST = ("from companion import course\n\n"
         "course.grade({set_name!r}, {key!r}, globals().get({variable!r}), {variable!r},\n"
         "             release={release!r})")
#: The cell under an exercise's heading: its prompt, posed on the student's own system.
_PROMPT = "from companion import course\n\ncourse.prompt({set_name!r}, {key!r})"
#: A solution cell: the answer of the instructor's own variant (:data:`SOURCE_ID`), typed
#: out (nbgrader removes the region from the student version).  No call reads a key here: a
#: submission could make the same call to read its own.
_SOLUTION = "### BEGIN SOLUTION\n{variable} = {typed!r}\n### END SOLUTION"


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
    the checker's whole message, as the self-study widgets show it (another level is a
    ValueError).
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


def check_form(exercise: Exercise | ChoiceExercise, answer: object,
               variable: str = "answer") -> str | int:
    """``answer`` as a plain ``str`` or ``int`` (a subclass with an ``__eq__`` of its own
    cannot fool the comparison); :class:`AnswerRejected` naming what to give unless it has the
    form the exercise asks for: text for a typed exercise, an option number from 1 for a
    choice; ``None`` (the exercise's variable ``variable`` never set) is no answer.  Judges
    nothing."""
    if answer is None:
        raise AnswerRejected(f"no answer given: set {variable} in the cell above")
    if isinstance(exercise, ChoiceExercise):
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise AnswerRejected(f"give the number of your choice (1 to {len(exercise.options)})")
        return int.__index__(answer)
    if not isinstance(answer, str):
        raise AnswerRejected("give the answer as text in quotes, e.g. \"m*g*cos(theta)\"")
    return str.__str__(answer)


def check_answer(exercise: Exercise | ChoiceExercise, answer: str | int,
                 key: AnswerKey | None = None, *, release: str = "message") -> Feedback:
    """Judge an answer of an assignment (the text, or the option number from 1, as
    :func:`check_form` takes it) against the student's ``key``, else the engine's answer
    (withheld in graded mode); raise :class:`AnswerRejected` (with the feedback
    :func:`released` at ``release``) unless it is accepted, :class:`AnswerUndecided` when the
    checker could not decide.  A prediction's feedback sends the reader to no explorer (a
    handout has none).  With :data:`RECORD_ENV` set, one JSON line per answer goes to that
    file."""
    answer = check_form(exercise, answer)
    if isinstance(exercise, ChoiceExercise):  # an option number out of range: no choice
        feedback = exercise.check(answer - 1, key=key, then=False)
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


def autograding() -> bool:
    """Whether nbgrader is autograding this kernel's notebook (``NBGRADER_EXECUTION``)."""
    return os.environ.get("NBGRADER_EXECUTION") == "autograde"


def student_id() -> str:
    """Who is being graded: while nbgrader autogrades, the student of the folder it runs the
    submission in, ``autograded/<student>/<assignment>``, and nothing else (a submission
    could set :data:`STUDENT_ENV`); otherwise :data:`STUDENT_ENV`, the autograded folder's
    student, ``source`` in nbgrader's ``source/<assignment>``, the hub user, the login name.
    :func:`companion.course.student_set` reads it once, in the assignment's first cell.

    Raises
    ------
    AnswerUndecided
        Autograding outside an ``autograded/<student>/<assignment>`` folder.
    """
    import getpass

    here = Path.cwd()
    if autograding() and here.parent.parent.name != "autograded":
        raise AnswerUndecided("NEEDS THE INSTRUCTOR: autograding outside nbgrader's "
                              "autograded/<student>/<assignment> folder: no student id")
    if not autograding() and os.environ.get(STUDENT_ENV, "").strip():
        return os.environ[STUDENT_ENV].strip()
    if here.parent.parent.name == "autograded":
        return here.parent.name
    if here.parent.name == SOURCE_ID:
        return SOURCE_ID
    return os.environ.get("JUPYTERHUB_USER") or getpass.getuser()


def draw_numbers(exercise_set: ExerciseSet, seed: str) -> dict[sp.Symbol, sp.Rational]:
    """The student's own parameter values: each parameter of the set's system (for a set on
    a variant, the variant's: give ``exercise_set.for_student(seed)``) drawn from its slider
    range, a simple fraction, from ``seed`` (the same seed, the same numbers)."""
    rng = seeded(exercise_set.example, seed)
    numbers = {}
    for p in exercise_set.system().parameters:
        for den in (4, 20, 100):
            grid = [sp.Rational(k, den) for k in range(math.ceil(p.low * den),
                                                         math.floor(p.high * den) + 1)]
            grid = [g for g in grid if g != 0 and p.low < g < p.high]
            if len(grid) >= 3:
                numbers[p.symbol] = rng.choice(grid)
                break
    return numbers


def read_keys(set_name: str, student: str) -> dict | None:
    """The keys of ``student`` in ``set_name`` from the file that :data:`KEYS_ENV` names, which
    is then removed from ``os.environ`` (None when it is not set); only that student's
    variant and keys are kept, not their typed answers.  No message names the file: feedback
    reaches the student.

    Raises
    ------
    AnswerUndecided
        The file cannot be read, is for another set, or holds no key for ``student``.
    """
    path = os.environ.pop(KEYS_ENV, "").strip()
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as file:
            store = json.load(file)
    except (OSError, ValueError) as error:
        raise AnswerUndecided(f"NEEDS THE INSTRUCTOR: the answer keys ({KEYS_ENV}) cannot be "
                              f"read: {type(error).__name__}") from None
    if store.get("set") != set_name or student not in store.get("students", {}):
        raise AnswerUndecided(f"NEEDS THE INSTRUCTOR: the answer keys hold no key for "
                              f"{student!r} in {set_name!r}; export again with this student")
    own = store["students"][student]
    return {"variant": own["variant"], "keys": own["keys"]}  # not the typed answers


def answer_key(written: dict) -> AnswerKey:
    """The :class:`AnswerKey` that :func:`written_key` wrote into the keys file (trusted text
    of the instructor's notebook: the expressions are sympy's ``srepr``)."""
    if "right" in written:
        return AnswerKey(right=int(written["right"]))
    return AnswerKey(expected=sp.sympify(written["expected"]),
                     mistakes=tuple(Mistake(sp.sympify(a), message, kind)
                                    for a, message, kind in written["mistakes"]))


def written_key(exercise: Exercise | ChoiceExercise, numbers: dict | None = None) -> dict:
    """The engine's answer key of ``exercise`` as plain data (read back by
    :func:`answer_key`), with a student's ``numbers`` put in for the parameters."""
    if isinstance(exercise, ChoiceExercise):
        return {"right": exercise.right_index()}
    numbers = numbers or {}
    return {"expected": sp.srepr(exercise.expected().subs(numbers)),
            "mistakes": [[sp.srepr(sp.sympify(m.answer).subs(numbers)), m.message, m.kind]
                         for m in exercise.known_mistakes()]}


def _cell(kind: str, source: str, grade_id: str, *, grade: bool = False, solution: bool = False,
          locked: bool = False, points: float = POINTS) -> nbformat.NotebookNode:
    """A ``"markdown"`` or ``"code"`` cell with nbgrader's metadata."""
    import nbformat

    meta = {"schema_version": 3, "grade": grade, "solution": solution,
            "locked": locked, "task": False, "grade_id": grade_id}
    if grade:
        meta["points"] = points
    return getattr(nbformat.v4, f"new_{kind}_cell")(source, metadata={"nbgrader": meta})


def prompt_text(exercise: Exercise | ChoiceExercise) -> str:
    """An exercise's prompt as Markdown, posed on the system its set was built on (the
    student's own variant), with the options of a choice numbered from 1."""
    text = exercise.prompt
    if isinstance(exercise, ChoiceExercise):
        text += "\n\n" + "\n".join(f"{k}. {o.label}"
                                    for k, o in enumerate(exercise.options, 1))
    return text


def assignment_notebook(exercise_set: ExerciseSet, *, release: str = RELEASE,
                        points: Mapping[str, float] | None = None,
                        derivations: Mapping[str, float] | None = None
                        ) -> nbformat.NotebookNode:
    """The nbgrader source notebook of an exercise set (see the module docstring), whose
    solution cells hold the answers of the instructor's own variant (:data:`SOURCE_ID`) and
    whose tests name no keys file; a rejected answer's feedback is
    :func:`released` at ``release``.  ``points`` gives an exercise (by key) other points than
    :data:`POINTS`; each exercise in ``derivations`` gets a manually graded "show your
    derivation" cell worth the points given.

    Raises
    ------
    ValueError
        An exercise key that the set does not have, or points that are not positive.
    """
    import nbformat

    released(Feedback(False, "", "wrong"), release)  # an unknown level fails here, not later
    points, derivations = dict(points or {}), dict(derivations or {})
    known = {ex.key for ex in exercise_set}
    for name, table in (("points", points), ("derivations", derivations)):
        for key, value in table.items():
            if key not in known:
                raise ValueError(f"{name}: no exercise {key!r} in {exercise_set.example!r}; "
                                 f"known: {sorted(known)}")
            if not value > 0:
                raise ValueError(f"{name}[{key!r}] = {value!r}: give a positive number")
    set_name = exercise_set.example
    numbered = {s.name for s in draw_numbers(exercise_set, SOURCE_ID)}
    source = exercise_set.for_student(SOURCE_ID)
    typed = typed_answers(source, draw_numbers(source, SOURCE_ID))
    intro = (f"# {exercise_set.title}\n\nRun the cells from the top: the first shows your "
             "own system and numbers, which every answer uses.  Each exercise's question is "
             "shown by the cell under its heading; answer in the cell after it; the cell "
             "after that checks only that your answer has the right form.  Your "
             "answers are judged when the assignment is graded, by the companion's checker "
             "(an equivalent form of the right answer is accepted); the companion withholds "
             "every exercise's answer in this notebook (graded mode).")
    cells = [_cell("markdown", intro, f"{set_name}-intro", locked=True),
             _cell("code", _SETUP.format(set_name=set_name), f"{set_name}-graded-mode",
                   locked=True)]
    for number, exercise in enumerate(exercise_set, start=1):
        ident, variable = f"{set_name}-{exercise.key}", f"answer_{number}"
        heading = (f"### Exercise {number}: {exercise.title}\n\nRun the cell below for the "
                   f"question; set `{variable}` to ")
        if isinstance(exercise, ChoiceExercise):
            heading += "the number of your choice."
        else:
            names = [n for n in exercise.names if n not in numbered]
            heading += ("your expression as text, in sympy syntax, with your numbers (shown at "
                        "the top) for your system's parameters. Names you may use: "
                        f"{', '.join(names)}" + (f" (also {', '.join(exercise.aliases)})"
                                                  if exercise.aliases else "") + ".")
        fields = {"set_name": set_name, "key": exercise.key, "variable": variable,
                  "typed": typed[exercise.key], "release": release}
        cells += [
            _cell("markdown", heading, f"{ident}-prompt", locked=True),
            _cell("code", _PROMPT.format(**fields), f"{ident}-question", locked=True),
            _cell("code", _SOLUTION.format(**fields), f"{ident}-answer", solution=True),
            _cell("code", _TEST.format(**fields), f"{ident}-test", grade=True, locked=True,
                  points=points.get(exercise.key, POINTS))]
        if exercise.key in derivations:  # a manually graded answer: grade and solution, unlocked
            worth = derivations[exercise.key]
            cells.append(_cell("markdown", _DERIVATION.format(number=number, points=worth),
                               f"{ident}-derivation", grade=True, solution=True, points=worth))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    return notebook


def answer_keys(exercise_set: ExerciseSet, students: Sequence[str]) -> dict:
    """Every student's variant, numbers, answer keys and typed answers (derived by the engine
    here, in the instructor's kernel, never in a student's), and the source's own."""
    table = {}
    for student in dict.fromkeys([SOURCE_ID, *students]):
        own = exercise_set.for_student(student)
        numbers = draw_numbers(own, student)
        table[student] = {
            "variant": None if own.variant is None else own.variant.key,
            "numbers": {s.name: str(v) for s, v in numbers.items()},
            "keys": {ex.key: written_key(ex, numbers) for ex in own},
            "typed": typed_answers(own, numbers)}
    return {"set": exercise_set.example, "students": table}


def typed_answers(own: ExerciseSet, numbers: dict) -> dict[str, str | int]:
    """Each exercise's answer as a student types it: the engine's expression with their
    ``numbers`` and the names a reader types (the first for a symbol), or the number (from 1)
    of the right option."""
    typed: dict[str, str | int] = {}
    for ex in own:
        if isinstance(ex, ChoiceExercise):
            typed[ex.key] = ex.right_index() + 1
        else:
            names = {s: sp.Symbol(name) for name, s in reversed(ex.symbols().items())}
            typed[ex.key] = sp.sstr(ex.expected().subs(numbers).xreplace(names))
    return typed


def export_assignment(exercise_set: ExerciseSet, path: str | Path,
                      students: Sequence[str] = (), *, keys: str | Path | None = None,
                      release: str = RELEASE, points: Mapping[str, float] | None = None,
                      derivations: Mapping[str, float] | None = None) -> Path:
    """Write the nbgrader source notebook of ``exercise_set`` (from
    :func:`companion.examples.exercises_for`) to ``path`` and every student's answer keys to
    ``keys``, say where, and return the notebook's path.

    ``keys`` defaults to ``<course>/companion-keys/<assignment>.json`` for a notebook in
    nbgrader's ``<course>/source/<assignment>/``, else ``companion-keys/`` beside the
    notebook's folder: never inside the assignment's folder, which nbgrader hands out.  The
    file is readable by its owner only.  ``release`` is what a rejected answer's feedback
    says (see :func:`released`); ``points`` and ``derivations`` as for
    :func:`assignment_notebook`.
    """
    import nbformat

    path = Path(path).resolve()
    if keys is None:
        course = path.parents[2] if path.parent.parent.name == SOURCE_ID else path.parents[1]
        keys = course / "companion-keys" / f"{path.parent.name}.json"
    keys = Path(keys).resolve()
    if path.parent in keys.parents:
        raise ValueError(f"keys={str(keys)!r} is inside the assignment's folder, which students "
                         "receive: put the answer keys elsewhere")
    notebook = assignment_notebook(exercise_set, release=release, points=points,
                                   derivations=derivations)
    nbformat.validate(notebook)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    keys.parent.mkdir(parents=True, exist_ok=True)
    keys.touch(mode=0o600)
    keys.write_text(json.dumps(answer_keys(exercise_set, students), indent=1))
    print(f"wrote the nbgrader source notebook {path} ({len(exercise_set)} graded exercises) "
          f"and the answer keys of {len(students)} students to {keys}; autograde with "
          f"{KEYS_ENV}={keys} in nbgrader's environment")
    return path


#: Calls an audited cell may not make: they read files, run code or reach a kernel's state.
_RISKY_CALLS = {"open": "reads a file (open)", "__import__": "imports by __import__",
                "exec": "runs code (exec)", "eval": "runs code (eval)",
                "compile": "compiles code", "getattr": "reaches attributes (getattr)",
                "setattr": "sets attributes (setattr)", "globals": "reads globals()",
                "locals": "reads locals()", "vars": "reads vars()", "breakpoint": "breakpoint"}
#: Names of the kernel's own state a student's cell has no reason to touch (``course`` is the
#: module the locked cells import; the others are modules a cell could reach without import).
_RISKY_NAMES = {"course", "os", "sys", "subprocess", "importlib", "builtins", "pathlib",
                "shutil", "glob", "io", "companion", "get_ipython"}

#: What an answer cell's statement other than ``answer_k = <literal>`` does, by its ast class.
_STATEMENTS = {"FunctionDef": "defines a function", "ClassDef": "defines a class",
               "Expr": "evaluates an expression", "Assign": "sets other names",
               "AugAssign": "changes a name", "Try": "runs a try block", "For": "runs a loop",
               "While": "runs a loop", "If": "runs an if block", "With": "runs a with block"}


def _literal(node: ast.expr) -> bool:
    """Whether ``node`` is a literal answer: a string or number, negated or not, or a tuple or
    list of them."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_literal(n) for n in node.elts)
    return isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, complex))


def audit_cell(source: str, variable: str | None = None) -> list[str]:
    """What a student's code cell does beyond answering, read with :mod:`ast` (never run).

    For an answer cell (``variable``: its ``answer_k``) anything but ``variable = <literal>``
    (text, a number, a tuple or list of them) or nbgrader's blank stub; for a cell the student
    added (``variable`` None) imports other than sympy, calls that read files or run code
    (:data:`_RISKY_CALLS`), dunder or private attributes, and the modules and companion state
    of :data:`_RISKY_NAMES`.  A cell that does not parse as Python (an IPython magic or
    ``!`` shell line) is flagged too.  Empty when the cell is harmless.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [f"does not parse as Python (a magic or shell line?): line {error.lineno}"]
    found = []
    if variable is not None:
        for statement in tree.body:
            call = statement.exc if isinstance(statement, ast.Raise) else None
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "NotImplementedError":
                continue  # nbgrader's stub of a released answer cell
            if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)):
                name = statement.targets[0].id
                if name != variable:
                    found.append(f"sets {name} (line {statement.lineno})")
                elif not _literal(statement.value):
                    found.append(f"{name} is not a literal (line {statement.lineno})")
            elif not isinstance(statement, (ast.Import, ast.ImportFrom)):
                kind = type(statement).__name__
                found.append(f"{_STATEMENTS.get(kind, f'runs a {kind} statement')} "
                             f"(line {statement.lineno})")
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or "."])
            found += [f"imports {n}" for n in names
                      if variable is not None or n.split(".")[0] != "sympy"]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in _RISKY_CALLS:
            found.append(_RISKY_CALLS[node.func.id])
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            found.append(f"reaches .{node.attr}")
        elif isinstance(node, ast.Name) and (node.id in _RISKY_NAMES
                                             or node.id.startswith("__")):
            found.append(f"uses {node.id}")
    return list(dict.fromkeys(found))


def audit(folder: str | Path) -> list[tuple[str, str, str, list[str]]]:
    """Audit the notebooks under nbgrader's ``<course>/submitted`` (``folder``) before
    ``nbgrader autograde`` runs them: each ``<student>/<assignment>/*.ipynb``'s answer cells
    and the code cells the student added, read by :func:`audit_cell`.  One row per flagged
    cell: student, assignment, the cell ("answer cell 2 (vdot)" or "added cell 5"), what it
    does; and each Python file handed in beside the notebook (the kernel runs in that folder,
    so a ``sympy.py`` there would be imported in place of sympy).  Locked cells are not read:
    nbgrader restores them from the source."""
    rows = []
    for path in sorted(Path(folder).glob("*/*/*.ipynb")):
        student, assignment = path.parent.parent.name, path.parent.name
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        number = 0
        for index, cell in enumerate(cells, start=1):
            meta = cell.get("metadata", {}).get("nbgrader")
            source = "".join(cell.get("source", ""))
            if cell.get("cell_type") != "code" or (meta and not meta.get("solution")):
                continue
            if meta:  # an answer cell: the exercise's own variable, numbered as exported
                number += 1
                key = meta.get("grade_id", "").removeprefix(f"{assignment}-")
                where, found = (f"answer cell {number} ({key.removesuffix('-answer')})",
                                audit_cell(source, f"answer_{number}"))
            else:
                where, found = f"added cell {index}", audit_cell(source)
            if found:
                rows.append((student, assignment, where, found))
    for path in Path(folder).glob("*/*/**/*"):  # a sympy.py there would shadow sympy
        if path.suffix in (".py", ".pyc", ".pth", ".so"):
            rows.append((*path.relative_to(folder).parts[:2],
                         f"file {path.relative_to(folder).as_posix()}",
                         ["hands in Python code that the kernel imports before its own"]))
    return sorted(rows, key=lambda row: row[:2])


def undecided(course: str | Path) -> list[tuple[str, str, str, str]]:
    """The test cells that :class:`AnswerUndecided` failed in nbgrader's
    ``<course>/autograded`` notebooks (nbgrader scores them 0 like any failed test): student,
    assignment, notebook, grade id."""
    rows = []
    for path in sorted(Path(course).glob("autograded/*/*/*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("grade") and any(o.get("ename") == AnswerUndecided.__name__
                                         for o in cell.get("outputs", ())):
                rows.append((path.parent.parent.name, path.parent.name, path.stem,
                             meta["grade_id"]))
    return rows


def mark_undecided(course: str | Path, rows: Sequence[tuple[str, str, str, str]]) -> None:
    """Mark the grades of :func:`undecided` cells "needs manual grade" in nbgrader's gradebook
    ``<course>/gradebook.db`` (its public :class:`nbgrader.api.Gradebook`, as nbgrader's own
    autograder does), so that the formgrader lists them for the instructor.  ``nbgrader
    autograde`` clears the mark again: run this after every autograde."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{Path(course).resolve() / 'gradebook.db'}") as book:
        for student, assignment, notebook, grade_id in rows:
            book.find_grade(grade_id, notebook, assignment, student).needs_manual_grade = True
        book.db.commit()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.exercises.assignment audit <course>/submitted``: print what each
    submission's cells do beyond answering (:func:`audit`); ``… undecided <course>``: list the
    autograded cells the checker could not decide (:func:`undecided`) and, where nbgrader is
    installed, mark them in the gradebook (:func:`mark_undecided`).  Exit 1 when a cell is
    flagged or undecided."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m companion.exercises.assignment")
    parser.add_argument("command", choices=["audit", "undecided"])
    parser.add_argument("folder", type=Path,
                        help="nbgrader's <course>/submitted (audit) or <course> (undecided)")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"{args.folder} is not a folder: give nbgrader's <course>/submitted "
                     "(audit) or <course> (undecided)")
    if args.command == "audit":
        rows = audit(args.folder)
        for student, assignment, where, found in rows:
            print(f"{student} {assignment}: {where} runs code: {', '.join(found)}")
        count = len(list(args.folder.glob("*/*/*.ipynb")))
        print(f"{count} submitted notebooks audited; {len(rows)} cells flagged"
              + (" — read them before nbgrader autograde runs them" if rows else ""))
        return 1 if rows else 0
    rows = undecided(args.folder)
    for student, assignment, notebook, grade_id in rows:
        print(f"{student} {assignment}/{notebook}: {grade_id} NEEDS THE INSTRUCTOR "
              "(the checker could not decide; nbgrader scored it 0)")
    note = ""
    if rows and (args.folder / "gradebook.db").is_file():
        try:
            mark_undecided(args.folder, rows)
            note = "; marked 'needs manual grade' in gradebook.db"
        except ImportError:
            note = "; nbgrader is not installed here: run this beside it to mark them"
    print(f"{len(rows)} undecided cells{note}")
    return 1 if rows else 0


if __name__ == "__main__":
    raise SystemExit(main())
