"""Graded mode: no exercise answer is reachable from a student's kernel through the public API.

The student version of an exported assignment is built as ``nbgrader generate_assignment``
builds it (nbgrader is not in the test extra, see the README; ``make nbgrader-course``
runs nbgrader itself; its two documented preprocessors are mirrored here:
ClearSolutions puts a stub in place of each ``### BEGIN SOLUTION`` region, ClearHiddenTests
drops each ``### BEGIN HIDDEN TESTS`` region).  Then a "copying student" runs it in a fresh
kernel and tries every public call that used to give the answer away; and the autograder,
with the hidden tests back, still grades with the checker's feedback.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import subprocess
import sys

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from companion import examples
from companion.exercises import assignment, graded
from companion.exercises.assignment import export_assignment

SET = "knife_edge"
SOLUTION = re.compile(r"### BEGIN SOLUTION\n.*?### END SOLUTION", re.S)
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n.*?### END HIDDEN TESTS\n?", re.S)
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"

#: Every public way an exercise used to hand out its answer, tried one by one; the cell
#: prints the ones that did NOT raise ``Withheld``.
ATTEMPTS = f"""
import copy
import hashlib
import json
from companion import examples
from companion.exercises import assignment, graded

exercises = examples.exercises_for({SET!r})
leaks = []
def attempt(label, call):
    try:
        call()
    except graded.Withheld:
        return
    leaks.append(label)

for ex in exercises:
    system = ex.system()
    if hasattr(ex, "right_index"):
        attempt(ex.key + ".right_index()", ex.right_index)
        attempt(ex.key + ".right(system)", lambda: ex.right(system))
        attempt(ex.key + ".check(0)", lambda: ex.check(0))
    else:
        attempt(ex.key + ".expected()", ex.expected)
        attempt(ex.key + ".answer(system)", lambda: ex.answer(system))
        attempt(ex.key + ".known_mistakes()", ex.known_mistakes)
        attempt(ex.key + ".mistakes(system)", lambda: ex.mistakes(system))
        attempt(ex.key + ".check('0')", lambda: ex.check("0"))
        attempt("assignment.check_answer(" + ex.key + ")",
                lambda: assignment.check_answer(ex, "0"))
    attempt(ex.key + ".solution_steps()", ex.solution_steps)
    if ex.solution is not None:
        attempt(ex.key + ".solution(system)", lambda: ex.solution(system))
    attempt("assignment.written_key(" + ex.key + ")", lambda: assignment.written_key(ex))
    for name in ("answer", "mistakes", "solution", "right"):  # the closure attack
        for cell in getattr(getattr(ex, name, None), "__closure__", None) or ():
            if callable(cell.cell_contents):
                attempt(ex.key + "." + name + ".__closure__",
                        lambda c=cell: c.cell_contents(system))
    if any(o.explanation for o in getattr(ex, "options", ())):
        leaks.append(ex.key + ".options[...].explanation")
attempt("assignment.answer_keys", lambda: assignment.answer_keys(exercises, ["me"]))
for item in exercises.widget().children[1:]:
    labels = [button.description for button in item.children[-4].children]
    if "Reveal solution" in labels or "Check" in labels:
        leaks.append("widget buttons " + repr(labels))
print(json.dumps(leaks))
answer_1 = "0"
"""


def _run(notebook, kernel: str, path):
    NotebookClient(notebook, kernel_name=kernel, timeout=180,
                   resources={"metadata": {"path": str(path)}}).execute()
    return notebook


def _student_version(source: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """What ``nbgrader generate_assignment`` hands out (solutions and hidden tests cleared)."""
    student = copy.deepcopy(source)
    for cell in student.cells:
        if cell.cell_type == "code":
            cell.source = HIDDEN.sub("", SOLUTION.sub(STUB, cell.source))
    return student


@pytest.fixture(scope="module")
def source_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("course") / "source" / SET / f"{SET}.ipynb"
    return export_assignment(examples.exercises_for(SET), path)


@pytest.fixture
def source(source_path):
    return nbformat.read(source_path, as_version=4)


def _checksum(cell) -> str:
    """nbgrader's checksum of a cell (nbgrader/utils.py, ``compute_checksum``)."""
    meta = cell.metadata["nbgrader"]
    digest = hashlib.md5()
    for part in (cell.source, cell.cell_type, str(meta["grade"]), str(meta["solution"]),
                 str(meta["locked"]), meta["grade_id"]):
        digest.update(part.encode("utf-8"))
    if meta["grade"]:
        digest.update(str(float(meta["points"])).encode("utf-8"))
    return digest.hexdigest()


def test_export_says_where_it_wrote(tmp_path, capsys):
    path = export_assignment(examples.exercises_for(SET), tmp_path / "a.ipynb")
    assert str(path.resolve()) in capsys.readouterr().out


def test_student_version_holds_no_answer(source, source_path):
    """No answer is in the notebooks at all: the keys are in a file outside the assignment's
    folder, and the student version has no key, no typed answer, no solution."""
    text = nbformat.writes(_student_version(source))
    keys = json.loads((source_path.parents[2] / "companion-keys" / f"{SET}.json").read_text())
    for student in keys["students"].values():
        for key, typed in student["typed"].items():
            assert student["keys"][key].get("expected", "§") not in text
            if isinstance(typed, str):  # a typed answer (a choice's is a small number)
                assert typed not in text
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in nbformat.writes(source)
    assert not list(source_path.parent.glob("*.json"))


