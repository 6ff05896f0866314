"""Judging a reader's answer against the engine's result, with targeted hints.

This module does the mathematics; it runs inside the grading worker
(:mod:`companion.exercises.worker`), which bounds its time and memory from outside.  Called
directly (tests, scripts) it has no time limit at all.

Equivalence is decided by numbers where numbers can decide it, and by algebra otherwise:

1. both sides are evaluated to :data:`DIGITS` significant digits (sympy's adaptive-precision
   ``evalf``, so cancellation cannot fake a difference; complex-safe) at :data:`N_POINTS`
   points drawn fresh from the operating system's random source for every check.  The
   points are a Latin hypercube over each symbol's physical range (the example's slider
   range, a full turn for an angle, both signs for a speed), so every tenth of each range is
   visited and no grid or seed can be aimed at.  Points where the expected answer is
   undefined are skipped.  A difference larger than :data:`REL_TOL` (far above the round-off
   of 30-digit arithmetic, far below a typed ``1e-10``) at any point proves the answer
   wrong; the hints below say how;
2. when the numbers agree everywhere, ``simplify(a − b)`` is tried.  If it reaches 0 the
   answer is *proved* equal.  Otherwise the difference is evaluated as one expression at up
   to 200 digits: a difference too small for the comparison (``10**-25``) shows up as a
   number and the answer is not equal; an exact zero leaves the verdict that the answer
   agrees numerically but was not proved — never a plain "Correct".

Targeted hints for wrong answers, in this order: the exercise's own known mistakes (each
computed by the engine), a near miss (a small but real difference: a rounded number), wrong
index order (the negative of a skew matrix such as Cʲ or γʲ), sign error, transposed
matrix, a constant or simple factor (its kind, never its value), symbols that should not be
there, and for matrices the
entries that are wrong.
"""

from __future__ import annotations

import math
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import mpmath
import sympy as sp

from companion.exercises.parse import Answer

#: Points at which both sides must agree (a Latin hypercube: one per stratum of each range).
N_POINTS = 10
#: Significant digits of every evaluation.
DIGITS = 30
#: Relative difference above which two values differ (30-digit round-off is ~1e-28).
REL_TOL = 1e-20
#: Absolute floor of the comparison, for values that vanish at a point.
ABS_TOL = 1e-24
#: Relative differences below this (but above REL_TOL) at every point are near misses.
NEAR_MISS = 1e-6
#: Points and working digits at which an unproved agreement is re-examined for a difference
#: below REL_TOL (see :func:`_residual`).
RESIDUAL_POINTS, RESIDUAL_DIGITS = 3, 200
#: Range of a symbol nothing is known about: both signs, physical magnitudes.
DEFAULT_RANGE = (-3.0, 3.0)
#: Range of a positive symbol nothing else is known about.
POSITIVE_RANGE = (0.05, 3.0)
#: Range of an angle: a full turn.
FULL_TURN = (-math.pi, math.pi)
#: Fractions of the soft budget for the symbolic stages (inside the worker).
EXPAND_SHARE, SIMPLIFY_SHARE, FACTOR_SHARE = 0.15, 0.6, 0.1

T = TypeVar("T")
Ranges = Mapping[sp.Symbol, tuple[float, float]]

