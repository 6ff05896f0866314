"""One :class:`System` per worked example: its definition, derivations by method name, and
numeric simulation from the same derived equations.

A system is *defined* the way the book sets it up: coordinates, the quasi-velocity
definitions in terms of q̇ (Ψ is obtained from them by differentiation, never typed), the
unconstrained kinetic energy, the number of nonholonomic constraints, the generalized forces
and the parameters with defaults, slider ranges and units.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import sympy as sp

from companion.mechanics import boltzmann_hamel
from companion.mechanics.derivation import Derivation
from companion.mechanics.quasi_velocities import psi_from_definitions
from companion.numerics import CompiledEOM, SingularConfigurationError, Trajectory

if TYPE_CHECKING:  # only for annotations: sympy.physics.mechanics is slow to import
    from companion.mechanics.model import MechanicsModel

#: Derivation methods by name; each maps a System to a Derivation.  Other modules add theirs
#: with :func:`register_method`; a method may refuse a system with ``NotImplementedError``.
METHODS: dict[str, Callable[[System], Derivation]] = {}


def register_method(name: str):
    """Decorator registering a derivation method under ``name``."""

    def deco(fn: Callable[[System], Derivation]):
        METHODS[name] = fn
        return fn

    return deco


#: Modules that register further methods when imported.  They import this module, so they
#: are loaded on first use of :data:`METHODS` through a System, not at import time.
METHOD_MODULES: tuple[str, ...] = (
    "companion.mechanics.lagrange",
    "companion.mechanics.maggi",
    "companion.mechanics.kane",
    "companion.geometry.lie",
    "companion.geometry.constrained",
    "companion.geometry.planar_system",
)


def load_methods() -> dict[str, Callable[[System], Derivation]]:
    """Import every module of :data:`METHOD_MODULES` (once) and return :data:`METHODS`."""
    for module in METHOD_MODULES:
        importlib.import_module(module)
    return METHODS


@dataclass(frozen=True)
class Parameter:
    """A number the reader can change: a physical parameter or an initial condition.

    ``low``/``high`` are the slider range; ``positive`` values must be > 0.
    """

    symbol: sp.Symbol
    default: float
    low: float
    high: float
    unit: str = ""
    description: str = ""
    positive: bool = False

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
        return x


def sample_times(t_final: Any, n_points: Any) -> np.ndarray:
    """The output times of a simulation, 0 … t_final in ``n_points`` samples, validated.

    Raises
    ------
    ValueError
        When ``t_final`` is not a positive finite number or ``n_points`` not an integer ≥ 2.
    """
    try:
        t_final = float(t_final)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"t_final must be a positive number, got {t_final!r}") from exc
    if not (math.isfinite(t_final) and t_final > 0):
        raise ValueError(f"t_final must be a positive number, got {t_final}")
    if isinstance(n_points, bool) or not isinstance(n_points, int) or n_points < 2:
        raise ValueError(f"n_points must be an integer ≥ 2, got {n_points!r}")
    return np.linspace(0.0, t_final, n_points)


def _resolve(spec: Sequence[Parameter], given: Mapping[str, Any] | None, what: str) -> dict:
    given = dict(given or {})
    known = {p.name: p for p in spec}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(
            f"unknown {what} {', '.join(unknown)}; known: {', '.join(known) or 'none'}"
        )
    return {name: p.check(given.get(name, p.default)) for name, p in known.items()}


class System:
    """A worked example, defined as in the book.

    Parameters
    ----------
    name, title, source
        Registry key, display title, and where the book treats it (e.g. "Greenwood Ex. 4.4").
    q
        Generalized coordinates (plain Symbols).
    qdot
        Symbols standing for q̇ in ``definitions``.
    u
        Quasi-velocities; the last ``n_constraints`` are constrained to zero.
    definitions
        u_j as expressions in q, q̇ (and t): the source of Ψ and Ψ_t.
    T
        The unconstrained kinetic energy in q, u (and t).
    parameters
        Physical parameters (every other symbol in T, definitions or Q).
    initial
        Initial conditions of the q's and the independent u's, by the same symbols.
    Q
        Generalized forces of the independent u's (default zero).
    invariants
        Named expressions in q, u and the parameters conserved on the motion (e.g. energy).
    series
        Named expressions in q, u and the parameters to evaluate along the motion for plots
        (positions, constraint forces).
    t_final
        Default simulated time.
    reconstruction
        True when the example is our reconstruction with a chapter's method, not the book's.
    mechanics_model
        Optional: a function building the system's frames, points, bodies and loads
        (:class:`~companion.mechanics.model.MechanicsModel`), needed by the general
        dynamical equation (Kane's form, method ``"kane"``).
    """

    def __init__(
        self,
        *,
        name: str,
        title: str,
        source: str,
        q: Sequence[sp.Symbol],
        qdot: Sequence[sp.Symbol],
        u: Sequence[sp.Symbol],
        definitions: Sequence[sp.Expr],
        T: sp.Expr,
        parameters: Sequence[Parameter],
        initial: Sequence[Parameter],
        n_constraints: int = 0,
        Q: Sequence[sp.Expr] | None = None,
        t: sp.Symbol | None = None,
        invariants: Mapping[str, sp.Expr] | None = None,
        series: Mapping[str, sp.Expr] | None = None,
        t_final: float = 20.0,
        reconstruction: bool = False,
        mechanics_model: Callable[[], MechanicsModel] | None = None,
    ):
        self.name, self.title, self.source = name, title, source
        self.q, self.qdot, self.u = list(q), list(qdot), list(u)
        self.definitions = list(definitions)
        self.T = T
        self.n_constraints = n_constraints
        self.Q = None if Q is None else list(Q)
        self.t = t
        self.parameters = list(parameters)
        self.initial = list(initial)
        self.invariant_exprs = dict(invariants or {})
        self.series_exprs = dict(series or {})
        self.t_final = t_final
        self.reconstruction = reconstruction
        self.mechanics_model = mechanics_model
        self._derivations: dict[str, Derivation] = {}
        self._compiled: dict[str, CompiledEOM] = {}

    def __repr__(self) -> str:
        return f"<System {self.name}: {self.title}>"

    # ----------------------------------------------------------------- definition
    @property
    def u_independent(self) -> list[sp.Symbol]:
        return self.u[: len(self.u) - self.n_constraints]

    @cached_property
    def psi(self) -> tuple[sp.Matrix, sp.Matrix]:
        """(Ψ, Ψ_t) differentiated from the quasi-velocity definitions (4.80)."""
        return psi_from_definitions(self.definitions, self.qdot)

    @property
    def parameter_symbols(self) -> list[sp.Symbol]:
        return [p.symbol for p in self.parameters]

    def parameter_values(self, params: Mapping[str, Any] | None = None) -> dict[str, float]:
        """Validated parameter values by name, defaults filled in."""
        return _resolve(self.parameters, params, "parameter(s)")

    def initial_values(self, initial: Mapping[str, Any] | None = None) -> dict[str, float]:
        """Validated initial conditions by name, defaults filled in."""
        return _resolve(self.initial, initial, "initial condition(s)")

    # ----------------------------------------------------------------- derivations
    @property
    def methods(self) -> list[str]:
        """Names of the registered derivation methods (not all apply to every system)."""
        return list(load_methods())

    def derive(self, method: str = "boltzmann_hamel") -> Derivation:
        """The derivation by ``method`` (cached: derived once per system and method)."""
        if method not in load_methods():
            raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
        if method not in self._derivations:
            self._derivations[method] = METHODS[method](self)
        return self._derivations[method]

    def compiled(self, method: str = "boltzmann_hamel") -> CompiledEOM:
        """The derivation compiled for numbers (cached)."""
        if method not in self._compiled:
            self._compiled[method] = CompiledEOM(self.derive(method), self.parameter_symbols)
        return self._compiled[method]

    # ----------------------------------------------------------------- simulation
    def state_names(self) -> list[str]:
        return [s.name for s in (*self.q, *self.u_independent)]

    def initial_state(self, values: Mapping[str, float]) -> np.ndarray:
        return np.array([values[name] for name in self.state_names()], dtype=float)

    def rhs(self, p: Sequence[float], method: str = "boltzmann_hamel"):
        """The first-order right-hand side for parameter values ``p`` (in parameter order).

        Methods whose speeds are not the independent u's (Lagrange with multipliers solves for
        q̈ and λ) are mapped to the same state (q, u) through the kinematics (4.80)/(4.134).
        """
        if self.derive(method).extra.get("speeds", "u") != "u":
            from companion.mechanics.agreement import rhs_in_independent_speeds

            return rhs_in_independent_speeds(self, method, p)
        return self.compiled(method).rhs(p)

    def simulate(
        self,
        t_final: float | None = None,
        params: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        *,
        n_points: int = 600,
        rtol: float | None = None,
        atol: float | None = None,
        method: str = "boltzmann_hamel",
        integrator: str = "lsoda",
    ) -> Trajectory:
        """Integrate the derived equations and evaluate invariants, residuals and series.

        ``integrator`` is ``"lsoda"`` (scipy ``odeint``: its stepping loop runs in Fortran,
        several times faster than ``"dop853"`` (``solve_ivp``) on these small systems,
        with energy drifts ≤ 1e-9 over the worked examples' slider ranges) or ``"dop853"``.
        ``rtol``/``atol`` default to the integrator's tolerances in ``INTEGRATORS``
        (LSODA needs one more digit than DOP853 for the same global accuracy).

        Raises
        ------
        ValueError
            Unknown or invalid parameter/initial values.
        SingularConfigurationError
            The motion reaches a configuration where the equations cannot be evaluated.
        """
        t_eval = sample_times(self.t_final if t_final is None else t_final, n_points)
        pv = self.parameter_values(params)
        p = [pv[s.name] for s in self.parameter_symbols]
        x0 = self.initial_state(self.initial_values(initial))
        if integrator not in INTEGRATORS:
            raise ValueError(f"unknown integrator {integrator!r}; known: {', '.join(INTEGRATORS)}")
        run, default_rtol, default_atol = INTEGRATORS[integrator]
        rtol = default_rtol if rtol is None else rtol
        atol = default_atol if atol is None else atol
        self._check_coordinates(t_eval[:1], x0[:, None], p, "at the start")
        states = run(self.rhs(p, method), x0, t_eval, rtol, atol)
        self._check_coordinates(t_eval, states, p, "along the motion")
        traj = Trajectory(t=t_eval, states=states, names=self.state_names(), params=pv)
        self.evaluate(traj)
        return traj

    #: Below this value of |det Ψ| / Π‖row of Ψ‖ (1 for orthonormal rows, 0 when singular)
    #: the coordinates are taken as singular: Φ = Ψ⁻¹ has entries of order 1/this.
    SINGULAR_TOLERANCE = 1e-6

    @cached_property
    def _coordinate_conditioning(self) -> Callable | None:
        """|det Ψ| / Π_i ‖row i of Ψ‖ as a function of (q, parameters[, t]); None when Ψ does
        not depend on the coordinates (then it can never become singular along a motion)."""
        psi, _ = self.psi
        if not psi.free_symbols & set(self.q):
            return None
        rows = sp.Mul(*(sp.sqrt(sum(e**2 for e in psi.row(i))) for i in range(psi.rows)))
        args = [*self.q, *self.parameter_symbols, *([self.t] if self.t is not None else [])]
        return sp.lambdify(args, sp.Abs(psi.det(method="berkowitz")) / rows, modules="numpy",
                           cse=True)

    def _check_coordinates(self, t: np.ndarray, states: np.ndarray, p: list[float],
                           where: str) -> None:
        """Refuse motions through configurations where the coordinates are singular (gimbal
        lock of Euler angles, the origin of polar coordinates): there q̇ = Φ u blows up and
        the numbers mean nothing, even when no division by exactly zero happens."""
        measure = self._coordinate_conditioning
        if measure is None:
            return
        q = states[: len(self.q)]
        with np.errstate(all="ignore"):
            value = np.broadcast_to(np.asarray(
                measure(*q, *p, *([t] if self.t is not None else [])), dtype=float), t.shape)
        bad = ~(value > self.SINGULAR_TOLERANCE)
        if np.any(bad):
            i = int(np.argmax(bad))
            coords = ", ".join(f"{s.name} = {v:.6g}" for s, v in zip(self.q, q[:, i],
                                                                     strict=True))
            raise SingularConfigurationError(
                f"the coordinates are singular {where} (t = {t[i]:.4g}: {coords}): "
                "Ψ of the quasi-velocities cannot be inverted there, so q̇ = Φ u is not "
                "defined (for Euler angles this is gimbal lock). Start further away from it.")

    @cached_property
    def _evaluators(self) -> dict[str, Callable]:
        args = [*self.q, *self.u_independent, *self.parameter_symbols]
        if self.t is not None:  # rheonomic: invariants and series may depend on time
            args.append(self.t)
        exprs = {**self.invariant_exprs, **self.series_exprs}
        return {k: sp.lambdify(args, e, modules="numpy", cse=True) for k, e in exprs.items()}

    def evaluate(self, traj: Trajectory) -> None:
        """Fill the trajectory's invariants and series from the system's expressions."""
        p = [traj.params[s.name] for s in self.parameter_symbols]
        rows = [traj[s.name] for s in (*self.q, *self.u_independent)]
        time = [traj.t] if self.t is not None else []
        for key, fn in self._evaluators.items():
            value = np.broadcast_to(np.asarray(fn(*rows, *p, *time), dtype=float), traj.t.shape)
            table = traj.invariants if key in self.invariant_exprs else traj.series
            table[key] = np.array(value)


def _lsoda(f, x0, t_eval, rtol, atol) -> np.ndarray:
    from scipy.integrate import odeint  # scipy.integrate takes ~0.5 s to import: on first use

    y, info = odeint(f, x0, t_eval, tfirst=True, rtol=rtol, atol=atol, mxstep=100_000,
                     full_output=True)
    if info["message"] != "Integration successful.":
        raise SingularConfigurationError(f"integration failed: {info['message']}")
    return y.T


def _dop853(f, x0, t_eval, rtol, atol) -> np.ndarray:
    from scipy.integrate import solve_ivp

    sol = solve_ivp(f, (t_eval[0], t_eval[-1]), x0, method="DOP853", t_eval=t_eval,
                    rtol=rtol, atol=atol)
    if sol.status < 0:
        raise SingularConfigurationError(f"integration failed: {sol.message}")
    return sol.y


#: Integrators by name: ``(run, rtol, atol)`` with
#: ``run(rhs, x0, t_eval, rtol, atol) -> states (n_states, len(t_eval))`` and default tolerances.
INTEGRATORS: dict[str, tuple[Callable, float, float]] = {
    "lsoda": (_lsoda, 1e-11, 1e-13),
    "dop853": (_dop853, 1e-10, 1e-12),
}


@register_method("boltzmann_hamel")
def _boltzmann_hamel(system: System) -> Derivation:
    psi, psi_t = system.psi
    return boltzmann_hamel(
        system.T, system.q, system.u, psi, n_constraints=system.n_constraints,
        Q=system.Q, t=system.t, Psi_t=psi_t,
        # an example's own equation numbers for its instances of the general steps
        citations=getattr(system, "citations", None),
    )


__all__ = [
    "INTEGRATORS", "METHODS", "Parameter", "SingularConfigurationError", "System",
    "register_method",
]
