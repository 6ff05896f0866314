"""Equations of motion compiled once for numbers: ``M(q,t) u̇ = f(q,u,t)``, ``q̇ = Φ u + Φ_t``.

Every method's right-hand side is one :class:`Program` — expressions with common
subexpressions eliminated and small linear systems solved numerically, never symbolically —
printed as Python evaluated with the ``math`` module on scalars (far cheaper per call than
numpy for small systems) or as C (:mod:`companion.numerics.c_rhs`) from the same statements:
M u̇ = f as derived (:func:`plain_program`), Lagrange's form mapped to the independent speeds
(:func:`companion.mechanics.agreement.compiled_form`) and numeric elimination
(:mod:`companion.numerics.elimination`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from companion.numerics.errors import NonFiniteMotionError, SingularConfigurationError

if TYPE_CHECKING:  # numerics sits below mechanics: the type only
    from companion.mechanics.derivation import Derivation


#: Mass matrices up to this size are solved in plain Python.
_SMALL = 6


@cache
def _unrolled_solver(k: int, r: int = 1):
    """Source-generated solver of a k×k linear system with r right-hand sides, without
    pivoting, for small k.

    Returns ``solve(M, B) -> list | None`` (M and B row by row, X row by row): ``None`` when a
    pivot is tiny relative to the diagonal or smaller than a tenth of an entry below it (then
    the caller solves with pivoting: the growth of the entries stays bounded as with partial
    pivoting).  Mass matrices are symmetric positive definite, for which no pivoting is
    needed; the contact models' closed equations and Ψ are not symmetric.
    """
    a = [[f"a{i}_{j}" for j in range(k)] for i in range(k)]
    b = [[f"b{i}_{j}" for j in range(r)] for i in range(k)]
    lines = ["def solve(m, f):",
             f"    {', '.join(x for row in a for x in row)}, = m",
             f"    {', '.join(x for row in b for x in row)}, = f",
             f"    tol = 1e-13 * ({' + '.join(f'abs({a[i][i]})' for i in range(k))})"]
    for c in range(k):
        below = "".join(f" or abs({a[i][c]}) > 10.0 * abs({a[c][c]})" for i in range(c + 1, k))
        lines += [f"    if not abs({a[c][c]}) > tol{below}:", "        return None",
                  f"    inv = 1.0 / {a[c][c]}"]
        for i in range(c + 1, k):
            lines.append(f"    g = {a[i][c]} * inv")
            lines += [f"    {a[i][j]} -= g * {a[c][j]}" for j in range(c + 1, k)]
            lines += [f"    {b[i][j]} -= g * {b[c][j]}" for j in range(r)]
    for i in range(k - 1, -1, -1):
        for j in range(r):
            rest = "".join(f" - {a[i][l]} * x{l}_{j}" for l in range(i + 1, k))
            lines.append(f"    x{i}_{j} = ({b[i][j]}{rest}) / {a[i][i]}")
    lines.append(f"    return [{', '.join(f'x{i}_{j}' for i in range(k) for j in range(r))}]")
    namespace: dict = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from k and r only
    return namespace["solve"]


def solve_linear(M: Sequence[float], f: Sequence[float], columns: int = 1) -> list[float]:
    """X of M X = F for M (k×k) and F (k × ``columns``) given row by row as floats: the one
    small linear solve of the package in Python (the C one is ``solve`` of
    :data:`~companion.numerics.c_rhs.LINEAR_ALGEBRA`), an unrolled elimination for k ≤ 6 (a
    few microseconds), numpy with pivoting when that is unsafe or k is bigger.

    Raises
    ------
    SingularConfigurationError
        M is singular.
    NonFiniteMotionError
        M or F holds a non-finite number (an overflow, not a singular configuration).
    """
    k = len(f) // columns
    if k <= _SMALL:
        x = _unrolled_solver(k, columns)(M, f)
        if x is not None:
            return x
    if not (all(map(math.isfinite, M)) and all(map(math.isfinite, f))):
        raise NonFiniteMotionError("the mass matrix or the forcing is not finite")
    try:
        x = np.linalg.solve(np.reshape(np.asarray(M, dtype=float), (k, k)),
                            np.reshape(np.asarray(f, dtype=float), (k, columns)))
    except np.linalg.LinAlgError as exc:
        raise SingularConfigurationError("the mass matrix is singular") from exc
    if not np.all(np.isfinite(x)):
        raise SingularConfigurationError("the mass matrix is singular")
    return x.ravel().tolist()


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


#: Failures a program reports instead of ẋ, by status (the C function returns the same).
FAILURES = {1: "Ψ is singular", 2: "the mass matrix is singular"}


class Program:
    """The one source of every compiled right-hand side ẋ = f(t, x): statements (values of
    expressions, common subexpressions shared; solves of small linear systems A X = B) that
    :meth:`python` prints as Python evaluated on floats with the ``math`` module and
    :func:`~companion.numerics.c_rhs.program_source` as C.

    Build it with :meth:`let`, :meth:`solve` and :meth:`require`, then set :attr:`rates`, the
    n + k entries of ẋ (q̇ first).  Symbols are the arguments' (``t``, ``state``,
    ``parameters``) or names returned by earlier statements (:meth:`let` refuses any other:
    a parameter with no value).
    """

    def __init__(self, t: sp.Symbol | None, state: Sequence[sp.Symbol],
                 parameters: Sequence[sp.Symbol]):
        self.size, self.n_parameters = len(state), len(parameters)
        args = [(t if t is not None else sp.Dummy("t"), "t"),
                *((s, f"x_{i}") for i, s in enumerate(state)),
                *((s, f"p_{i}") for i, s in enumerate(parameters))]
        self._own = {s: sp.Dummy(name) for s, name in args}  # the user's symbols, renamed
        #: What the program was built from, in order (hashed to name its C library).
        self.inputs: list = [list(self._own)]
        self._printed = {d: sp.Symbol(d.name) for d in self._own.values()}
        self._temps = sp.numbered_symbols("c", cls=sp.Dummy)
        self.statements: list[tuple] = []  # ("let", name, expr), ("solve", X, A, B, status)
        #                                       or ("require", expr, status)
        self.rates: list[sp.Expr] = []

    def _name(self, prefix: str = "v") -> sp.Dummy:
        name = sp.Dummy(f"{prefix}{len(self._printed)}")
        self._printed[name] = sp.Symbol(name.name)
        return name

    def let(self, exprs: Sequence[sp.Expr], at: dict | None = None) -> list[sp.Expr]:
        """Names for the values of ``exprs`` (numbers and names kept as they are) with the
        symbols of ``at`` replaced by its values, their common subexpressions computed once."""
        self.inputs.append([list(exprs), list((at or {}).items())])
        at = {**self._own, **(at or {})}
        exprs = [sp.sympify(e).xreplace(at) for e in exprs]
        missing = set().union(*(e.free_symbols for e in exprs)) - set(self._printed)
        if missing:
            raise ValueError("the equations use parameters with no value: "
                             f"{sorted(map(str, missing))}")
        replacements, reduced = sp.cse(exprs, symbols=self._temps)
        self.statements += [("let", s, e) for s, e in replacements]
        self._printed.update((s, sp.Symbol(s.name)) for s, _ in replacements)
        names = []
        for e in reduced:
            if not (e.is_Atom or -e in self._printed):  # a number, a name, or -name
                name = self._name()
                self.statements.append(("let", name, e))
                e = name
            names.append(e)
        return names

    def solve(self, A: Sequence[sp.Expr], B: Sequence[sp.Expr], status: int) -> list[sp.Dummy]:
        """Names of X (row by row) of A X = B, A k×k and B k×r given row by row; a singular A
        ends the program with ``status`` (:data:`FAILURES`)."""
        X = [self._name("s") for _ in B]
        self.inputs.append(status)
        self.statements.append(("solve", X, self.let(A), self.let(B), status))
        return X

    def require(self, guard: sp.Expr, status: int) -> None:
        """End the program with ``status`` where ``guard`` is negative (or not a number),
        before the statements that follow are evaluated."""
        self.inputs.append(status)
        self.statements.append(("require", self.let([guard])[0], status))

    def printed(self, expr: sp.Expr) -> sp.Expr:
        """An expression of the statements in the printed names (x_i, p_i, t, cse's c_i, v_i,
        s_i)."""
        return sp.sympify(expr).xreplace(self._printed)

    def python(self) -> Callable:
        """``f(t, x, p, solve)``: ẋ as a list, or a status of :data:`FAILURES`; ``solve(A, B,
        r)`` returns X of A X = B (r columns) or None when A is singular."""
        from sympy.printing.pycode import PythonCodePrinter

        code = PythonCodePrinter({"standard": "python3"}).doprint
        state = [f"x_{i}" for i in range(self.size)]
        lines = ["def rhs(t, x, p, solve):"]
        if state:
            lines.append(f"    {', '.join(state)}, = x")
        if self.n_parameters:
            lines.append(f"    {', '.join(f'p_{i}' for i in range(self.n_parameters))}, = p")
        for kind, *statement in self.statements:
            if kind == "let":
                lines.append(f"    {self.printed(statement[0])} = "
                             f"{code(self.printed(statement[1]))}")
                continue
            if kind == "require":
                lines += [f"    if not ({code(self.printed(statement[0]))}) >= 0:",
                          f"        return {statement[1]}"]
                continue
            X, A, B, status = statement
            listed = [f"[{', '.join(code(self.printed(e)) for e in M)}]" for M in (A, B)]
            lines += [f"    s = solve({listed[0]}, {listed[1]}, {len(B) // math.isqrt(len(A))})",
                      "    if s is None:", f"        return {status}",
                      f"    {', '.join(str(self.printed(s)) for s in X)}, = s"]
        lines.append(f"    return [{', '.join(code(self.printed(e)) for e in self.rates)}]")
        namespace = {"math": math}
        exec("\n".join(lines), namespace)  # noqa: S102 - printed from the equations
        return namespace["rhs"]


def _solve_or_none(A: list[float], B: list[float], columns: int) -> list[float] | None:
    """:func:`solve_linear`, None for a singular A (the program reports its status)."""
    try:
        return solve_linear(A, B, columns=columns)
    except SingularConfigurationError:
        return None


def plain_program(derivation: Derivation, parameters: Sequence[sp.Symbol]) -> Program:
    """ẋ = (q̇, u̇) of a derivation's q̇ = kinematics and M u̇ = f (M and f formed
    symbolically)."""
    program = Program(derivation.t, [*derivation.q, *derivation.u], parameters)
    n, k = len(derivation.q), len(derivation.u)
    forcing = [grouped_by_speeds(e, derivation.u) for e in derivation.forcing]
    values = program.let([*derivation.kinematics, *derivation.mass_matrix, *forcing])
    program.rates = [*values[:n], *program.solve(values[n:n + k * k], values[n + k * k:], 2)]
    return program


class CompiledEOM:
    """Numeric right-hand side of a derivation for the ``parameters`` symbols (in the order
    their values are passed): one :class:`Program` (default: :func:`plain_program`) of the
    state x = (q, u), the derivation's q's and k speeds, evaluated in Python (:meth:`rhs`)
    or compiled to C (:meth:`c_rhs`)."""

    def __init__(self, derivation: Derivation, parameters: Sequence[sp.Symbol],
                 program: Program | None = None):
        self.derivation = derivation
        self.parameters = list(parameters)
        self.program = program or plain_program(derivation, self.parameters)
        self.n = len(derivation.q)
        self.k = self.program.size - self.n
        self._python = self.program.python()
        self._library = None

    def c_rhs(self, p: Sequence[float]):
        """The right-hand side ``x ↦ ẋ`` compiled to C (:func:`companion.numerics.c_rhs.
        program_source`), built on first use; ``RuntimeError`` when no C compiler is
        available."""
        from companion.numerics import c_rhs

        if self._library is None:
            self._library = c_rhs.library(self.program)
        return c_rhs.CRightHandSide(self._library, self.n, self.k, list(p))

    def _evaluate(self, t: float, x: list[float], p: list[float], solve=_solve_or_none):
        """ẋ at one state as a list of floats (the program run in Python)."""
        size = self.n + self.k
        if len(x) != size:  # else the generated code's "missing argument '_Dummy_45'"
            raise ValueError(f"the state x must hold {size} values, (q, u) in the order of "
                             f"System.state_names(), got {len(x)}")
        try:
            out = self._python(t, x, p, solve)
        except (SingularConfigurationError, NonFiniteMotionError):
            raise
        except (ZeroDivisionError, ValueError, OverflowError) as exc:
            raise SingularConfigurationError(
                f"the equations of motion cannot be evaluated at q = {x[:self.n]}: {exc}"
            ) from exc
        if isinstance(out, int):
            q = np.round(x[:self.n], 6).tolist()
            raise SingularConfigurationError(f"{FAILURES[out]} at t = {t:.6g}, q = {q}")
        if not all(map(math.isfinite, out)):
            if not all(map(math.isfinite, out[:self.n])):
                raise SingularConfigurationError(
                    f"the kinematical equations blow up at t = {t:.6g}, q = "
                    f"{np.round(x[:self.n], 6)}: the coordinates are singular there")
            raise NonFiniteMotionError(f"the accelerations overflow at t = {t:.6g}")
        return out

    def parts(self, t: float, q: Sequence[float], u: Sequence[float], p: Sequence[float]):
        """q̇, and the mass matrix and forcing of the program's last solve, at one state."""
        solved = []

        def recorded(A: list[float], B: list[float], columns: int):
            solved.append((A, B))
            return _solve_or_none(A, B, columns)

        out = self._evaluate(t, [*q, *u], list(p), recorded)
        A, B = solved[-1]
        return (np.array(out[:self.n]), np.reshape(A, (len(B), len(B))), np.array(B))

    def udot(self, t: float, q, u, p) -> np.ndarray:
        """u̇ at one state."""
        return np.array(self._evaluate(t, [*q, *u], list(p))[self.n:])

    def rhs(self, p: Sequence[float]):
        """The first-order right-hand side ``x ↦ ẋ`` for the state x = (q, u), evaluated on
        Python floats (a few microseconds for small systems)."""
        p, evaluate = list(p), self._evaluate

        def f(t: float, x: np.ndarray) -> np.ndarray:
            return np.array(evaluate(t, x.tolist(), p))

        return f
