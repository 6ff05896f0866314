"""The numeric model protocol: what the explorer, :func:`companion.explore` and the scenes use.

A widget needs a system's numbers, not its derivation: :class:`Model` is that contract and
nothing more, so a model that is not a :class:`~companion.system.System` — a closed-form
motion, a hybrid simulator with its own modes (the disk on the link,
:class:`~companion.examples.disk_link.model.DiskLink`) — drives the same widgets.  What a
System's run evaluates along the motion is its :class:`Evaluation`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import sympy as sp

from companion.mechanics.quasi_velocities import dot_symbol
from companion.numerics.simulate import sample_times

if TYPE_CHECKING:
    from companion.mechanics.definition import Definition
    from companion.numerics import Trajectory
    from companion.system import Parameter, System


@runtime_checkable
class Model(Protocol):
    """Something the widgets can explore: named numbers in, a simulated motion out.

    The data members are read-only properties, so that plain attributes satisfy them too.
    ``isinstance(x, Model)`` checks that the members exist, not their types or ``simulate``'s
    signature (a limit of :func:`typing.runtime_checkable`).
    """

    @property
    def name(self) -> str:
        """Short identifier (registry name, key of the explorers' lifecycle)."""
        ...

    @property
    def title(self) -> str:
        """Human-readable title (figure alt text, headings)."""
        ...

    @property
    def parameters(self) -> Sequence[Parameter]:
        """The physical parameters, each with default, slider range, unit and sign rule."""
        ...

    @property
    def initial(self) -> Sequence[Parameter]:
        """The initial conditions, each with default, slider range and unit."""
        ...

    def simulate(self, t_final: float | None = None,
                 params: Mapping[Any, Any] | None = None,
                 initial: Mapping[Any, Any] | None = None, *,
                 n_points: int | None = None, **options: Any) -> Trajectory:
        """The motion from t = 0 to ``t_final`` in ``n_points`` samples (``None``: the model's
        own), the parameter and initial values keyed by name or Symbol (``{"l": 2.0}`` or
        ``{l: 2.0}``; the others keep their defaults).  ``options`` are those the model
        documents: unknown ones are refused, never ignored.

        Raises
        ------
        ValueError
            A value refused (unknown name, not a finite real number, outside the sign its
            :class:`~companion.system.Parameter` allows) or a motion that cannot be computed;
            the message names what to change.
        """
        ...


def as_model(obj: Any, who: str) -> Model:
    """``obj``, or a ``TypeError`` saying that ``who`` (e.g. "an Explorer") needs a
    :class:`Model` and what one is."""
    if not isinstance(obj, Model):
        raise TypeError(f"{who} needs a Model: a System, or any object with name, title, "
                        "parameters, initial and simulate (companion.Model); got "
                        f"{type(obj).__name__} {obj!r}")
    return obj


def _never(system: System) -> bool:
    return False


@dataclass(frozen=True)
class Observable:
    """A quantity along the motion that depends on the equations (a constraint force, an
    energy), computed from the model's own derivation and forces on first use, never stored
    in its :class:`~companion.mechanics.definition.Definition`: a model built from a changed
    definition (another force, another parameter) computes it afresh from its own.

    Parameters
    ----------
    compute
        ``compute(system)``: an expression in q, the independent u's, the parameters (and t),
        or a sequence of them (entries named ``name_0``, ``name_1`` …; one entry alone keeps
        ``name``).
    conserved
        ``conserved(system)``: whether physics conserves it on this system's motion (then it
        is an invariant of the trajectory, its drift reported; else a series).
    """

    compute: Callable[[System], Any]
    conserved: Callable[[System], bool] = _never

    def expressions(self, name: str, system: System) -> dict[str, sp.Expr]:
        """The named expressions of ``system`` this observable gives."""
        value = self.compute(system)
        values = list(value) if isinstance(value, (sp.MatrixBase, list, tuple)) else [value]
        if len(values) == 1:
            return {name: sp.sympify(values[0])}
        return {f"{name}_{i}": sp.sympify(e) for i, e in enumerate(values)}


def constraint_forces(system: System) -> list[sp.Expr]:
    """The generalized constraint forces λ_r of the suppressed u's on the motion, from this
    system's own Boltzmann–Hamel equations (4.85): row r > n − m with u̇ eliminated, less
    the applied force along u_r (Φᵀ Q_q, when forces per coordinate are given).  For the
    knife edge of Example 4.4 without forces, λ = m u₁u₂ (ours: the book's (4.123) row)."""
    if system.n_constraints == 0:
        raise ValueError(f"{system.name} holds no u at zero (n_constraints=0): it has no "
                         "constraint forces; leave CONSTRAINT_FORCES out of its observables")
    from companion.mechanics.lagrange import kinematics_of
    from companion.mechanics.quasi_velocities import tidy_matrix

    rows = system.derive("boltzmann_hamel").constraint_forces()
    if system.Q_q is None:  # only Q of the independent u's: none along the constrained ones
        return [sp.expand(r) for r in rows]
    k = len(system.u_independent)  # (Φᵀ Q_q) rows n − m + 1 … n on the motion
    held = dict.fromkeys(system.u[k:], 0)
    forces = sp.Matrix([in_speeds(system.definition, e).xreplace(held) for e in system.Q_q])
    applied = tidy_matrix(kinematics_of(system.definition)[0][:, k:].T * forces)
    return [sp.expand(r - a) for r, a in zip(rows, applied, strict=True)]


def in_speeds(definition: Definition, expr: Any) -> sp.Expr:
    """``expr`` in q and q̇ written in the independent speeds, q̇ = Φ u + Φ_t (4.134)."""
    from companion.mechanics.lagrange import kinematics_of

    phi, phi_t = kinematics_of(definition)
    k = len(definition.u_independent)
    qdot = phi[:, :k] * sp.Matrix(definition.u_independent) + phi_t
    return sp.sympify(expr).xreplace(dict(zip(definition.qdot, qdot, strict=True)))


def kinetic_energy(system: System) -> sp.Expr:
    """T on the motion: the unconstrained kinetic energy with the constrained u's at zero."""
    held = {u: 0 for u in system.u[len(system.u_independent):]}
    return sp.expand(sp.sympify(system.T).xreplace(held))


def unforced(system: System) -> bool:
    """No applied forces and no explicit time: the kinetic energy is conserved."""
    forces = [*(system.Q or ()), *(system.Q_q or ())]
    return system.t is None and all(sp.sympify(e) == 0 for e in forces)


#: The observables most constrained models share.
CONSTRAINT_FORCES = Observable(constraint_forces)
KINETIC_ENERGY = Observable(kinetic_energy, unforced)


#: An observer fills further entries of a finished trajectory from numbers (what the
#: system's expressions cannot give: joint forces, attitude residuals, great-circle tests).
Observer = Callable[["System", "Trajectory"], None]


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
        Quantities that depend on the equations, by name: e.g. ``{"lambda":
        CONSTRAINT_FORCES}``, a nonholonomic system's constraint forces along the motion.
    observers
        Functions ``(system, trajectory) -> None`` adding numeric series after a run.
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
        sample_times(self.t_final, self.n_points)  # refuses what a simulation would refuse
        observables = dict(self.observables or {})
        wrong = [k for k, v in observables.items() if not isinstance(v, Observable)]
        if wrong:
            raise TypeError(f"observables must map names to companion.model.Observable, got "
                            f"{', '.join(f'{k}: {observables[k]!r}' for k in wrong)}")
        return replace(self, **{k: definition.evaluated(k, getattr(self, k))
                                for k in ("invariants", "series", "validity")},
                       observables=observables, observers=tuple(self.observers or ()))

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
        validity = dict(self.validity)
        rates = [dot_symbol(s) for s in system.u_independent]
        if any(e.free_symbols & set(rates) for e in validity.values()):
            d = system.derive()  # the accelerations solved symbolically: small systems
            if d.speeds != "u":
                raise ValueError(f"the validity conditions of {system.name} use accelerations "
                                 f"u̇, which its method {system.method} does not solve for: "
                                 "write them in q and u, or choose a method in the u's")
            acc = dict(zip(rates, d.accelerations(), strict=True))
            validity = {k: e.xreplace(acc) for k, e in validity.items()}
        exprs = {**self.invariants, **self.series, **system.constraint_exprs, **validity,
                 **observed}
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
            if self.validity:  # where the motion leaves the model (a condition < 0)
                ok = {name: traj.series[name] >= 0 for name in self.validity}  # NaN violates
                valid = np.logical_and.reduce(list(ok.values()))
                # nothing after a violation is the model's
                traj.series["model valid"] = np.minimum.accumulate(valid).astype(float)
                broken = [(int(np.argmin(v)), name) for name, v in ok.items() if not np.all(v)]
                if broken:
                    i, name = min(broken, key=lambda b: b[0])  # the first violation, in time
                    traj.events.insert(0, f"t = {traj.t[i]:.4g} s: the motion leaves the model "
                                          f"({name} = {traj.series[name][i]:.3g} < 0, the "
                                          f"model needs {name} ≥ 0); what follows is not "
                                          "physical")
            for observe in self.observers:
                observe(system, traj)

        return evaluate


__all__ = ["CONSTRAINT_FORCES", "KINETIC_ENERGY", "Evaluation", "Model", "Observable", "Observer",
           "as_model", "constraint_forces", "in_speeds", "kinetic_energy"]
