"""The grading worker: one sandboxed process per kernel that reads and judges every answer.

A reader's answer can be expensive in ways no parser can foresee (a short expression whose
value has billions of digits).  So the kernel never evaluates one itself: it sends the text,
the exercise's names and the engine's result to this worker (``python -m
companion.exercises.worker``: sympy imported once, no numpy; a socket pair), started once per
kernel and kept for every later check:

- **a CPU budget, not a wall clock** (:func:`budget`): the worker's start-up (importing
  sympy, then a warm-up judgement, :data:`_WARM_UP`) does not count.  A machine busy with
  other work slows a check down without changing its verdict, so a correct answer is not
  turned away because 60 notebooks are graded at once, and a class graded twice gets the
  same grades;
- **hard limit, from outside** (:meth:`Grader.grade`): past the budget the kernel kills the
  worker and **checks again** on a fresh one with more time, and only then answers "could
  not decide" (:data:`~companion.exercises.check.UNDECIDED`, which an autograder records as
  its own outcome, never as a plain wrong answer).  No signal is ever armed in the kernel,
  so checking works from any thread (ipywidgets callbacks, Voilà);
- **soft limit, inside** (:func:`companion.exercises.check.soft_limit`): the worker gives up
  on a slow simplification and still answers, which saves most restarts;
- **resource limits** in the worker: address space (a MemoryError becomes a verdict), CPU
  seconds per job (SIGXCPU ends a runaway that the kernel missed), no core files, no
  file writes, no new processes;
- **no leak**: one worker per kernel, shared by all exercises, killed at interpreter exit; a
  worker whose kernel died sees the socket close and exits;
- **warm across kernels** (an autograder runs one kernel per submission; :func:`use_server`):
  a kernel asks a **worker server** (:func:`serve_forks`), which imported sympy and the
  checker once, for a worker forked for it (milliseconds, not a sympy import), still one
  kernel's, with the same budget, limits and kill as above.

Replies are JSON (plain strings and booleans), so even a subverted worker cannot hand the
kernel a pickle to execute.
"""

from __future__ import annotations

import atexit
import functools
import json
import math
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import astuple, dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

from companion.exercises.check import UNDECIDED, Feedback, Mistake, undecided

#: CPU seconds of the worker's own time one check may use (start-up excluded), by default.
CPU_SECONDS = 2.0
#: The environment variable with which an instructor sets the budget (CPU seconds).
BUDGET_ENV = "COMPANION_CHECK_SECONDS"
#: The worker's own soft limit fires this many CPU seconds before the kernel kills it.
SOFT_MARGIN = 0.5
#: A check that could not decide is run again this many times, each on a fresh worker with
#: :data:`RETRY_FACTOR` times the previous budget.
RETRIES = 1
RETRY_FACTOR = 2.0
#: Wall-clock seconds after which a worker that has not answered is killed whatever its CPU
#: time says (a backstop for a stopped or starved process; no correct answer needs it).
WALL_SECONDS = 600.0
#: Seconds to wait for a freshly started worker to import sympy (a busy machine is slow).
STARTUP_SECONDS = 120.0
#: CPU seconds past the kernel's limit at which SIGXCPU ends a worker the kernel missed.
CPU_BACKSTOP = 3
#: Address space the worker may add to what it holds after its imports.
MEMORY_HEADROOM = 1024 * 2**20

_READY = b"ready"
#: The environment variable that asks for the shared worker server (``1``) or refuses it
#: (``0``); unset, it is used where nbgrader executes the notebook.
SERVER_ENV = "COMPANION_GRADER_SERVER"
#: Seconds the worker server waits for a kernel before it exits (``COMPANION_GRADER_IDLE``).
SERVER_IDLE = 600.0
IDLE_ENV = "COMPANION_GRADER_IDLE"


def use_server() -> bool:
    """Whether this kernel's worker comes from the shared worker server: asked for with
    ``COMPANION_GRADER_SERVER=1``, and by default where nbgrader executes the notebook
    (``NBGRADER_EXECUTION``)."""
    value = os.environ.get(SERVER_ENV, "").strip().lower()
    if value in ("0", "false", "no"):
        return False
    return value in ("1", "true", "yes") or bool(os.environ.get("NBGRADER_EXECUTION"))


