"""A :class:`~companion.system.System` defined by a planar :class:`Mechanism`.

The system is defined both ways the package knows: by the mechanism (derivation method
``"pull_back"``: Jᵀ G J and Jᵀ F, Loparo & Vakalis (7.2)) and, for comparison, by the
kinetic energy of the bodies with speeds u = q̇ (``"boltzmann_hamel"``, Greenwood (4.85)).
Simulations add the joint forces of §7.7 and each body's Newton–Euler residuals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np
import sympy as sp

from companion.geometry.metric import pull_back_form
from companion.geometry.planar import Mechanism, NumericMechanism
from companion.numerics import SingularConfigurationError, Trajectory
from companion.numerics.trajectory import sampled
from companion.system import Evaluation, OdeIntegrator, System

#: SciPy's DOP853 compiled with a C right-hand side when a C compiler is found, else LSODA
#: with the compiled M u̇ = f in Python: at rtol 1e-12 both keep a chaotic 20 s run of the
#: double pendulum's energy to about 1e-10 relative; the compiled run takes about 3 ms,
#: LSODA about 60 ms (``benchmarks/integrators.py``; a slider move re-simulates the run).
MECHANISM_INTEGRATOR = OdeIntegrator(solver="dop853-c", rtol=1e-12, atol=1e-13,
                                     backend="auto")


class MechanismSystem(System):
    """A worked example built from a planar mechanism (bodies, joints and loads), with speeds
    u = q̇ (its ``qdot`` symbols).

    Only a constructor: the mechanism is the system's ``geometry``, its default method
    ``"pull_back"``, its integrator :data:`MECHANISM_INTEGRATOR`, and an observer adds the
    joint forces and every body's Newton–Euler residuals to each run; ``kwargs`` as for
    :class:`System` (the energy and the observer are added to its ``evaluation``).
    """

    def __init__(self, mechanism: Mechanism, **kwargs: Any):
        m = mechanism
        T = m.kinetic_energy()
        own = kwargs.pop("evaluation", None) or Evaluation()
        evaluation = replace(own, invariants={"energy": T + m.potential_energy(),
                                              **(own.invariants or {})},
                             observers=[joint_forces_and_residuals, *(own.observers or ())])
        super().__init__(
            q=m.q, qdot=m.qdot, T=T, Q=list(pull_back_form(m.ambient_force(), m.jacobian())),
            geometry=mechanism, method="pull_back", integrator=MECHANISM_INTEGRATOR,
            evaluation=evaluation, **kwargs,
        )

    @property
    def mechanism(self) -> Mechanism:
        return self.geometry

    @cached_property
    def _numeric_mechanism(self) -> tuple[NumericMechanism, Any]:
        """The mechanism compiled for numbers and the batched M, f of the pull-back."""
        d = self.derive("pull_back")
        args = [*d.q, *d.u, *self.parameter_symbols]
        return (NumericMechanism(self.geometry, self.parameter_symbols),
                sp.lambdify(args, [*d.mass_matrix, *d.forcing], modules="numpy", cse=True))


def accelerations(system: MechanismSystem, q: np.ndarray, u: np.ndarray, p: Sequence[float]
                  ) -> np.ndarray:
    """q̈ for states q, u of shape (n, N), solving all the M q̈ = f at once."""
    n, N = q.shape
    vals = sampled(system._numeric_mechanism[1](*q, *u, *p), (N,))
    M = np.moveaxis(vals[: n * n].reshape(n, n, N), -1, 0)
    f = vals[n * n:].T[..., None]
    try:
        return np.linalg.solve(M, f)[..., 0].T
    except np.linalg.LinAlgError as exc:
        raise SingularConfigurationError("the mass matrix is singular on the motion") from exc


def joint_forces_and_residuals(system: MechanismSystem, traj: Trajectory) -> None:
    """Observer: q̈, the joint forces of §7.7 and every body's Newton–Euler residuals."""
    n = len(system.q)
    p = [traj.params[s.name] for s in system.parameter_symbols]
    q, u = traj.states[:n], traj.states[n:2 * n]
    qdd = accelerations(system, q, u, p)
    num = system._numeric_mechanism[0]
    forces, residuals = num.forces(q, u, qdd, p)
    joints, poses = num.positions(q, p)
    for table, prefix, values in ((traj.series, "R", forces), (traj.series, "joint", joints),
                                  (traj.series, "pose", poses),
                                  (traj.residuals, "Newton–Euler", residuals)):
        table.update({f"{prefix} {name}": value for name, value in values.items()})


__all__ = ["MECHANISM_INTEGRATOR", "MechanismSystem", "accelerations",
           "joint_forces_and_residuals"]
