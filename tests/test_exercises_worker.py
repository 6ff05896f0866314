"""The grading worker and the numbers it decides with: no answer hangs, crashes or fools the
checker, from any thread, with the machine busy; the worker is one process that is restarted
when killed and does not outlive its kernel.

No assertion here reads a clock (a busy machine must not fail a test): what is asserted is
what the time limits do — a clear verdict, the worker cut off and replaced or not, which
deadline is armed.  benchmarks/checker.py measures the verdict times, also under load.

The inputs are the categories of issue 16 (hangs, crashes, near misses, terms vanishing on a
grid, differences outside a narrow sampling range, branch errors, polynomials vanishing at
predictable points), at the level of ``compare``, of the worker and of real exercises.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sympy as sp

from companion import examples
from companion.exercises import check as chk
from companion.exercises import worker
from companion.exercises.check import compare
from companion.exercises.parse import AnswerError, parse_answer
from companion.exercises.worker import Grader, Request, grade, grader

x, y = sp.symbols("x y")
a = sp.Symbol("a", positive=True)
NAMES = {"x": x, "y": y, "a": a}

#: Inputs that used to keep sympy busy for minutes or raise MemoryError.
HANGS_AND_CRASHES = [
    "exp(exp(exp(exp(exp(x)))))",
    "E**E**E**E**E**x",
    "exp(exp(10**15))",
    "sin(exp(10**15))",
    "x**x**x**x**x**x**x**x",
    "a**a**a**a**a**a**a**a**a**a",
    "sin(2**(10**15*x))",
    "cosh(cosh(cosh(cosh(cosh(cosh(x))))))",
    "sinh(sinh(sinh(x)))",
    "sin(exp(exp(100*x)))",          # readable, but its value has ~10^130 digits
    "sin(exp(exp(99*x))*exp(exp(99*y)))",
    "(x + y + a + 1)**64 - (x + y + a + 1)**64 + sin(x)",
    "tan(10**15*x)",
]


@pytest.fixture(scope="module")
def running():
    """The shared worker, started and warm (the first start imports sympy)."""
    grader().start()
    assert grade(Request("a*x", NAMES, a * x)).proven
    return grader()


def verdict(text: str, expected: sp.Basic = a * x, **kwargs) -> chk.Feedback:
    return grade(Request(text, NAMES, expected, **kwargs))


# --------------------------------------------------------------------------- hangs, crashes
@pytest.mark.parametrize("text", HANGS_AND_CRASHES)
def test_hangs_and_crashes_get_a_clear_verdict(running, text):
    """Answered by the parser, by the worker's soft limit, or by the kernel cutting the worker
    off (test_overrun_kills_and_restarts_the_worker_transparently): a verdict either way."""
    feedback = verdict(text)
    assert not feedback.correct
    assert feedback.verdict in {"unreadable", "undecided", "not_equal"}, feedback
    assert "Traceback" not in feedback.message and len(feedback.message) > 20


@pytest.mark.parametrize("text, fragment", [
    ("exp(exp(exp(x)))", "nested too deeply"),
    ("E**E**E**x", "nested too deeply"),
    ("cosh(cosh(cosh(x)))", "nested too deeply"),
    ("exp(10**15)", "too large inside an exponent"),
    ("2**(1000*x)", "too large inside an exponent"),
])
def test_parser_bounds_exponentials_up_front(text, fragment):
    with pytest.raises(AnswerError, match=fragment):
        parse_answer(text, NAMES)
    assert parse_answer("exp(exp(x)) + x**x + cosh(2*x) + 2**64", NAMES) == (
        sp.exp(sp.exp(x)) + x**x + sp.cosh(2 * x) + 2**64)  # the same depths, within bounds


def test_worker_answers_a_slow_case_itself(running, monkeypatch):
    """The worker's own soft limit answers "could not decide" without being killed.

    The kernel's hard limit is moved 28 CPU seconds past the soft one (2 s), so that a late
    signal cannot turn this into a kill; no re-check (RETRIES = 0)."""
    monkeypatch.setattr(worker, "SOFT_MARGIN", 28.0)
    monkeypatch.setattr(worker, "RETRIES", 0)
    before = running.restarts
    feedback = running.grade(Request("sin(exp(exp(100*x)))", NAMES, a * x), seconds=30.0)
    assert feedback.verdict == "undecided"
    assert running.restarts == before


def test_overrun_kills_and_restarts_the_worker_transparently(monkeypatch):
    """With the soft limit disabled, the kernel kills the worker once its CPU time passes the
    budget, checks again on a fresh worker with a larger budget (killed again: two
    restarts), and only then says "could not decide"; the next check gets a normal
    verdict."""
    own = Grader()
    try:
        own.start()
        assert own.grade(Request("a*x", NAMES, a * x)).proven
        first = own.pid
        monkeypatch.setattr(worker, "SOFT_MARGIN", -30.0)  # the worker would wait 30 s more
        feedback = own.grade(Request("sin(exp(exp(100*x)))", NAMES, a * x), seconds=1.0)
        assert feedback.verdict == "undecided" and "simpler form" in feedback.message
        assert own.restarts == 2 and own.pid != first
        assert not _alive(first)  # the killed worker is gone, not an orphan
        monkeypatch.setattr(worker, "SOFT_MARGIN", 0.7)
        assert own.grade(Request("x*a", NAMES, a * x)).proven
    finally:
        own.close()


def test_memory_error_becomes_a_verdict(monkeypatch):
    """What the address-space limit raises in the worker is a verdict, not a traceback."""
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(chk, "compare", exhausted)
    feedback = worker.judge(Request("a*x", NAMES, a * x), 1.0)
    assert (feedback.verdict, feedback.hint_kind) == ("undecided", "too_large")


def _limits(pid: int) -> str:
    with open(f"/proc/{pid}/limits") as limits:
        return limits.read()


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/limits"), reason="needs Linux /proc")
def test_worker_runs_under_resource_limits(running):
    limits = {line[:26].strip(): line[26:].split() for line in _limits(running.pid).splitlines()}
    assert limits["Max address space"][0] != "unlimited"
    assert limits["Max cpu time"][0] != "unlimited"
    assert limits["Max core file size"][0] == "0" and limits["Max file size"][0] == "0"
    assert running.pid != os.getpid()


# --------------------------------------------------------------------------- fooling the numbers
@pytest.mark.parametrize("text, kind", [
    ("a*x + 1e-10", "near_miss"),
    ("a*x*(1 + 1e-10)", "near_miss"),
    ("a*x*(1 - 1e-12)", "near_miss"),
    ("3.14159265*a*x/pi", "near_miss"),             # a rounded constant
    ("a*x + sin(1000*pi*x)", "wrong"),               # vanishes on a 1/1000 grid
    ("a*x + sin(100000*pi*x)", "wrong"),
    ("a*x + Abs(x - 3/2) + x - 3/2", "wrong"),       # differs only for x < 3/2
    ("a*x + Abs(a - 5/2) + a - 5/2", "wrong"),       # differs only for a < 5/2
])
def test_small_or_hidden_differences_are_not_equal(text, kind):
    feedback = compare(a * x, parse_answer(text, NAMES))
    assert (feedback.correct, feedback.hint_kind, feedback.verdict) == (False, kind,
                                                                        "not_equal"), feedback


@pytest.mark.parametrize("text", ["a*x*(1 + 10**-25)", "a*x + 10**-40", "a*x + x*10**-30"])
def test_differences_below_the_tolerance_are_found(monkeypatch, text):
    """Below the sampling tolerance, an unproved agreement is re-examined at 200 digits."""
    monkeypatch.setattr(chk, "simplifies_to_zero", lambda diff, seconds=0: None)
    feedback = compare(a * x, parse_answer(text, NAMES))
    assert (feedback.correct, feedback.hint_kind) == (False, "near_miss"), feedback
    assert compare(a * x, parse_answer("x*a", NAMES)).verdict == "numeric"  # a true zero


def test_near_miss_inside_a_matrix_entry():
    expected = sp.Matrix([[sp.cos(x), a], [x * y, 0]])
    feedback = compare(expected, parse_answer(
        "[[cos(x), a], [x*y + sin(1000*pi*y), 0]]", NAMES))
    assert (feedback.correct, feedback.hint_kind) == (False, "entries")
    assert "(2, 1)" in feedback.message and "Not yet" not in feedback.message


def test_branch_error_is_caught_over_a_full_turn():
    """−sin θ √(1 − sin²θ) equals −sin θ cos θ only where cos θ ≥ 0."""
    theta = sp.Symbol("theta")
    feedback = compare(-sp.sin(theta) * sp.cos(theta),
                       parse_answer("-sin(theta)*sqrt(1 - sin(theta)**2)", {"theta": theta}),
                       ranges={theta: chk.FULL_TURN})
    assert not feedback.correct


def test_points_are_fresh_and_a_polynomial_vanishing_at_them_is_caught():
    """A polynomial built to vanish at one check's points does not vanish at the next's."""
    first = chk.sample_points([x], None, chk.N_POINTS)
    second = chk.sample_points([x], None, chk.N_POINTS)
    assert {p[x] for p in first}.isdisjoint({p[x] for p in second})
    trap = a * x + sp.Mul(*[(x - p[x]) for p in first])
    assert all(abs(chk._evaluate(trap - a * x, p)[0]) < 1e-15 for p in first)
    assert not compare(a * x, trap).correct


def test_points_cover_every_stratum_of_each_range():
    """A Latin hypercube: each tenth of each range holds exactly one point."""
    low, high = -2.0, 4.0
    points = chk.sample_points([x, y], {x: (low, high), y: (0.0, 1.0)}, chk.N_POINTS)
    strata = sorted(int((float(p[x]) - low) / (high - low) * chk.N_POINTS) for p in points)
    assert strata == list(range(chk.N_POINTS))
    assert all(not p[x].is_Rational and len(str(p[x])) > 25 for p in points)  # not a grid


def test_symbol_ranges_follow_assumptions():
    assert chk.symbol_range(a) == chk.POSITIVE_RANGE
    assert chk.symbol_range(x)[0] < 0 < chk.symbol_range(x)[1]
    assert chk.symbol_range(a, {a: (0.0, 2.0)})[0] > 0
    nonneg = sp.Symbol("mu", nonnegative=True)
    assert chk.symbol_range(nonneg, {nonneg: (-1.0, 1.0)}) == (0.0, 1.0)


def test_numeric_agreement_is_not_reported_as_proof(monkeypatch):
    monkeypatch.setattr(chk, "simplifies_to_zero", lambda diff, seconds=0: None)
    feedback = compare(sp.sin(2 * x), parse_answer("2*sin(x)*cos(x)", NAMES))
    assert feedback.correct and feedback.verdict == "numeric" and not feedback.proven
    assert "not proved" in feedback.message and not feedback.message.startswith("Correct")


# --------------------------------------------------------------------------- real exercises
def exercise(set_name: str, key: str):
    return examples.exercises_for(set_name)[key]


@pytest.mark.parametrize("set_name, key, text", [
    ("knife_edge", "vdot", "l*u_2**2/2 + 1e-10"),
    ("knife_edge", "vdot", "l*u_2**2/2*(1 + 1e-10)"),
    ("knife_edge", "vdot", "l*u_2**2/2 + sin(1000*pi*u_1)"),
    ("knife_edge", "vdot", "l*u_2**2/2 + Abs(l - 3/2) + l - 3/2"),
    ("knife_edge", "phiddot", "-u_1*u_2/l + Abs(l - 3/2) + l - 3/2"),
    ("knife_edge", "C1", "[[0, 0, -sin(phi)], [0, 0, cos(phi) + sin(1000*pi*phi)],"
                         " [sin(phi), -cos(phi), 0]]"),
    ("sphere_particle", "Gamma", "-sin(theta)*sqrt(1 - sin(theta)**2)"),
    ("euler_body", "gamma3", "[[0, 1, 0], [-1, 0, 1e-10], [0, -1e-10, 0]]"),
])
def test_exercises_reject_answers_built_to_fool_the_numbers(running, set_name, key, text):
    feedback = exercise(set_name, key).check(text)
    assert not feedback.correct, feedback


def test_exercise_samples_angles_over_a_full_turn_and_sliders_elsewhere():
    ranges = exercise("sphere_particle", "Gamma").ranges()
    theta = next(s for s in ranges if s.name == "theta")
    assert ranges[theta] == chk.FULL_TURN
    knife = exercise("knife_edge", "vdot").ranges()
    assert knife[next(s for s in knife if s.name == "l")] == (0.2, 3.0)
    speed = knife[next(s for s in knife if s.name == "u_1")]
    assert speed[0] < 0 < speed[1]


# --------------------------------------------------------------------------- threads, load, leaks
def test_checks_work_from_another_thread(running):
    results: list = []
    thread = threading.Thread(target=lambda: results.append(
        exercise("knife_edge", "lambda").check("m*v*phidot")))
    thread.start()
    thread.join(30)
    assert results and results[0].proven


def test_concurrent_checks_from_threads_share_one_worker(running):
    pid = running.pid
    results: list = []

    def work(text: str) -> None:
        results.append(grade(Request(text, NAMES, a * x)))

    threads = [threading.Thread(target=work, args=(t,)) for t in ("x*a", "-a*x", "2*a*x")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(f.hint_kind for f in results) == ["correct", "factor", "sign"]
    assert running.pid == pid


def test_clear_verdicts_with_both_cores_busy(running):
    """The hostile set while two CPU hogs run: every answer gets a verdict, none a hang or an
    exception (a "could not decide in time" is a clear answer; the kernel's wall clock cuts
    the worker off past its CPU budget, so a hang would be "undecided", not a stall)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        for text in [*HANGS_AND_CRASHES, "a*x", "x*a + 1e-10", "a*x + sin(1000*pi*x)"]:
            feedback = verdict(text)
            assert feedback.verdict in {"proven", "numeric", "not_equal", "undecided",
                                        "unreadable"}, (text, feedback)
            assert "Traceback" not in feedback.message and feedback.message, text
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def _typed(ex, value: sp.Basic) -> str:
    names = {}
    for name, symbol in ex.symbols().items():
        names.setdefault(symbol, sp.Symbol(name))
    return sp.sstr(value.xreplace(names))