#: Verdicts: proved equal, equal at every sample point but not proved, not equal, the
#: checker could not decide in time (or memory), the text could not be read.
PROVEN, NUMERIC, NOT_EQUAL, UNDECIDED, UNREADABLE = (
    "proven", "numeric", "not_equal", "undecided", "unreadable")


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    ``correct`` is True for a proved answer and for one that agrees numerically but was not
    proved (``verdict`` tells them apart).  ``hint_kind`` is one of ``"correct"``,
    ``"unreadable"``, ``"shape"``, ``"known_mistake"`` (or an exercise's own kind),
    ``"near_miss"``, ``"index_order"``, ``"sign"``, ``"transpose"``, ``"factor"``,
    ``"extra_symbol"``, ``"entries"``, ``"wrong"``, ``"timeout"``, ``"too_large"``.
    """

    correct: bool
    message: str
    hint_kind: str
    verdict: str = NOT_EQUAL

    @property
    def proven(self) -> bool:
        return self.verdict == PROVEN


def undecided(reason: str, kind: str = "timeout") -> Feedback:
    """The verdict when the checker gave up: it says so, and what the reader can do."""
    return Feedback(False, f"Could not decide in time: {reason}. Try writing the answer in a "
                    "simpler form.", kind, UNDECIDED)


@dataclass(frozen=True)
class Mistake:
    """A wrong answer a reader is likely to give, computed by the engine, with its hint."""

    answer: Answer
    message: str
    kind: str = "known_mistake"


class Timeout(BaseException):
    """The soft budget ran out; a BaseException so that sympy's ``except Exception`` won't
    eat it."""


#: Set by the worker process: only there may a signal interrupt the work (never in a kernel).
SOFT_LIMITS = False
#: Deadlines (process CPU seconds) of the soft limits entered, innermost last.
_DEADLINES: list[float] = []


def _on_alarm(signum, frame):
    raise Timeout


@contextmanager
def soft_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Timeout` in the block after ``seconds`` of this process's CPU time —
    inside the grading worker only.

    CPU time, so that the verdict does not depend on the machine's load.  It is a courtesy
    that lets the worker answer "could not decide" itself; the hard limit is the kernel's,
    which kills the worker when its CPU time runs past the budget (an alarm landing in a
    garbage-collection callback, a long C call).  Limits nest: an inner one never outlasts
    the outer, and the outer is re-armed when it ends.  Elsewhere (a kernel, a test) the
    block simply runs.
    """
    if not SOFT_LIMITS or threading.current_thread() is not threading.main_thread():
        yield
        return
    now = time.process_time()
    deadline = min([now + seconds, *_DEADLINES[-1:]])
    _DEADLINES.append(deadline)
    previous = signal.signal(signal.SIGPROF, _on_alarm)
    signal.setitimer(signal.ITIMER_PROF, max(deadline - now, 1e-3))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        _DEADLINES.pop()
        signal.signal(signal.SIGPROF, previous)
        if _DEADLINES:
            signal.setitimer(signal.ITIMER_PROF, max(_DEADLINES[-1] - time.process_time(), 1e-3))


def _within(seconds: float, work: Callable[[], T]) -> T | None:
    """``work()`` under the soft limit; None when it ran out of time."""
    try:
        with soft_limit(seconds):
            return work()
    except Timeout:
        return None


def simplifies_to_zero(diff: Answer, seconds: float = 2.0) -> bool | None:
    """True if ``diff`` simplifies to zero, None when that could not be shown (in time).

    ``expand`` first (cheap for polynomial identities, but ``(a + b + …)**64`` is short to
    type and huge expanded, so it gets only a share of the time), then ``simplify``.
    """
    entries = _as_list(diff)
    if all(e == 0 for e in entries):
        return True
    if _within(seconds * EXPAND_SHARE, lambda: all(sp.expand(e) == 0 for e in entries)):
        return True
    return _within(seconds * SIMPLIFY_SHARE,
                   lambda: all(sp.simplify(e) == 0 for e in entries) or None)


def _as_list(obj: Answer) -> list[sp.Expr]:
    return list(obj) if isinstance(obj, sp.MatrixBase) else [obj]


def symbol_range(symbol: sp.Symbol, ranges: Ranges | None = None) -> tuple[float, float]:
    """The interval a symbol is sampled from: the given range, narrowed to its assumptions."""
    low, high = (ranges or {}).get(symbol) or (
        POSITIVE_RANGE if symbol.is_positive or symbol.is_nonnegative else DEFAULT_RANGE)
    if symbol.is_positive and low <= 0:
        low = min(POSITIVE_RANGE[0], high / 10)
    elif symbol.is_nonnegative and low < 0:
        low = 0.0
    if not high > low:
        raise ValueError(f"empty sampling range for {symbol}: [{low}, {high}]")
    return float(low), float(high)


_RANDOM = random.SystemRandom()


def sample_points(symbols: Sequence[sp.Symbol], ranges: Ranges | None,
                  count: int) -> list[dict[sp.Symbol, sp.Float]]:
    """``count`` fresh points, a Latin hypercube: each symbol visits every 1/count-th of its
    range once, at an unpredictable place inside it (128 random bits, 40 digits)."""
    points: list[dict[sp.Symbol, sp.Float]] = [{} for _ in range(count)]
    for s in symbols:
        low, high = symbol_range(s, ranges)
        for point, k in zip(points, _RANDOM.sample(range(count), count), strict=True):
            fraction = (k + sp.Rational(_RANDOM.getrandbits(128), 2**128)) / count
            point[s] = sp.Float(low + (high - low) * fraction, DIGITS + 10)
    return points


def _evaluate(obj: Answer, point: Mapping) -> list[mpmath.mpc] | None:
    """Values of every entry at ``point`` to DIGITS digits; None where the object is
    undefined or infinite there."""
    bits = int(DIGITS * 3.33) + 8
    out = []
    for entry in _as_list(obj):
        try:
            value = entry.evalf(DIGITS, subs=dict(point), maxn=4 * DIGITS)
            number = mpmath.mpc(value._to_mpmath(bits))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError):
            return None
        if not mpmath.isfinite(number):
            return None
        out.append(number)
    return out


