"""A system's definition, as the book sets it up: frozen, and the physics every method reads.

A :class:`Definition` holds the coordinates, the quasi-velocity definitions in terms of q̇
(Ψ follows by differentiation, never typed), the kinetic energy, the constraints, the
generalized forces and the parameters (:class:`Parameter`, identified through one
:class:`ParameterTable`); names, series and citations are the model's or the worked
example's.  It is validated once, when made: a variant is a new definition
(:meth:`Definition.replace`), which the methods of :data:`companion.mechanics.methods.METHODS`
read beside their own inputs (:class:`companion.mechanics.methods.Given`).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, partial
from typing import Any

import sympy as sp

from companion.mechanics.inputs import sympify_entry
from companion.mechanics.quasi_velocities import (
    dot_symbol,
    fold_pythagoras,
    inverse,
    psi_from_definitions,
    tidy_matrix,
)


@dataclass(frozen=True)
class Parameter:
    """A number the reader can change: a physical parameter or an initial condition.

    ``low``/``high`` are the slider range; ``positive`` values must be > 0,
    ``nonnegative`` ones ≥ 0.
    """

    symbol: sp.Symbol
    default: float
    low: float
    high: float
    unit: str = ""
    description: str = ""
    positive: bool = False
    nonnegative: bool = False

    def __post_init__(self):
        if not isinstance(self.symbol, sp.Symbol):
            raise TypeError("a Parameter's symbol must be a sympy Symbol, the one used in the "
                            "equations (m = sp.Symbol('m', positive=True)), got "
                            f"{type(self.symbol).__name__} {self.symbol!r}")
        for what in ("default", "low", "high"):
            value = getattr(self, what)
            try:
                finite = not isinstance(value, str) and math.isfinite(float(value))
            except (TypeError, ValueError):
                finite = False
            if not finite:
                raise ValueError(f"the {what} of {self.name} must be a finite number, got "
                                 f"{value!r}")
        if not self.low <= self.high:
            raise ValueError(f"the range of {self.name} must have low ≤ high, got "
                             f"[{self.low}, {self.high}]")
        if not self.low <= self.default <= self.high:
            raise ValueError(f"the default {self.default} of {self.name} lies outside its range "
                             f"[{self.low}, {self.high}]: move the default into the range or "
                             "widen the range")

    @property
    def name(self) -> str:
        return self.symbol.name

    def check(self, value: Any) -> float:
        """``value`` as a float, or ``ValueError`` when it is not finite or not allowed."""
        try:
            x = float(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{self.name} must be a number, got {value!r}") from exc
        if not math.isfinite(x):
            raise ValueError(f"{self.name} must be finite, got {value!r}")
        if self.positive and x <= 0:
            what = self.description or "parameter"
            raise ValueError(f"{self.name} ({what}) must be > 0, got {x}")
        if self.nonnegative and x < 0:
            raise ValueError(f"{self.name} must be ≥ 0, got {x}")
        return x


def key_name(key: Any, what: str = "a key") -> str:
    """The name a parameter or initial value is known by: a name string, or a sympy Symbol
    (its name; a Symbol key and its name mean the same everywhere)."""
    if isinstance(key, str):
        return key
    if isinstance(key, sp.Symbol):
        return key.name
    raise TypeError(f"{what} must be a name or a sympy Symbol, got {type(key).__name__} "
                    f"{key!r}")


class CheckedValues(Mapping[str, float]):
    """Values by name, every one checked by its :class:`Parameter`'s rule, read-only: what
    :meth:`ParameterTable.values` returns.  A table with the same entries takes them back as
    they are, so a value is checked once however far it is passed on (an explorer checks what
    a slider sent, and ``simulate`` does not check it again)."""

    __slots__ = ("_entries", "_values")

    def __init__(self, entries: Sequence[Parameter], values: dict[str, float]):
        self._entries, self._values = tuple(entries), values

    def __getitem__(self, name: str) -> float:
        return self._values[name]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return repr(self._values)


@dataclass(frozen=True)
class ParameterTable:
    """One identity per number the reader can set: Symbol ↔ name ↔ position (the order of
    ``entries``, that of ``p`` in the compiled right-hand sides).

    Every mapping of values (``params=``, ``initial=``, a nominal motion) is read here, by
    name or Symbol alike, and checked once (:meth:`Parameter.check`).  ``what`` and
    ``argument`` name the entries and their argument in messages; ``held`` names what a
    constraint holds at zero (the constrained speeds), refused with that reason.
    """

    entries: tuple[Parameter, ...]
    what: str = "parameter(s)"
    argument: str = "params"
    held: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        """The names, in order."""
        return [p.name for p in self.entries]

    def by_name(self, given: Mapping[Any, Any] | None) -> dict[str, Any]:
        """``given`` keyed by name (Symbol keys turned into their names), unchecked values;
        ``TypeError`` for a key or mapping of another type, ``ValueError`` for an unknown name
        or one given twice."""
        if given is None:
            return {}
        if not isinstance(given, Mapping):
            example = ", ".join(f"{p.name!r}: {p.default:g}" for p in self.entries[:2])
            raise TypeError(f"{self.argument} must be a mapping of names to values, e.g. "
                            f"{{{example}}}; got {type(given).__name__} {given!r} (the "
                            "Symbols may be the keys too)")
        out: dict[str, Any] = {}
        for key, value in given.items():
            name = key_name(key, f"a key of {self.argument}")
            if name in out:
                raise ValueError(f"{self.argument} gives {name} twice (by its name and by its "
                                 "Symbol): give it once")
            out[name] = value
        unknown = sorted(set(out) - set(self.names))
        held = [name for name in unknown if name in self.held]
        if held:
            raise ValueError(
                f"{', '.join(held)}: a constrained (suppressed) speed, held at zero by its "
                f"constraint, has no initial value of its own: remove it from "
                f"{self.argument}, which may hold {', '.join(self.names)}")
        if unknown:
            raise ValueError(f"unknown {self.what} {', '.join(unknown)}; known: "
                             f"{', '.join(self.names) or 'none'} (the keys of {self.argument})")
        return out

    def values(self, given: Mapping[Any, Any] | None,
               base: CheckedValues | None = None) -> CheckedValues:
        """Validated values by name, in order: each given one checked by its rule
        (:meth:`Parameter.check`), the others taken from ``base`` (values this table checked
        before) or their defaults.  Values this table checked come back as they are."""
        if isinstance(given, CheckedValues) and given._entries == tuple(self.entries):
            return given
        named = self.by_name(given)
        return CheckedValues(self.entries, {
            p.name: base[p.name] if base is not None and p.name not in named
            else p.check(named.get(p.name, p.default)) for p in self.entries})

    def vector(self, values: Mapping[str, float]) -> list[float]:
        """Values by name (as :meth:`values` returns them) in the table's order."""
        return [values[p.name] for p in self.entries]