def _class_grades() -> list[tuple[str, str, bool, str]]:
    """The first typed exercise of every set: its engine answer and its negation, as a
    reader types them, each with (accepted, verdict) from the shared worker."""
    grades = []
    for name in examples.exercise_set_names():
        ex = next(e for e in examples.exercises_for(name) if getattr(e, "options", None) is None)
        for text in (_typed(ex, ex.expected()), _typed(ex, -ex.expected())):
            feedback = ex.check(text)
            grades.append((name, ex.key, feedback.correct, feedback.verdict))
    return grades


def test_correct_answers_are_accepted_on_a_fully_loaded_machine(running):
    """Two CPU hogs per core (each ending by itself after 10 minutes at most): every correct
    answer is still accepted, every negated one refused, and a second run gives the same
    grades — the budget is the worker's CPU time, which other processes do not eat."""
    hog = "import time\nend = time.time() + 600\nwhile time.time() < end: pass"
    hogs = [subprocess.Popen([sys.executable, "-c", hog])
            for _ in range(2 * (os.cpu_count() or 1))]
    try:
        first = _class_grades()
        second = _class_grades()
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert [g[:3] for g in first] == [g[:3] for g in second]
    assert all(correct for _, _, correct, _ in first[0::2]), first[0::2]
    assert not any(correct for _, _, correct, _ in first[1::2]), first[1::2]
    assert "undecided" not in {verdict for *_, verdict in first + second}


