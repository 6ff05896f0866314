"""The C right-hand side: the statements of a :class:`~companion.numerics.compile.Program`
(the one source of every method's right-hand side, which prints them as Python too) printed
as C, with the one linear solve in C (``solve``: Gaussian elimination with partial pivoting,
several right-hand sides at once), compiled once by the system's C compiler into a shared
library (cached on disk by a hash of the source, with the compiled DOP853 of
:mod:`~companion.numerics.c_dop853`) and called through ctypes: one call per evaluation of
the right-hand side, or one per run.  The disk–link's contact modes are printed with
:func:`block`.
"""

from __future__ import annotations

import ctypes
import hashlib
import math
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from companion.numerics import c_dop853
from companion.numerics.errors import (
    NonFiniteMotionError,
    SingularConfigurationError,
    StepLimitError,
)
from companion.numerics.integrate import Solution

if TYPE_CHECKING:
    from companion.numerics.compile import Program

#: Where compiled libraries are kept between sessions.
CACHE = Path(os.environ.get("COMPANION_CACHE", Path(tempfile.gettempdir()) / "companion-c"))

LINEAR_ALGEBRA = r"""
#include <math.h>
/* Solve the k x k system m X = b for r right-hand sides (m and b row-major, destroyed) with
   partial pivoting into x (k x r); 0 if m is singular. */
static int solve(int k, int r, double *m, double *b, double *x) {
    for (int c = 0; c < k; c++) {
        int piv = c; double best = fabs(m[c * k + c]);
        for (int i = c + 1; i < k; i++)
            if (fabs(m[i * k + c]) > best) { best = fabs(m[i * k + c]); piv = i; }
        if (!(best > 1e-300)) return 0;
        if (piv != c) {
            for (int j = 0; j < k; j++) { double t = m[c * k + j]; m[c * k + j] = m[piv * k + j];
                                          m[piv * k + j] = t; }
            for (int j = 0; j < r; j++) { double t = b[c * r + j]; b[c * r + j] = b[piv * r + j];
                                          b[piv * r + j] = t; }
        }
        for (int i = c + 1; i < k; i++) {
            double g = m[i * k + c] / m[c * k + c];
            for (int j = c; j < k; j++) m[i * k + j] -= g * m[c * k + j];
            for (int j = 0; j < r; j++) b[i * r + j] -= g * b[c * r + j];
        }
    }
    for (int j = 0; j < r; j++)
        for (int i = k - 1; i >= 0; i--) {
            double s = b[i * r + j];
            for (int l = i + 1; l < k; l++) s -= m[i * k + l] * x[l * r + j];
            x[i * r + j] = s / m[i * k + i];
        }
    return 1;
}
"""

def compiler() -> str | None:
    """The C compiler found on the PATH (``$CC``, cc, gcc, clang), or None."""
    found = (shutil.which(name) for name in (os.environ.get("CC"), "cc", "gcc", "clang") if name)
    return next(filter(None, found), None)


def block(exprs: Sequence[sp.Expr], target: str, names: dict[sp.Symbol, sp.Symbol],
           prefix: str) -> str:
    """C statements assigning ``target[i] = exprs[i]`` with common subexpressions shared."""
    exprs = [sp.sympify(e).xreplace(names) for e in exprs]
    replacements, reduced = sp.cse(exprs, symbols=sp.numbered_symbols(prefix), order="none")
    lines = [f"    const double {s} = {sp.ccode(e)};" for s, e in replacements]
    lines += [f"    {target}[{i}] = {sp.ccode(e)};" for i, e in enumerate(reduced)]
    return "\n".join(lines)


def program_source(program: Program) -> str:
    """The C source of ``int rhs(double t, const double *x, const double *p, double *out)``
    printed from ``program``'s statements (:meth:`~companion.numerics.compile.Program.python`
    prints the same as Python): returns 0, or the status of a singular linear system or of
    a failed requirement."""
    def c(e: sp.Expr) -> str:
        return sp.ccode(program.printed(e))

    lines = [LINEAR_ALGEBRA,
             "int rhs(double t, const double *x, const double *p, double *out) {", "    (void)t;",
             *(f"    const double x_{i} = x[{i}];" for i in range(program.size)),
             *(f"    const double p_{i} = p[{i}];" for i in range(program.n_parameters))]
    for kind, *statement in program.statements:
        if kind == "let":
            lines.append(f"    const double {c(statement[0])} = {c(statement[1])};")
            continue
        if kind == "require":
            lines.append(f"    if (!({c(statement[0])} >= 0)) return {statement[1]};")
            continue
        X, A, B, status = statement
        k = math.isqrt(len(A))
        lines += [f"    double {', '.join(map(c, X))};", "    {",
                  f"        double a[{len(A)}] = {{{', '.join(map(c, A))}}};",
                  f"        double b[{len(B)}] = {{{', '.join(map(c, B))}}}, s[{len(B)}];",
                  f"        if (!solve({k}, {len(B) // k}, a, b, s)) return {status};",
                  *(f"        {c(name)} = s[{i}];" for i, name in enumerate(X)), "    }"]
    lines += [f"    out[{i}] = {c(e)};" for i, e in enumerate(program.rates)]
    return "\n".join([*lines, "    return 0;", "}"])