def _residual(diff: Answer, points: Sequence[Mapping]) -> float | None:
    """The size of the difference where sympy can resolve it as a number, else None.

    Evaluated as one expression, the difference gets evalf's adaptive precision (up to
    :data:`RESIDUAL_DIGITS` digits): a real difference below the comparison's tolerance
    (``x*(1 + 10**-25)``) comes out as a number with full precision, an exact zero as a
    zero without any (which only a proof could settle).
    """
    for point in points:
        for entry in _as_list(diff):
            try:
                value = entry.evalf(15, subs=dict(point), maxn=RESIDUAL_DIGITS)
                re, im = value.as_real_imag()
            except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError):
                continue
            for part in (re, im):
                if isinstance(part, sp.Float) and part != 0 and part._prec > 1:
                    return abs(float(part))
    return None


def _close(a: Sequence[mpmath.mpc], b: Sequence[mpmath.mpc]) -> list[bool]:
    return [abs(x - y) <= REL_TOL * max(abs(x), abs(y)) + ABS_TOL for x, y in zip(a, b,
                                                                                    strict=True)]


class _Samples:
    """Both sides evaluated at the same fresh points where the expected answer is defined."""

    def __init__(self, expected: Answer, given: Answer, ranges: Ranges | None = None,
                 others: Sequence[Answer] = ()):
        symbols = sorted(set().union(*(obj.free_symbols for obj in (expected, given, *others))),
                         key=lambda s: s.name)
        self.points: list[dict] = []
        self.expected: list[list[mpmath.mpc]] = []
        self.given: list[list[mpmath.mpc] | None] = []
        # Up to four batches, drawn as they are needed: a later one only replaces points
        # where the expected answer is undefined.
        for point in (p for _ in range(4) for p in sample_points(symbols, ranges, N_POINTS)):
            e = _evaluate(expected, point)
            if e is None:
                continue
            self.points.append(point)
            self.expected.append(e)
            self.given.append(_evaluate(given, point))
            if len(self.points) == N_POINTS:
                break
        if len(self.points) < 3:
            raise ValueError("could not find enough points where the right answer is defined")
        #: Whether the answer is undefined (or infinite) where the right one is not.
        self.undefined = any(g is None for g in self.given)

    def agree(self) -> bool:
        """Whether the answer equals the expected result at every point."""
        return not self.undefined and not any(self.wrong_entries())

    def near_miss(self) -> float | None:
        """The largest relative difference when it is small at every point (a rounded
        number, a tiny added term), else None."""
        if self.undefined:
            return None
        worst = max(abs(a - b) / (max(abs(a), abs(b)) or 1)  # relative; 0 where both are
                    for e, g in zip(self.expected, self.given, strict=True)
                    for a, b in zip(e, g, strict=True))
        return float(worst) if worst < NEAR_MISS else None

    def matches(self, candidate: Answer) -> bool:
        """Whether the answer equals ``candidate`` at every point."""
        if self.undefined:
            return False
        for point, v in zip(self.points, self.given, strict=True):
            c = _evaluate(candidate, point)
            if c is None or len(c) != len(v) or not all(_close(c, v)):
                return False
        return True

    def wrong_entries(self) -> list[bool]:
        """Which entries disagree at some point (row-major)."""
        closes = [_close(e, g) for e, g in zip(self.expected, self.given, strict=True)]
        return [not all(entry) for entry in zip(*closes, strict=True)]


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


#: The hints for an answer that is the right one times a factor: which kind of factor, never
#: the factor itself (the answer divided by it would be the key; typing ``1`` would give its
#: reciprocal).
FACTOR_NUMBER = ("Right up to a constant factor: the form is right, but a number multiplying "
                 "the whole answer is not.")
FACTOR_EXPRESSION = ("Right up to a factor that depends on the variables: look for a missing "
                     "or extra mass, length or rate multiplying the whole answer.")