def test_the_instructor_sets_the_budget(monkeypatch):
    monkeypatch.setenv(worker.BUDGET_ENV, "7.5")
    assert worker.budget() == 7.5
    worker.set_budget(3.0)
    try:
        assert worker.budget() == 3.0
    finally:
        worker.set_budget(None)
    monkeypatch.setenv(worker.BUDGET_ENV, "fast")
    with pytest.raises(ValueError, match="COMPANION_CHECK_SECONDS='fast': give CPU seconds"):
        worker.budget()
    with pytest.raises(ValueError, match="give 0.5 to 600"):
        worker.set_budget(0.0)


def test_worker_exits_with_its_kernel():
    """A kernel that exits (normally, or killed) takes its worker with it."""
    code = ("import sympy as sp, sys; from companion.exercises.worker import grader, grade, "
            "Request; x = sp.Symbol('x'); grade(Request('x', {'x': x}, x)); "
            "print(grader().pid, flush=True); sys.stdin.readline()")
    for ending in ("exit", "kill"):
        kernel = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        pid = int(kernel.stdout.readline())
        assert _alive(pid)
        if ending == "exit":
            kernel.stdin.close()
        else:
            kernel.kill()
        kernel.wait(30)
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), f"the worker {pid} outlived its kernel ({ending})"


