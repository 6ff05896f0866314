"""Equations of motion compiled once for numbers: ``M(q,t) u̇ = f(q,u,t)``, ``q̇ = Φ u + Φ_t``.

Everything is lambdified in one function with common-subexpression elimination, evaluated
with the ``math`` module on scalars (far cheaper per call than numpy for small systems), and
the linear system for u̇ solved numerically, never symbolically.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from companion.numerics.errors import (
    NonFiniteMotionError,
    SingularConfigurationError,
    wrong_state_size,
)

if TYPE_CHECKING:  # numerics sits below mechanics: the type only
    from companion.mechanics.derivation import Derivation


#: Mass matrices up to this size are solved in plain Python.
_SMALL = 6


@cache
def _unrolled_solver(k: int):
    """Source-generated solver of a k×k linear system without pivoting, for small k.

    Returns ``solve(M, f) -> list | None``: ``None`` when a pivot is tiny relative to the
    diagonal or smaller than a tenth of an entry below it (then the caller solves with
    pivoting: the growth of the entries stays bounded as with partial pivoting).  Mass
    matrices are symmetric positive definite, for which no pivoting is needed; the contact
    models' closed equations are not symmetric.
    """
    a = [[f"a{i}_{j}" for j in range(k)] for i in range(k)]
    lines = ["def solve(m, f):",
             f"    {', '.join(x for row in a for x in row)}, = m",
             f"    {', '.join(f'b{i}' for i in range(k))}, = f",
             f"    tol = 1e-13 * ({' + '.join(f'abs({a[i][i]})' for i in range(k))})"]
    for c in range(k):
        below = "".join(f" or abs({a[r][c]}) > 10.0 * abs({a[c][c]})" for r in range(c + 1, k))
        lines += [f"    if not abs({a[c][c]}) > tol{below}:", "        return None",
                  f"    inv = 1.0 / {a[c][c]}"]
        for r in range(c + 1, k):
            lines.append(f"    g = {a[r][c]} * inv")
            lines += [f"    {a[r][j]} -= g * {a[c][j]}" for j in range(c + 1, k)]
            lines.append(f"    b{r} -= g * b{c}")
    for i in range(k - 1, -1, -1):
        rest = "".join(f" - {a[i][j]} * x{j}" for j in range(i + 1, k))
        lines.append(f"    x{i} = (b{i}{rest}) / {a[i][i]}")
    lines.append(f"    return [{', '.join(f'x{i}' for i in range(k))}]")
    namespace: dict = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from k only
    return namespace["solve"]


def solve_linear(M: Sequence[float], f: Sequence[float], where: str = "") -> list[float]:
    """x of M x = f for M given row by row as floats: the one small linear solve of the
    package's right-hand sides in Python (the C ones use :data:`~companion.numerics.c_rhs.
    LINEAR_ALGEBRA`).

    An unrolled elimination in plain Python for k ≤ 6 (a few microseconds), numpy with
    pivoting when that is unsafe or k is bigger.

    Raises
    ------
    SingularConfigurationError
        M is singular (the message ends with ``where``).
    NonFiniteMotionError
        M or f holds a non-finite number (an overflow, not a singular configuration).
    """
    k = len(f)
    if k <= _SMALL:
        x = _unrolled_solver(k)(M, f)
        if x is not None:
            return x
    if not (all(map(math.isfinite, M)) and all(map(math.isfinite, f))):
        raise NonFiniteMotionError(f"the mass matrix or the forcing is not finite{where}")
    try:
        x = np.linalg.solve(np.reshape(np.asarray(M, dtype=float), (k, k)), f)
    except np.linalg.LinAlgError as exc:
        raise SingularConfigurationError(f"the mass matrix is singular{where}") from exc
    if not np.all(np.isfinite(x)):
        raise SingularConfigurationError(f"the mass matrix is singular{where}")
    return x.tolist()


def grouped_by_speeds(expr: sp.Expr, speeds: Sequence[sp.Symbol]) -> sp.Expr:
    """An expanded expression rewritten as Σ (product of speeds) · (its coefficient).

    The forcing of expanded equations repeats each product of speeds in many terms; grouped,
    each product is multiplied once and the coefficients are left for ``cse``, which makes
    the compiled right-hand side markedly cheaper (about half the operations after cse for
    the 10-link chain).  One pass over the terms, unlike ``sympy.collect``.
    """
    index = set(speeds)
    groups: dict[sp.Expr, list[sp.Expr]] = {}
    for term in sp.Add.make_args(expr):
        mine, rest = [], []
        for factor in sp.Mul.make_args(term):
            (mine if factor.as_base_exp()[0] in index else rest).append(factor)
        groups.setdefault(sp.Mul(*mine), []).append(sp.Mul(*rest))
    if len(groups) == len(sp.Add.make_args(expr)):
        return expr  # nothing repeats
    return sp.Add(*[key * sp.Add(*terms) for key, terms in groups.items()])


def lambdify_scalar(args: Sequence, exprs: Sequence[sp.Expr]):
    """Lambdify a list of scalar expressions to a fast function of scalars returning a list."""
    return sp.lambdify(args, list(exprs), modules=["math"], cse=True)


class CompiledEOM:
    """Numeric right-hand side of a derivation for fixed parameter symbols.

    Parameters
    ----------
    derivation
        Any method's :class:`Derivation`.
    parameters
        The parameter symbols, in the order parameter values will be passed.
    """

    def __init__(self, derivation: Derivation, parameters: Sequence[sp.Symbol]):
        self.derivation = derivation
        self.parameters = list(parameters)
        missing = set(derivation.parameters()) - set(self.parameters)
        if missing:
            raise ValueError(
                f"the equations use parameters with no value: {sorted(map(str, missing))}"
            )
        self.n = len(derivation.q)
        self.k = len(derivation.u)
        t = derivation.t if derivation.t is not None else sp.Dummy("t")
        args = [t, *derivation.q, *derivation.u, *self.parameters]
        forcing = [grouped_by_speeds(e, derivation.u) for e in derivation.forcing]
        flat = [*derivation.kinematics, *derivation.mass_matrix, *forcing]
        self._args, self._flat = args, flat
        self._parts = lambdify_scalar(args, flat)
        self._library = None

    def c_rhs(self, p: Sequence[float]):
        """The right-hand side ``x ↦ ẋ`` compiled to C (:func:`companion.numerics.c_rhs.
        matrices_source`): q̇, M and f with shared subexpressions and the solve of M u̇ = f
        in one call; built on first use, ``RuntimeError`` when no C compiler is available."""
        from companion.numerics import c_rhs

        if self._library is None:
            n, k = self.n, self.k
            t, q, u = self._args[0], self._args[1:n + 1], self._args[n + 1:n + k + 1]
            names = c_rhs.c_names([*q, *u], self.parameters, t)
            flat = self._flat
            self._library = c_rhs.load(
                c_rhs.fingerprint([self._args, flat]),
                lambda: c_rhs.matrices_source(n, k, names, flat[:n], flat[n:n + k * k],
                                              flat[n + k * k:]))
        return c_rhs.CRightHandSide(self._library, self.n, self.k, list(p))

    def _values(self, t: float, q: Sequence[float], u: Sequence[float], p: Sequence[float]):
        """The flat list (q̇, M row by row, f) as Python floats."""
        try:
            return self._parts(t, *q, *u, *p)
        except TypeError as exc:  # a state of the wrong length: say so, not _Dummy_45
            if len(q) + len(u) == self.n + self.k:
                raise
            raise wrong_state_size(len(q) + len(u), self.n + self.k) from exc
        except (ZeroDivisionError, ValueError, OverflowError) as exc:
            raise SingularConfigurationError(
                f"the equations of motion cannot be evaluated at q = {list(q)}: {exc}"
            ) from exc

    def parts(self, t: float, q: Sequence[float], u: Sequence[float], p: Sequence[float]):
        """q̇, M and f at one state, as numpy arrays."""
        n, k = self.n, self.k
        vals = self._values(t, q, u, p)
        qdot = np.array(vals[:n], dtype=float)
        M = np.array(vals[n : n + k * k], dtype=float).reshape(k, k)
        f = np.array(vals[n + k * k :], dtype=float)
        return qdot, M, f

    def accelerations(self, M: np.ndarray, f: np.ndarray, where: str = "") -> np.ndarray:
        """Solve M u̇ = f, refusing a singular M with an explanation."""
        return np.array(solve_linear(M.ravel().tolist(), f.tolist(), where))

    def udot_list(self, t: float, q: Sequence[float], u: Sequence[float],
                  p: Sequence[float]) -> list[float]:
        """u̇ at one state as a list of floats (the fast path used inside right-hand sides)."""
        n, k = self.n, self.k
        vals = self._values(t, q, u, p)
        return solve_linear(vals[n : n + k * k], vals[n + k * k :])

    def rhs(self, p: Sequence[float]):
        """The first-order right-hand side ``x ↦ ẋ`` for the state x = (q, u).

        Evaluated on Python floats (one lambdified call, a plain-Python solve of M u̇ = f,
        one array built at the end), which for small systems costs a few microseconds.
        """
        n, k = self.n, self.k
        nk = n + k * k
        p = list(p)
        values, solve = self._values, solve_linear

        def f(t: float, x: np.ndarray) -> np.ndarray:
            xs = x.tolist()
            vals = values(t, xs[:n], xs[n:], p)
            if not all(map(math.isfinite, vals[:n])):
                raise SingularConfigurationError(
                    f"the kinematical equations blow up at t = {t:.6g}, q = {np.round(xs[:n], 6)}: "
                    "the coordinates are singular there"
                )
            if not all(map(math.isfinite, vals[n:])):
                raise NonFiniteMotionError(
                    f"the dynamical equations overflow at t = {t:.6g}: M or f is not finite")
            out = [*vals[:n], *solve(vals[n:nk], vals[nk:])]
            if not all(map(math.isfinite, out)):
                raise NonFiniteMotionError(f"the accelerations overflow at t = {t:.6g}")
            return np.array(out)

        return f

    def udot(self, t: float, q, u, p) -> np.ndarray:
        """u̇ at one state."""
        return np.array(self.udot_list(t, list(q), list(u), p))
