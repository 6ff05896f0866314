"""Exercise sets exported as nbgrader assignments: nbgrader's cell metadata (schema 3) is
right, the source notebook's own answers pass its autograder cells, and a student's stub or
wrong answer fails them with the checker's feedback — the same sandboxed checker.

nbgrader itself is not in the test extra (its server and front-end extensions would load in
every JupyterLab the browser tests start; the README says why): the metadata is checked
against nbgrader's documented format here, and ``make nbgrader-course``
(``tools/nbgrader_course.py``) runs the real nbgrader on a class.
"""

from __future__ import annotations

import collections
import json
import os
import re
import sys
from pathlib import Path

import nbformat
import pytest
import sympy
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from companion import examples
from companion.exercises.assignment import (
    KEYS_ENV,
    AnswerRejected,
    answer_key,
    answer_keys,
    assignment_notebook,
    audit,
    audit_cell,
    check_answer,
    draw_numbers,
    export_assignment,
    main,
    mark_undecided,
    released,
    undecided,
)
from companion.exercises.variant import describe

SOLUTION = re.compile(r"### BEGIN SOLUTION\n.*?### END SOLUTION", re.S)
#: What ``nbgrader generate_assignment`` puts in place of a solution region in code cells.
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
KEYS = {"schema_version", "grade", "solution", "locked", "task", "grade_id"}


@pytest.mark.parametrize("set_name", examples.exercise_set_names())
def test_cells_carry_nbgrader_metadata(set_name):
    notebook = assignment_notebook(examples.exercises_for(set_name))
    nbformat.validate(notebook)
    metas = [cell.metadata["nbgrader"] for cell in notebook.cells]
    assert all(KEYS <= set(m) and m["schema_version"] == 3 for m in metas)
    ids = [m["grade_id"] for m in metas]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[\w-]+", i) for i in ids)
    tests = [c for c in notebook.cells if c.metadata["nbgrader"]["grade"]]
    answers = [c for c in notebook.cells if c.metadata["nbgrader"]["solution"]]
    assert len(tests) == len(answers) == len(examples.exercises_for(set_name))
    for cell in tests:  # autograder tests: locked code with points, calling the checker
        meta = cell.metadata["nbgrader"]
        assert cell.cell_type == "code" and meta["locked"] and not meta["solution"]
        assert meta["points"] > 0 and "course.grade(" in cell.source
        assert "keys" not in cell.source and "json" not in cell.source  # no file named
    for cell in answers:  # autograded answers: unlocked, no points, one solution region
        meta = cell.metadata["nbgrader"]
        assert cell.cell_type == "code" and not meta["locked"] and not meta["grade"]
        assert "points" not in meta and len(SOLUTION.findall(cell.source)) == 1
    read_only = [c for c in notebook.cells if not (c.metadata["nbgrader"]["grade"]
                                                   or c.metadata["nbgrader"]["solution"])]
    assert all(c.metadata["nbgrader"]["locked"] for c in read_only)


def test_check_answer_accepts_and_rejects_with_feedback():
    knife = examples.exercises_for("knife_edge")
    assert check_answer(knife["lambda"], "m*v*phidot").proven
    with pytest.raises(AnswerRejected, match="sign"):
        check_answer(knife["lambda"], "-m*v*phidot")
    with pytest.raises(AnswerRejected, match="Cannot read"):
        check_answer(knife["lambda"], "__import__('os')")
    with pytest.raises(AnswerRejected, match="text in quotes"):
        check_answer(knife["lambda"], 3)
    choice = knife["which_C"]
    assert check_answer(choice, choice.right_index() + 1).correct
    with pytest.raises(AnswerRejected, match="number of your choice"):
        check_answer(choice, "C2")
    with pytest.raises(AnswerRejected):
        check_answer(choice, 99)


def _run(notebook, kernel: str, path):
    client = NotebookClient(notebook, kernel_name=kernel, timeout=120,
                            resources={"metadata": {"path": str(path)}})
    client.execute()
    return notebook