def library(program: Program) -> ctypes.CDLL:
    """``program`` printed as C (:func:`program_source`), compiled and loaded (:func:`load`),
    named by a hash of what the program was built from: a cached library is loaded without
    printing the program."""
    return load(fingerprint([program.inputs, program.rates]), lambda: program_source(program))


def c_names(state: Sequence[sp.Symbol], parameters: Sequence[sp.Symbol]
            ) -> dict[sp.Symbol, sp.Symbol]:
    """The symbols as the C right-hand side names them: ``x[i]`` and ``p[i]``."""
    names = {s: sp.Symbol(f"x[{i}]") for i, s in enumerate(state)}
    names.update({s: sp.Symbol(f"p[{i}]") for i, s in enumerate(parameters)})
    return names


def fingerprint(fields: Sequence) -> str:
    """A hash of the equations' pieces (names the cached library: the same equations are
    never printed and compiled twice).

    Each distinct subexpression is hashed once, from its class and its arguments' hashes
    (a Merkle hash): the bicycle's equations share their subtrees so much that printing them
    whole (``srepr``) took 3–4 s, holding the interpreter while a reader moved sliders."""
    digest = hashlib.sha256((LINEAR_ALGEBRA + c_dop853.source()).encode())
    seen: dict[int, tuple[object, bytes]] = {}
    for f in fields:
        digest.update(_structure_hash(f, seen))
    return digest.hexdigest()[:20]


def _structure_hash(obj: object, seen: dict[int, tuple[object, bytes]]) -> bytes:
    """The hash of a SymPy expression, a matrix or a (nested) sequence of them; ``seen``
    maps ``id`` to (object, hash): the object kept alive, so that its id is not reused."""
    known = seen.get(id(obj))
    if known is not None:
        return known[1]
    if isinstance(obj, sp.MatrixBase):
        parts = [repr(obj.shape).encode(), *(_structure_hash(e, seen) for e in obj)]
    elif isinstance(obj, (list, tuple)):
        parts = [type(obj).__name__.encode(), *(_structure_hash(e, seen) for e in obj)]
    elif isinstance(obj, sp.Basic) and obj.args:
        parts = [type(obj).__name__.encode(), *(_structure_hash(a, seen) for a in obj.args)]
    elif isinstance(obj, sp.Dummy):  # a program's own name: its index differs by session
        parts = [b"Dummy", obj.name.encode()]
    else:  # an atom (a symbol with its assumptions, a number) or a plain value
        parts = [sp.srepr(obj).encode()]
    digest = hashlib.sha256(b"(" + b",".join(parts) + b")").digest()
    seen[id(obj)] = (obj, digest)
    return digest


def load(digest: str, make_source: Callable[[], str]) -> ctypes.CDLL:
    """The library named ``digest``, compiled from ``make_source()`` (with the compiled
    integrator of :mod:`~companion.numerics.c_dop853`) on first use and cached on disk
    (:data:`CACHE`), loaded with the signatures of ``rhs`` and ``dop853_events``.

    Raises
    ------
    RuntimeError
        When no C compiler is found or the compilation fails (the message says which).
    """
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler on the PATH (cc, gcc, clang or $CC): use the Python "
                           "right-hand side (backend='python')")
    CACHE.mkdir(parents=True, exist_ok=True)
    library = CACHE / f"rhs_{digest}.so"
    with _BUILDING:  # one build at a time in this process (an explorer builds in a thread)
        if not library.exists():  # files of this process: another may build the same source
            src, partial = (CACHE / f"rhs_{digest}.{os.getpid()}.{x}" for x in ("c", "so"))
            src.write_text(make_source() + c_dop853.source())
            done = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(partial), str(src),
                                   "-lm"], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"the C right-hand side did not compile:\n"
                                   f"{done.stderr[-2000:]}")
            partial.replace(library)  # atomic
    lib = ctypes.CDLL(str(library))
    lib.rhs.restype = ctypes.c_int
    lib.rhs.argtypes = [ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.dop853_events.restype = ctypes.c_int
    lib.dop853_events.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                  ctypes.c_double, ctypes.c_double, ctypes.c_void_p,
                                  ctypes.c_long, ctypes.c_void_p, ctypes.POINTER(ctypes.c_long),
                                  ctypes.c_double, ctypes.c_void_p, ctypes.c_int,
                                  ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                  *[ctypes.POINTER(ctypes.c_int)] * 2, ctypes.c_void_p,
                                  ctypes.c_void_p, ctypes.c_void_p]
    return lib