def _factor(samples: _Samples, expected: Answer, given: Answer,
            seconds: float) -> sp.Expr | None:
    """The factor k with given = k · expected, when there is one (k ≠ 0, 1)."""
    e0 = samples.expected[0]
    i = max(range(len(e0)), key=lambda j: abs(e0[j]))
    if abs(e0[i]) < 1e-12:
        return None
    ratios = [g[i] / e[i] for e, g in zip(samples.expected, samples.given, strict=True)
              if abs(e[i]) > 1e-12]
    k = ratios[0]
    if all(abs(r - k) <= 1e-15 * (1 + abs(k)) for r in ratios) and abs(k.imag) < 1e-15:
        candidate = sp.nsimplify(float(k.real), [sp.pi], tolerance=1e-12, rational=False)
    else:  # a simple symbolic factor (a monomial), such as a forgotten mass
        candidate = _within(seconds,
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


def _entries_message(expected: sp.MatrixBase, bad: list[bool]) -> str | None:
    cols = expected.shape[1]
    where = [f"({k // cols + 1}, {k % cols + 1})" if cols > 1 else f"{k + 1}"
             for k, b in enumerate(bad) if b]
    if not where or len(where) == len(bad):
        return None
    one = len(where) == 1
    return (f"Entr{'y' if one else 'ies'} {', '.join(where)}"
            f"{' (row, column)' if cols > 1 else ''} {'is' if one else 'are'} wrong; the others "
            "are right.")


def _diagnose(expected: Answer, given: Answer, samples: _Samples,
              mistakes: Sequence[Mistake], skew_hint: str, seconds: float) -> Feedback:
    for mistake in mistakes:
        if _shape(mistake.answer) == _shape(given) and samples.matches(mistake.answer):
            return Feedback(False, mistake.message, mistake.kind)
    if samples.undefined:
        return Feedback(False, "Your answer is undefined (or infinite) at points where the "
                        "right answer has a finite value.", "wrong")
    near = samples.near_miss()
    if near is not None:
        return Feedback(False, f"Very close, but not equal: it differs from the right answer "
                        f"by about {near:.0e} (relative) — far more than round-off. "
                        "Is a number rounded, or a tiny term added?", "near_miss")
    if samples.matches(-expected):
        if _is_skew(expected):
            return Feedback(False, "Every entry has the opposite sign, which for a skew-symmetric"
                            " matrix is the same as transposing it: check the index order. "
                            f"{skew_hint}".strip(), "index_order")
        return Feedback(False, "Right up to the overall sign: look for a sign error.", "sign")
    if isinstance(expected, sp.MatrixBase) and expected.is_square and expected != expected.T \
            and samples.matches(expected.T):
        return Feedback(False, "This is the transpose of the right matrix: rows and columns "
                        "are swapped.", "transpose")
    k = _factor(samples, expected, given, seconds)
    if k is not None:  # the kind of factor, never the factor: dividing by it gives the key
        return Feedback(False, FACTOR_NUMBER if k.is_number else FACTOR_EXPRESSION, "factor")
    extra = sorted(given.free_symbols - expected.free_symbols, key=lambda s: s.name)
    if extra:
        names = ", ".join(s.name for s in extra)
        return Feedback(False, f"The right answer does not depend on {names}.", "extra_symbol")
    if isinstance(expected, sp.MatrixBase):
        message = _entries_message(expected, samples.wrong_entries())
        if message is not None:
            return Feedback(False, message, "entries")
    return Feedback(False, "Not equivalent to the right answer.", "wrong")


def compare(expected: Answer, given: Answer, *, mistakes: Sequence[Mistake] = (),
            skew_hint: str = "", ranges: Ranges | None = None,
            seconds: float = 2.0) -> Feedback:
    """Compare the reader's parsed answer ``given`` with the engine's result ``expected``
    (see the module docstring).

    Parameters
    ----------
    mistakes
        Known wrong answers of this exercise with their hints, tried first.
    skew_hint
        Appended to the index-order hint (e.g. how the exercise's indices are ordered).
    ranges
        Sampling interval of each symbol (see :func:`symbol_range` for the defaults).
    seconds
        Soft budget of the symbolic stages (enforced only inside the grading worker).
    """
    expected, given = (x[0] if isinstance(x, sp.MatrixBase) and x.shape == (1, 1) else x
                       for x in (expected, given))  # a 1×1 matrix is read as its single entry
    shape = _shape_feedback(expected, given)
    if shape is not None:
        return shape
    try:
        samples = _Samples(expected, given, ranges, [m.answer for m in mistakes])
    except ValueError:  # undefined almost everywhere: only a proof can accept it
        samples = None
    if samples is not None and not samples.agree():
        return _diagnose(expected, given, samples, mistakes, skew_hint, seconds * FACTOR_SHARE)
    if simplifies_to_zero(given - expected, seconds):
        return Feedback(True, "Correct (proved symbolically).", "correct", PROVEN)
    if samples is None:
        return Feedback(False, "The answer could not be evaluated: it is undefined almost "
                        "everywhere.", "wrong")
    tiny = _residual(given - expected, samples.points[:RESIDUAL_POINTS])
    if tiny is not None:
        return Feedback(False, f"Not equal: the difference from the right answer is tiny "
                        f"(about {tiny:.0e} at a sample point) but not zero.", "near_miss")
    return Feedback(True, f"It matches the right answer to {DIGITS - 10} digits at "
                    f"{len(samples.points)} random points, but sympy found no proof: almost "
                    "certainly right, not proved.", "correct", NUMERIC)
