"""A simulated motion (:class:`Trajectory`: time samples, states by name, invariants and
constraint residuals) and what a system evaluates along it (:class:`Evaluation`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import sympy as sp

if TYPE_CHECKING:
    from companion.mechanics.definition import Definition
    from companion.model import Observable
    from companion.numerics.hybrid import Switch
    from companion.system import System


@dataclass(repr=False)
class Trajectory:
    """Result of :meth:`companion.system.System.simulate`.

    Attributes
    ----------
    t
        Sample times, shape (N,).
    states
        Shape (n_states, N); rows named by ``names``.
    names
        State names (symbol names of q's and independent u's, or a system's own layout).
    params
        Parameter values used, by name.
    invariants
        Quantities that physics says are conserved (energy, |H|, ...), by name, shape (N,).
    residuals
        Quantities that must stay zero (constraint residuals, normalisation), by name.
    series
        Other derived quantities (constraint forces, positions for plots), by name.
    events
        Human-readable notes: singularities met, mode switches, first violations.
    rotations
        Attitude integrated on SO(3): rotation matrices (body → space) at the samples,
        shape (N, 3, 3); ``None`` when the integrator carries no rotation matrix.
    switches
        Mode switches of a hybrid run (time, source, target, reason), in order.
    """

    t: np.ndarray
    states: np.ndarray
    names: list[str]
    params: dict[str, float]
    invariants: dict[str, np.ndarray] = field(default_factory=dict)
    residuals: dict[str, np.ndarray] = field(default_factory=dict)
    series: dict[str, np.ndarray] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    rotations: np.ndarray | None = None
    switches: list[Switch] = field(default_factory=list)

    def __repr__(self) -> str:
        def listed(names) -> str:
            return ", ".join(names) or "none"

        return (f"<Trajectory: {self.t.size} samples, t = {self.t[0]:g}…{self.t[-1]:g} s; "
                f"states {listed(self.names)}; invariants {listed(self.invariants)}; "
                f"series {listed(self.series)}; {len(self.events)} event(s)>")

    def __getitem__(self, name: str) -> np.ndarray:
        """A state, series, invariant or residual by name (a sympy Symbol stands for its
        name: ``traj[theta]`` is ``traj["theta"]``)."""
        name = getattr(name, "name", name)
        if name in self.names:
            return self.states[self.names.index(name)]
        for table in (self.series, self.invariants, self.residuals):
            if name in table:
                return table[name]
        known = self.names + list(self.series) + list(self.invariants) + list(self.residuals)
        raise KeyError(f"no series named {name!r}; known: {', '.join(known)}")

    def drift(self, name: str) -> float:
        """Largest change of an invariant, max |I − I(0)|, relative to |I(0)|.

        An invariant that starts at zero (an angular-momentum component of a planar start,
        say) has no scale of its own: its drift is then the absolute change.
        """
        values = self.invariants[name]
        ref = abs(values[..., 0]) if values.ndim == 1 else np.linalg.norm(values[:, 0])
        dev = np.abs(values - values[..., :1]) if values.ndim == 1 else np.linalg.norm(
            values - values[:, :1], axis=0)
        return float(np.max(dev) / (ref if ref > 1e-12 else 1.0))

    def max_residual(self, name: str) -> float:
        """Largest absolute value of a residual along the motion."""
        return float(np.max(np.abs(self.residuals[name])))


#: An observer fills further entries of a finished trajectory from numbers (what the
#: system's expressions cannot give: joint forces, attitude residuals, great-circle tests).
Observer = Callable[["System", Trajectory], None]


@dataclass(frozen=True)
class Evaluation:
    """What a simulation of a :class:`~companion.system.System` gives unless told otherwise:
    its samples, and the quantities evaluated along them besides the states.

    Parameters
    ----------
    invariants, series, validity
        Named expressions evaluated along each motion: conserved, plotted, and conditions
        (≥ 0) the model needs, which may use the accelerations
        (:meth:`~companion.mechanics.definition.Definition.evaluated`).
    observables
        Quantities that depend on the equations (a constraint force, an energy) by name, each
        an :class:`~companion.model.Observable` computed from the system's own derivation
        and forces: a system from a changed definition keeps them right.  For a nonholonomic
        system's constraint forces along the motion, ``{"lambda": CONSTRAINT_FORCES}``
        (:data:`companion.model.CONSTRAINT_FORCES`; series ``lambda_0``, … one per
        constraint, a single one ``lambda``).
    observers
        Functions ``(system, trajectory) -> None`` adding numeric series after a run.
    t_final, n_points
        Default simulated time and number of samples.
    """

    invariants: Mapping[str, Any] | None = None
    series: Mapping[str, Any] | None = None
    validity: Mapping[str, Any] | None = None
    observables: Mapping[str, Observable] | None = None
    observers: Sequence[Observer] | None = ()
    t_final: float = 20.0
    n_points: int = 600

    def checked(self, definition: Definition) -> Evaluation:
        """This evaluation with its expressions parsed and checked against ``definition``
        (``ValueError``/``TypeError`` naming the entry), its samples as a simulation takes
        them."""
        from companion.model import Observable
        from companion.numerics.simulate import sample_times

        sample_times(self.t_final, self.n_points)  # refuses what a simulation would refuse
        observables = dict(self.observables or {})
        wrong = [k for k, v in observables.items() if not isinstance(v, Observable)]
        if wrong:
            raise TypeError(f"observables must map names to companion.model.Observable, got "
                            f"{', '.join(f'{k}: {observables[k]!r}' for k in wrong)}")
        return Evaluation(**{k: definition.evaluated(k, getattr(self, k))
                             for k in ("invariants", "series", "validity")},
                          observables=observables, observers=tuple(self.observers or ()),
                          t_final=self.t_final, n_points=self.n_points)

    def compile(self, system: System) -> Callable[[Trajectory], None]:
        """``evaluate(trajectory)`` for ``system``: fills the trajectory's invariants, series
        and the residuals of its configuration constraints from the expressions (q and u read
        by name, from the states or from series an integrator filled), marks where the motion
        leaves the model's validity, then runs the observers."""
        observed, conserved = {}, set()
        for name, observable in (self.observables or {}).items():
            found = observable.expressions(name, system)
            observed.update(found)
            if observable.conserved(system):
                conserved.update(found)
        args = [*system.q, *system.u_independent, *system.parameter_symbols]
        time = [system.t] if system.t is not None else []  # rheonomic: may depend on time
        exprs = {**self.invariants, **self.series, **system.constraint_exprs,
                 **_validity_in_state(system, self.validity), **observed}
        functions = {k: sp.lambdify([*args, *time], e, modules="numpy", cse=True)
                     for k, e in exprs.items()}

        def evaluate(traj: Trajectory) -> None:
            p = system.parameter_table.vector(traj.params)
            rows = [traj[s.name] for s in (*system.q, *system.u_independent)]
            at = [traj.t] if time else []
            for key, fn in functions.items():
                value = np.broadcast_to(np.asarray(fn(*rows, *p, *at), dtype=float),
                                        traj.t.shape)
                table = (traj.invariants if key in self.invariants or key in conserved else
                         traj.residuals if key in system.constraint_exprs else traj.series)
                table[key] = np.array(value)
            _report_validity(traj, self.validity)
            for observe in self.observers:
                observe(system, traj)

        return evaluate


def _validity_in_state(system: System, validity: Mapping[str, sp.Expr]) -> dict[str, sp.Expr]:
    """The validity conditions with the accelerations u̇ they use solved from the equations of
    motion (the system's method, symbolically: small systems)."""
    from companion.mechanics.quasi_velocities import dot_symbol

    rates = [dot_symbol(s) for s in system.u_independent]
    if not any(e.free_symbols & set(rates) for e in validity.values()):
        return dict(validity)
    d = system.derive()
    if d.speeds != "u":
        raise ValueError(f"the validity conditions of {system.name} use accelerations u̇, "
                         f"which its method {system.method} does not solve for: write them "
                         "in q and u, or choose a method in the u's")
    acc = dict(zip(rates, d.accelerations(), strict=True))
    return {k: e.xreplace(acc) for k, e in validity.items()}


def _report_validity(traj: Trajectory, validity: Mapping[str, sp.Expr]) -> None:
    """Mark where the motion leaves the model's validity (a condition < 0): the series
    ``"model valid"`` and, first among the events, the first violation."""
    if not validity:
        return
    ok = {name: traj.series[name] >= 0 for name in validity}  # NaN violates too
    valid = np.logical_and.reduce(list(ok.values()))
    # nothing after a violation is the model's
    traj.series["model valid"] = np.minimum.accumulate(valid).astype(float)
    broken = [(int(np.argmin(v)), name) for name, v in ok.items() if not np.all(v)]
    if broken:
        i, name = min(broken, key=lambda b: b[0])  # the first violation, in time
        traj.events.insert(0, f"t = {traj.t[i]:.4g} s: the motion leaves the model "
                              f"({name} = {traj.series[name][i]:.3g} < 0, the model "
                              f"needs {name} ≥ 0); what follows is not physical")


__all__ = ["Evaluation", "Observer", "Trajectory"]
