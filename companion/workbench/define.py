"""A system in about ten lines: coordinates, speeds, T, constraints, forces, points to draw.

:func:`define` records what a reader typed, unchecked; :meth:`Draft.build` checks it and makes
the :class:`~companion.system.System`, or raises :class:`DefinitionError` with one sentence
saying what to change.  The workbench (:func:`companion.workbench.workbench`) shows that
sentence instead of a traceback.

The translation into the book's setting (Greenwood §4.3) is direct: the speeds are the
independent quasi-velocities u₁ … u_{n−m}, the constraints the last m, held at zero, so
u = Ψ q̇ + Ψ_t stacks the speeds over the constraints; T is typed in q̇ and converted
through q̇ = Φ u + Φ_t (4.81); forces are generalized forces of the coordinates, Q_u = Φᵀ Q_q.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sympy as sp

from companion.mechanics.boltzmann_hamel import dot_symbol
from companion.model import in_speeds
from companion.system import Definition, Evaluation, Parameter, System, assumption_clash
from companion.widgets import labels

if TYPE_CHECKING:  # only for annotations: sympy.physics.mechanics is slow to import
    from companion.mechanics.model import MechanicsModel


class DefinitionError(ValueError):
    """A definition the workbench cannot turn into a system; the message says what to change."""


def coordinates(names: str) -> tuple[list[sp.Symbol], list[sp.Symbol]]:
    """Coordinates and the symbols of their rates: ``q, qd = coordinates("x y theta")`` gives
    ``[x, y, θ]`` and ``[ẋ, ẏ, θ̇]`` (the rates :func:`define` expects in T, speeds and
    constraints)."""
    q = list(sp.symbols(names, seq=True))
    return q, [dot_symbol(s) for s in q]


#: A value as :func:`define` takes it: a number (the slider range is made up around it),
#: ``(default, low, high[, unit])`` or a :class:`~companion.system.Parameter`.
Value = float | tuple | Parameter


@dataclass(frozen=True, kw_only=True)
class Draft:
    """What a reader typed, checked when built (:meth:`build`, or by the workbench): a system
    the short way, ``define(name, q=…, T=…, …)``.

    Parameters
    ----------
    name, q, T
        A short name (the system's key in tables), the generalized coordinates (e.g. from
        :func:`coordinates`) and the kinetic energy in q and the rates q̇ (and t).
    speeds
        The independent speeds u₁ … u_{n−m} as expressions linear in the rates (the
        quasi-velocities of Greenwood §4.3); default: the first n − m rates.
    constraints
        Velocity constraints, expressions in q, q̇ (and t), linear in q̇, that vanish on the
        motion (the last m quasi-velocities, held at zero).
    forces
        Generalized forces of the coordinates, Q_q (one per coordinate; default none).
    V
        A potential energy in q (and t); adds −∂V/∂q to the forces.
    points
        Points to draw, ``{"P": (x_P, y_P[, z_P])}`` in q, t and the parameters.
    parameters, initial
        Values by symbol (or name: the symbol of that name in the definition): a number,
        ``(default, low, high[, unit])`` or a :class:`~companion.system.Parameter`.
        ``initial`` holds the coordinates and the speeds (by the names ``u_1``, ``u_2`` … of
        the speeds); those not given start at 0.
    t
        The time symbol of a rheonomic definition.
    invariants
        Named quantities conserved on the motion, in q and q̇ (and t); the energy T + V is
        added when the system is scleronomic and has no forces besides V.
    title, t_final
        The title shown, and the simulated time [s].
    validity
        Conditions the model needs, by name: expressions in q, q̇ (and t) that must stay ≥ 0
        (a contact height); the first sample where one is negative is reported in the
        trajectory's events and the explorer's status line (``validity`` of
        :class:`~companion.system.System`).
    mechanics_model
        Optional: a function returning the system's frames, points, bodies and loads
        (:class:`~companion.mechanics.model.MechanicsModel`), for Kane's method (the
        general dynamical equation (4.142)).  The forces are ``forces``/``V`` here, which
        every method reads: a model without loads lets Kane's method take them too; loads
        in the model must agree with them (loads only there are refused, as the other
        methods would not see them).
    """

    name: str = field(kw_only=False)
    q: Sequence[Any]
    T: Any
    speeds: Sequence[Any] | None = None
    constraints: Sequence[Any] = ()
    forces: Sequence[Any] | None = None
    V: Any = 0
    points: Mapping[str, Sequence[Any]] | None = None
    parameters: Mapping[Any, Value] | None = None
    initial: Mapping[Any, Value] | None = None
    t: sp.Symbol | None = None
    invariants: Mapping[str, Any] | None = None
    validity: Mapping[str, Any] | None = None
    title: str = ""
    t_final: float = 10.0
    mechanics_model: Callable[[], MechanicsModel] | None = None

    def __post_init__(self) -> None:
        """Lists and mappings as such (a bare expression or a non-mapping refused), unchecked
        otherwise."""
        for key in ("q", "speeds", "constraints", "forces"):
            if key in ("q", "constraints") or getattr(self, key) is not None:
                object.__setattr__(self, key, _listed(key, getattr(self, key)))
        for key in ("points", "parameters", "initial", "invariants", "validity"):
            object.__setattr__(self, key, _mapped(key, getattr(self, key)))

    def build(self) -> System:
        """The :class:`~companion.system.System` of this definition.

        Raises
        ------
        DefinitionError
            A definition that does not make a system, with one line saying what to change.
        """
        try:
            return _build(self)
        except DefinitionError:
            raise
        except (ValueError, TypeError, sp.SympifyError) as exc:
            raise DefinitionError(" ".join(str(exc).split())) from exc


def define(name: str, /, **fields: Any) -> Draft:
    """A system the short way: the :class:`Draft` of ``define(name, q=…, T=…, …)`` (its
    fields are the arguments), with a misspelt or missing argument named."""
    known = [f.name for f in dataclasses.fields(Draft)]
    for key in fields.keys() - set(known):
        near = difflib.get_close_matches(key, known, n=1)
        raise DefinitionError(f"define() has no argument {key!r}"
                              + (f": did you mean {near[0]}?" if near else ""))
    needed = {"q": "q= (the coordinates)", "T": "T= (the kinetic energy in q and the rates)"}
    missing = [text for key, text in needed.items() if key not in fields]
    if missing:
        raise DefinitionError(f"define() needs {' and '.join(missing)}")
    return Draft(name, **fields)


def _listed(what: str, items: Any) -> list:
    """``items`` as a list; one expression or a string is refused with the brackets to add."""
    if isinstance(items, (sp.Basic, str)) or not isinstance(items, Iterable):
        shown = _text(items) if isinstance(items, sp.Expr) else repr(items)
        raise DefinitionError(f"{what} must be a list, e.g. [{shown}] for one alone, got "
                              f"{type(items).__name__} {shown}")
    return list(items)


def _mapped(what: str, given: Any) -> dict:
    """``given`` as a dict; anything but a mapping is refused with an example."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise DefinitionError(f"{what} must be a mapping by name or symbol, e.g. "
                              f"{{'name': value}}, got {type(given).__name__} {given!r}")
    return dict(given)