def test_locked_cells_keep_their_checksums(source):
    """nbgrader compares each locked cell of a submission with the source's checksum: no
    locked cell differs between the source and the student version (no hidden region), so
    autograding logs no "checksum has changed" unless a student edited a locked cell."""
    student = _student_version(source)
    locked = [(a, b) for a, b in zip(source.cells, student.cells, strict=True)
              if a.metadata["nbgrader"]["locked"]]
    assert len(locked) == 2 + 3 * len(examples.exercises_for(SET))  # heading, question, test
    assert all(_checksum(a) == _checksum(b) for a, b in locked)


def test_copying_student_gets_no_answer(source, tmp_path, python3_kernel, monkeypatch):
    """A student version in a fresh kernel (no answer keys readable there): every public call
    that would give an answer raises ``Withheld``; a copied call in an answer cell fails the
    autograder too."""
    monkeypatch.delenv(assignment.KEYS_ENV, raising=False)
    student = _student_version(source)
    first = next(c for c in student.cells if c.metadata["nbgrader"]["solution"])
    first.source = ATTEMPTS
    try:
        _run(student, python3_kernel, tmp_path)
    except CellExecutionError as error:  # the stubs of the other answers; ours ran before
        assert "NotImplementedError" in str(error)
    (stream,) = [o for o in first.outputs if o.output_type == "stream"]
    assert json.loads(stream.text) == []

    copied = copy.deepcopy(source)
    answer = next(c for c in copied.cells if c.metadata["nbgrader"]["solution"])
    key = next(e.key for e in examples.exercises_for(SET))
    answer.source = (f"from companion import examples\n"
                     f"answer_1 = str(examples.exercises_for({SET!r})[{key!r}].expected())")
    with pytest.raises(CellExecutionError, match="Withheld"):
        _run(copied, python3_kernel, tmp_path)


def test_source_grades_in_graded_mode(source, source_path, python3_kernel, monkeypatch):
    """The instructor's notebook (graded mode on from its first code cell) passes every test
    against the answer keys, and a wrong answer still gets the checker's feedback."""
    tmp_path = source_path.parent
    keys = source_path.parents[2] / "companion-keys" / f"{SET}.json"
    monkeypatch.setenv(assignment.KEYS_ENV, str(keys))
    _run(copy.deepcopy(source), python3_kernel, tmp_path)
    wrong = copy.deepcopy(source)
    lam = next(c for c in wrong.cells if c.metadata["nbgrader"]["solution"]
               and "lambda" in c.metadata["nbgrader"]["grade_id"])
    own = assignment.answer_keys(examples.exercises_for(SET), [])["students"]
    typed = own[assignment.SOURCE_ID]["typed"]["lambda"]  # the source's own variant's λ
    variable = re.search(r"(answer_\d+) =", lam.source).group(1)
    lam.source = f'{variable} = "-({typed})"'
    with pytest.raises(CellExecutionError, match="sign"):
        _run(wrong, python3_kernel, tmp_path)


def test_environment_variable_turns_graded_mode_on():
    """A hub sets COMPANION_GRADED in the students' image: the chapter notebooks' exercises
    then withhold their answers and show neither Check nor Reveal."""
    script = ("from companion import examples\n"
              "from companion.exercises import graded\n"
              "ex = examples.exercises_for('knife_edge')['lambda']\n"
              "try:\n    ex.expected()\nexcept graded.Withheld as e:\n    print('withheld', e)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={**os.environ, graded.ENV: "1"}, timeout=120)
    assert run.stdout.startswith("withheld exercise 'lambda'"), run.stderr


def test_graded_mode_scoped_to_one_assignment():
    """COMPANION_GRADED=<set names>: those sets withhold their answers (the closure holds no
    engine function), every other set keeps its Check and Reveal."""
    script = ("from companion import examples\n"
              "from companion.exercises import graded\n"
              "ex = examples.exercises_for('knife_edge')['lambda']\n"
              "try:\n    ex.expected()\nexcept graded.Withheld:\n    print('withheld')\n"
              "print(ex.answer.__class__.__name__, getattr(ex.answer, '__closure__', None))\n"
              "other = examples.exercises_for('euler_body')\n"
              "print(other[0].graded(), graded.graded(), bool(other[0].expected() is not None))\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={**os.environ, graded.ENV: "knife_edge_kane, knife_edge"},
                         timeout=300)
    assert run.stdout.split("\n")[:3] == ["withheld", "Refused None", "False False True"], (
        run.stdout, run.stderr)


def test_widget_in_graded_mode_has_no_check_or_reveal(monkeypatch):
    monkeypatch.setattr(graded, "_on", True)
    box = examples.exercises_for(SET).widget()
    for item in box.children[1:]:
        labels = [b.description for b in item.children[-4].children]
        assert "Check" not in labels and "Reveal solution" not in labels
        assert "Graded" in item.feedback.value
