"""The derivation record shared by every method: steps with book equation numbers, and the
equations of motion in the common form ``M(q, t) u̇ = f(q, u, t)``, ``q̇ = Φ u + Φ_t``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

import sympy as sp

from companion.mechanics import presentation
from companion.mechanics.quasi_velocities import dot_symbol


@dataclass(frozen=True)
class Step:
    """One step of a derivation, in the order a reader meets it in the book: what is
    computed (``title``), the sympy object, the book's equation number (``None`` when the book
    has none), one line in our own words on why, optional LaTeX for the left side (the stepper
    writes ``symbol = expr``) and a stable ``key`` for code (``derivation.step("multipliers")``:
    titles are prose and positions change when a method gains a step, keys do not)."""

    title: str
    expr: Any
    eq: str | None = None
    explanation: str = ""
    symbol: str | None = None
    key: str | None = None

    def latex(self, speeds: Sequence[sp.Symbol] = (), coordinates: Sequence[sp.Symbol] = (),
              budget: float = presentation.LINE_BUDGET) -> str:
        """LaTeX of the step's object in the books' form, ``symbol = expr`` when a symbol is
        given (see :func:`companion.mechanics.presentation.object_latex`: equations collected
        by ``speeds``, lines no wider than ``budget`` ems)."""
        return presentation.object_latex(self.expr, self.symbol, speeds, coordinates,
                                         budget=budget)


class LazyStep(Step):
    """A :class:`Step` whose object ``compute()`` makes when first read, then kept: for
    results that are costly and only ever shown (Lagrange's multipliers solved symbolically),
    which deriving, compiling and simulating never read."""

    def __init__(self, title: str, compute: Callable[[], Any], eq: str | None = None,
                 explanation: str = "", symbol: str | None = None, key: str | None = None):
        self.__dict__.update(title=title, eq=eq, explanation=explanation, symbol=symbol, key=key,
                             _compute=compute)  # Step is frozen: past its __setattr__

    @cached_property
    def expr(self) -> Any:  # type: ignore[override]
        return self._compute()

    @property
    def computed(self) -> bool:
        """Whether ``expr`` has been computed yet."""
        return "expr" in self.__dict__


@dataclass
class Derivation:
    """Equations of motion produced by a method, with the steps that led to them.

    Every method (Boltzmann–Hamel, Lagrange with multipliers, Maggi, Kane, geometric pull-back)
    returns one of these, so simulation, widgets and comparisons never care which method ran.
    The contract follows sympy's ``MethodBase``: ``mass_matrix · u̇ = forcing`` with the
    kinematical equations ``q̇ = kinematics`` alongside.

    Attributes
    ----------
    u
        The speeds the dynamical equations are solved for: the independent quasi-velocities
        (``speeds == "u"``) or the q̇'s followed by one constraint impulse per multiplier
        (``speeds == "qdot"``, Lagrange's form).
    kinematics
        ``q̇`` as a column in ``q``, ``u`` (and ``t``); ``equations`` are for display.
    order, n_constraint_equations, constraints_differentiated
        Order of the dynamical equations (1 in the quasi-velocities, 2 in the coordinates),
        and the constraint equations solved with them (Lagrange's m; Maggi's form, as
        Greenwood counts it, has them differentiated once).
    needs_unconstrained_T
        Whether the method starts from T before the constraints are applied.
    explicit_rates
        u̇ in closed form when the method gives it (Arnold's B(ω, ω) + A⁻¹τ), else ``None``.
    extra, absent_steps
        Method-specific results by name (reaction force, Christoffel symbols, …); keys of
        steps this method has in general but not for this system, each with the reason.
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
    speeds: Literal["u", "qdot"] = "u"
    order: int = 1
    n_constraint_equations: int = 0
    constraints_differentiated: bool = False
    multipliers: list[sp.Symbol] = field(default_factory=list)
    needs_unconstrained_T: bool = True
    explicit_rates: sp.Matrix | None = None
    absent_steps: dict[str, str] = field(default_factory=dict)

    @property
    def needs_multipliers(self) -> bool:
        """Whether Lagrange multipliers are unknowns of the equations."""
        return bool(self.multipliers)

    @property
    def n_dynamical(self) -> int:
        """Number of dynamical equations (n − m in the quasi-velocities, n in Lagrange's)."""
        return len(self.u) - (self.n_constraint_equations if self.speeds == "qdot" else 0)

    @property
    def n_first_order(self) -> int:
        """First-order equations of this method's form, as Greenwood §4.4 counts them: the
        kinematical ones plus the dynamical ones (n + (n − m) in the quasi-velocities), 2n for
        a second-order form (Lagrange's n equations; Maggi's n − m plus m differentiated
        constraints).  A simulation integrates every method in x = (q, independent u)
        (``System.state_names()``)."""
        return 2 * len(self.q) if self.order == 2 else len(self.q) + self.n_dynamical

    @property
    def kinematical_equations(self) -> list[sp.Eq]:
        """``q̇_i = …`` as equations, with q̇ written as ``\\dot{q}``."""
        return [sp.Eq(dot_symbol(s), e) for s, e in zip(self.q, self.kinematics, strict=False)]

    def step(self, key: str) -> Step:
        """The step with stable key ``key``, or ``KeyError`` listing the keys there are (and
        why, when the method leaves that step out for this system)."""
        found = [s for s in self.steps if s.key == key]
        keys = [s.key for s in self.steps if s.key]
        if not found and key in self.absent_steps:
            raise KeyError(f"the {self.method} derivation has no step {key!r} here: "
                           f"{self.absent_steps[key]}; keys: {', '.join(keys)}")
        if len(found) != 1:
            problem = "no step" if not found else f"{len(found)} steps"
            raise KeyError(f"{problem} with key {key!r} in the {self.method} derivation; "
                           f"keys: {', '.join(keys) or 'none'}")
        return found[0]

    def cited(self, numbers: Mapping[str, str]) -> Derivation:
        """A copy whose steps carry ``numbers`` by step key, a worked example's own equation
        numbers (Example 4.4's gyroscopic matrix is (4.121), the general one (4.109)), or
        ``ValueError`` for a key no step has."""
        keys = [s.key for s in self.steps if s.key]
        if unknown := sorted(set(numbers) - set(keys)):
            raise ValueError(f"citations for unknown steps {unknown} of the {self.method} "
                             f"derivation; its steps: {', '.join(keys)}")
        return replace(self, steps=[replace(s, eq=numbers[s.key]) if s.key in numbers else s
                                    for s in self.steps])

    def result(self, name: str) -> Any:
        """A method-specific result by name (``"reaction"``, ``"christoffel"``, …), or
        ``KeyError`` listing those the method produces."""
        if name not in self.extra:
            raise KeyError(f"the {self.method} derivation has no result {name!r}; it has: "
                           f"{', '.join(self.extra) or 'none'}")
        return self.extra[name]

    def book_latex(self, budget: float = presentation.LINE_BUDGET) -> str:
        """The dynamical equations in the books' form, as one LaTeX block (terms collected
        by accelerations and products of speeds, long equations broken over lines)."""
        return presentation.equations_latex(self.equations, self.u, self.q, budget=budget)

    def book_text(self) -> list[str]:
        """The dynamical equations in the books' form, as plain text, one per equation."""
        return presentation.equations_text(self.equations, self.u, self.q)

    def accelerations(self) -> sp.Matrix:
        """``u̇`` solved symbolically (small systems only; numerics solve M u̇ = f numerically)."""
        return self.mass_matrix.LUsolve(self.forcing)

    def parameters(self) -> list[sp.Symbol]:
        """Symbols other than q, u and t that the equations depend on, sorted by name."""
        free = set().union(*(m.free_symbols for m in (self.mass_matrix, self.forcing,
                                                      self.kinematics)))
        return sorted(free - {*self.q, *self.u, self.t}, key=lambda s: s.name)
