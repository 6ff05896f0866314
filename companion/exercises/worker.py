"""The grading worker: one sandboxed process per kernel that reads and judges every answer.

A reader's answer can be expensive in ways no parser can foresee (a short expression whose
value has billions of digits).  So the kernel never evaluates one itself: it sends the text,
the exercise's names and the engine's result to this worker and waits for the verdict on a
wall clock of its own.  The worker is a plain ``python -m companion.exercises.worker``
subprocess (sympy imported once, no numpy), connected by a socket pair:

- **hard limit, from outside**: the kernel waits at most :data:`VERDICT_SECONDS` for a
  verdict; on overrun it kills the worker, starts a fresh one at once and answers "could not
  decide in time".  No signal is ever armed in the kernel, so checking works from any thread
  (ipywidgets callbacks, Voilà);
- **soft limit, inside**: the worker's own timer (:func:`companion.exercises.check.soft_limit`)
  lets it give up on a slow simplification and still answer, which saves most restarts;
- **resource limits** in the worker: address space (a MemoryError becomes a verdict), CPU
  seconds per job (SIGXCPU ends a runaway that ignores everything else), no core files, no
  file writes, no new processes;
- **no leak**: one worker per kernel, shared by all exercises, killed at interpreter exit; a
  worker whose kernel died sees the socket close and exits.

Replies are JSON (plain strings and booleans), so even a subverted worker cannot hand the
kernel a pickle to execute.
"""

from __future__ import annotations

import atexit
import json
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

from companion.exercises.check import Feedback, Mistake, undecided

#: Wall-clock seconds from a check's start to its verdict, enforced by killing the worker.
VERDICT_SECONDS = 2.6
#: The worker's own budget is this much shorter, so it normally answers before the kill.
SOFT_MARGIN = 0.7
#: Least time a job is given even when a restart ate into the verdict time.
MIN_JOB_SECONDS = 1.2
#: Seconds to wait for a freshly started worker to import sympy (a busy machine is slow).
STARTUP_SECONDS = 60.0
#: CPU seconds one job may use before SIGXCPU ends the worker.
CPU_SECONDS_PER_JOB = 5
#: Address space the worker may add to what it holds after its imports.
MEMORY_HEADROOM = 1024 * 2**20

_READY = b"ready"


@dataclass(frozen=True)
class Request:
    """One answer to judge: the text, the names the reader may type, and the engine's side.

    ``ranges`` maps a symbol to its sampling interval (see
    :func:`companion.exercises.check.symbol_range`).
    """

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
        self._ready = False
        self.restarts = 0

    # ------------------------------------------------------------------ lifetime
    def start(self) -> None:
        """Start the worker if none is running (returns at once; it imports in the
        background), so that the first check does not wait for sympy."""
        with self._lock:
            self._spawn()

    def _spawn(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self._kill()  # a worker that died on its own: close its socket, reap it
        ours, theirs = socket.socketpair()
        # The worker imports this very package, wherever the kernel found it.
        here = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PYTHONPATH": path, "OPENBLAS_NUM_THREADS": "1",
               "OMP_NUM_THREADS": "1"}
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "companion.exercises.worker", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                start_new_session=True)
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        self._ready = False

    def _wait_ready(self) -> None:
        if self._ready:
            return
        try:
            ready = self._conn.poll(STARTUP_SECONDS) and self._conn.recv_bytes() == _READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            self._kill()
            raise WorkerError("the grading worker did not start")
        self._ready = True

    def _kill(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            self._process = None
        self._ready = False

    def close(self) -> None:
        """Stop the worker (a later check starts a new one)."""
        with self._lock:
            self._kill()

    @property
    def pid(self) -> int | None:
        """The worker's process id, None when none runs."""
        return None if self._process is None else self._process.pid

    # ------------------------------------------------------------------ judging
    def grade(self, request: Request) -> Feedback:
        """The verdict on one answer, within :data:`VERDICT_SECONDS` of the call once the
        worker is running (see the module docstring for what happens on overrun)."""
        start = time.monotonic()
        with self._lock:
            try:
                self._spawn()
                self._wait_ready()
            except (OSError, WorkerError) as exc:
                return undecided(f"the checker's process could not be started ({exc})",
                                 "no_checker")
            budget = max(VERDICT_SECONDS - (time.monotonic() - start), MIN_JOB_SECONDS)
            payload = pickle.dumps((request, budget - SOFT_MARGIN))
            try:
                self._conn.send_bytes(payload)
                if self._conn.poll(budget):
                    return Feedback(*json.loads(self._conn.recv_bytes()))
                reason = "it takes too long to evaluate"
            except (EOFError, OSError):
                reason = "evaluating it used more memory or time than allowed"
            self._kill()
            self.restarts += 1
            self._spawn()  # the replacement imports while the reader reads the verdict
        return undecided(reason)


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


# --------------------------------------------------------------------------- the worker side
def _limit_resources() -> None:
    """Limits set once the imports are done (they count against the address space)."""
    import resource

    for limit, value in ((resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, 0),
                         (resource.RLIMIT_NPROC, 0)):
        try:
            resource.setrlimit(limit, (value, value))
        except (ValueError, OSError):  # not lowerable here: the other limits still hold
            pass
    try:
        with open("/proc/self/statm") as statm:
            held = int(statm.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (held + MEMORY_HEADROOM,
                                                resource.getrlimit(resource.RLIMIT_AS)[1]))
    except (OSError, ValueError):
        pass


def _cpu_budget() -> None:
    """Let this job use CPU_SECONDS_PER_JOB more CPU seconds (the soft limit only rises)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = used + CPU_SECONDS_PER_JOB
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


def serve(fd: int) -> None:
    """The worker's loop: one request in, one JSON verdict out, until the kernel goes."""
    import sympy  # noqa: F401 - imported once, before the limits and the ready signal

    from companion.exercises import check, parse  # noqa: F401

    check.SOFT_LIMITS = True
    _limit_resources()
    conn = Connection(fd)
    conn.send_bytes(_READY)
    while True:
        try:
            request, seconds = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        _cpu_budget()
        check._DEADLINES.clear()  # a limit interrupted in its own exit must not linger
        try:
            feedback = judge(request, seconds)
        except Exception as exc:  # noqa: BLE001 - the reader gets a verdict, never a traceback
            feedback = Feedback(False, f"The checker failed on this answer ({type(exc).__name__}"
                                "); try writing it differently.", "wrong", check.UNDECIDED)
        conn.send_bytes(json.dumps([feedback.correct, feedback.message, feedback.hint_kind,
                                    feedback.verdict]).encode())


if __name__ == "__main__":
    serve(int(sys.argv[1]))