def _plain_symbols(values: Iterable[Any], name: str) -> tuple[sp.Symbol, ...]:
    """``values`` as a tuple of plain sympy Symbols, or a ``TypeError`` naming the first that
    is not one (a string, a dynamicsymbol x(t)) and how to make it."""
    values = tuple(values)
    for v in values:
        if isinstance(v, sp.Symbol):
            continue
        if isinstance(v, sp.Expr) and v.args and all(isinstance(a, sp.Symbol) for a in v.args):
            raise TypeError(f"{name} must be plain sympy Symbols, not dynamicsymbols {v}; use "
                            f"sp.symbols(...): {v.func}, {v.func}dot = sp.symbols("
                            f"'{v.func} {v.func}dot')")
        raise TypeError(f"{name} must be sympy Symbols (x, y = sp.symbols('x y')), got "
                        f"{type(v).__name__} {v!r}")
    return values


class Definition:
    """A system defined as in the book; frozen once made.

    Parameters
    ----------
    q, qdot
        Generalized coordinates and the Symbols standing for their rates q̇ (default:
        ``\\dot{q}`` of each q), plain Symbols.
    u, definitions
        Quasi-velocities and their definitions u_j in q, q̇ (and t), the source of Ψ and Ψ_t;
        the last ``n_constraints`` u's are constrained to zero.  Default: u = q̇.
    T, T_qdot
        The unconstrained kinetic energy in q, u (and t), or instead in q, q̇ (and t),
        converted through q̇ = Φ u + Φ_t (4.81) on first use.  Neither: the bodies of a
        mechanics model give it, by numeric elimination (``System(elimination=…)``).
    parameters, initial
        Physical parameters (every other symbol), and the start values of the q's and the
        independent u's by the same symbols: lists of :class:`Parameter`.
    Q
        Generalized forces of the n − m free u's (default zero), in q, u, t and the
        parameters (a damper on u_r: −c u_r).  A force with a component across a constraint
        (a wind across a knife edge's blade, a motor torque on a rolling wheel's angle)
        belongs in ``Q_q``: given here, the motion is the same, but the constraint forces
        (:data:`companion.model.CONSTRAINT_FORCES`, Lagrange's multipliers) then include
        that component as if the constraint carried it.
    Q_q
        Generalized forces of the coordinates, one per q (−∂V/∂q, a motor torque, a damper
        −c q̇_i), in q, the rates, the u's, t and the parameters.  Converted on first use with
        q̇ = Φ u + Φ_t (4.81) and by virtual work, Q_u = Φᵀ Q_q, and added to ``Q``; Lagrange's
        equations read them per coordinate, so their multipliers are the constraint forces.
    t
        The time symbol of a rheonomic system.
    holonomic, dependent
        Configuration constraints f(q, t) = 0, and one coordinate each whose start value is
        solved from them.  Their rates ḟ = (∂f/∂q) q̇ + ∂f/∂t become constrained
        quasi-velocities appended to ``u`` (``n_constraints`` grows by their number).

    Raises
    ------
    ValueError, TypeError
        For bad input (a symbol that is not declared or declared twice, an expression in
        the wrong speeds, counts that disagree, an entry that does not parse), with a
        message naming what to change.
    """

    #: The keyword arguments a definition is made from (filled in below the class).
    FIELDS: tuple[str, ...] = ()

    def __init__(
        self,
        *,
        q: Sequence[sp.Symbol],
        qdot: Sequence[sp.Symbol] | None = None,
        u: Sequence[sp.Symbol] | None = None,
        definitions: Sequence[sp.Expr] | None = None,
        T: sp.Expr | None = None,
        T_qdot: sp.Expr | None = None,
        parameters: Sequence[Parameter] = (),
        initial: Sequence[Parameter] = (),
        n_constraints: int = 0,
        Q: Sequence[sp.Expr] | None = None,
        Q_q: Sequence[sp.Expr] | None = None,
        t: sp.Symbol | None = None,
        holonomic: Sequence[sp.Expr] = (),
        dependent: Sequence[sp.Symbol] = (),
    ):
        given = {k: v for k, v in locals().items() if k != "self"}
        attrs = vars(self)  # set past the frozen __setattr__
        # lists kept as tuples: the caller's list may change afterwards
        attrs["_given"] = {k: tuple(v) if isinstance(v, list) else v for k, v in given.items()}
        attrs["q"] = _plain_symbols(q, "q")
        attrs["qdot"] = (tuple(dot_symbol(s) for s in self.q) if qdot is None
                         else _plain_symbols(qdot, "qdot"))
        if u is None:
            if definitions is not None:
                raise ValueError("definitions of quasi-velocities need their symbols: pass u")
            u, definitions = self.qdot, self.qdot
        else:
            u = _plain_symbols(u, "u")
            if definitions is None:
                if u != self.qdot:
                    raise ValueError("pass the definitions u = Ψ q̇ + Ψ_t of the quasi-velocities "
                                     "u (only speeds u = q̇ need none)")
                definitions = self.qdot
        # One rate per coordinate, and one u and one definition per coordinate but those the
        # configuration constraints' rates add (Ψ is n×n).
        n, n_holonomic = len(self.q), len(holonomic)
        for what, items, want in (("qdot (the rates)", self.qdot, n),
                                  ("u (the quasi-velocities)", u, n - n_holonomic),
                                  ("definitions (of the u's)", definitions, n - n_holonomic)):
            if len(items) != want:
                per = (f"one entry per coordinate ({n}: {', '.join(map(str, self.q))})"
                       if want == n else f"{want} entries, one per coordinate ({n}) less one "
                       f"per configuration constraint ({n_holonomic})")
                raise ValueError(f"{what} must hold {per}, got {len(items)}"
                                 + ("; u and its definitions pair up one to one, constraints "
                                    "included" if what.startswith(("u", "definitions")) else ""))
        if (isinstance(n_constraints, bool) or not isinstance(n_constraints, int)
                or not 0 <= n_constraints < len(u)):
            raise ValueError(f"n_constraints counts the last u's held at zero: an integer from "
                             f"0 to {len(u) - 1} for {len(u)} u's, got {n_constraints!r}")
        if T is not None and T_qdot is not None:
            raise ValueError("give the kinetic energy once: T (in the u's) or T_qdot (in q̇)")
        parameters = _parameters(parameters, "parameters")
        names = {s.name: s for s in (*self.q, *self.qdot, *u, *(p.symbol for p in parameters),
                                     *([t] if isinstance(t, sp.Symbol) else []))}
        attrs.update(
            t=t, u=u,
            definitions=tuple(sympify_entry(e, f"definitions[{i}] (of {s})", names)
                              for i, (e, s) in enumerate(zip(definitions, u, strict=True))),
            n_constraints=n_constraints, parameters=parameters,
            initial=_parameters(initial, "initial"),
            T_qdot=None if T_qdot is None
            else sympify_entry(T_qdot, "T_qdot (the kinetic energy)", names),
            Q_q=_entries(Q_q, "Q_q", names),
            _T=None if T is None else sympify_entry(T, "T (the kinetic energy)", names),
            _Q_given=_entries(Q, "Q", names))
        self._check_force_counts()
        self._check_speed_count()
        self._check_symbols()
        self._add_holonomic(holonomic, dependent)
        self._check_expressions()

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"a Definition is frozen (setting {key}): make a new one, "
                             f"definition.replace({key}=…)")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"a Definition is frozen (deleting {key})")

    def __reduce__(self):
        # rebuilt from the arguments it was made from (pickle, copy.deepcopy)
        return partial(Definition, **self.given), ()

    @property
    def given(self) -> dict[str, Any]:
        """The keyword arguments this definition was made from (lists as tuples)."""
        return dict(self._given)

    def __repr__(self) -> str:
        return f"<Definition of {', '.join(map(str, self.q))}>"

    def replace(self, **changes: Any) -> Definition:
        """A new definition with ``changes`` to the arguments this one was made from."""
        unknown = sorted(set(changes) - set(self.FIELDS))
        if unknown:
            raise TypeError(f"unknown field(s) {', '.join(unknown)} of a Definition; known: "
                            f"{', '.join(self.FIELDS)}")
        given = self.given
        for one, other in (("T", "T_qdot"), ("T_qdot", "T")):  # the energy is given one way
            if one in changes and other not in changes:
                given[other] = None
        return Definition(**{**given, **changes})

    # ----------------------------------------------------------------- validation
    def _check_force_counts(self) -> None:
        """Q holds one force per free u, Q_q one per coordinate."""
        n, k = len(self.q), len(self.u) - self.n_constraints
        free = ", ".join(map(str, self.u[:k]))
        if self.Q_q is not None and len(self.Q_q) != n:
            raise ValueError(f"Q_q holds the generalized forces of the coordinates, one per "
                             f"coordinate ({n}: {', '.join(map(str, self.q))}), got "
                             f"{len(self.Q_q)}" + (f"; forces of the free speeds ({free}) go "
                                                  "in Q=…" if len(self.Q_q) == k else ""))
        if self._Q_given is not None and len(self._Q_given) != k:
            raise ValueError(f"Q holds the generalized forces of the free speeds u, one per "
                             f"free u ({k}: {free}), got {len(self._Q_given)}"
                             + ("; forces of the coordinates, one per q, go in Q_q=…"
                                if len(self._Q_given) == n else ""))

    def _check_speed_count(self) -> None:
        """The start values of the speeds in ``initial`` name the free u's that
        ``n_constraints`` leaves (a wrong count there would otherwise surface as a missing
        or unread start value, and following that message builds another system)."""
        named = {p.name for p in self.initial}
        given = [s for s in self.u if s.name in named]
        n, k = len(self.u), len(self.u) - self.n_constraints
        if not given or len(given) == k or given != list(self.u[:len(given)]):
            return
        raise ValueError(
            f"n_constraints={self.n_constraints} leaves {k} of the {n} u's free "
            f"({', '.join(map(str, self.u[:k]))}), but initial gives the start values of "
            f"{len(given)} speed(s) ({', '.join(map(str, given))}): with "
            f"{n - len(given)} constraint(s) among the definitions, set "
            f"n_constraints={n - len(given)}; otherwise give a start value for each free u")

    def _check_symbols(self) -> None:
        """A symbol may be a parameter or a coordinate/speed, never both (the compiled code
        would silently read the parameter's value where the state was meant)."""
        state = {**dict.fromkeys(self.q, "coordinate"), **dict.fromkeys(self.qdot, "rate"),
                 **dict.fromkeys(self.u, "speed"), self.t: "time"}  # t None: no parameter
        names: set[str] = set()
        for p in self.parameters:
            if p.symbol in state:
                raise ValueError(
                    f"{p.name} is both a parameter and a {state[p.symbol]}: "
                    f"a {state[p.symbol]}'s start value belongs in initial=[Parameter("
                    f"{p.name}, …)], not in parameters")
            if p.name in names:
                raise ValueError(f"the parameter {p.name} is given twice")
            names.add(p.name)

    def _check_expressions(self) -> None:
        """T, Ψ and Q use only coordinates, speeds, time and parameters; T and Q are in the
        u's."""
        own = {*self.q, *self.u, self.t}  # (t None: allowing None allows no symbol)
        params = set(self.parameter_symbols)
        in_qdot = {*self.q, *self.qdot, self.t} | params
        for what, exprs, allowed in (
                ("T", [] if self._T is None else [self._T], own | params),
                ("T_qdot", [] if self.T_qdot is None else [self.T_qdot], in_qdot),
                ("Q_q", self.Q_q or [], in_qdot | set(self.u)),
                ("the definition of u", self.definitions, own | set(self.qdot) | params),
                ("Q", self._Q_given or [], own | params)):
            self._check_uses(what, exprs, allowed)
        rates = set(self.qdot)
        for i, (e, s) in enumerate(zip(self.definitions, self.u, strict=True)):
            if any(sp.diff(e, r).free_symbols & rates for r in e.free_symbols & rates):
                raise ValueError(f"definitions[{i}] (of {s}) = {e} is not linear in the rates "
                                 f"{', '.join(map(str, self.qdot))}: a quasi-velocity is "
                                 "u = Ψ q̇ + Ψ_t, with Ψ and Ψ_t functions of q and t")

    def evaluated(self, field: str, named: Mapping[str, Any] | None) -> dict[str, sp.Expr]:
        """A model's ``invariants``, ``series`` or ``validity`` conditions as expressions in
        what a motion gives: q, the free u's, t and the parameters; a validity condition (≥ 0
        while the model holds: a contact height, a normal force) also the constrained u's and
        the accelerations u̇ of the free u's.  ``TypeError`` when ``named`` is not a mapping,
        ``ValueError`` for an entry that does not parse or uses another symbol."""
        what, noun, example = {
            "invariants": ("an invariant", "expression", "{'energy': T + V}"),
            "series": ("a series", "expression", "{'x2': x + l*cos(phi)}"),
            "validity": ("a validity condition", "condition (an expression that must stay ≥ 0)",
                         "{'height': z_G}")}[field]
        if not isinstance(named, Mapping | None):
            raise TypeError(f"{field} must map a name to each {noun}, e.g. {example}; got "
                            f"{type(named).__name__} {named!r}")
        exprs = {k: sympify_entry(e, f"the {what.split(' ', 1)[1]} {k!r}")
                 for k, e in (named or {}).items()}
        allowed = {*self.q, *self.u_independent, *self.parameter_symbols, self.t}
        if field == "validity":
            allowed |= {*self.u, *(dot_symbol(s) for s in self.u_independent)}
        self._check_uses(what, list(exprs.values()), allowed)
        return exprs

    def _check_uses(self, what: str, exprs: Sequence[sp.Expr], allowed: set) -> None:
        """``exprs`` (``what``: "T", "an invariant" …) use only the symbols ``allowed``."""
        rates = set(self.qdot) - set(self.u)
        free = set().union(*(sp.sympify(e).free_symbols for e in exprs))
        typed_in_qdot = sorted((free & rates), key=str)
        if typed_in_qdot and what in ("T", "Q"):
            raise ValueError(
                f"{what} is written in q̇ ({', '.join(map(str, typed_in_qdot))})"
                f" where the quasi-velocities {', '.join(map(str, self.u))} were expected: "
                + ("pass it as T_qdot=… to have it converted" if what == "T" else
                   "pass them as Q_q=… to have them converted"))
        in_u = sorted(free & (set(self.u) - set(self.qdot)), key=str)
        if in_u and what == "T_qdot":
            raise ValueError(
                f"T_qdot is the kinetic energy in q̇, but it uses the "
                f"quasi-velocities {', '.join(map(str, in_u))}: a T written in the u's is "
                "passed as T=…")
        if in_u and what == "the definition of u":
            raise ValueError(
                f"the definitions u = Ψ q̇ + Ψ_t use the quasi-velocities "
                f"{', '.join(map(str, in_u))} they define: write each in the rates "
                f"{', '.join(map(str, self.qdot))} (and q, t, parameters)")
        constrained = sorted(free & (set(self.u) - set(self.u_independent)), key=str)
        if constrained and what in ("an invariant", "a series"):
            raise ValueError(
                f"{what} uses the constrained speed(s) "
                f"{', '.join(map(str, constrained))}, which are zero on the motion: "
                "write it in q and the free u's (substitute 0 for them)")
        self._check_unknown(what, free - allowed)

    def _check_unknown(self, what: str, unknown: set) -> None:
        if not unknown:
            return
        clash = assumption_clash(what, unknown, self.parameter_symbols)
        if clash:
            raise ValueError(clash)
        accelerations = _rate_like(unknown, self.q, "ddot")
        if accelerations:
            raise ValueError(
                f"{what} uses {', '.join(map(str, accelerations))}, which look like "
                "accelerations of the coordinates: forces, energies and definitions may "
                "depend on q, the rates, the speeds, t and parameters, not on accelerations")
        rates = _rate_like(unknown, self.q)
        if rates:
            named = ", ".join(f"{r} (of {q})" for r, q in sorted(
                rates.items(), key=lambda rq: self.q.index(rq[1])))
            if self._given["qdot"] is not None:
                declared = dict(zip(self.q, self.qdot, strict=True))
                raise ValueError(
                    f"{what} uses {named}, which look like rates of the "
                    "coordinates but are not the rates declared in qdot: write "
                    + ", ".join(f"{declared[q]} for {r}" for r, q in rates.items()))
            by_coordinate = {q: r for r, q in rates.items()}
            example = ", ".join(str(by_coordinate.get(q, f"{q}dot")) for q in self.q)
            raise ValueError(
                f"{what} uses {named}, which look like rates of the coordinates "
                f"but are not the declared rates ({', '.join(map(str, self.qdot))}): "
                f"qdot=[{example}] declares them, in the order of q")
        timelike = sorted((s for s in unknown if _normalized(s.name) in ("t", "time")), key=str)
        if timelike:
            named = f"{what} uses {', '.join(map(str, timelike))}, which looks like"
            if self.t is None:
                raise ValueError(f"{named} the time: pass it as the time, t={timelike[0]}")
            raise ValueError(f"{named} the time but is not the declared time symbol {self.t} "
                             f"({_assumptions(self.t)}): use that same symbol")
        raise ValueError(f"{what} uses {', '.join(sorted(map(str, unknown)))}, "
                         "which is neither a coordinate, a speed, the time nor a parameter: "
                         "add a Parameter for it")

    def _add_holonomic(self, holonomic: Sequence[sp.Expr],
                       dependent: Sequence[sp.Symbol]) -> None:
        """Validate the configuration constraints and append their rates to the u's."""
        vars(self).update(holonomic=tuple(sympify_entry(f, f"holonomic[{i}]")
                                          for i, f in enumerate(holonomic)),
                          dependent=tuple(dependent))
        if len(self.dependent) != len(self.holonomic):
            raise ValueError(f"{len(self.holonomic)} configuration constraint(s) need as many "
                             f"dependent coordinates, got {len(self.dependent)}")
        strangers = [s for s in self.dependent if s not in self.q]
        if strangers:
            raise ValueError(f"dependent coordinates {strangers} are not among q = "
                             f"{list(self.q)}")
        allowed = {*self.q, self.t, *self.parameter_symbols}
        for i, f in enumerate(self.holonomic):
            rates = f.free_symbols & {*self.qdot, *self.u}
            if rates:
                raise ValueError(f"holonomic constraint {i + 1} ({f}) uses the rates "
                                 f"{sorted(map(str, rates))}: a configuration constraint is "
                                 "f(q, t) = 0; velocity constraints are constrained u's")
            if not f.free_symbols & set(self.q):
                raise ValueError(f"holonomic constraint {i + 1} ({f}) does not depend on any "
                                 "coordinate")
            self._check_unknown(f"holonomic constraint {i + 1}", f.free_symbols - allowed)
        if not self.holonomic:
            return
        jac = sp.Matrix(self.holonomic).jacobian(self.dependent)
        if jac.det(method="berkowitz") == 0:
            raise ValueError("the configuration constraints do not determine the dependent "
                             f"coordinates {list(self.dependent)}: ∂f/∂q_dependent is singular")
        taken = {s.name for s in (*self.q, *self.qdot, *self.u, *self.parameter_symbols)}
        u, definitions = list(self.u), list(self.definitions)
        for i, f in enumerate(self.holonomic):
            name = rf"\dot{{f}}_{{{i + 1}}}"
            if name in taken:
                raise ValueError(f"the symbol {name} of constraint rate {i + 1} is taken")
            rate = sum(f.diff(qi) * qd for qi, qd in zip(self.q, self.qdot, strict=True))
            if self.t is not None:
                rate += f.diff(self.t)
            u.append(sp.Symbol(name))
            definitions.append(rate)
        vars(self).update(u=tuple(u), definitions=tuple(definitions),
                          n_constraints=self.n_constraints + len(self.holonomic))

    # ----------------------------------------------------------------- derived
    @cached_property
    def T(self) -> sp.Expr:
        """The unconstrained kinetic energy in q, u (and t) (converted from T_qdot on first
        use through q̇ = Φ u + Φ_t (4.81))."""
        if self._T is not None:
            return self._T
        if self.T_qdot is None:
            raise NotImplementedError(
                "this definition gives no kinetic energy in symbols (T or T_qdot): numeric "
                "elimination reads it from the bodies of a mechanics model")
        phi, phi_t = kinematics_of(self)
        qdot = phi * sp.Matrix(self.u) + phi_t
        T = sp.expand(sp.sympify(self.T_qdot).xreplace(dict(zip(self.qdot, qdot, strict=True))))
        return fold_pythagoras(T)

    @cached_property
    def Q(self) -> tuple[sp.Expr, ...] | None:
        """Generalized forces of the independent u's, in q, the free u's and t: ``Q`` as
        given plus Φᵀ Q_q (first n − m rows), with q̇ = Φ u + Φ_t (4.81) in Q_q and the
        constrained u's at zero (their value on the motion), converted on first use."""
        k = len(self.u_independent)
        on_motion = dict.fromkeys(self.u[k:], 0)
        given = None if self._Q_given is None else [e.xreplace(on_motion)
                                                    for e in self._Q_given]
        if self.Q_q is None:
            return None if given is None else tuple(given)
        phi, phi_t = kinematics_of(self)
        qdot = phi[:, :k] * sp.Matrix(self.u_independent) + phi_t
        forces = sp.Matrix(self.Q_q).xreplace({**dict(zip(self.qdot, qdot, strict=True)),
                                               **on_motion})
        converted = tidy_matrix(phi[:, :k].T * forces)
        return tuple(converted if given is None else [
            a + b for a, b in zip(given, converted, strict=True)])

    @cached_property
    def Q_qdot(self) -> sp.Matrix:
        """The generalized forces of the coordinates in q, q̇ and t (n×1): ``Q_q`` with
        u = Ψ q̇ + Ψ_t, plus Ψᵀ [Q; 0] for the forces given per free u (along no
        constrained direction).  What Lagrange's equations d/dt ∂T/∂q̇ − ∂T/∂q = Q_q + Aᵀλ
        read, so that λ holds the constraint forces alone."""
        psi, psi_t = self.psi
        to_qdot = {u: e for u, e in zip(self.u, psi * sp.Matrix(self.qdot) + psi_t,
                                        strict=True) if u not in self.qdot}
        forces = sp.zeros(len(self.q), 1)
        if self._Q_given is not None:
            per_u = list(self._Q_given) + [0] * self.n_constraints
            forces += psi.T * sp.Matrix(per_u).xreplace(to_qdot)
        if self.Q_q is not None:
            forces += sp.Matrix(self.Q_q).xreplace(to_qdot)
        return forces.applyfunc(sp.expand)

    @property
    def u_independent(self) -> tuple[sp.Symbol, ...]:
        """The u's that remain free (all but the last ``n_constraints``)."""
        return self.u[: len(self.u) - self.n_constraints]

    @cached_property
    def psi(self) -> tuple[sp.Matrix, sp.Matrix]:
        """(Ψ, Ψ_t) differentiated from the quasi-velocity definitions."""
        psi, psi_t = psi_from_definitions(list(self.definitions), list(self.qdot))
        return sp.ImmutableMatrix(psi), sp.ImmutableMatrix(psi_t)

    @property
    def parameter_symbols(self) -> list[sp.Symbol]:
        """The parameters' Symbols, in the order of ``p``."""
        return [p.symbol for p in self.parameters]

    @cached_property
    def parameter_table(self) -> ParameterTable:
        """The parameters' identities: Symbol ↔ name ↔ position in ``p``."""
        return ParameterTable(self.parameters)

    @cached_property
    def initial_table(self) -> ParameterTable:
        """The initial conditions' identities (by the names of the q's and u's)."""
        held = tuple(s.name for s in self.u if s not in self.u_independent)
        return ParameterTable(self.initial, "initial condition(s)", "initial", held)

    @property
    def constraint_exprs(self) -> dict[str, sp.Expr]:
        """The configuration constraints f(q, t) by the name of their residual along a motion:
        zero on the motion, but only as closely as the integrated dependent coordinates keep
        them."""
        if len(self.holonomic) == 1:
            return {"configuration constraint": self.holonomic[0]}
        return {f"configuration constraint {i}": f for i, f in enumerate(self.holonomic, 1)}


