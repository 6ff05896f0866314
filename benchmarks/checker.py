"""The answer checker (issue 16): verdict times through the grading worker, and its memory.

Every typed exercise is fed its engine answer (correct), that answer negated, each known
mistake, a near miss (+1e-10), a term vanishing on a grid (+ sin(1000 π s)) and a placeholder;
then the hostile set of the worker tests.  Each goes through ``Exercise.check`` — the path a
reader's Check button takes: IPC to the worker, parse, fresh sample points, symbolic proof.

Printed: the number of inputs, verdict time p50 / p99 / max over all of them and over the
typical (non-hostile) ones, the time the parser alone takes to refuse a hostile input, the
ratio of the worker path to judging the same typical inputs in-process (``parse_answer`` +
``compare``, no isolation: the baseline of the same run), the verdicts by kind, the worker's
restarts, and its resident memory (now and peak).  With
``--load`` the same runs happen while two CPU hogs keep both cores busy.

Then a class is graded as the autograder grades it (issue 39): each of ``--students``
students (20 by default, each with their own variant and numbers) submits the knife-edge
assignment with answers cycling through right, negated, a placeholder and blank, judged by
``check_answer`` against their own answer keys on the kernel's warm worker. Printed: grading
seconds per student (median and max), on a quiet machine and then with two CPU hogs per
core, their ratio (the quiet run is the baseline of the same run), and whether both runs
gave the same grades.

With ``--notebooks N``, a class of N is graded as ``nbgrader autograde`` grades it: the
knife-edge assignment is exported for N students (each on their own variant and numbers), and
each student's submission (their own right answers, typed out) runs in a fresh kernel, with
the keys file named by ``COMPANION_KEYS``, in
``autograded/<student>/knife_edge`` under ``NBGRADER_EXECUTION=autograde``, one after another
— first with a worker started per kernel (``COMPANION_GRADER_SERVER=0``, a sympy import per
submission), then with the worker server, whose workers are forked warm.  Printed: seconds
per student (kernel start to last cell, median and max) and whether every test cell passed,
for each, quiet and then (with ``--load``) with two CPU hogs per core.

With ``--first N``, the first check in a fresh kernel (issue 39), N times: each kernel makes
the knife-edge set (which starts the worker), reads its exercises' names and ranges as a
widget does, waits until the worker is ready, then checks the C¹ answer twice.  Printed:
seconds from the set made to the worker ready, the first check's and the second's seconds
(median), and first / second (the second, on the warm worker, is the baseline of the same
kernel: 1.0 means the reader's first press pays nothing extra).

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/checker.py [--load] [--students N] [--class-only]``
(``--class-only``: the class part alone), ``… benchmarks/checker.py --notebooks N [--load]``
or ``… benchmarks/checker.py --first N``.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import time

import numpy as np
import sympy as sp

from companion import examples
from companion.exercises.assignment import (
    KEYS_ENV,
    AnswerRejected,
    AnswerUndecided,
    answer_key,
    answer_keys,
    check_answer,
    check_form,
)
from companion.exercises.check import compare
from companion.exercises.exercise import Exercise
from companion.exercises.parse import AnswerError, parse_answer
from companion.exercises.worker import budget, grader

HOSTILE = [
    "exp(exp(exp(exp(exp({s})))))", "E**E**E**E**E**{s}", "exp(exp(10**15))",
    "sin(exp(10**15))", "sin(2**(10**15*{s}))", "cosh(cosh(cosh(cosh(cosh(cosh({s}))))))",
    "{s}**{s}**{s}**{s}**{s}**{s}", "sin(exp(exp(100*{s})))",
    "({s} + 1)**64 - ({s} + 1)**64 + {s}", "(" * 40 + "{s}" + ")" * 40, "9**9**9",
]


def typed(ex: Exercise, value: sp.Basic) -> str:
    names = {}
    for name, symbol in ex.symbols().items():
        names.setdefault(symbol, sp.Symbol(name))
    return sp.sstr(value.xreplace(names))


def inputs() -> tuple[list[tuple[Exercise, str]], list[tuple[Exercise, str]]]:
    """(typical, hostile) inputs over every typed exercise."""
    typical, hostile = [], []
    for name in examples.exercise_set_names():
        for ex in examples.exercises_for(name):
            if not isinstance(ex, Exercise):
                continue
            expected = ex.expected()
            symbol = next(iter(sorted(ex.symbols())))
            shifted = (expected.applyfunc(lambda e: e + sp.Rational(1, 10**10))
                       if isinstance(expected, sp.MatrixBase) else expected + sp.Float("1e-10"))
            typical += [(ex, typed(ex, expected)), (ex, typed(ex, -expected)),
                        (ex, typed(ex, shifted)), (ex, ex.example_answer)]
            typical += [(ex, typed(ex, m.answer)) for m in ex.known_mistakes()]
            if not isinstance(expected, sp.MatrixBase):
                typical.append((ex, typed(ex, expected) + f" + sin(1000*pi*{symbol})"))
            hostile += [(ex, h.format(s=symbol)) for h in HOSTILE]
    return typical, hostile


def in_process(ex: Exercise, text: str) -> float:
    start = time.perf_counter()
    try:
        compare(ex.expected(), parse_answer(text, ex.symbols()), mistakes=ex.known_mistakes(),
                skew_hint=ex.skew_hint, ranges=ex.ranges())
    except AnswerError:
        pass
    return time.perf_counter() - start


def refusal(ex: Exercise, text: str) -> float | None:
    """Seconds ``parse_answer`` takes to refuse ``text`` in-process; None when it accepts it.
    (tests/test_exercises_parse.py bounds what a refusal costs in calls and memory; its time
    is measured here.)"""
    start = time.perf_counter()
    try:
        parse_answer(text, ex.symbols())
    except AnswerError:
        return time.perf_counter() - start
    return None


def memory(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory of a process in MB (Linux /proc)."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def percentiles(times: list[float]) -> str:
    ms = np.array(times) * 1e3
    return (f"p50 {np.percentile(ms, 50):7.1f} ms   p99 {np.percentile(ms, 99):7.1f} ms   "
            f"max {ms.max():7.1f} ms   (n = {len(ms)})")


def main(load: bool) -> None:
    typical, hostile = inputs()
    for ex, _ in typical:  # the engine's results, once, outside the timing
        ex.expected(), ex.known_mistakes(), ex.ranges()
    start = time.perf_counter()
    grader().start()
    first = typical[0][0].check(typical[0][1])
    print(f"worker start + first verdict: {time.perf_counter() - start:.2f} s ({first.verdict})")
    print(f"worker memory after start: {memory(grader().pid)[0]:.0f} MB resident")
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(2 if load else 0)]
    try:
        times: dict[str, list[float]] = {"typical": [], "hostile": []}
        verdicts: collections.Counter = collections.Counter()
        baseline = [in_process(ex, text) for ex, text in typical]
        refusals = [t for t in (refusal(ex, text) for ex, text in hostile) if t is not None]
        for kind, items in (("typical", typical), ("hostile", hostile)):
            for ex, text in items:
                t0 = time.perf_counter()
                feedback = ex.check(text)
                times[kind].append(time.perf_counter() - t0)
                verdicts[kind, feedback.verdict] += 1
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    rss, peak = memory(grader().pid)
    print(f"{'with two CPU hogs' if load else 'idle machine'}: "
          f"{len(typical) + len(hostile)} inputs through Exercise.check")
    print(f"  all      {percentiles(times['typical'] + times['hostile'])}")
    print(f"  typical  {percentiles(times['typical'])}")
    print(f"  hostile  {percentiles(times['hostile'])}")
    print(f"  typical in-process baseline {percentiles(baseline)}")
    print(f"  hostile refused by the parser, in-process {percentiles(refusals)}")
    ratio = np.median(times["typical"]) / np.median(baseline)
    print(f"  worker / in-process, median typical verdict: {ratio:.2f}")
    print("  verdicts: " + ", ".join(f"{k}/{v}: {n}" for (k, v), n in sorted(verdicts.items())))
    print(f"  worker restarts (killed on overrun): {grader().restarts}")
    print(f"  worker memory: {rss:.0f} MB resident, {peak:.0f} MB peak")


def grade_class(students: int) -> tuple[list[float], list[tuple[str, ...]]]:
    """Seconds and outcomes per student of the knife-edge assignment (see the docstring):
    each student has their own variant, numbers and keys (derived before the timing)."""
    exercises = examples.exercises_for("knife_edge")
    names = [f"student{k}" for k in range(students)]
    table = answer_keys(exercises, names)["students"]
    sets = {name: exercises.for_student(name) for name in names}
    seconds, grades = [], []
    for student in range(students):
        own = table[f"student{student}"]
        outcomes = []
        start = time.perf_counter()
        for k, ex in enumerate(sets[f"student{student}"]):
            key = answer_key(own["keys"][ex.key])
            style = (student + k) % 4
            if isinstance(ex, Exercise):
                right = own["typed"][ex.key]
                answer = [right, f"-({right})", ex.example_answer or "0", None][style]
            else:
                answer = [key.right + 1, (key.right + 1) % len(ex.options) + 1, 1, None][style]
            try:
                check_form(ex, answer, f"answer_{k + 1}")
                check_answer(ex, answer, key, release="kind")
                outcomes.append("accepted")
            except AnswerUndecided:
                outcomes.append("undecided")
            except AnswerRejected:
                outcomes.append("rejected")
        seconds.append(time.perf_counter() - start)
        grades.append(tuple(outcomes))
    return seconds, grades


def class_report(students: int) -> None:
    grade_class(1)  # warm: the worker is started and the keys are read outside the timing
    quiet, quiet_grades = grade_class(students)
    hog = "import time\nend = time.time() + 900\nwhile time.time() < end: pass"
    hogs = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(2 * os.cpu_count())]
    try:
        loaded, loaded_grades = grade_class(students)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    print(f"class of {students} (knife-edge assignment, warm worker, budget {budget()} CPU s "
          "per check):")
    print(f"  quiet: {np.median(quiet):.2f} s per student (max {max(quiet):.2f} s)")
    print(f"  two CPU hogs per core: {np.median(loaded):.2f} s per student "
          f"(max {max(loaded):.2f} s)")
    print(f"  loaded / quiet, median per student: {np.median(loaded) / np.median(quiet):.2f}")
    undecided = sum(g.count("undecided") for g in quiet_grades + loaded_grades)
    print(f"  same grades in both runs: {quiet_grades == loaded_grades}; "
          f"undecided answers: {undecided}")


def grade_notebooks(students: int, server: bool) -> tuple[list[float], bool]:
    """Seconds per student of autograding their knife-edge notebook in a fresh kernel, and
    whether every test cell passed (see the module docstring)."""
    import json
    import tempfile
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient

    from companion.exercises.assignment import export_assignment

    names = [f"student{k}" for k in range(students)]
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp)
        (course / "jupyter" / "kernels" / "python3").mkdir(parents=True)
        (course / "jupyter" / "kernels" / "python3" / "kernel.json").write_text(json.dumps(
            {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
             "display_name": "companion", "language": "python"}))
        source = export_assignment(examples.exercises_for("knife_edge"),
                                   course / "source" / "knife_edge" / "knife_edge.ipynb", names)
        keys = course / "companion-keys" / "knife_edge.json"
        typed = json.loads(keys.read_text())["students"]
        os.environ.update({"JUPYTER_PATH": str(course / "jupyter"),
                           "NBGRADER_EXECUTION": "autograde", "XDG_RUNTIME_DIR": tmp,
                           "COMPANION_GRADER_SERVER": "1" if server else "0",
                           "COMPANION_GRADER_IDLE": "30"})
        seconds, passed = [], True
        for name in names:
            folder = course / "autograded" / name / "knife_edge"
            folder.mkdir(parents=True)
            notebook = nbformat.read(source, as_version=4)
            answers = [c for c in notebook.cells if c.metadata["nbgrader"]["solution"]]
            for number, (cell, answer) in enumerate(zip(answers, typed[name]["typed"].values(),
                                                        strict=True), start=1):
                cell.source = f"answer_{number} = {answer!r}"  # the student's own answers
            os.environ[KEYS_ENV] = str(keys)  # as the instructor runs nbgrader autograde
            start = time.perf_counter()
            NotebookClient(notebook, kernel_name="python3", timeout=600, allow_errors=True,
                           resources={"metadata": {"path": str(folder)}}).execute()
            seconds.append(time.perf_counter() - start)
            passed &= not any(o.output_type == "error" for c in notebook.cells
                              if c.cell_type == "code" for o in c.outputs)
    return seconds, passed


def notebooks_report(students: int, load: bool) -> None:
    hog = "import time\nend = time.time() + 1800\nwhile time.time() < end: pass"
    print(f"{students} knife-edge submissions, one fresh kernel each (as nbgrader autograde):")
    for label, hogs in (("quiet", 0), ("two CPU hogs per core", 2 * os.cpu_count()))[:1 + load]:
        print(f"  (load average before the {label} runs: {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores)")
        running = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(hogs)]
        try:
            for server in (False, True):
                seconds, passed = grade_notebooks(students, server)
                print(f"  {label}, {'worker server' if server else 'worker per kernel'}: "
                      f"{np.median(seconds):.2f} s per student (max {max(seconds):.2f} s); "
                      f"every test passed: {passed}")
        finally:
            for h in running:
                h.kill()
                h.wait()


def first_check() -> list[float]:
    """In this fresh kernel: seconds from making the set to the worker ready, then of the
    first and the second check of C¹ (see the module docstring)."""
    start = time.perf_counter()
    exercise = examples.exercises_for("knife_edge")["C1"]
    answer = typed(exercise, exercise.expected())
    exercise.ranges()
    grader()._wait_ready()
    seconds = [time.perf_counter() - start]
    for _ in range(2):
        start = time.perf_counter()
        exercise.check(answer)
        seconds.append(time.perf_counter() - start)
    return seconds


def first_report(kernels: int) -> None:
    import json

    runs = np.array([json.loads(subprocess.run(
        [sys.executable, __file__, "--first-child"], capture_output=True, text=True,
        check=True).stdout) for _ in range(kernels)])
    ready, first, second = np.median(runs, axis=0)
    print(f"first check in a fresh kernel, median of {kernels} (load average "
          f"{os.getloadavg()[0]:.1f}): set made → worker ready {ready:.2f} s; first check "
          f"{first * 1e3:.0f} ms, second {second * 1e3:.0f} ms; first / second "
          f"{first / second:.2f}")


if __name__ == "__main__":
    if "--first-child" in sys.argv:
        import json

        print(json.dumps(first_check()))
        sys.exit()
    if "--first" in sys.argv:
        first_report(int(sys.argv[sys.argv.index("--first") + 1]))
        sys.exit()
    if "--notebooks" in sys.argv:
        notebooks_report(int(sys.argv[sys.argv.index("--notebooks") + 1]), "--load" in sys.argv)
        sys.exit()
    count = int(sys.argv[sys.argv.index("--students") + 1]) if "--students" in sys.argv else 20
    if "--class-only" not in sys.argv:
        main(load="--load" in sys.argv)
    class_report(count)
