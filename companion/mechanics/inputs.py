"""Checks of user input shared by the derivation methods, so that bad input fails early with a
message that says what is wrong, instead of a traceback from deep inside sympy."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef


def symbols_list(seq: Any, what: str) -> list[sp.Symbol]:
    """Return ``seq`` as a list of distinct plain Symbols, or raise ``ValueError``."""
    if isinstance(seq, (sp.Symbol, str)) or not isinstance(seq, Iterable):
        raise ValueError(f"{what} must be a sequence of sympy Symbols, got {seq!r}")
    out = list(seq)
    for i, s in enumerate(out):
        if isinstance(s, AppliedUndef) or (isinstance(s, sp.Expr) and s.atoms(AppliedUndef)):
            raise ValueError(
                f"{what}[{i}] = {s} is a function of time (e.g. a dynamicsymbol); "
                "use plain sympy Symbols such as sympy.symbols('x y phi')"
            )
        if not isinstance(s, sp.Symbol):
            raise ValueError(f"{what}[{i}] = {s!r} is not a sympy Symbol")
    if len(set(out)) != len(out):
        dup = sorted({s.name for s in out if out.count(s) > 1})
        raise ValueError(f"{what} repeats the symbol(s) {', '.join(dup)}")
    return out


def sympify_entry(value: Any, what: str, names: Mapping[str, sp.Basic] | None = None
                  ) -> sp.Expr:
    """``sympify`` one entry, turning sympy's parse errors into a clear ``ValueError``; a
    string is read with ``names`` (the declared symbols by name) for its names, so that
    ``"J/2*phidot**2"`` means the parameter J, not a new J or sympy's I."""
    try:
        expr = sp.sympify(value, locals=None if names is None else dict(names),
                          strict=not isinstance(value, str))
    except (sp.SympifyError, TypeError, SyntaxError) as exc:
        raise ValueError(f"{what} is not a sympy expression: {value!r}") from exc
    if not isinstance(expr, sp.Expr):
        raise ValueError(f"{what} must be a scalar expression, got {type(expr).__name__}")
    if expr.atoms(AppliedUndef):
        raise ValueError(
            f"{what} contains functions of time {sorted(map(str, expr.atoms(AppliedUndef)))}; "
            "write it with plain Symbols for the coordinates and speeds"
        )
    return expr


def matrix(value: Any, shape: tuple[int, int], what: str) -> sp.Matrix:
    """A sympy Matrix of the given shape with valid entries, or ``ValueError``."""
    try:
        mat = sp.Matrix(value)
    except (ValueError, TypeError, sp.SympifyError) as exc:
        raise ValueError(f"{what} cannot be read as a matrix: {exc}") from exc
    if mat.shape != shape:
        raise ValueError(f"{what} must be {shape[0]}×{shape[1]}, got {mat.shape[0]}×{mat.shape[1]}")
    return mat.applyfunc(lambda e: sympify_entry(e, what))


def check_time(
    t: sp.Symbol | None, exprs: Sequence[sp.Basic], reserved: Iterable[sp.Symbol]
) -> sp.Symbol | None:
    """Validate the time symbol; refuse a free ``t`` that was not declared as time."""
    if t is not None:
        if isinstance(t, AppliedUndef) or not isinstance(t, sp.Symbol):
            raise ValueError(f"t must be a plain sympy Symbol, got {t!r}")
        if t in set(reserved):
            raise ValueError(f"the time symbol {t} is also used as a coordinate or speed")
        return t
    if any(s.name == "t" for e in exprs for s in e.free_symbols):
        raise ValueError(
            "a symbol named 't' appears in the input but no time symbol was given; "
            "pass t=t if the system is rheonomic (depends on time)"
        )
    return None