Definition.FIELDS = tuple(inspect.signature(Definition).parameters)


@cache
def kinematics_of(system: Definition) -> tuple[sp.Matrix, sp.Matrix]:
    """Φ = Ψ⁻¹ and Φ_t = −Φ Ψ_t of the system (4.81), computed once per system."""
    psi, psi_t = system.psi
    phi = inverse(psi)
    return phi, tidy_matrix(-phi * psi_t)


def _entries(values: Sequence[Any] | None, what: str, names: Mapping[str, sp.Basic]
             ) -> tuple[sp.Expr, ...] | None:
    """A list of forces as sympy expressions, strings read with the declared ``names`` (a
    string that does not parse: ValueError)."""
    if values is None:
        return None
    if isinstance(values, sp.MatrixBase):  # a column or row of forces
        values = list(values)
    if isinstance(values, (str, sp.Basic)) or not isinstance(values, Iterable):
        raise ValueError(f"{what} must be a list of expressions, e.g. [{values}] for one")
    return tuple(sympify_entry(e, f"{what}[{i}]", names) for i, e in enumerate(values))


def _normalized(name: str) -> str:
    return "".join(ch for ch in name if ch not in "\\{}_ ")


def _rate_like(unknown: Iterable[sp.Symbol], q: Sequence[sp.Symbol],
               marker: str = "dot") -> dict:
    """The symbols of ``unknown`` named like the rate of a coordinate (``xdot``,
    ``thetadot_L``, ``\\dot{x}``; with ``marker="ddot"`` its acceleration, ``xddot``), each
    with its coordinate."""
    by_name = {_normalized(s.name): s for s in q}
    return {s: by_name[base] for s in sorted(unknown, key=str)
            if marker in s.name and (base := _normalized(s.name.replace(marker, "", 1)))
            in by_name}