def test_source_passes_and_student_stubs_fail(tmp_path, python3_kernel, monkeypatch):
    """The instructor's notebook (the engine's answers) passes every autograder cell; the
    student version (stubs) and a wrong answer fail with a message."""
    path = export_assignment(examples.exercises_for("knife_edge"),
                             tmp_path / "source" / "knife_edge" / "knife.ipynb")
    monkeypatch.setenv(KEYS_ENV, str(tmp_path / "companion-keys" / "knife_edge.json"))
    _run(nbformat.read(path, as_version=4), python3_kernel, path.parent)

    student = nbformat.read(path, as_version=4)
    for cell in student.cells:
        if cell.metadata["nbgrader"]["solution"]:
            cell.source = SOLUTION.sub(STUB, cell.source)
    with pytest.raises(CellExecutionError, match="NotImplementedError"):
        _run(student, python3_kernel, path.parent)

    wrong = nbformat.read(path, as_version=4)
    first = next(c for c in wrong.cells if c.metadata["nbgrader"]["solution"])
    first.source = 'answer_1 = "[[0, 0, 1], [0, 0, 0], [0, 0, 0]]"'
    with pytest.raises(CellExecutionError, match="AnswerRejected"):
        _run(wrong, python3_kernel, path.parent)


def test_blank_answer_cells_score_zero_on_their_own_exercise(tmp_path, python3_kernel):
    """Exercise 1 answered right, every later answer cell blank (nbgrader's stub): the first
    test passes, and every later one fails on its own exercise ("no answer given: set
    answer_k"), never judged on exercise 1's answer."""
    path = export_assignment(examples.exercises_for("knife_edge"),
                             tmp_path / "source" / "knife_edge" / "knife.ipynb")
    notebook = nbformat.read(path, as_version=4)
    answers = [c for c in notebook.cells if c.metadata["nbgrader"]["solution"]]
    for cell in answers[1:]:
        cell.source = SOLUTION.sub(STUB, cell.source)
    NotebookClient(notebook, kernel_name=python3_kernel, timeout=120, allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    tests = [c for c in notebook.cells if c.metadata["nbgrader"]["grade"]]
    errors = [[o for o in c.outputs if o.output_type == "error"] for c in tests]
    assert errors[0] == []
    for number, error in enumerate(errors[1:], start=2):
        assert error and error[0].ename == "AnswerRejected", error
        assert f"no answer given: set answer_{number}" in error[0].evalue


class Liar(int):
    """An answer whose comparisons all say yes."""

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


@pytest.mark.parametrize("set_name", examples.exercise_set_names())
def test_an_int_subclass_cannot_fool_the_choices(set_name):
    for ex in examples.exercises_for(set_name):
        if not hasattr(ex, "options"):
            assert not ex.check(Liar(3)).correct  # not text: unreadable, never judged
            continue
        for wrong in set(range(len(ex.options))) - {ex.right_index()}:
            assert not ex.check(Liar(wrong)).correct
            with pytest.raises(AnswerRejected):
                check_answer(ex, Liar(wrong + 1))


def test_released_feedback_is_what_the_instructor_chooses():
    from companion.exercises.check import Feedback

    hint = Feedback(False, "That is C² itself: the θ-column carries 1/r.", "known_mistake")
    assert released(hint, "message") == hint.message
    assert released(hint, "kind") == "Not accepted: a mistake this exercise anticipates."
    assert released(hint, "verdict") == "Not accepted."
    with pytest.raises(ValueError, match="choose 'verdict', 'kind' or 'message'"):
        released(hint, "all")


def test_two_students_get_different_keys_each_graded_right():
    """Each student's numbers (drawn from the student id) go into the engine's answer: two
    students' keys differ, each student's own answer is accepted against their own key and
    refused against the other's."""
    knife = examples.exercises_for("knife_edge")
    table = answer_keys(knife, ["alice", "bob"])["students"]
    alice, bob = table["alice"], table["bob"]
    assert alice["numbers"] != bob["numbers"]
    knife = examples.exercises_for("knife_edge")
    assert draw_numbers(knife, "alice") == draw_numbers(knife, "alice")
    varied = [k for k in alice["keys"] if alice["keys"][k] != bob["keys"][k]]
    assert varied  # (alice and bob happen to share l: only the answers with m differ)
    seeds = [draw_numbers(knife, f"student{k}") for k in range(8)]
    assert all(len({str(n[s]) for n in seeds}) > 2 for s in seeds[0])  # numbers do vary
    for key in varied:
        ex = knife[key]
        assert check_answer(ex, alice["typed"][key], answer_key(alice["keys"][key])).correct
        assert check_answer(ex, bob["typed"][key], answer_key(bob["keys"][key])).correct
        with pytest.raises(AnswerRejected):
            check_answer(ex, alice["typed"][key], answer_key(bob["keys"][key]))


def _answered(path, typed: dict, first: str = "") -> nbformat.NotebookNode:
    """The source notebook with ``typed`` answers (a student's, from the keys) in its answer
    cells, ``first`` put before the first one."""
    notebook = nbformat.read(path, as_version=4)
    answers = [c for c in notebook.cells if c.metadata["nbgrader"]["solution"]]
    for number, (cell, key) in enumerate(zip(answers, typed, strict=True), start=1):
        cell.source = (first if number == 1 else "") + f"answer_{number} = {typed[key]!r}"
    return notebook


def _graded(notebook, kernel: str, path) -> list[str]:
    """Run a submission as nbgrader autograde does (errors allowed); each test cell's
    outcome: "ok" or the error's name."""
    NotebookClient(notebook, kernel_name=kernel, timeout=300, allow_errors=True,
                   resources={"metadata": {"path": str(path)}}).execute()
    return [next((o.ename for o in c.outputs if o.output_type == "error"), "ok")
            for c in notebook.cells if c.metadata["nbgrader"]["grade"]]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """An exported knife-edge assignment for alice and bob, in nbgrader's layout."""
    root = tmp_path_factory.mktemp("course")
    path = export_assignment(examples.exercises_for("knife_edge"),
                             root / "source" / "knife_edge" / "knife.ipynb", ["alice", "bob"])
    keys = root / "companion-keys" / "knife_edge.json"
    return root, path, keys, json.loads(keys.read_text())["students"]


def _folder(root, student: str):
    folder = root / "autograded" / student / "knife_edge"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_autograder_grades_each_student_on_their_own_key(course, python3_kernel,
                                                             monkeypatch):
    """nbgrader's layout: alice's own answers pass in autograded/alice/<assignment>; the same
    answers fail in autograded/bob/<assignment>; a student missing from the keys is flagged
    for the instructor (AnswerUndecided)."""
    root, path, keys, table = course
    assert keys.stat().st_mode & 0o077 == 0
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setenv(KEYS_ENV, str(keys))
    ran = _answered(path, table["alice"]["typed"])
    assert set(_graded(ran, python3_kernel, _folder(root, "alice"))) == {"ok"}
    own = examples.exercises_for("knife_edge").for_student("alice")  # what alice was shown
    shown = {c.metadata["nbgrader"]["grade_id"]: "".join(
        o.get("data", {}).get("text/markdown", "") for o in c.get("outputs", ()))
        for c in ran.cells}
    u1 = sympy.latex(own.system().definition.definitions[0])
    assert "Student alice" in shown["knife_edge-graded-mode"]
    assert u1 in shown["knife_edge-graded-mode"] and u1 in shown["knife_edge-C1-question"]
    copied = _answered(path, table["alice"]["typed"])  # bob hands in alice's answers
    assert "AnswerRejected" in _graded(copied, python3_kernel, _folder(root, "bob"))
    carol = _graded(_answered(path, table["alice"]["typed"]), python3_kernel,
                    _folder(root, "carol"))
    assert set(carol) == {"AnswerUndecided"}


def test_a_submission_can_neither_find_the_keys_nor_pose_as_another(course, python3_kernel,
                                                                     monkeypatch):
    """The trial's attacks, in the autograder: bob's first answer cell sets
    COMPANION_STUDENT=alice (the id is fixed by the first cell, from nbgrader's folder) and
    looks for the keys file (its variable is gone from os.environ; no cell names it).  Bob's
    own answers still pass — graded on bob's key — and alice's answers, handed in under her
    name, fail where her key differs from his."""
    root, path, keys, table = course
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setenv(KEYS_ENV, str(keys))
    pose = ("import os\nos.environ['COMPANION_STUDENT'] = 'alice'\n"
            "print('keys:', os.environ.get('COMPANION_KEYS'))\n")
    mine = _answered(path, table["bob"]["typed"], pose)
    assert set(_graded(mine, python3_kernel, _folder(root, "bob"))) == {"ok"}
    text = nbformat.writes(mine)
    assert "keys: None" in text and str(keys) not in text and "companion-keys" not in text
    theirs = _answered(path, table["alice"]["typed"], pose)
    outcomes = _graded(theirs, python3_kernel, _folder(root, "bob"))
    differ = [table["alice"]["keys"][k] != table["bob"]["keys"][k] for k in table["bob"]["keys"]]
    assert any(differ)
    assert [o == "ok" for o in outcomes] == [not d for d in differ]


#: The instructor's trial's hostile first answer cell (issue 39): it finds the keys file in the
#: kernel's start-up environment and takes the student id from the working folder.
ATTACK = """import os, json, glob
def _keys_path():
    for pid in ("self", str(os.getppid())):
        try:
            for e in open(f"/proc/{pid}/environ", "rb").read().split(b"\\0"):
                if e.startswith(b"COMPANION_KEYS="):
                    return e.split(b"=", 1)[1].decode(), pid
        except OSError:
            pass
    return None, None
_path, _how = _keys_path()
_me = os.getcwd().split("/autograded/")[-1].split("/")[0]
_k = json.load(open(_path))["students"][_me]["typed"] if _path else {}
"""
SCRATCH = ("import sympy as sp\nfrom sympy import Matrix\nx, y = sp.symbols('x y')\n"
           "sp.simplify(sp.sin(x)**2 + sp.cos(x)**2)\nM = Matrix([[x, y], [y, x]])\nM.det()")


def test_the_audit_flags_code_beyond_answers_and_passes_answers(course, tmp_path, capsys):
    """The audit of submitted notebooks (outside the kernel, issue 39): the trial's hostile
    cell, and the later answers taken from what it read, are flagged; literal answers, blank
    (released) answer cells and a scratch cell of sympy algebra are not; the command exits 1
    when a cell is flagged, 0 when none is."""
    root, path, keys, table = course
    assert audit_cell("answer_1 = 'm*g*cos(theta)'", "answer_1") == []
    assert audit_cell("answer_5 = 2", "answer_5") == []
    assert audit_cell(STUB, "answer_2") == []
    assert audit_cell(SCRATCH) == []
    found = audit_cell(ATTACK + "answer_1 = _k.get('C1')", "answer_1")
    assert {"reads a file (open)", "imports os", "answer_1 is not a literal (line 14)",
            "defines a function (line 2)"} <= set(found)
    assert audit_cell("answer_1 = 'u_1'", "answer_2") == ["sets answer_1 (line 1)"]
    assert audit_cell("!cat /proc/self/environ") == [
        "does not parse as Python (a magic or shell line?): line 1"]
    assert audit_cell("x = ().__class__.__base__") == ["reaches .__base__", "reaches .__class__"]
    assert audit_cell("course._STATE") == ["reaches ._STATE", "uses course"]
    submitted = tmp_path / "submitted"
    for student, first in (("alice", ""), ("bob", ATTACK)):
        notebook = _answered(path, table[student]["typed"])
        answers = [c for c in notebook.cells if c.metadata["nbgrader"]["solution"]]
        answers[1].source = STUB  # a blank: left as released
        if first:
            answers[0].source = first + "answer_1 = _k.get('C1')"
            answers[2].source = "answer_3 = _k.get('phiddot')"
        notebook.cells.insert(3, nbformat.v4.new_code_cell(SCRATCH))
        folder = submitted / student / "knife_edge"
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / "knife_edge.ipynb")
    rows = audit(submitted)
    assert [row[:3] for row in rows] == [("bob", "knife_edge", "answer cell 1 (C1)"),
                                         ("bob", "knife_edge", "answer cell 3 (phiddot)")]
    assert main(["audit", str(submitted)]) == 1
    out = capsys.readouterr().out
    assert "bob knife_edge: answer cell 1 (C1) runs code: " in out and "reads a file" in out
    assert "2 submitted notebooks audited; 2 cells flagged" in out and "alice" not in out
    (submitted / "alice" / "knife_edge" / "sympy.py").write_text("import os\n")
    assert audit(submitted)[0] == ("alice", "knife_edge", "file alice/knife_edge/sympy.py", [
        "hands in Python code that the kernel imports before its own"])
    (submitted / "alice" / "knife_edge" / "sympy.py").unlink()
    (submitted / "bob").rename(tmp_path / "bob")
    assert main(["audit", str(submitted)]) == 0
    assert "1 submitted notebooks audited; 0 cells flagged" in capsys.readouterr().out


