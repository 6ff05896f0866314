"""The registry of derivation methods and what a method may read of a system.

A *method* is how the equations of motion are formed from a system's definition
(Boltzmann–Hamel, Lagrange with multipliers, Maggi, Kane, Arnold, the geometric pull-back…):
a function ``definition -> Derivation``.  It reads only the fields of :class:`Definition`
(the contract of :class:`companion.system.System`, written here so that the mechanics layer
never imports the system layer) and refuses a system it does not apply to with
``NotImplementedError`` saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import sympy as sp

from companion.mechanics.derivation import Derivation

if TYPE_CHECKING:
    from companion.mechanics.model import MechanicsModel


class Definition(Protocol):
    """What a derivation method may read of a system (see :class:`companion.system.System`).

    Attributes
    ----------
    name
        The system's name, for messages.
    q, qdot
        Generalized coordinates and the symbols of their rates.
    u
        Quasi-velocities; the last ``n_constraints`` are constrained to zero.
    definitions
        u = Ψ q̇ + Ψ_t as expressions in q, q̇ (and t) (4.80).
    psi
        (Ψ, Ψ_t) differentiated from ``definitions``.
    T
        The unconstrained kinetic energy in q, u (and t) (4.85).
    Q
        Generalized forces of the independent u's, or ``None`` (zero).
    t
        The time symbol of a rheonomic system, else ``None``.
    n_constraints, u_independent
        The number of nonholonomic constraints and the u's that remain free.
    parameter_symbols
        Symbols of the physical parameters.
    mechanics_model
        ``None`` or a function building frames, points, bodies and loads (Kane's method).
    citations
        The book's equation numbers for the example's instances of general steps, by key.
    """

    name: str
    q: list[sp.Symbol]
    qdot: list[sp.Symbol]
    u: list[sp.Symbol]
    definitions: list[sp.Expr]
    T: sp.Expr
    Q: list[sp.Expr] | None
    t: sp.Symbol | None
    n_constraints: int
    mechanics_model: Callable[[], MechanicsModel] | None
    citations: Mapping[str, str]

    @property
    def psi(self) -> tuple[sp.Matrix, sp.Matrix]: ...

    @property
    def u_independent(self) -> list[sp.Symbol]: ...

    @property
    def parameter_symbols(self) -> list[sp.Symbol]: ...


#: A derivation method: a system's definition in, its derivation out.
Method = Callable[[Any], Derivation]

#: Derivation methods by name, in the order they were registered.
METHODS: dict[str, Method] = {}

#: Each method's name as the books name it, for what a reader sees (selectors, tables,
#: stepper titles); the keys stay the names code uses.
METHOD_TITLES: dict[str, str] = {"newton_euler": "Newton–Euler"}


def register_method(name: str, title: str) -> Callable[[Method], Method]:
    """Decorator registering a derivation method under ``name``, shown to readers as
    ``title`` (e.g. ``"Boltzmann–Hamel (4.85)"``)."""

    def deco(fn: Method) -> Method:
        METHODS[name] = fn
        METHOD_TITLES[name] = title
        return fn

    return deco


def method_title(name: str) -> str:
    """The book's name of method ``name`` (a system's own method without a registered title
    shows its name in words: ``"rolling_contact"`` → ``"rolling contact"``)."""
    return METHOD_TITLES.get(name, name.replace("_", " "))


def method_named(name: str) -> Method:
    """The registered method ``name``, or ``ValueError`` listing the known ones."""
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; known: {', '.join(METHODS)}")
    return METHODS[name]


def applicable(system: Definition, names: Sequence[str] | None = None) -> list[str]:
    """The methods (of ``names``, default all) that apply to ``system``: each is tried once
    through ``system.derive`` (cached there) and dropped when it raises
    ``NotImplementedError``."""
    out = []
    for name in (list(METHODS) if names is None else names):
        try:
            system.derive(name)  # type: ignore[attr-defined]
        except NotImplementedError:
            continue
        out.append(name)
    return out


__all__ = ["METHODS", "METHOD_TITLES", "Definition", "Method", "applicable", "method_named",
           "method_title", "register_method"]