def _spin(seconds: float = 60.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return True


def test_soft_limits_nest_and_clean_up(monkeypatch):
    """The worker's soft limits (exercised here in a test process, never in a kernel): an
    inner limit that ends re-arms the outer one, an inner limit cannot outlast the outer,
    and the timer and handler are restored afterwards."""
    import signal

    monkeypatch.setattr(chk, "SOFT_LIMITS", True)
    handler = signal.getsignal(signal.SIGPROF)
    with pytest.raises(chk.Timeout), chk.soft_limit(30.0):
        outer = chk._DEADLINES[-1]
        assert chk._within(60.0, lambda: _spin(0.01))  # finishes
        assert chk._DEADLINES == [outer]
        # the outer limit is armed again, with what is left of its own time, not the inner's
        assert 0 < signal.getitimer(signal.ITIMER_PROF)[0] <= 30.01  # a tick of rounding
        with chk.soft_limit(0.2):
            _spin()  # cut by the innermost limit, and the Timeout reaches the outer block
    inner: list[list[float]] = []
    with pytest.raises(chk.Timeout), chk.soft_limit(0.2):
        # an inner limit longer than the outer one ends at the outer deadline
        assert chk._within(10.0, lambda: inner.append(list(chk._DEADLINES)) or _spin()) is None
        _spin()  # the outer deadline has passed: cut at once
    assert inner[0][1] == inner[0][0]
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) is handler and chk._DEADLINES == []