def _autograded(root, outcomes: dict[str, str]) -> None:
    """An autograded notebook of s001 in nbgrader's layout whose test cells (grade id:
    error name, or "ok") failed with those errors."""
    cells = [nbformat.v4.new_code_cell("course.grade(...)", metadata={"nbgrader": {
        "grade": True, "grade_id": grade_id, "points": 1}}, outputs=[] if ename == "ok" else [
        nbformat.v4.new_output("error", ename=ename, evalue="…", traceback=[])])
        for grade_id, ename in outcomes.items()]
    folder = root / "autograded" / "s001" / "knife_edge"
    folder.mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(cells=cells), folder / "knife_edge.ipynb")


def test_undecided_cells_are_listed(tmp_path, capsys):
    """Issue 39 §2: nbgrader scores an undecided cell 0 like a wrong answer; the command
    lists each one (from the autograded notebooks, no record file needed) and exits 1."""
    _autograded(tmp_path, {"C1-test": "ok", "vdot-test": "AnswerUndecided",
                           "lambda-test": "AnswerRejected"})
    assert undecided(tmp_path) == [("s001", "knife_edge", "knife_edge", "vdot-test")]
    assert main(["undecided", str(tmp_path)]) == 1
    assert capsys.readouterr().out == (
        "s001 knife_edge/knife_edge: vdot-test NEEDS THE INSTRUCTOR (the checker could not "
        "decide; nbgrader scored it 0)\n1 undecided cells\n")


