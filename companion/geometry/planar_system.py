"""A :class:`~companion.system.System` defined by a planar :class:`Mechanism`.

The system is defined both ways the package knows: by the mechanism (derivation method
``"pull_back"``: Jᵀ G J and Jᵀ F, Loparo & Vakalis (7.2)) and, for comparison, by the
kinetic energy of the bodies with speeds u = q̇ (``"boltzmann_hamel"``, Greenwood (4.85)).
Simulations add the joint forces of §7.7 and each body's Newton–Euler residuals.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np
import sympy as sp

from companion.geometry.metric import pull_back_form
from companion.geometry.planar import Mechanism
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
    def _numeric_mechanism(self) -> tuple[Any, Any, Any, list[str]]:
        """Compiled for numpy (whole motions at once): the pull-back's M and f in (q, u), the
        joint forces of §7.7 and the Newton–Euler residuals in (q, q̇, q̈), the joint points
        and the body poses in q; and the residuals' names."""
        m, d, p = self.geometry, self.derive("pull_back"), self.parameter_symbols
        R = m.joint_forces()
        residuals = m.newton_euler_residuals(R)
        forces = [e for k in m.joints for e in R[k]] + list(residuals.values())
        places = [e for j in m.joints.values() for e in j.point] + [
            e for b in m.bodies.values() for e in b.pose]
        compiled = functools.partial(sp.lambdify, modules="numpy", cse=True)
        return (compiled([*d.q, *d.u, *p], [*d.mass_matrix, *d.forcing]),
                compiled([*m.q, *m.qdot, *m.qddot, *p], forces),
                compiled([*m.q, *p], places), list(residuals))


def joint_forces_and_residuals(system: MechanismSystem, traj: Trajectory) -> None:
    """Observer: q̈ (all the M q̈ = f of the motion solved at once), then the joint forces of
    §7.7, the joint points, the body poses and every body's Newton–Euler residuals."""
    n, N = len(system.q), traj.t.size
    p = [traj.params[s.name] for s in system.parameter_symbols]
    q, u = traj.states[:n], traj.states[n:2 * n]
    mass_and_forcing, forces, places, residuals = system._numeric_mechanism
    vals = sampled(mass_and_forcing(*q, *u, *p), (N,))
    M = np.moveaxis(vals[: n * n].reshape(n, n, N), -1, 0)
    try:
        qdd = np.linalg.solve(M, vals[n * n:].T[..., None])[..., 0].T
    except np.linalg.LinAlgError as exc:
        raise SingularConfigurationError("the mass matrix is singular on the motion") from exc
    joints, bodies = system.geometry.joints, system.geometry.bodies
    R, at = iter(sampled(forces(*q, *u, *qdd, *p), (N,))), iter(sampled(places(*q, *p), (N,)))
    traj.series.update({f"R {k}": np.array([next(R), next(R)]) for k in joints})
    traj.series.update({f"joint {k}": np.array([next(at), next(at)]) for k in joints})
    traj.series.update({f"pose {k}": np.array([next(at) for _ in range(3)]) for k in bodies})
    traj.residuals.update({f"Newton–Euler {k}": next(R) for k in residuals})


__all__ = ["MECHANISM_INTEGRATOR", "MechanismSystem", "joint_forces_and_residuals"]
