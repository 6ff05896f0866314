"""One simulation's plumbing, for a System and for models that are none (the disk–link):
:func:`simulate_model` validates the values once into a :class:`Setup` with the model's
:class:`Guards`, runs the integrator part and explains its numeric failures.
"""

from __future__ import annotations

import difflib
import inspect
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import numpy as np

from companion.numerics.errors import (
    NonFiniteMotionError,
    SingularConfigurationError,
    StepLimitError,
)
from companion.numerics.trajectory import Trajectory, sampled

if TYPE_CHECKING:
    from companion.mechanics.definition import Parameter, ParameterTable
    from companion.system import System

#: Most samples a simulation returns: 10⁶ samples take 8 MB per state component (a figure
#: shows a few thousand).
MAX_POINTS = 1_000_000

#: Shortest sample spacing a simulation accepts [s]: below it the squares in the integrators'
#: step-size arithmetic underflow (LSODA returns NaN states from t_final ≈ 1e-300 on).
MIN_SAMPLE_SPACING = 1e-150


def sample_times(t_final: Any, n_points: Any) -> np.ndarray:
    """The output times of a simulation, 0 … t_final in ``n_points`` samples, validated:
    ``ValueError`` unless ``t_final`` is a positive number and ``n_points`` an integer from 2
    to :data:`MAX_POINTS`, the samples no closer than :data:`MIN_SAMPLE_SPACING`."""
    try:
        t_final = float(t_final)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"t_final must be a positive number, the end time (every motion "
                         f"starts at t = 0; not a time span), got {t_final!r}") from exc
    if not (math.isfinite(t_final) and t_final > 0):
        raise ValueError(f"t_final must be a positive number, got {t_final}")
    if isinstance(n_points, bool) or not isinstance(n_points, numbers.Integral) or n_points < 2:
        raise ValueError(f"n_points must be an integer ≥ 2, got {n_points!r}")
    n_points = int(n_points)  # numpy's integers too
    if n_points > MAX_POINTS:
        raise ValueError(f"n_points = {n_points} would store {n_points * 8 / 1e6:.0f} MB per "
                         f"state component; at most {MAX_POINTS} (a figure shows a few "
                         "thousand samples)")
    if t_final / (n_points - 1) < MIN_SAMPLE_SPACING:
        raise ValueError(
            f"t_final = {t_final:g} s is too short for {n_points} samples: they would be "
            f"{t_final / (n_points - 1):.3g} s apart, below {MIN_SAMPLE_SPACING:g} s, where "
            "the integrators' step-size arithmetic underflows; simulate a longer time")
    return np.linspace(0.0, t_final, n_points)


#: Finest relative tolerance accepted: 100 machine epsilons (below it no integrator can keep
#: its error estimate; LSODA answers "Excess accuracy requested" or "Illegal input").
FINEST_RTOL = 100 * float(np.finfo(float).eps)