def test_undecided_cells_need_manual_grade_in_nbgrader(tmp_path, monkeypatch):
    """With nbgrader installed: the undecided cell's grade is marked "needs manual grade" in
    the gradebook (nbgrader's own autograde had set it False), the others are not."""
    api = pytest.importorskip("nbgrader.api")
    # nbgrader makes a gradebook with ``alembic`` from its environment's bin
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    grade_ids = ("C1-test", "vdot-test", "lambda-test")
    with api.Gradebook(url) as book:
        book.add_assignment("knife_edge")
        book.add_notebook("knife_edge", "knife_edge")
        for grade_id in grade_ids:
            book.add_grade_cell(grade_id, "knife_edge", "knife_edge", max_score=1,
                                cell_type="code")
        book.add_student("s001")
        book.add_submission("knife_edge", "s001")
        for grade_id in grade_ids:  # what nbgrader autograde leaves: a score of 0, no flag
            grade = book.find_grade(grade_id, "knife_edge", "knife_edge", "s001")
            grade.auto_score, grade.needs_manual_grade = 0, False
        book.db.commit()
    _autograded(tmp_path, {"C1-test": "ok", "vdot-test": "AnswerUndecided",
                           "lambda-test": "AnswerRejected"})
    mark_undecided(tmp_path, undecided(tmp_path))
    with api.Gradebook(url) as book:
        flags = {g: book.find_grade(g, "knife_edge", "knife_edge", "s001").needs_manual_grade
                 for g in grade_ids}
    assert flags == {"C1-test": False, "vdot-test": True, "lambda-test": False}


