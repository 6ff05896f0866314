"""Symbolic checking of a reader's answer against the engine's result, with targeted hints.

Equivalence is decided numerically and confirmed symbolically:

1. both sides are evaluated at several random rational points to 20 significant digits
   (sympy's adaptive-precision ``evalf``, so cancellation cannot fake a difference;
   complex-safe; points where either side is singular are skipped).  A disagreement at any
   point proves the answer wrong, and the hints below say how;
2. when they agree everywhere, ``simplify(a − b)`` is tried under a time cap; if it reaches 0
   the answer is proved equal, otherwise (timeout or an unsimplified residue) the numeric
   agreement at every point decides.  Every equivalent form is therefore accepted.

Targeted hints for wrong answers, in this order: the exercise's own known mistakes (each
computed by the engine), wrong index order (the negative of a skew matrix such as C^j or
γ^j), sign error, transposed matrix, a constant or simple factor, symbols that should not be
there, and for matrices the entries that are wrong.
"""

from __future__ import annotations

import math
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import sympy as sp

from companion.exercises.parse import Answer

#: Random points at which both sides must agree.
N_POINTS = 6
#: Relative tolerance of the numeric comparison.
RTOL = 1e-9
#: Seconds allowed for the symbolic confirmation.
SIMPLIFY_SECONDS = 2.0
#: Seconds allowed for looking for a symbolic factor between answer and result.
FACTOR_SECONDS = 0.5

T = TypeVar("T")


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    ``hint_kind`` is one of ``"correct"``, ``"unreadable"``, ``"shape"``, ``"known_mistake"``
    (or an exercise's own kind), ``"index_order"``, ``"sign"``, ``"transpose"``, ``"factor"``,
    ``"extra_symbol"``, ``"entries"``, ``"wrong"``.
    """

    correct: bool
    message: str
    hint_kind: str


@dataclass(frozen=True)
class Mistake:
    """A wrong answer a reader is likely to give, computed by the engine, with its hint."""

    answer: Answer
    message: str
    kind: str = "known_mistake"


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that sympy's ``except Exception`` won't eat it."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[bool]:
    """Interrupt the block after ``seconds``; yields False when no timer is available here
    (not the main thread, or no SIGALRM), in which case the caller must skip slow work.
    A timer already running (e.g. a test timeout) is restored afterwards."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield False
        return

    armed = [True]

    def on_alarm(signum, frame):
        if armed[0]:
            raise _Timeout

    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, on_alarm)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield True
    finally:
        try:
            armed[0] = False
        finally:  # runs even if the alarm fires right at the end of the block
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer > 0:
                left = outer - (time.monotonic() - start)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))


def _within(seconds: float, work: Callable[[], T]) -> T | None:
    """``work()`` under a time cap; None when it timed out or no timer is available."""
    try:
        with _time_limit(seconds) as limited:
            return work() if limited else None
    except _Timeout:
        return None


def simplifies_to_zero(diff: Answer, seconds: float = SIMPLIFY_SECONDS) -> bool | None:
    """True if ``diff`` simplifies to zero, None when that could not be decided in time.

    Even ``expand`` runs under the cap: ``(a + b + …)**64`` is short to type but huge expanded.
    """
    entries = list(diff) if isinstance(diff, sp.MatrixBase) else [diff]

    def attempt() -> bool | None:
        if all(sp.expand(e) == 0 for e in entries):
            return True
        return all(sp.simplify(e) == 0 for e in entries) or None

    return _within(seconds, attempt)


# --------------------------------------------------------------------------- numbers
def _as_list(obj: Answer) -> list[sp.Expr]:
    return list(obj) if isinstance(obj, sp.MatrixBase) else [obj]


def _free(*objs: Answer) -> list[sp.Symbol]:
    free: set[sp.Symbol] = set()
    for obj in objs:
        free |= obj.free_symbols
    return sorted(free, key=lambda s: s.name)


def _points(symbols: Sequence[sp.Symbol], count: int, seed: int) -> list[dict]:
    """Random points: magnitudes in [0.2, 1.4], negative too unless a symbol is positive."""
    rng = random.Random(seed)
    points = []
    for _ in range(count):
        point = {}
        for s in symbols:
            value = rng.uniform(0.2, 1.4)
            if not (s.is_positive or s.is_nonnegative) and rng.random() < 0.5:
                value = -value
            point[s] = sp.Rational(round(value * 1000), 1000)
        points.append(point)
    return points