# ------------------------------------------------------------------------------- checks
def _names(symbols) -> str:
    """The symbols' names as a reader types them: in their order (a set: sorted)."""
    names = [labels.plain(s.name) for s in symbols]
    return ", ".join(sorted(names) if isinstance(symbols, (set, frozenset)) else names) or "none"


def _text(expr: sp.Expr) -> str:
    """An expression as a reader typed it, rates as ẋ rather than LaTeX names."""
    return str(expr.xreplace({s: sp.Symbol(labels.plain(s.name)) for s in expr.free_symbols}))


def _sympified(what: str, expr: Any) -> sp.Expr:
    if isinstance(expr, str):
        raise DefinitionError(
            f"{what} is given as the text {expr!r}: build it from the symbols instead (q, qd = "
            "coordinates('x y theta'); m = sp.Symbol('m', positive=True)), so that its rates "
            "and parameters are the definition's own symbols")
    try:
        out = sp.sympify(expr, strict=True)
    except (sp.SympifyError, TypeError) as exc:
        raise DefinitionError(f"{what} must be a sympy expression, got {expr!r}") from exc
    if not isinstance(out, sp.Expr):
        raise DefinitionError(f"{what} must be a scalar expression, got {expr!r}")
    return out


def _symbols_only(what: str, items: Sequence[Any]) -> list[sp.Symbol]:
    bad = [s for s in items if not isinstance(s, sp.Symbol)]
    if bad:
        raise DefinitionError(f"{what} must be sympy Symbols (e.g. sp.symbols('x y')), "
                              f"got {bad[0]!r}")
    return list(items)


def _check_uses(what: str, expr: sp.Expr, allowed: set, allowed_words: str) -> None:
    unknown = expr.free_symbols - allowed
    clash = assumption_clash(what, unknown, allowed)
    if clash:
        raise DefinitionError(clash)
    if unknown:
        raise DefinitionError(f"{what} uses {_names(unknown)}, which is {allowed_words}: "
                              "add a parameter for it or fix the typo")