@pytest.mark.slow
def test_the_nbgrader_trials_submissions_earn_what_it_expects(course, python3_kernel,
                                                              monkeypatch, tmp_path):
    """``tools/nbgrader_course.py`` (``make nbgrader-course``, the real nbgrader) checks each
    score against what its correct, mistaken, blank and hostile submissions should earn; here
    its submissions are graded as nbgrader's autograder grades them — the student version
    (stubs), the locked cells put back from it as nbgrader's OverwriteCells does (the hostile
    one replaced a test cell by ``pass``) — and every test cell passes exactly where the tool
    expects it to."""
    from tools.nbgrader_course import KINDS, submission

    root, path, keys, table = course
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setenv(KEYS_ENV, str(keys))
    release = nbformat.read(path, as_version=4)
    for cell in release.cells:
        if cell.metadata["nbgrader"]["solution"]:
            cell.source = SOLUTION.sub(STUB, cell.source)
    nbformat.write(release, tmp_path / "release.ipynb")
    locked = {c.metadata["nbgrader"]["grade_id"]: c.source for c in release.cells
              if c.metadata["nbgrader"]["locked"]}
    for kind in KINDS:
        notebook, right = submission(tmp_path / "release.ipynb", kind, table["alice"],
                                     ("bob", table["bob"]))
        edited = [c.metadata["nbgrader"]["grade_id"] for c in notebook.cells
                  if locked.get(c.metadata["nbgrader"]["grade_id"], c.source) != c.source]
        assert edited == (["knife_edge-vdot-test"] if kind == "hostile" else [])
        for cell in notebook.cells:
            cell.source = locked.get(cell.metadata["nbgrader"]["grade_id"], cell.source)
        outcomes = _graded(notebook, python3_kernel, _folder(root, "alice"))
        assert [o == "ok" for o in outcomes] == list(right.values()), kind
        assert sum(right.values()) == {"correct": 7, "mistaken": 4, "blank": 1}.get(
            kind, int(right["C1"])), kind