@functools.cache  # the source as this kernel first found it
def _source_digest() -> str:
    import hashlib

    digest = hashlib.sha256(sys.executable.encode())
    for source in sorted(Path(__file__).resolve().parents[1].rglob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def server_path() -> Path:
    """The worker server's socket: in a directory of this user's only, named after the
    interpreter and the package's source (a request may name any of its modules, which the
    server imported when it started), so a kernel never gets another code's worker."""
    name = f"companion-grader-{os.getuid()}/{_source_digest()}.sock"
    base = Path(os.environ.get("XDG_RUNTIME_DIR") or "/tmp")
    if len(bytes(base / name)) > 107:  # longer than a Unix socket's path may be
        base = Path("/tmp")
    return base / name


@dataclass(frozen=True)
class Request:
    """One answer to judge: the text, the names the reader may type, and the engine's side
    (``ranges``: each symbol's sampling interval, :func:`~.check.symbol_range`)."""

    text: str
    names: Mapping[str, object]
    expected: object
    mistakes: Sequence[Mistake] = ()
    skew_hint: str = ""
    ranges: Mapping[object, tuple[float, float]] = field(default_factory=dict)


class WorkerError(RuntimeError):
    """The worker could not be started."""


class Grader:
    """The kernel's handle on its grading worker; thread-safe, one job at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._conn: Connection | None = None
        self._pid: int | None = None  # the worker's, from its ready signal
        self.restarts = 0

    def start(self) -> None:
        """Start the worker if none runs (it imports in the background) so that the first
        check does not wait for sympy; if it cannot start, the first check's verdict says so."""
        with self._lock, suppress(OSError, WorkerError):
            self._spawn()

    def _alive(self) -> bool:
        if self._process is not None:
            return self._process.poll() is None
        return self._pid is not None and Path(f"/proc/{self._pid}").exists()

    def _spawn(self) -> None:
        if self._alive():
            return
        self._kill()  # a worker that died on its own: close its socket, reap it
        if use_server():
            try:
                self._conn = _from_server()
                return
            except WorkerError:
                pass  # no server to be had (a race, a crash): this kernel's own worker grades
        ours, theirs = socket.socketpair()
        try:
            self._process = _launch(str(theirs.fileno()), pass_fds=(theirs.fileno(),))
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())

    def _wait_ready(self) -> None:
        if self._pid is not None:
            return
        try:
            message = self._conn.recv_bytes() if self._conn.poll(STARTUP_SECONDS) else b""
        except (EOFError, OSError):
            message = b""
        ready, _, pid = message.partition(b" ")
        if ready != _READY or not pid.isdigit():
            self._kill()
            raise WorkerError("the grading worker did not start")
        self._pid = int(pid)

    def _kill(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            self._process = None
        elif self._pid is not None:  # forked by the worker server, which reaps it
            with suppress(ProcessLookupError):
                os.kill(self._pid, 9)
        self._pid = None

    def close(self) -> None:
        """Stop the worker (a later check starts a new one)."""
        with self._lock:
            self._kill()

    @property
    def pid(self) -> int | None:
        """The worker's process id, None when none runs."""
        return self._process.pid if self._process is not None else self._pid

    def cpu_seconds(self) -> float | None:
        """CPU seconds (user and system) the worker has used; None without a worker or
        Linux's ``/proc``."""
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except (AttributeError, OSError, TypeError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def grade(self, request: Request, seconds: float | None = None) -> Feedback:
        """The verdict on one answer, using at most ``seconds`` (default :func:`budget`) of
        the worker's CPU time; a check that could not decide is retried as :data:`RETRIES` says."""
        seconds = budget() if seconds is None else seconds
        for _ in range(RETRIES + 1):
            feedback = self._attempt(request, seconds)
            if feedback.verdict != UNDECIDED or feedback.hint_kind == "no_checker":
                break
            seconds *= RETRY_FACTOR
        return feedback

    def _attempt(self, request: Request, seconds: float) -> Feedback:
        with self._lock:
            for attempt in (1, 2):  # twice: a server idling out may drop a kernel just taken
                try:
                    self._spawn()
                    self._wait_ready()
                    break
                except (OSError, WorkerError, EOFError) as exc:
                    self._kill()
                    if attempt == 2:
                        return undecided(f"the checker's process could not be started ({exc})",
                                         "no_checker")
            try:
                self._conn.send_bytes(pickle.dumps((request, max(seconds - SOFT_MARGIN, 0.25))))
                if self._await_verdict(seconds):
                    return Feedback(*json.loads(self._conn.recv_bytes()))
                reason = "it takes too long to evaluate"
            except (EOFError, OSError):
                reason = "evaluating it used more memory or time than allowed"
            self._kill()
            self.restarts += 1
            self._spawn()  # the replacement imports while the reader reads the verdict
        return undecided(reason)

    def _await_verdict(self, seconds: float) -> bool:
        """Whether a verdict came before the worker used ``seconds`` of CPU time on this job
        (the wall clock without ``/proc``) and within :data:`WALL_SECONDS`."""
        start_cpu, start = self.cpu_seconds(), time.monotonic()
        while not self._conn.poll(0.05):
            elapsed = time.monotonic() - start
            cpu = self.cpu_seconds()
            used = elapsed if cpu is None or start_cpu is None else cpu - start_cpu
            if used > seconds or elapsed > WALL_SECONDS:
                return False
        return True


def _launch(*args: str, **popen: object) -> subprocess.Popen:
    """``python -m companion.exercises.worker args`` in a session of its own, without a
    terminal, importing this very package, wherever the kernel found it."""
    here = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    return subprocess.Popen([sys.executable, "-m", "companion.exercises.worker", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, start_new_session=True, **popen)


def _from_server() -> Connection:
    """A connection to a worker forked for this kernel by the worker server, which is started
    (in its own session, outliving this kernel until it idles out) when none answers."""
    path = server_path()
    path.parent.mkdir(mode=0o700, exist_ok=True)  # or the existing one: ours, ours only
    info = path.parent.lstat()
    if info.st_uid != os.getuid() or info.st_mode & 0o077 or not path.parent.is_dir():
        raise WorkerError(f"{path.parent} is not a private directory of this user")
    started, starts = None, 0
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock, suppress(OSError):
            sock.connect(str(path))
            return Connection(sock.detach())
        if started is None:
            starts += 1
            started = _launch("--serve", str(path))
        elif started.poll() is not None:
            # It found another server answering, which may have been idling out as it looked
            # (its socket then goes too), or it failed: start one again, twice at most; after
            # that this kernel's own worker grades.
            if starts == 3:
                raise WorkerError("the grading worker server did not start")
            started = None
        if time.monotonic() > deadline:
            raise WorkerError("the grading worker server did not answer")
        time.sleep(0.05)


def budget() -> float:
    """The CPU seconds one check may use: :func:`set_budget`'s, else the environment
    variable ``COMPANION_CHECK_SECONDS``, else :data:`CPU_SECONDS`."""
    if _BUDGET is not None:
        return _BUDGET
    text = os.environ.get(BUDGET_ENV, "").strip()
    if not text:
        return CPU_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.5 <= value <= 600:
        raise ValueError(f"{BUDGET_ENV}={text!r}: give CPU seconds per check between 0.5 and "
                         "600, e.g. 4")
    return value


def set_budget(seconds: float | None) -> None:
    """Set the CPU seconds (0.5 to 600) one check may use in this kernel (None: back to the
    default)."""
    global _BUDGET
    if seconds is not None and not 0.5 <= seconds <= 600:
        raise ValueError(f"a check's budget of {seconds!r} CPU seconds: give 0.5 to 600")
    _BUDGET = seconds


_BUDGET: float | None = None
_GRADER: Grader | None = None
_GRADER_LOCK = threading.Lock()


def grader() -> Grader:
    """The kernel's single grading worker, shared by every exercise."""
    global _GRADER
    with _GRADER_LOCK:
        if _GRADER is None:
            _GRADER = Grader()
            atexit.register(_GRADER.close)
        return _GRADER


def grade(request: Request) -> Feedback:
    """Judge one answer in the shared worker."""
    return grader().grade(request)


def _limit_resources() -> None:
    """Limits set once the imports are done (they count against the address space)."""
    import resource

    for limit, value in ((resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, 0),
                         (resource.RLIMIT_NPROC, 0)):
        with suppress(ValueError, OSError):  # not lowerable here: the other limits still hold
            resource.setrlimit(limit, (value, value))
    with suppress(OSError, ValueError), open("/proc/self/statm") as statm:
        held = int(statm.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (held + MEMORY_HEADROOM,
                                                resource.getrlimit(resource.RLIMIT_AS)[1]))


def _cpu_budget(seconds: float) -> None:
    """Let this job use ``seconds`` and :data:`CPU_BACKSTOP` more CPU seconds before SIGXCPU
    (the soft limit only rises)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = used + math.ceil(seconds) + CPU_BACKSTOP
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def judge(request: Request, seconds: float) -> Feedback:
    """Read and judge one answer (in the worker: parse, compare, catch what escapes)."""
    from companion.exercises import check
    from companion.exercises.parse import AnswerError, parse_answer

    try:
        with check.soft_limit(seconds):
            given = parse_answer(request.text, request.names)
    except AnswerError as exc:
        return Feedback(False, f"Cannot read the answer: {exc}.", "unreadable", check.UNREADABLE)
    except check.Timeout:
        return Feedback(False, "Cannot read the answer: it takes too long to build.",
                        "unreadable", check.UNREADABLE)
    try:
        with check.soft_limit(seconds):
            return check.compare(request.expected, given, mistakes=request.mistakes,
                                 skew_hint=request.skew_hint, ranges=request.ranges,
                                 seconds=seconds * 0.8)
    except check.Timeout:
        return undecided("it takes too long to evaluate")
    except (MemoryError, RecursionError, OverflowError):
        return undecided("its value is too large to compute", "too_large")


#: What the worker judges before it says it is ready (typed text, expected answer as text):
#: an identity proved, a matrix's wrong entry, a factor.  sympy's first ``simplify``,
#: ``evalf`` and ``cancel`` load and cache what later checks reuse (0.3–1 s of CPU), which
#: would otherwise count against the reader's first check.
_WARM_UP = (("1 - sin(x)**2", "cos(x)**2"), ("[[x, 2*x], [0, 1]]", "Matrix([[x, x], [0, 1]])"),
            ("3*x/2", "x*cos(x)"))


@functools.cache
def _imports() -> None:
    """Import sympy and the checker and judge :data:`_WARM_UP`, before the limits and the
    ready signal (once: a worker forked by the server inherits it)."""
    import sympy

    x = sympy.Symbol("x", positive=True)
    for text, expected in _WARM_UP:
        judge(Request(text, {"x": x}, sympy.sympify(expected, locals={"x": x})), CPU_SECONDS)


def serve(fd: int) -> None:
    """The worker's loop: ready and its pid sent, then one request in, one JSON verdict out,
    until the kernel goes."""
    from companion.exercises import check

    _imports()
    check.SOFT_LIMITS = True
    _limit_resources()
    conn = Connection(fd)
    conn.send_bytes(_READY + b" " + str(os.getpid()).encode())
    while True:
        try:
            request, seconds = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        _cpu_budget(seconds)
        check._DEADLINES.clear()  # a limit interrupted in its own exit must not linger
        try:
            feedback = judge(request, seconds)
        except Exception as exc:  # noqa: BLE001 - the reader gets a verdict, never a traceback
            feedback = Feedback(False, f"The checker failed on this answer ({type(exc).__name__}"
                                "); try writing it differently.", "wrong", check.UNDECIDED)
        conn.send_bytes(json.dumps(astuple(feedback)).encode())


def serve_forks(path: str) -> None:
    """The worker server: sympy and the checker imported once; each kernel that connects gets
    a worker forked for it (:func:`serve` on that connection).  Started by the first kernel
    that needs it (:func:`_from_server`), listening at :func:`server_path`; exits after
    :data:`SERVER_IDLE` seconds (``COMPANION_GRADER_IDLE``) with no worker alive and no new
    kernel, or when another server holds the socket."""
    import signal

    _imports()
    idle = float(os.environ.get(IDLE_ENV) or SERVER_IDLE)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forked workers are reaped by the kernel
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
            return  # another server answers there already
        except OSError:
            Path(path).unlink(missing_ok=True)  # a dead server's socket
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    ours = os.stat(path).st_ino
    listener.listen(64)
    listener.settimeout(idle)
    workers: set[int] = set()
    try:
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                workers = {pid for pid in workers if Path(f"/proc/{pid}").exists()}
                if not workers:
                    return
                continue
            pid = os.fork()
            if pid == 0:  # the worker: one kernel's, on the imports already made
                listener.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                os.setsid()
                try:
                    serve(conn.detach())
                finally:
                    os._exit(0)
            workers.add(pid)
            conn.close()
    finally:
        listener.close()
        if os.stat(path).st_ino == ours:  # not a socket a later server bound there
            Path(path).unlink(missing_ok=True)


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        serve_forks(sys.argv[2])
    else:
        serve(int(sys.argv[1]))