def _parameter(symbol: sp.Symbol, value: Value, state: bool) -> Parameter:
    """A :class:`Parameter` from a number, a tuple or a Parameter; a number gets a slider
    range around it (a factor 5 each way for positive physical parameters, ±max(1, |v|) for
    start values)."""
    if isinstance(value, Parameter):
        if value.symbol != symbol:
            raise DefinitionError(f"the Parameter given for {symbol} is for {value.symbol}")
        return value
    positive = bool(symbol.is_positive)
    if not isinstance(value, tuple):  # a number: its slider range made around it
        try:
            v = float(value)
        except (TypeError, ValueError) as exc:
            raise DefinitionError(f"{symbol}: the value must be a number, got {value!r}") from exc
        if not math.isfinite(v):
            raise DefinitionError(f"{symbol}: the value must be a finite number, got {v:g}")
        reach = max(1.0, abs(v))
        value = (v, v / 5, v * 5) if positive or (not state and v > 0) else (
            v, v - reach, v + reach)
    if not 3 <= len(value) <= 4:
        raise DefinitionError(f"{symbol}: give (default, low, high) or (default, low, high, "
                              f"unit), got {value!r}")
    default, low, high, *unit = value
    try:
        default, low, high = float(default), float(low), float(high)
    except (TypeError, ValueError) as exc:
        raise DefinitionError(f"{symbol}: default, low and high must be numbers") from exc
    if not all(map(math.isfinite, (default, low, high))):
        raise DefinitionError(f"{symbol}: default, low and high must be finite numbers, got "
                              f"{default:g} in [{low:g}, {high:g}]")
    if positive and default <= 0:  # before the range, which a plain number's value makes
        raise DefinitionError(f"{symbol} is declared positive but its value is {default:g}")
    if not low <= default <= high or not low < high:
        raise DefinitionError(f"{symbol}: the range must hold the default, low ≤ default ≤ "
                              f"high with low < high; got {default:g} in [{low:g}, {high:g}]")
    return Parameter(symbol, default, low, high, unit[0] if unit else "", positive=positive)


def _parameters_by_symbol(d: Draft) -> dict[sp.Symbol, Value]:
    """The parameters keyed by Symbol: a name key is the symbol of that name in T, V, the
    speeds, constraints, forces or points."""
    used: dict[str, sp.Symbol] = {}
    if any(isinstance(k, str) for k in d.parameters):
        exprs = {"T": [d.T], "V": [d.V], "a speed": d.speeds or [],
                 "a constraint": d.constraints, "a force": d.forces or [],
                 "a point": [e for p in d.points.values() for e in p]}
        for what, entries in exprs.items():
            for e in entries:
                for s in _sympified(what, e).free_symbols:  # text: refused, saying why
                    used.setdefault(s.name, s)
    out: dict[sp.Symbol, Value] = {}
    for key, value in d.parameters.items():
        if isinstance(key, str):
            if key not in used:
                raise DefinitionError(f"the parameter {key!r} is not used by T, V, the speeds, "
                                      "constraints, forces or points: fix the name or give the "
                                      "Symbol")
            key = used[key]
        [key] = _symbols_only("the parameters' keys", [key])
        if key in out:
            raise DefinitionError(f"the parameter {key} is given twice (by name and Symbol)")
        out[key] = value
    return out


