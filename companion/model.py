"""The numeric model protocol: what the explorer, :func:`companion.explore` and the scenes use.

A widget needs a system's numbers, not its derivation: a name and a title, the parameters
and initial values it may set (each a :class:`~companion.system.Parameter`, with its default,
slider range and unit), and a ``simulate`` that turns chosen values into a
:class:`~companion.numerics.Trajectory`.  :class:`Model` is that contract and nothing more, so
a model that is not a :class:`~companion.system.System` — a closed-form motion, a hybrid
simulator with its own modes (the disk on the link,
:class:`~companion.examples.disk_link.model.DiskLink`) — drives the same widgets.  Parts
are composed, not subclassed, as pydy's ``System(eom_method, ode_solver)`` composes its
method and its solver: a System is one way to satisfy the protocol (its derivation gives the
right-hand side), not the only one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import sympy as sp

if TYPE_CHECKING:
    from companion.numerics import Trajectory
    from companion.system import Parameter, System


@runtime_checkable
class Model(Protocol):
    """Something the widgets can explore: named numbers in, a simulated motion out.

    Notes
    -----
    The four data members are read-only properties here, so that plain attributes satisfy
    them, a list where a sequence is asked too.  ``isinstance(x, Model)`` checks that the
    members exist, not their types or ``simulate``'s signature (a limit of
    :func:`typing.runtime_checkable`).
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
        """The motion from chosen values.

        Parameters
        ----------
        t_final, n_points
            Simulated time (from t = 0) and number of samples; ``None``: the model's own.
        params, initial
            Parameter and initial values keyed by name or by Symbol (``{"l": 2.0}`` or
            ``{l: 2.0}``); the ones not given keep their defaults.
        **options
            Options the model documents (an integrator's, for instance); unknown ones are
            refused, never ignored.

        Returns
        -------
        Trajectory
            The samples from t = 0 to ``t_final``, states by name, the parameter values used
            in ``params``.

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


def _applied_along_constraints(system: System) -> list[sp.Expr]:
    """The generalized applied forces of the constrained u's, (Φᵀ Q_q) rows n − m + 1 … n on
    the motion (q̇ = Φ u + Φ_t, the constrained u's at zero): zero when only ``Q`` of the
    independent u's is given."""
    from companion.mechanics.lagrange import kinematics_of
    from companion.mechanics.quasi_velocities import tidy_matrix

    m, k = system.n_constraints, len(system.u_independent)
    if system.Q_q is None or m == 0:
        return [sp.S.Zero] * m
    phi, phi_t = kinematics_of(system.definition)
    qdot = phi[:, :k] * sp.Matrix(system.u_independent) + phi_t
    motion = {**dict(zip(system.qdot, qdot, strict=True)), **dict.fromkeys(system.u[k:], 0)}
    forces = sp.Matrix([sp.sympify(e) for e in system.Q_q]).xreplace(motion)
    return list(tidy_matrix(phi[:, k:].T * forces))


def constraint_forces(system: System) -> list[sp.Expr]:
    """The generalized constraint forces λ_r of the suppressed u's on the motion, from this
    system's own Boltzmann–Hamel equations (4.85): row r > n − m with u̇ eliminated, less
    the applied force along u_r (Φᵀ Q_q, when forces per coordinate are given).  For the
    knife edge of Example 4.4 without forces, λ = m u₁u₂ (ours: the book's (4.123) row)."""
    rows = system.derive("boltzmann_hamel").constraint_forces()
    applied = _applied_along_constraints(system)
    return [sp.expand(r - a) for r, a in zip(rows, applied, strict=True)]


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


__all__ = ["CONSTRAINT_FORCES", "KINETIC_ENERGY", "Model", "Observable", "as_model",
           "constraint_forces", "kinetic_energy"]