def _parameters(entries: Any, what: str) -> tuple[Parameter, ...]:
    """``parameters``/``initial`` as a tuple of :class:`Parameter`, or a clear error."""
    if isinstance(entries, Mapping) or not isinstance(entries, Iterable):
        raise TypeError(f"{what} must be a list of Parameter(symbol, default, low, high, …) "
                        f"entries, got {type(entries).__name__} {entries!r} (a mapping of "
                        "numbers is what companion.workbench.define takes)")
    out = tuple(entries)
    for p in out:
        if not isinstance(p, Parameter):
            raise TypeError(f"each entry of {what} must be a Parameter(symbol, default, low, "
                            f"high, …), got {type(p).__name__} {p!r}")
    return out


def assumption_clash(what: str, unknown: Iterable[sp.Symbol], known: Iterable[sp.Symbol]
                     ) -> str | None:
    """The message for a symbol of ``unknown`` named as one of ``known`` (the parameters) but
    with other assumptions, which sympy takes for another symbol (``positive=True`` on one
    side only: the real cause of "not a parameter"); None when there is none."""
    by_name = {s.name: s for s in known}
    for s in sorted(unknown, key=str):
        twin = by_name.get(s.name)
        if twin is not None:
            return (f"the parameter {s.name} and the symbol {s.name} in {what} differ only in "
                    f"their assumptions ({_assumptions(twin)} vs {_assumptions(s)}): sympy "
                    "takes them for two symbols; build both with the same sp.symbols(…) call")
    return None


def _assumptions(s: sp.Symbol) -> str:
    keys = ("positive", "nonnegative", "real", "integer", "nonzero")
    found = [f"{k}=True" for k in keys if s.assumptions0.get(k)]
    return ", ".join(found[:2]) or "no assumptions"


__all__ = ["CheckedValues", "Definition", "Parameter", "ParameterTable", "assumption_clash",
           "key_name", "kinematics_of"]