def _build(d: Draft) -> System:
    q = _symbols_only("the coordinates q", d.q)
    if not q:
        raise DefinitionError("give at least one coordinate in q")
    qdot = [dot_symbol(s) for s in q]
    time = [d.t] if d.t is not None else []
    n, m = len(q), len(d.constraints)
    if m >= n:
        raise DefinitionError(f"{m} constraints leave no speed for {n} coordinates: at most "
                              f"{n - 1} constraints")
    if d.speeds is None:
        speeds = qdot[: n - m]
    else:
        speeds = [_sympified(f"speed {j}", e) for j, e in enumerate(d.speeds, start=1)]
        if len(speeds) != n - m:
            raise DefinitionError(f"{n} coordinates with {m} constraint{'' if m == 1 else 's'} "
                                  f"need {n - m} speeds, got {len(speeds)}")
    constraints = [_sympified(f"constraint {j}", e) for j, e in enumerate(d.constraints, 1)]

    parameters = _parameters_by_symbol(d)
    clash = set(parameters) & {*q, *qdot, *time}
    if clash:
        raise DefinitionError(f"{_names(clash)} cannot be both a parameter and a coordinate, "
                              "a rate or the time")
    given = {*parameters, *time}
    in_rates = f"neither a coordinate rate ({_names(qdot)}), a coordinate, the time nor a parameter"
    rated = [(f"speed u_{j} = {_text(e)}", e, f"is not a coordinate rate: it has none of "
              f"{_names(qdot)} in it (a speed combines the rates)")
             for j, e in enumerate(speeds, start=1)]
    rated += [(f"constraint {j} ({_text(e)} = 0)", e, f"has no rate {_names(qdot)} in it: a "
               "holonomic constraint on q alone is met by choosing fewer coordinates")
              for j, e in enumerate(constraints, start=1)]
    for what, e, no_rate in rated:  # speeds and constraints: linear forms in the rates
        _check_uses(what, e, {*q, *qdot, *given}, in_rates)
        if not e.free_symbols & set(qdot):
            raise DefinitionError(f"{what} {no_rate}")
        if any(e.diff(r).free_symbols & set(qdot) for r in qdot):  # Greenwood §4.3
            raise DefinitionError(f"{what} is not linear in the rates {_names(qdot)}")
    T = _sympified("T", d.T)
    in_motion = "neither a coordinate, a rate, the time nor a parameter"
    _check_uses("T", T, {*q, *qdot, *given}, in_motion)
    V = _sympified("V", d.V)
    _check_uses("V", V, {*q, *given}, "neither a coordinate, the time nor a parameter")
    if d.forces is not None and len(d.forces) != n:
        raise DefinitionError(f"forces are generalized forces of the {n} coordinates "
                              f"{_names(q)}: give {n}, got {len(d.forces)}")
    forces = [_sympified(f"force {j}", e) for j, e in enumerate(d.forces or [0] * n, 1)]
    u = list(sp.symbols(f"u_1:{n + 1}"))
    for j, e in enumerate(forces, start=1):  # a damper may be written in the speeds too
        _check_uses(f"force {j} ({_text(e)})", e, {*q, *qdot, *u[: n - m], *given},
                    f"neither a coordinate, a rate, a speed ({_names(u[: n - m])}), the time "
                    "nor a parameter")
    Q_q = [f - V.diff(s) for f, s in zip(forces, q, strict=True)]

    series = {}
    for label, position in d.points.items():
        if not (isinstance(position, (tuple, list)) and len(position) in (2, 3)):
            raise DefinitionError(f"point {label} needs (x, y) or (x, y, z), got {position!r}")
        for axis, e in zip("xyz", position, strict=False):  # 2 or 3 components, checked
            e = _sympified(f"{axis} of point {label}", e)
            _check_uses(f"point {label} ({axis}_{label} = {_text(e)})", e, {*q, *given},
                        "neither a coordinate, the time nor a parameter")
            series[f"{axis}_{label}"] = e

    named = ", ".join(f"{s.name} = {_text(e)}" for s, e in zip(u, speeds, strict=False))
    by_name = {s.name: s for s in (*q, *u[: n - m])}
    start = {}
    for key, value in d.initial.items():
        name = key if isinstance(key, str) else getattr(key, "name", None)
        if name not in by_name:
            shown = labels.plain(name) if name is not None else repr(key)
            raise DefinitionError(f"initial names {shown}, which is none of "
                                  f"{_names(by_name.values())} (the speeds are named by their "
                                  f"order: {named})")
        start[by_name[name]] = value
    definition = Definition(
        q=q, qdot=qdot, u=u, definitions=[*speeds, *constraints], T_qdot=T, n_constraints=m,
        Q_q=Q_q if any(e != 0 for e in Q_q) else None, t=d.t,
        parameters=[_parameter(s, v, state=False) for s, v in parameters.items()],
        initial=[_parameter(s, start.get(s, 0.0), state=True) for s in (*q, *u[: n - m])])
    # The energy and the conditions are written in the u's through the definition's Φ.
    invariants = {name: in_speeds(definition, _sympified(f"invariant {name}", e))
                  for name, e in d.invariants.items()}
    _, psi_t = definition.psi
    if d.t is None and d.forces is None and not any(psi_t):
        invariants.setdefault("energy", in_speeds(definition, T + V))
    validity = {}
    for name, e in d.validity.items():
        e = _sympified(f"validity condition {name}", e)
        _check_uses(f"validity condition {name} ({_text(e)})", e, {*q, *qdot, *given},
                    in_motion)
        validity[name] = in_speeds(definition, e)
    return System(definition, name=d.name, title=d.title or d.name,
                  evaluation=Evaluation(invariants=invariants, series=series,
                                        validity=validity, t_final=d.t_final),
                  mechanics_model=d.mechanics_model)


__all__ = ["DefinitionError", "Draft", "coordinates", "define"]
