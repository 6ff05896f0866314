"""The derivation record shared by every method: steps with book equation numbers, and the
equations of motion in the common form ``M(q, t) u̇ = f(q, u, t)``, ``q̇ = Φ u + Φ_t``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp


@dataclass(frozen=True)
class Step:
    """One step of a derivation, in the order a reader meets it in the book.

    Parameters
    ----------
    title
        What is computed, e.g. ``"Φ = Ψ⁻¹"``.
    expr
        The sympy object (expression, matrix, list of matrices or equations).
    eq
        The book's equation number, e.g. ``"(4.91)"``; ``None`` when the book has none.
    explanation
        One line in our own words on why this step is taken.
    symbol
        Optional LaTeX for the left-hand side (``\\Phi``); the stepper writes ``symbol = expr``.
    """

    title: str
    expr: Any
    eq: str | None = None
    explanation: str = ""
    symbol: str | None = None

    def latex(self) -> str:
        """LaTeX of the step's object, ``symbol = expr`` when a symbol is given."""
        body = _latex(self.expr)
        return f"{self.symbol} = {body}" if self.symbol else body


def _latex(obj: Any) -> str:
    if isinstance(obj, (list, tuple)):
        return r",\quad ".join(_latex(o) for o in obj)
    if isinstance(obj, str):
        return obj
    return sp.latex(obj)


@dataclass
class Derivation:
    """Equations of motion produced by a method, with the steps that led to them.

    Every method (Boltzmann–Hamel, Lagrange with multipliers, Maggi, Kane, geometric pull-back)
    returns one of these, so simulation, widgets and comparisons never care which method ran.

    Attributes
    ----------
    method
        Name of the method, e.g. ``"boltzmann_hamel"``.
    q
        Generalized coordinates (plain Symbols).
    u
        Independent speeds the dynamical equations are solved for (plain Symbols).
    mass_matrix, forcing
        ``mass_matrix * u̇ = forcing``.
    kinematics
        ``q̇`` as a column in terms of ``q``, ``u`` (and ``t``).
    equations
        ``sympy.Eq`` objects for display.
    steps
        The derivation, step by step.
    t
        The time symbol when the system is rheonomic, else ``None``.
    extra
        Method-specific results (multipliers, constraint forces, ...).
    """

    method: str
    q: list[sp.Symbol]
    u: list[sp.Symbol]
    mass_matrix: sp.Matrix
    forcing: sp.Matrix
    kinematics: sp.Matrix
    equations: list[sp.Eq]
    steps: list[Step] = field(default_factory=list)
    t: sp.Symbol | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def accelerations(self) -> sp.Matrix:
        """``u̇`` solved symbolically (small systems only; numerics solve M u̇ = f numerically)."""
        return self.mass_matrix.LUsolve(self.forcing)

    def parameters(self) -> list[sp.Symbol]:
        """Symbols other than q, u and t that the equations depend on, sorted by name."""
        own = set(self.q) | set(self.u) | ({self.t} if self.t is not None else set())
        free = set().union(
            self.mass_matrix.free_symbols, self.forcing.free_symbols, self.kinematics.free_symbols
        )
        return sorted(free - own, key=lambda s: s.name)
