"""The course kit through the real nbgrader: a class's assignment exported by the companion,
released, answered, autograded twice, exported and fed back by nbgrader itself.

    python -m tools.nbgrader_course [--students N] [--folder DIR]

(``make nbgrader-course``: a Python with nbgrader and the companion installed, a venv of its
own; not in the test suite, the README says why, but ``tests/test_exercises_assignment.py``
grades its submissions as nbgrader's kernel does).  In ``DIR`` (a temporary folder by
default) it makes an nbgrader course, exports the knife edge's exercise set with every
student's keys
(:func:`~companion.exercises.assignment.export_assignment`), runs ``nbgrader
generate_assignment``, hands in one submission per student — in turn *correct* (the
student's own answers), *mistaken* (the odd exercises right, the even ones wrong), *blank*
(exercise 1 right, the other answer cells left as released) and *hostile* (a classmate's
first answer, a locked test cell replaced by ``pass``, ``1`` for the other typed answers, an
``int`` subclass whose ``__eq__`` is always True for every choice) — runs ``nbgrader
autograde`` one student at a time with ``COMPANION_KEYS`` set (the seconds of each are
printed), again for the whole class, ``nbgrader export`` and ``nbgrader generate_feedback``,
and checks what the course relies on: the audit of the submitted notebooks
(:func:`~companion.exercises.assignment.audit`) flags the hostile students and no other; each
exercise's score is the one its answer earns, identical on the second run; nbgrader logs a
changed checksum for the edited locked cell and for no other; no feedback page holds a key of
a student who did not type it; two students' keys differ.  It exits 1, naming what failed,
when a check fails.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from companion import examples
from companion.exercises.assignment import KEYS_ENV, RECORD_ENV, audit, export_assignment

ASSIGNMENT = "knife_edge"
KINDS = ("correct", "mistaken", "blank", "hostile")
#: A choice answer that claims to equal anything (the issue's hostile submission).
_ALWAYS = ("class Always(int):\n    def __eq__(self, other):\n        return True\n"
           "    __hash__ = int.__hash__\n\n")
_CHECKSUM_LOG = re.compile(r"Attribute 'checksum' for cell (\S+) has changed")


def _nbgrader(root: Path, *args: str, env: dict | None = None) -> str:
    """Run ``nbgrader args`` in the course folder, with ``env`` (default: this process's),
    this interpreter's scripts first on ``PATH`` (nbgrader runs ``alembic`` from there); its
    log (nbgrader logs to stderr), also appended to ``nbgrader-logs/<command>.log`` there;
    the folder's ``jupyter/`` first on ``JUPYTER_PATH`` (:func:`course`'s kernel).

    Raises
    ------
    RuntimeError
        nbgrader exited with an error (its log's end is in the message).
    """
    env = dict(os.environ if env is None else env)
    for name, first in (("PATH", Path(sys.executable).parent), ("JUPYTER_PATH", root / "jupyter")):
        env[name] = os.pathsep.join(filter(None, [str(first), env.get(name)]))
    run = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env,
                         capture_output=True, text=True, check=False)
    log = run.stdout + run.stderr
    logs = root / "nbgrader-logs"
    logs.mkdir(exist_ok=True)
    with open(logs / f"{args[0]}.log", "a", encoding="utf-8") as file:
        file.write(f"$ nbgrader {' '.join(args)}\n{log}")
    if run.returncode:
        raise RuntimeError(f"nbgrader {' '.join(args)} exited {run.returncode}:\n{log[-3000:]}")
    return log


def course(root: Path, students: list[str]) -> dict:
    """An nbgrader course in ``root`` with the knife edge's assignment exported for
    ``students`` and released (``generate_assignment``); every student's keys."""
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(root)!r}\n"
        "c.CourseDirectory.course_id = 'companion'\n"
        "c.Execute.timeout = 300\n")  # the README's advice: a check's CPU budget, not 30 s
    # The notebook's kernel, python3, is this interpreter (JUPYTER_PATH comes first in the
    # search: a user's own python3 kernel elsewhere would lack the companion or nbgrader).
    spec = root / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3", "language": "python"}))
    export_assignment(examples.exercises_for(ASSIGNMENT),
                      root / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", students)
    _nbgrader(root, "generate_assignment", ASSIGNMENT, "--force")
    keys = root / "companion-keys" / f"{ASSIGNMENT}.json"
    return json.loads(keys.read_text())["students"]


def _wrong(typed: str | int) -> str | int:
    """A mistaken answer: twice the right expression, or another option."""
    return f"2*({typed})" if isinstance(typed, str) else (2 if typed == 1 else 1)


def submission(release: Path, kind: str, own: dict, classmate: tuple[str, dict]) -> tuple[
        nbformat.NotebookNode, dict[str, bool]]:
    """The released notebook answered as a student of ``kind`` (see the module docstring),
    whose entry of the keys file is ``own`` (``classmate``: another student's id and entry,
    for the hostile one's first answer); whether each exercise's answer (by key) is right."""
    mate, theirs = classmate
    notebook = nbformat.read(release, as_version=4)
    cells = {c.metadata["nbgrader"]["grade_id"]: c for c in notebook.cells
             if "nbgrader" in c.metadata}
    typed, right = own["typed"], {}
    for number, key in enumerate(typed, start=1):
        answer, code = cells[f"{ASSIGNMENT}-{key}-answer"], f"answer_{number} = "
        odd = number % 2 == 1
        if kind == "correct" or (kind == "mistaken" and odd) or (kind == "blank" and number == 1):
            answer.source, right[key] = code + repr(typed[key]), True
        elif kind == "mistaken":
            answer.source, right[key] = code + repr(_wrong(typed[key])), False
        elif kind == "blank":
            right[key] = False  # the stub nbgrader released: it raises NotImplementedError
        elif number == 1:  # hostile: poses as the classmate, hands in their answer
            answer.source = (f"import os\nos.environ['COMPANION_STUDENT'] = {mate!r}\n"
                             + code + repr(theirs["typed"][key]))
            right[key] = theirs["keys"][key] == own["keys"][key]
        elif isinstance(typed[key], int):  # hostile: equal to any option
            answer.source, right[key] = _ALWAYS + f"{code}Always({_wrong(typed[key])})", False
        elif number == 2:  # hostile: a wrong answer whose locked test cell says ``pass``
            answer.source, right[key] = code + repr(_wrong(typed[key])), False
            cells[f"{ASSIGNMENT}-{key}-test"].source = "pass"
        else:  # hostile: ``1``, whose feedback would state the key if it named the factor
            answer.source, right[key] = code + "'1'", False
    return notebook, right


def grades(root: Path, students: list[str]) -> dict[str, dict[str, float]]:
    """Each student's score of each autograded cell (by grade id), from nbgrader's gradebook."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", "companion") as book:
        return {s: {g.name: g.score for g in book.find_submission_notebook(
            ASSIGNMENT, ASSIGNMENT, s).grades if g.auto_score is not None} for s in students}


def _text(html: str) -> str:
    """The words of a page or a text: tags, spaces and escaped line ends removed, entities
    decoded."""
    import html as html_module

    return re.sub(r"\s+|\\n", "", html_module.unescape(re.sub(r"<[^>]+>", "", html)))


def run(root: Path, students: list[str], *, report=print) -> list[str]:
    """The whole pipeline in the empty folder ``root`` (see the module docstring); what
    failed (empty when every check holds)."""
    started = time.perf_counter()
    table = course(root, students)
    report(f"exported and released for {len(students)} students in "
           f"{time.perf_counter() - started:.1f} s (nbgrader generate_assignment)")
    release = root / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    handed = _text("".join(c.source for c in nbformat.read(release, as_version=4).cells))
    failed = [f"the released notebook holds the source's answer of {key}"
              for key, typed in table["source"]["typed"].items()
              if isinstance(typed, str) and _text(typed) in handed]
    kinds = {s: KINDS[k % len(KINDS)] for k, s in enumerate(students)}
    right = {}
    for k, student in enumerate(students):
        mate = students[(k + 1) % len(students)]
        classmate = (mate, table[mate])
        notebook, right[student] = submission(release, kinds[student], table[student],
                                              classmate)
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{ASSIGNMENT}.ipynb")
    flagged = sorted({row[0] for row in audit(root / "submitted")})
    hostile = [s for s in students if kinds[s] == "hostile"]
    report(f"the audit of the submissions flags {', '.join(flagged) or 'none'}")
    if flagged != hostile:
        failed.append(f"the audit flags {flagged}, expected the hostile {hostile}")
    env = {**os.environ, KEYS_ENV: str(root / "companion-keys" / f"{ASSIGNMENT}.json"),
           RECORD_ENV: str(root / "grade-record.jsonl"),
           "COMPANION_GRADER_IDLE": os.environ.get("COMPANION_GRADER_IDLE", "60")}
    changed, seconds = {}, {}
    for student in students:
        started = time.perf_counter()
        log = _nbgrader(root, "autograde", ASSIGNMENT, f"--student={student}", env=env)
        seconds[student] = time.perf_counter() - started
        changed[student] = sorted(set(_CHECKSUM_LOG.findall(log)))
    first = grades(root, students)
    started = time.perf_counter()
    _nbgrader(root, "autograde", ASSIGNMENT, "--force", env=env)
    again_seconds = time.perf_counter() - started
    again = grades(root, students)
    _nbgrader(root, "export")
    with open(root / "grades.csv", encoding="utf-8") as file:
        exported = {row["student_id"]: float(row["score"]) for row in csv.DictReader(file)}
    _nbgrader(root, "generate_feedback", ASSIGNMENT)
    undecided = [line for line in (root / "grade-record.jsonl").read_text().splitlines()
                 if json.loads(line)["outcome"] == "undecided"]
    report(f"{'student':>10} {'kind':>9} {'variant':>22} {'score':>5} {'seconds':>7}  "
           "locked cells whose checksum changed")
    for student in students:
        expected = {f"{ASSIGNMENT}-{key}-test": float(ok) for key, ok in right[student].items()}
        score = sum(first[student].values())
        report(f"{student:>10} {kinds[student]:>9} {table[student]['variant'] or '-':>22} "
               f"{score:5g} {seconds[student]:7.1f}  {', '.join(changed[student]) or '-'}")
        if first[student] != expected:
            failed.append(f"{student} ({kinds[student]}): scores {first[student]}, "
                          f"expected {expected}")
        if again[student] != first[student]:
            failed.append(f"{student}: the second autograde gave {again[student]}")
        if exported.get(student) != score:
            failed.append(f"{student}: nbgrader export says {exported.get(student)}, "
                          f"the gradebook {score}")
        edited = [f"{ASSIGNMENT}-vdot-test"] if kinds[student] == "hostile" else []
        if changed[student] != edited:
            failed.append(f"{student}: nbgrader logged changed checksums {changed[student]}, "
                          f"expected {edited}")
        page = root / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"
        words = _text(page.read_text(encoding="utf-8"))
        for cell in nbformat.read(root / "submitted" / student / ASSIGNMENT
                                  / f"{ASSIGNMENT}.ipynb", as_version=4).cells:
            if cell.metadata["nbgrader"]["solution"]:  # what the student typed is no leak
                words = words.replace(_text(cell.source), "")
        shown = [key for key, typed in table[student]["typed"].items()
                 if isinstance(typed, str) and not right[student][key]
                 and re.sub(r"\s+", "", typed) in words]
        if shown or "companion-keys" in words:
            failed.append(f"{student}: the feedback shows the key of {shown or 'the keys file'}")
        autograded = root / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        if f"Student {student}." not in autograded.read_text(encoding="utf-8"):
            failed.append(f"{student}: the autograded notebook does not show their own system")
    per = sorted(seconds.values())
    report(f"autograde, one student at a time: median {per[len(per) // 2]:.1f} s, "
           f"max {per[-1]:.1f} s per student; the whole class again: {again_seconds:.1f} s "
           f"({again_seconds / len(students):.1f} s per student)")
    own_keys = {json.dumps(table[s]["keys"], sort_keys=True) for s in students}
    report(f"{len(own_keys)} different key sets among {len(students)} students; "
           f"{len(undecided)} answers undecided")
    if len(students) > 1 and len(own_keys) == 1:
        failed.append("every student has the same keys")
    if undecided:
        failed.append(f"undecided answers: {undecided}")
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--folder", type=Path, help="an empty folder (default: a temporary one)")
    args = parser.parse_args(argv)
    students = [f"s{k:03d}" for k in range(1, args.students + 1)]
    with tempfile.TemporaryDirectory() as temporary:
        root = args.folder or Path(temporary)
        root.mkdir(parents=True, exist_ok=True)
        failed = run(root.resolve(), students)
    for line in failed:
        print("FAILED:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