_BUILDING = threading.Lock()


class CRightHandSide:
    """``f(t, x) -> ẋ`` calling the compiled library (:func:`load`) for the parameter values
    ``p``, the state n coordinates and k speeds; ``singular`` says what status 1 of ``rhs``
    means; ``nfev`` counts the evaluations of the last :meth:`solve_events`."""

    def __init__(self, lib: ctypes.CDLL, n: int, k: int, p: Sequence[float],
                 singular: str = "Ψ is singular"):
        self._rhs, self._events = lib.rhs, lib.dop853_events
        self.n = n
        self.singular = singular
        self.nfev = 0
        self._p = np.ascontiguousarray(p, dtype=float)
        self._p_address = self._p.ctypes.data  # kept alive by self._p
        self._size = n + k

    def __call__(self, t: float, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, dtype=float)
        out = np.empty(self._size)
        status = self._rhs(float(t), x.ctypes.data, self._p_address, out.ctypes.data)
        if status == 1:
            raise SingularConfigurationError(
                f"{self.singular} at t = {t:.6g}, q = {np.round(x[:self.n], 6).tolist()}")
        if status == 2:
            raise SingularConfigurationError(f"the mass matrix is singular at t = {t:.6g}")
        if not np.isfinite(out).all():
            raise NonFiniteMotionError(f"the accelerations overflow at t = {t:.6g}")
        return out

    def solve_events(self, x0: np.ndarray, t_eval: np.ndarray, rtol: float, atol: float,
                     guards: int = 0, direction: Sequence[float] = (),
                     terminal: Sequence[bool] = (), max_step: float = np.inf,
                     max_steps: int = 1_000_000, max_events: int = 1000) -> Solution:
        """:func:`scipy.integrate.solve_ivp` with ``method="DOP853"``, this ``t_eval``,
        ``max_step`` and events, compiled, returning what it does: the event functions are the
        C function at address ``guards`` (0: none; ``int guards(double t, const double *x,
        const double *p, double *g)``, the statuses of ``rhs``, one value per entry of
        ``direction``), the ``terminal`` ones stopping the run (``status`` 1); one call for the
        whole run.

        Raises
        ------
        SingularConfigurationError
            A singular Ψ or mass matrix on the way, a step too small, more than
            ``max_events`` crossings.
        StepLimitError, NonFiniteMotionError
            More than ``max_steps`` steps; the state or its rate left the floating-point range.
        """
        x0 = np.ascontiguousarray(x0, dtype=float)
        t_eval = np.ascontiguousarray(t_eval, dtype=float)
        ng = len(direction)
        out = np.empty((len(t_eval), self._size))
        directions = np.ascontiguousarray(direction, dtype=float)
        terminals = np.ascontiguousarray(terminal, dtype=np.int32)
        event_t, event_index = np.empty(max_events), np.empty(max_events, dtype=np.int32)
        event_y = np.empty((max_events, self._size))
        nfev, n_out, n_events = ctypes.c_long(0), ctypes.c_int(0), ctypes.c_int(0)
        status = self._events(self._size, x0.ctypes.data, len(t_eval), t_eval.ctypes.data,
                              rtol, atol, self._p_address, max_steps, out.ctypes.data,
                              ctypes.byref(nfev), max_step, guards, ng, directions.ctypes.data,
                              terminals.ctypes.data, max_events, ctypes.byref(n_out),
                              ctypes.byref(n_events), event_t.ctypes.data,
                              event_index.ctypes.data, event_y.ctypes.data)
        self.nfev = nfev.value
        if status not in (0, 7):  # 7: a terminal event
            kind, message = _FAILURES.get(status, (SingularConfigurationError, f"status {status}"))
            if status == 1:
                message = f"{self.singular} on the way"
            raise kind(f"integration failed: {message} (DOP853 compiled, {self.nfev} "
                       "evaluations)")
        k = n_events.value
        which = event_index[:k]
        return Solution(t=t_eval[:n_out.value].copy(), y=out[:n_out.value].T.copy(),
                        status=1 if status == 7 else 0,
                        t_events=[event_t[:k][which == i] for i in range(ng)],
                        y_events=[event_y[:k][which == i] for i in range(ng)])


_FAILURES = {
    1: (SingularConfigurationError, "a matrix became singular"),
    2: (SingularConfigurationError, "the mass matrix became singular"),
    3: (NonFiniteMotionError, "the state or its rate overflowed"),
    4: (StepLimitError, "too many steps"),
    5: (SingularConfigurationError, "the step size became too small"),
    6: (MemoryError, "out of memory"),
    8: (SingularConfigurationError, "too many event crossings (a chattering switch)"),
    9: (SingularConfigurationError, "an event could not be located: its function has the "
        "same sign at both ends of a step"),
}