def test_the_kernel_arms_no_signal(running, monkeypatch):
    """Checking an answer never touches SIGALRM or an interval timer in the kernel."""
    import signal

    def forbidden(*args, **kwargs):
        raise AssertionError("the kernel must not arm signals")

    monkeypatch.setattr(signal, "setitimer", forbidden)
    monkeypatch.setattr(signal, "alarm", forbidden)
    assert exercise("knife_edge", "vdot").check("l*phidot^2/2").proven
    assert verdict("sin(exp(exp(100*x)))").verdict == "undecided"


def test_a_worker_that_cannot_start_gives_a_verdict(monkeypatch):
    own = Grader()
    monkeypatch.setattr(worker.sys, "executable", "/nonexistent/python")
    own.start()  # making an exercise set never fails on it: the first check says it
    feedback = own.grade(Request("a*x", NAMES, a * x))
    assert (feedback.correct, feedback.hint_kind) == (False, "no_checker")
    assert "could not be started" in feedback.message
    own.close()


def test_a_worker_that_died_is_replaced(running):
    pid = running.pid
    os.kill(pid, 9)
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert grade(Request("x*a", NAMES, a * x)).proven
    assert running.pid != pid


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs Linux /proc")
def test_the_worker_stays_light(running):
    """sympy and mpmath only: no numpy (and its thread pools) in the sandbox."""
    with open(f"/proc/{running.pid}/maps") as maps:
        assert "numpy" not in maps.read()


def test_an_exercise_set_starts_the_worker_unless_graded(monkeypatch):
    """Issue 39: the worker starts as the set is made (shown, or built by an assignment's
    cell), so it imports while the reader reads and the first check finds it ready; a graded
    set judges nothing in the kernel and starts none."""
    from companion.exercises import graded

    grader().close()
    monkeypatch.setattr(graded, "_scopes", frozenset({"euler_body"}))
    examples.exercises_for("euler_body")
    assert grader().pid is None
    examples.exercises_for("knife_edge")
    assert grader().pid is not None


def test_the_worker_warms_up_on_each_kind_of_judgement_before_it_is_ready():
    """The warm-up (run before the ready signal, so outside any check's CPU budget) proves an
    identity by simplify, finds the wrong entry of a matrix and diagnoses a factor: the paths
    whose first use loads and caches parts of sympy."""
    t = sp.Symbol("x", positive=True)
    verdicts = [worker.judge(Request(text, {"x": t}, sp.sympify(e, locals={"x": t})), 2.0)
                for text, e in worker._WARM_UP]
    assert [(v.verdict, v.hint_kind) for v in verdicts] == [
        (chk.PROVEN, "correct"), (chk.NOT_EQUAL, "entries"), (chk.NOT_EQUAL, "factor")]