def check_tolerance(name: str, value: Any) -> float:
    """A relative or absolute tolerance as a positive finite float, else ``ValueError``; a
    relative one from :data:`FINEST_RTOL` to below 1."""
    try:
        x = float(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a positive number, got {value!r}") from exc
    if isinstance(value, bool) or not (math.isfinite(x) and x > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    if name == "rtol" and x < FINEST_RTOL:
        raise ValueError(f"rtol = {x:g} asks for more digits than double precision holds: "
                         f"give rtol ≥ {FINEST_RTOL:.1e} (the integrators' defaults are "
                         "1e-10 to 1e-11)")
    if name == "rtol" and x >= 1:
        raise ValueError(f"rtol = {x:g} lets each step's error be as large as the values "
                         "themselves: give rtol < 1 (the integrators' defaults are 1e-10 to "
                         "1e-11; 1e-6 is coarse)")
    return x


@dataclass(frozen=True)
class Setup:
    """Everything one simulation needs, validated by :func:`simulate_model`."""

    method: str  # the derivation method whose equations are integrated
    t: np.ndarray  # output times
    params: Mapping[str, float]  # parameter values by name,
    p: list[float]  # and in the order of ``System.parameter_symbols``
    initial: Mapping[str, float]  # initial values by name (defaults filled in)
    rtol: float  # tolerances (the integrator's defaults when not given)
    atol: float
    guards: Guards  # the run's checks, built by the model
    #: Further keyword arguments of ``simulate`` the integrator declared in its ``options``.
    options: dict[str, Any] = field(default_factory=dict)


#: A value this many times beyond its slider range (in magnitude) is taken as the cause of a
#: failed integration (see :func:`simulate_model`).
FAR_OUTSIDE = 1e6

#: A relative tolerance coarser than this is named as a cause of an overflow.
COARSE_RTOL = 1e-6


def _overflow_hint(params: Mapping[str, float], rtol: float = 0.0) -> str:
    if rtol > COARSE_RTOL:
        return (f"the numbers leave the floating-point range: rtol = {rtol:g} lets the "
                f"integrator take steps too long for this motion; give a finer rtol (the "
                f"defaults are 1e-10 to 1e-11)")
    largest = sorted(params.items(), key=lambda kv: -abs(math.log10(abs(kv[1]) or 1.0)))
    extremes = ", ".join(f"{k} = {v:.3g}" for k, v in largest[:2])
    return (f"the numbers leave the floating-point range: are parameter values this far "
            f"from 1 meant ({extremes})?")


def _far_outside(model: SimulatedModel, params: Mapping[str, float],
                 initial: Mapping[str, float]) -> str:
    """The values far outside their slider ranges, as "name = value [low, high]"."""
    found = []
    for spec, values in ((model.parameters, params), (model.initial, initial)):
        for p in spec:
            v, reach = abs(values[p.name]), max(abs(p.low), abs(p.high))
            if reach > 0 and (v > FAR_OUTSIDE * reach or 0 < v * FAR_OUTSIDE < reach):
                found.append(f"{p.name} = {values[p.name]:.3g} (range [{p.low:g}, {p.high:g}])")
    return ", ".join(found)


def _singular_for(model: SimulatedModel, part: IntegratorPart, setup: Setup
                  ) -> list[tuple[Parameter, float]]:
    """The parameters whose value alone makes the start singular, each with a value that
    does not: the first step fails with the values given and succeeds with that one parameter
    back at its default (or, when it is at its default, at the middle of its range)."""
    def starts(params: dict[str, float]) -> bool:
        p = model.parameter_table.vector(params)
        trial = replace(setup, t=setup.t[:2], params=params, p=p,
                        guards=model.guards(part, setup.method, p, params))
        try:
            part.integrate(model, trial)
        except ValueError:  # singular, not finite, no configuration…
            return False
        return True

    if starts(setup.params):
        return []  # singular further along the motion: the configuration's doing
    other = {p.name: p.default if setup.params[p.name] != p.default else (p.low + p.high) / 2
             for p in model.parameters}
    return [(p, other[p.name]) for p in model.parameters if setup.params[p.name] != other[p.name]
            and starts({**setup.params, p.name: other[p.name]})]


@dataclass(frozen=True)
class Guards:
    """The checks of one simulation, functions of the state and data built by its model
    before the run: the integrator part runs them and never calls back the model.

    ``name`` and ``params`` are named in the messages; ``coordinates`` are the names of the
    q's, the first rows of a state (q, u) (empty for another state); ``conditioning`` is
    ``(t, q) ↦ |det Ψ| / Π ‖row of Ψ‖`` (1 for orthonormal rows, 0 where Ψ is singular),
    ``determinant`` ``(t, q) ↦ |det Ψ|`` (which also sees a row of Ψ that vanishes whole);
    ``held`` the nonholonomic u's, ``constrained`` ``(t, q) ↦`` the entries of their rows
    [Ψ_c | Ψ_t,c] of u = Ψ q̇ + Ψ_t, ``kinematics`` ``(t, states) ↦ q̇`` of the method
    (4.134) (None: q̇ read from the right-hand side); ``evaluate`` fills a finished
    trajectory's invariants, series and residuals (the model's own).
    """

    #: Largest rate at the start taken for no overflow in the making (the integrators'
    #: error estimates square such numbers).
    LARGEST_RATE: ClassVar[float] = 1e150
    #: Below this conditioning the q's are singular: Φ = Ψ⁻¹ has entries of order 1/this.
    SINGULAR_TOLERANCE: ClassVar[float] = 1e-6
    #: An integration out of steps where |det Ψ| fell below this fraction of its start value
    #: stalled at a singular configuration (:meth:`stalled`).
    STALLED: ClassVar[float] = 0.05

    name: str
    params: Mapping[str, float]
    coordinates: tuple[str, ...] = ()
    conditioning: Callable | None = None
    determinant: Callable | None = None
    held: tuple[str, ...] = ()
    constrained: Callable | None = None
    kinematics: Callable | None = None
    evaluate: Callable[[Trajectory], None] = lambda traj: None

    def _at(self, q: np.ndarray) -> str:
        return ", ".join(f"{s} = {v:.6g}" for s, v in zip(self.coordinates, q, strict=True))

    def start(self, f: Callable, x0: np.ndarray) -> None:
        """Refuse to integrate from a state where the rates ``f(0, x0)`` are not finite or so
        large that the integration would overflow."""
        try:
            rate = np.asarray(f(0.0, x0), dtype=float)
        except NonFiniteMotionError as exc:
            raise NonFiniteMotionError(f"at the start: {exc}") from exc
        if not np.all(np.isfinite(rate)) or np.max(np.abs(rate), initial=0.0) > self.LARGEST_RATE:
            raise NonFiniteMotionError(f"the rates at the start of {self.name} are "
                                       f"{np.max(np.abs(rate)):.3g}, beyond what the "
                                       "integration can carry without overflow")

    def finite(self, t: np.ndarray, states: np.ndarray) -> None:
        """Refuse a motion with non-finite states (overflow of the generated code) instead of
        returning NaN."""
        bad = ~np.all(np.isfinite(states), axis=0)
        if np.any(bad):
            i = int(np.argmax(bad))
            raise ValueError(f"the motion of {self.name} is not finite from t = {t[i]:.4g} s "
                             f"on: {_overflow_hint(self.params)}")

    def regular(self, t: np.ndarray, states: np.ndarray, where: str) -> None:
        """Refuse motions through configurations where the coordinates are singular (gimbal
        lock, the origin of polar coordinates): there q̇ = Φ u blows up."""
        if self.conditioning is None:
            return
        q = states[: len(self.coordinates)]
        with np.errstate(all="ignore"):
            value = sampled([self.conditioning(t, q)], t.shape)[0]
        bad = ~(value > self.SINGULAR_TOLERANCE)
        if np.any(bad):
            i = int(np.argmax(bad))
            raise SingularConfigurationError(
                f"the coordinates are singular {where} (t = {t[i]:.4g}: {self._at(q[:, i])}): "
                "Ψ of the quasi-velocities cannot be inverted there, so q̇ = Φ u is not "
                "defined", " (for Euler angles this is gimbal lock). Start further away from it.")

    def stalled(self, exc: StepLimitError) -> None:
        """Blame the configuration, not the time span, for an integration that ran out of
        steps where |det Ψ| had fallen below :data:`STALLED` of its start value: near a
        configuration where Ψ cannot be inverted, q̇ = Φ u is not defined and the steps
        shrink to nothing."""
        if exc.reached is None or self.determinant is None or exc.reached[0].size < 2:
            return
        t, states = exc.reached
        q = states[: len(self.coordinates)]
        with np.errstate(all="ignore"):
            det = sampled([self.determinant(t, q)], t.shape)[0]
        if not det[-1] < self.STALLED * det[0]:
            return
        raise SingularConfigurationError(
            f"the integration of {self.name} stalled after t = {t[-1]:.4g} s "
            f"({self._at(q[:, -1])}): the configuration is the cause, not the time span: "
            f"|det Ψ| of the quasi-velocities fell to {det[-1] / det[0]:.2g} of its start "
            "value, so Ψ is nearly singular there and q̇ = Φ u is not defined; change the "
            "definitions of the u's so that Ψ stays invertible along the motion, or simulate "
            f"to before t = {t[-1]:.4g} s") from exc

    def residuals(self, f: Callable, t: np.ndarray, states: np.ndarray
                  ) -> dict[str, np.ndarray]:
        """The nonholonomic constraints u_c = Ψ_c q̇ + Ψ_t,c along a motion, q̇ the
        integrated kinematics: zero to round-off when they keep the constraints; named
        ``"<u_c> (nonholonomic)"``."""
        if not self.held:
            return {}
        n, m = len(self.coordinates), len(self.held)
        with np.errstate(all="ignore"):
            if self.kinematics is None:
                qdot = np.array([np.asarray(f(time, x), dtype=float)[:n]
                                 for time, x in zip(t, states.T, strict=True)]).T
            else:
                qdot = sampled(self.kinematics(t, states), t.shape)
            table = sampled(self.constrained(t, states[:n]), t.shape).reshape(m, n + 1, t.size)
        out = np.einsum("rin,in->rn", table[:, :n], qdot) + table[:, n]
        return {f"{u} (nonholonomic)": row for u, row in zip(self.held, out, strict=True)}


def system_guards(system: System, state: Sequence[str], method: str, p: list[float],
                  params: Mapping[str, float], evaluate: Callable[[Trajectory], None],
                  compiled: dict[str, tuple]) -> Guards:
    """The :class:`Guards` of one simulation of ``system`` by ``method`` at the parameter
    values ``p`` (``params`` by name) whose integrated state is named ``state``: ``evaluate``
    and, when the state is (q, u), the functions of :func:`_psi_functions` at ``p``
    (compiled once per method into ``compiled``)."""
    names = tuple(s.name for s in system.q)
    if tuple(state[: len(names)]) != names:  # another state: unread
        return Guards(system.name, params, evaluate=evaluate)
    if method not in compiled:
        compiled[method] = _psi_functions(system, method)

    def at_p(fn: Callable | None) -> Callable | None:  # (t, q or (q, u)) ↦ fn(…, p, t)
        return None if fn is None else lambda t, x: fn(*x, *p, t)

    conditioning, determinant, constrained, kinematics = map(at_p, compiled[method])
    return Guards(system.name, params, names, conditioning, determinant,
                  held=tuple(u.name for u in system.u[len(system.u_independent):]),
                  constrained=constrained, kinematics=kinematics, evaluate=evaluate)


def _psi_functions(system: System, method: str) -> tuple[Callable | None, ...]:
    """For :func:`system_guards`, the :class:`Guards`' ``conditioning``, ``determinant``,
    ``constrained`` and ``kinematics`` (of ``method``, (4.134)) as functions of (q[, u],
    parameters, t), arrays of samples alike: None where Ψ does not depend on the q's or under
    numeric elimination (whose compiled Φ refuses a singular Ψ itself), without held u's, or
    where q̇ is read from the right-hand side (numeric elimination, speeds other than the u's)."""
    import sympy as sp

    psi, psi_t = system.psi
    k, numeric = len(system.u_independent), system.elimination == "numeric"
    t = system.t if system.t is not None else sp.Dummy()

    def compiled(exprs: Any, *speeds: sp.Symbol) -> Callable:
        return sp.lambdify([*system.q, *speeds, *system.parameter_symbols, t], exprs,
                           modules="numpy", cse=True)

    measure = determinant = rows = rates = None
    if not numeric and psi.free_symbols & set(system.q):
        norms = sp.Mul(*(sp.sqrt(sum(e**2 for e in psi.row(i))) for i in range(psi.rows)))
        det = sp.Abs(psi.det(method="berkowitz"))
        measure, determinant = compiled(det / norms), compiled(det)
    if psi.rows > k:
        rows = compiled(list(psi[k:, :].row_join(psi_t[k:, :])))
        d = None if numeric else system.derive(method)
        if d is not None and d.speeds == "u":
            rates = compiled(list(d.kinematics), *d.u)
    return measure, determinant, rows, rates


@cache
def _constraints_and_jacobian(holonomic: tuple, q: tuple, dependent: tuple, parameters: tuple,
                              t: Any) -> Callable:
    """(f, ∂f/∂q_dependent) of the configuration constraints f(q, t) = 0 as a function of
    (q, parameters, t), compiled once per set of constraints."""
    import sympy as sp

    f = sp.Matrix(holonomic)
    args = [*q, *parameters, t if t is not None else sp.Dummy()]
    return sp.lambdify(args, [f, f.jacobian(dependent)], modules="numpy", cse=True)


def complete_configuration(system: System, values: Mapping[str, float], p: Sequence[float],
                           t: float = 0.0) -> dict[str, float]:
    """``values`` with the dependent coordinates of ``system`` solved from f(q, t) = 0
    (Newton's method started from their given values, or 0) at the parameter values ``p``.

    Raises
    ------
    ValueError
        When Newton's method does not converge (no configuration satisfies the constraints
        near the start, e.g. a bicycle leaning so far that it cannot touch the ground with
        both wheels).
    """
    out = dict(values)
    if not system.holonomic:
        return out
    solver = _constraints_and_jacobian(tuple(system.holonomic), tuple(system.q),
                                       tuple(system.dependent),
                                       tuple(system.parameter_symbols), system.t)
    index = [system.q.index(s) for s in system.dependent]
    q = np.array([out.get(s.name, 0.0) for s in system.q], dtype=float)
    residual = np.inf
    for _ in range(50):
        f, jac = (np.asarray(a, dtype=float) for a in solver(*q, *p, t))
        residual = float(np.max(np.abs(f)))
        if residual < 1e-14:
            break
        try:
            step = np.linalg.solve(jac, f.ravel())
        except np.linalg.LinAlgError:
            break
        q[index] -= step
        if not np.all(np.isfinite(q)):
            break
    if not residual < 1e-12:
        given = ", ".join(f"{s.name} = {v:.6g}" for s, v in zip(system.q, q, strict=True)
                          if s not in system.dependent)
        raise ValueError(f"no configuration of {system.name} satisfies its configuration "
                         f"constraints at {given} (residual {residual:.3g} after Newton's "
                         f"method on {', '.join(map(str, system.dependent))})")
    out.update({s.name: float(q[i]) for s, i in zip(system.dependent, index, strict=True)})
    return out


class SimulatedModel(Protocol):
    """What :func:`simulate_model` reads of a model (a System, the disk–link)."""

    name: str
    parameters: Sequence[Parameter]
    initial: Sequence[Parameter]
    parameter_table: ParameterTable
    t_final: float
    n_points: int

    def parameter_values(self, params: Mapping[Any, Any] | None) -> Mapping[str, float]:
        """Validated parameter values by name, with the model's own conditions."""

    def initial_values(self, initial: Mapping[Any, Any] | None) -> Mapping[str, float]:
        """Validated initial values by name."""

    def guards(self, part: IntegratorPart, method: str, p: list[float],
               params: Mapping[str, float]) -> Guards:
        """The checks of a run by ``part`` at the parameter values ``p`` (``params``)."""

    def simulate(self, *args: Any, **kwargs: Any) -> Trajectory:
        """Its keywords are named when an unknown one is refused."""


class IntegratorPart(Protocol):
    """What :func:`simulate_model` reads of an integrator part."""

    rtol: float
    atol: float
    options: Sequence[str]  # the names of the options of ``simulate`` it takes

    def integrate(self, model: Any, setup: Setup) -> Trajectory:
        """The motion of ``model`` from the validated ``setup``, its guards run."""


def simulate_model(model: SimulatedModel, part: IntegratorPart, *, method: str, t_final: Any,
                   n_points: Any, params: Mapping[Any, Any] | None,
                   initial: Mapping[Any, Any] | None, rtol: Any, atol: Any,
                   options: Mapping[str, Any]) -> Trajectory:
    """One simulation's plumbing, shared by :meth:`System.simulate` and the disk–link: the
    values validated once into a :class:`Setup` with the model's :class:`Guards`, then
    ``part.integrate(model, setup)`` with its numeric failures explained (the other
    arguments as given to ``simulate``, ``None`` for the model's or the part's default)."""
    unknown = sorted(set(options) - set(part.options))
    if unknown:
        own = [name for name, p in inspect.signature(model.simulate).parameters.items()
               if p.kind is not p.VAR_KEYWORD]
        near = {k: difflib.get_close_matches(k, [*own, *part.options], n=1) for k in unknown}
        hints = "; ".join(f"{k}: did you mean {m[0]}?" for k, m in near.items() if m)
        raise ValueError(f"unknown keyword(s) {', '.join(unknown)} of simulate for "
                         f"{model.name}" + (f" ({hints})" if hints else "")
                         + f"; simulate takes {', '.join(own)} and its integrator's "
                         f"options: {', '.join(part.options) or 'none'}")
    t_eval = sample_times(model.t_final if t_final is None else t_final,
                          model.n_points if n_points is None else n_points)
    pv = model.parameter_values(params)
    p = model.parameter_table.vector(pv)
    setup = Setup(
        method=method, t=t_eval, params=pv, p=p, initial=model.initial_values(initial),
        rtol=check_tolerance("rtol", part.rtol if rtol is None else rtol),
        atol=check_tolerance("atol", part.atol if atol is None else atol),
        guards=model.guards(part, method, p, pv), options=dict(options))
    try:
        traj = part.integrate(model, setup)
    except StepLimitError as exc:
        setup.guards.stalled(exc)
        raise
    except NonFiniteMotionError as exc:
        raise ValueError(f"{exc}; {_overflow_hint(pv, setup.rtol)}") from exc
    except (OverflowError, FloatingPointError) as exc:
        raise ValueError(f"arithmetic overflow in the equations of {model.name} ({exc}); "
                         f"{_overflow_hint(pv, setup.rtol)}") from exc
    except SingularConfigurationError as exc:
        extreme = _far_outside(model, pv, setup.initial)
        blamed = [] if extreme else _singular_for(model, part, setup)
        if blamed:
            p, other = blamed[0]
            raise ValueError(
                f"{p.name} = {pv[p.name]:g}{f' ({p.description})' if p.description else ''} "
                f"makes the equations of "
                f"{model.name} singular from the start (with {p.name} = {other:g} they "
                f"are not), although it is inside its range [{p.low:g}, {p.high:g}]: the "
                f"cause is that value, not the configuration; choose another {p.name}, and "
                f"narrow its range ({exc.cause})") from exc
        if not extreme:
            raise
        raise ValueError(
            f"the integration of {model.name} failed with {extreme}, a million times or "
            f"more beyond the slider range: the cause is that value, not a singular "
            f"configuration; give a value nearer the range ({exc.cause})") from exc
    setup.guards.finite(traj.t, traj.states)
    return traj


__all__ = ["COARSE_RTOL", "FAR_OUTSIDE", "FINEST_RTOL", "MAX_POINTS", "MIN_SAMPLE_SPACING",
           "Guards", "IntegratorPart", "Setup", "SimulatedModel", "check_tolerance",
           "complete_configuration", "sample_times", "simulate_model", "system_guards"]