def test_points_per_exercise_and_derivation_cells():
    """An exercise's own points, and a manually graded "show your derivation" cell (nbgrader's
    manually graded answer: markdown, grade and solution, unlocked, with points)."""
    knife = examples.exercises_for("knife_edge")
    notebook = assignment_notebook(knife, points={"lambda": 3},
                                   derivations={"lambda": 2.5})
    nbformat.validate(notebook)
    meta = {c.metadata["nbgrader"]["grade_id"]: (c, c.metadata["nbgrader"])
            for c in notebook.cells}
    assert meta["knife_edge-lambda-test"][1]["points"] == 3
    assert meta["knife_edge-C1-test"][1]["points"] == 1
    cell, derivation = meta["knife_edge-lambda-derivation"]
    assert cell.cell_type == "markdown" and derivation["grade"] and derivation["solution"]
    assert not derivation["locked"] and derivation["points"] == 2.5
    assert sum(m["points"] for _, m in meta.values() if m["grade"]) == len(knife) + 2 + 2.5
    with pytest.raises(ValueError, match="no exercise 'nope' in 'knife_edge'"):
        assignment_notebook(knife, derivations={"nope": 1})
    with pytest.raises(ValueError, match="give a positive number"):
        assignment_notebook(knife, points={"lambda": 0})


def _angle(exercise_set) -> sympy.Expr:
    return exercise_set.variant.choices["the knife edge's angle to the rod, β"]