# --------------------------------------------------------------------------- the worker server
def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rpartition(")")[2].split()[1])


@pytest.fixture
def server_env(monkeypatch):
    """The worker server asked for, its socket in a private folder of this test's own (a
    short one: a socket's path has at most 107 bytes, and pytest's tmp_path under xdist is
    longer)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="cg-", dir="/tmp"))
    monkeypatch.setenv(worker.SERVER_ENV, "1")
    monkeypatch.setenv(worker.IDLE_ENV, "2")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _await_gone(pid: int, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), f"process {pid} is still alive"


def test_worker_server_keeps_the_worker_warm_across_kernels(server_env, monkeypatch):
    """Three kernels one after another (as an autograder runs submissions) each get a worker
    forked by the same worker server, which imported sympy once; verdicts are the same; the
    socket's folder is the user's only; the server exits once no kernel needs it."""
    # idle long enough to outlast a kernel's start-up on a loaded machine (between two kernels
    # no worker lives, and the server counts that time as idle)
    monkeypatch.setenv(worker.IDLE_ENV, "20")
    code = ("import sympy as sp; from companion.exercises.worker import grader, Request; "
            "x = sp.Symbol('x'); g = grader(); "
            "f = g.grade(Request('2*x', {'x': x}, 2*x)); "
            "w = g.grade(Request('3*x', {'x': x}, 2*x)); "
            "print(f.proven, w.correct, g.pid, open(f'/proc/{g.pid}/stat').read()"
            ".rpartition(')')[2].split()[1])")
    seen = []
    for _ in range(3):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=300, env=dict(os.environ))
        assert run.returncode == 0 and len(run.stdout.split()) == 4, run.stdout + run.stderr
        proven, wrong, pid, parent = run.stdout.split()
        assert (proven, wrong) == ("True", "False"), run.stderr
        seen.append((int(pid), int(parent)))
    servers = {parent for _, parent in seen}
    assert len(servers) == 1 and len({pid for pid, _ in seen}) == 3
    (server,) = servers
    assert "--serve" in Path(f"/proc/{server}/cmdline").read_bytes().decode()
    folder = worker.server_path().parent
    assert folder.parent == server_env and folder.stat().st_mode & 0o077 == 0
    for pid, _ in seen:
        _await_gone(pid)  # each kernel's worker went with its kernel
    _await_gone(server)  # idle: the server went too, and took its socket
    assert not worker.server_path().exists()


def test_worker_server_overrun_kills_only_that_worker(server_env, monkeypatch):
    """A forked worker past its budget is killed and replaced by another fork of the same
    server (the kill and the re-check work as for a worker of the kernel's own)."""
    own = Grader()
    try:
        assert own.grade(Request("a*x", NAMES, a * x)).proven
        first, server = own.pid, _parent(own.pid)
        monkeypatch.setattr(worker, "SOFT_MARGIN", -30.0)
        feedback = own.grade(Request("sin(exp(exp(100*x)))", NAMES, a * x), seconds=1.0)
        assert feedback.verdict == "undecided" and own.restarts == 2
        _await_gone(first)
        monkeypatch.setattr(worker, "SOFT_MARGIN", 0.7)
        assert own.grade(Request("x*a", NAMES, a * x)).proven
        assert own.pid != first and _parent(own.pid) == server
    finally:
        own.close()
    _await_gone(server)


def test_the_server_socket_is_named_after_the_whole_package(monkeypatch):
    """A worker server imports the package when it starts and outlives kernels; a request may
    name any module (an exercise's, the assignment's). Named after worker.py, check.py and
    parse.py alone, a server left from before an edit elsewhere served the new code's kernels
    and every check died unpickling ("more memory or time than allowed")."""
    read = []
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self) or original(self))
    worker._source_digest.cache_clear()
    try:
        worker.server_path()
    finally:
        worker._source_digest.cache_clear()
    package = Path(worker.__file__).resolve().parents[1]
    assert set(read) == set(package.rglob("*.py"))