def _evaluate(obj: Answer, point: dict) -> np.ndarray | None:
    """Complex values of every entry at ``point``; None where the object is singular."""
    out = []
    for entry in _as_list(obj):
        try:
            # evalf with subs works to the requested accuracy despite cancellation
            value = complex(entry.evalf(20, subs=point, maxn=400))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return None
        if not (math.isfinite(value.real) and math.isfinite(value.imag)) or abs(value) > 1e12:
            return None
        out.append(value)
    return np.array(out)


def _close(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a - b) <= RTOL * (1.0 + np.maximum(np.abs(a), np.abs(b)))


class _Samples:
    """Both sides and any candidate evaluated at the same random, non-singular points."""

    def __init__(self, expected: Answer, given: Answer, others: Sequence[Answer] = ()):
        symbols = _free(expected, given, *others)
        self.points: list[dict] = []
        self.expected: list[np.ndarray] = []
        self.given: list[np.ndarray] = []
        for point in _points(symbols, 8 * N_POINTS, seed=20261201):
            e, g = _evaluate(expected, point), _evaluate(given, point)
            if e is None or g is None:
                continue
            self.points.append(point)
            self.expected.append(e)
            self.given.append(g)
            if len(self.points) == N_POINTS:
                break
        if len(self.points) < 3:
            raise ValueError("could not find enough points where both answers are defined")

    def agree(self) -> bool:
        """Whether the answer equals the expected result at every point."""
        return all(_close(e, g).all() for e, g in zip(self.expected, self.given, strict=True))

    def matches(self, candidate: Answer) -> bool:
        """Whether the answer equals ``candidate`` at every point."""
        for point, v in zip(self.points, self.given, strict=True):
            c = _evaluate(candidate, point)
            if c is None or c.shape != v.shape or not _close(c, v).all():
                return False
        return True

    def wrong_entries(self) -> np.ndarray:
        """Boolean mask of the entries that disagree at some point."""
        bad = np.zeros_like(self.expected[0], dtype=bool)
        for e, g in zip(self.expected, self.given, strict=True):
            bad |= ~_close(e, g)
        return bad


# --------------------------------------------------------------------------- shapes
def _shape(obj: Answer) -> tuple[int, int] | None:
    return tuple(obj.shape) if isinstance(obj, sp.MatrixBase) else None


def _describe(shape: tuple[int, int] | None) -> str:
    if shape is None:
        return "a single expression"
    if shape[1] == 1:
        return f"a column of {shape[0]} entries"
    return f"a {shape[0]}×{shape[1]} matrix"


def _shape_feedback(expected: Answer, given: Answer) -> Feedback | None:
    se, sg = _shape(expected), _shape(given)
    if se == sg:
        return None
    if se is not None and sg is not None and sg == se[::-1] and 1 in se:
        how = "[a, b, c]" if se[1] == 1 else "[[a, b, c]]"
        return Feedback(False, f"Expected {_describe(se)} but got {_describe(sg)}: the vector "
                        f"is transposed; write it as {how}.", "transpose")
    example = "[[a, b], [c, d]]" if se is not None else "a*b + c"
    return Feedback(False, f"Expected {_describe(se)}, but the answer is {_describe(sg)} "
                    f"(e.g. {example}).", "shape")


def _unwrap(obj: Answer) -> Answer:
    """A 1×1 matrix is read as its single entry."""
    return obj[0] if isinstance(obj, sp.MatrixBase) and obj.shape == (1, 1) else obj


# --------------------------------------------------------------------------- hints
def _show(expr: sp.Expr) -> str:
    return sp.sstr(expr)