def test_variants_give_students_their_own_system_key_and_text():
    """The student id draws the variant of the knife edge (blade angle, blade offset, masses)
    as well as the numbers: two students on different blade angles get different C¹ keys
    (C¹ does not depend on the numbers), each answer is graded right against its own key and
    refused against the other's, and each student's prompts state their own quasi-velocities
    and the description their own choices, derived from the variant's definition."""
    knife = examples.exercises_for("knife_edge")
    seeds = [f"student{k}" for k in range(12)]
    sets = {seed: knife.for_student(seed) for seed in seeds}
    assert len({s.variant.key for s in sets.values()}) > 3  # the variant does vary
    assert knife.for_student("student0").variant == sets["student0"].variant  # reproducible
    a = seeds[0]
    b = next(seed for seed in seeds if _angle(sets[seed]) != _angle(sets[a]))
    table = answer_keys(knife, [a, b])["students"]
    assert table[a]["variant"] == sets[a].variant.key
    assert table[a]["keys"]["C1"] != table[b]["keys"]["C1"]
    for one, other in ((a, b), (b, a)):
        own = sets[one]
        for ex in own:
            assert check_answer(ex, table[one]["typed"][ex.key],
                                answer_key(table[one]["keys"][ex.key])).correct
        with pytest.raises(AnswerRejected):
            check_answer(own["C1"], table[one]["typed"]["C1"],
                         answer_key(table[other]["keys"]["C1"]))
        u1 = sympy.latex(own.system().definition.definitions[0])
        assert u1 in own["C1"].prompt and u1 in own["which_C"].prompt
        assert u1 not in sets[other]["C1"].prompt
        text = describe(own.variant, own.system(), draw_numbers(own, one))
        assert f"β: ${sympy.latex(_angle(own))}$" in text
        assert all(f"${sympy.latex(p.symbol)} = " in text
                   for p in own.system().definition.parameters)
        assert not any(ex.hints for ex in own if not hasattr(ex, "options"))  # book hints
        assert own["turning"].prompt.startswith("The book's dumbbell of Example 4.4 (not your")
    assert "not your variant" not in knife["turning"].prompt  # the chapter's own set


def test_the_book_is_one_of_the_variants():
    """The variant with the blade along the rod at particle 1 and equal masses derives the
    book's equations (4.122)–(4.123), its C¹ and its λ."""
    from companion.examples.knife_edge.exercises import variants

    (plain,) = [v for v in variants() if v.key == "angle0-offset0-equal"]
    mine, book = plain.system().derive(), examples.get("knife_edge").derive()
    for a, b in ((mine.C[0], book.C[0]), (mine.accelerations(), book.accelerations()),
                 (mine.constraint_forces(), book.constraint_forces())):
        assert sympy.simplify(a - b) == sympy.zeros(*a.shape)


def test_every_variant_poses_every_exercise():
    """On every variant the engine derives every typed answer and decides every choice (an
    outcome that no option covers would be an error here, not a student's zero)."""
    from companion.examples.knife_edge.exercises import variants

    build = examples.worked("knife_edge").exercises[1]
    for variant in variants():
        for ex in build(variant.system()):
            ex.system_of = variant.system
            if hasattr(ex, "options"):
                assert 0 <= ex.right_index() < len(ex.options), (variant.key, ex.key)
            else:
                assert ex.expected().free_symbols <= set(ex.symbols().values()) | set(
                    variant.system().parameter_symbols), (variant.key, ex.key)


def test_the_book_variant_is_never_drawn():
    """The book's own system (blade along the rod at particle 1, equal masses: its answers
    are printed in Greenwood) is never a student's; a slice with nothing else to draw says
    so."""
    from companion.examples.knife_edge.exercises import variants
    from companion.exercises.variant import draw_variant

    every = variants()
    assert [v.key for v in every if v.book] == ["angle0-offset0-equal"]
    drawn = {draw_variant(every, "knife_edge", f"s{k:03d}").key for k in range(300)}
    assert "angle0-offset0-equal" not in drawn and len(drawn) == len(every) - 1
    with pytest.raises(ValueError, match="no variants to draw from"):
        draw_variant([v for v in every if v.book], "knife_edge", "s001")


def test_choice_options_are_shuffled_per_student():
    """Every student's choice exercises have the right option the engine decides, at a
    number drawn from their id: copying a neighbour's number is a guess, not an answer."""
    knife = examples.exercises_for("knife_edge")
    numbers = collections.defaultdict(set)
    for k in range(8):
        own = knife.for_student(f"student{k}")
        for ex in own:
            if hasattr(ex, "options"):
                right = ex.options[ex.right_index()].label
                assert right == knife[ex.key].options[knife[ex.key].right_index()].label
                assert sorted(o.label for o in ex.options) == sorted(
                    o.label for o in knife[ex.key].options)
                assert check_answer(ex, ex.right_index() + 1).correct
                numbers[ex.key].add(ex.right_index())
    assert numbers and all(len(n) > 1 for n in numbers.values())