def _factor(samples: _Samples, expected: Answer, given: Answer) -> sp.Expr | None:
    """The factor k with given = k · expected, when there is one (k ≠ 0, 1)."""
    e0 = samples.expected[0]
    if not np.any(np.abs(e0) > 1e-12):
        return None
    i = int(np.argmax(np.abs(e0)))
    ratios = [g[i] / e[i] for e, g in zip(samples.expected, samples.given, strict=True)
              if abs(e[i]) > 1e-12]
    k = ratios[0]
    if all(abs(r - k) <= 1e-8 * (1 + abs(k)) for r in ratios) and abs(k.imag) < 1e-12:
        candidate = sp.nsimplify(k.real, [sp.pi], tolerance=1e-10, rational=False)
    else:  # a simple symbolic factor (a monomial), such as a forgotten mass
        candidate = _within(FACTOR_SECONDS,
                            lambda: sp.cancel(_as_list(given)[i] / _as_list(expected)[i]))
        if (candidate is None or candidate.has(sp.Add, sp.I)
                or sp.count_ops(candidate) > 6):
            return None
    if candidate in (0, 1) or not samples.matches(expected * candidate):
        return None
    return candidate


def _is_skew(m: Answer) -> bool:
    return isinstance(m, sp.MatrixBase) and m.is_square and m != m.zeros(*m.shape) and (
        (m + m.T).applyfunc(sp.expand) == m.zeros(*m.shape)
    )


def _diagnose(expected: Answer, given: Answer, samples: _Samples,
              mistakes: Sequence[Mistake], skew_hint: str) -> Feedback:
    for mistake in mistakes:
        if _shape(mistake.answer) == _shape(given) and samples.matches(mistake.answer):
            return Feedback(False, mistake.message, mistake.kind)
    if _is_skew(expected) and samples.matches(-expected):
        return Feedback(False, "Every entry has the opposite sign, which for a skew-symmetric "
                        f"matrix is the same as transposing it: check the index order. "
                        f"{skew_hint}", "index_order")
    if samples.matches(-expected):
        return Feedback(False, "Right up to the overall sign: look for a sign error.", "sign")
    if isinstance(expected, sp.MatrixBase) and expected.is_square and expected != expected.T \
            and samples.matches(expected.T):
        return Feedback(False, "This is the transpose of the right matrix: rows and columns "
                        "are swapped.", "transpose")
    k = _factor(samples, expected, given)
    if k is not None:
        return Feedback(False, f"Off by a factor of {_show(k)}: your answer is {_show(k)} times "
                        "the right one.", "factor")
    extra = sorted(given.free_symbols - expected.free_symbols, key=lambda s: s.name)
    if extra:
        names = ", ".join(s.name for s in extra)
        return Feedback(False, f"The right answer does not depend on {names}.", "extra_symbol")
    if isinstance(expected, sp.MatrixBase):
        bad = samples.wrong_entries().reshape(expected.shape)
        where = [f"({i + 1}, {j + 1})" for i, j in zip(*np.nonzero(bad), strict=True)]
        if len(where) < bad.size:
            return Feedback(False, f"Not yet: entr{'y' if len(where) == 1 else 'ies'} "
                            f"{', '.join(where)} (row, column) {'is' if len(where) == 1 else 'are'}"
                            " wrong; the others are right.", "entries")
    return Feedback(False, "Not equivalent to the right answer.", "wrong")


def compare(expected: Answer, given: Answer, *, mistakes: Sequence[Mistake] = (),
            skew_hint: str = "") -> Feedback:
    """Compare an answer with the engine's result.

    Parameters
    ----------
    expected
        The engine's result (expression or matrix).
    given
        The reader's parsed answer.
    mistakes
        Known wrong answers of this exercise with their hints, tried first.
    skew_hint
        Appended to the index-order hint (e.g. how the exercise's indices are ordered).

    Returns
    -------
    Feedback
    """
    expected, given = _unwrap(expected), _unwrap(given)
    shape = _shape_feedback(expected, given)
    if shape is not None:
        return shape
    try:
        samples = _Samples(expected, given, [m.answer for m in mistakes])
    except ValueError:
        proved = simplifies_to_zero(given - expected)
        if proved:
            return Feedback(True, "Correct (proved symbolically).", "correct")
        return Feedback(False, "The answer could not be evaluated: it is undefined almost "
                        "everywhere.", "wrong")
    if not samples.agree():
        return _diagnose(expected, given, samples, mistakes, skew_hint)
    if simplifies_to_zero(given - expected):
        return Feedback(True, "Correct (proved symbolically).", "correct")
    return Feedback(True, f"Correct (agrees at {len(samples.points)} random points; the "
                    "symbolic check was inconclusive).", "correct")
