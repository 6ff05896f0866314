"""Integrator parts for a rigid body whose speeds are its body-axis angular velocities ω and
whose coordinates are type I Euler angles (Greenwood Example 4.3, Loparo & Vakalis §7.5).

The Euler angles are singular at θ = ±90° (gimbal lock: Φ blows up), so the attitude is not
integrated in them: :class:`QuaternionAttitude` carries a unit quaternion along with ω,
:class:`SO3Attitude` integrates ω alone and follows the rotation matrix R (body → space) on
SO(3) with Magnus steps.  Both read the Euler angles back for the system's expressions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import sympy as sp

from companion.geometry import lie
from companion.geometry.metric import kinetic_metric
from companion.mechanics.agreement import udot_function
from companion.numerics import Trajectory
from companion.numerics.compile import Program, lambdify_scalar
from companion.numerics.integrate import compiled_or_lsoda, integrate
from companion.numerics.rotations import (
    quaternion_from_euler_angles,
    quaternion_rate_scalar,
    rotation_matrices,
)
from companion.system import Integrator, Setup, System


def omega_rate(system: System, method: str, p: list[float]):
    """(t, ω) ↦ ω̇ from ``method``'s equations (which do not depend on the angles): the
    closed form when the method gives one (Arnold's B(ω, ω) + A⁻¹τ), else its M u̇ = f solved
    numerically (Lagrange's q̈ mapped to ω̇)."""
    d = system.derive(method)
    if d.explicit_rates is not None:
        fn = _explicit(system, method)
        return lambda t, w: fn(*w, *p)
    udot, zeros = udot_function(system, method, p), [0.0] * len(system.q)
    return lambda t, w: udot(t, zeros, w)


@cache
def _explicit(system: System, method: str):
    d = system.derive(method)
    return lambdify_scalar([*system.u_independent, *system.parameter_symbols],
                           list(d.explicit_rates))


@cache
def _compiled_attitude(system: System, method: str):
    """The library of ẋ for x = (ω, quaternion) printed as C: ω̇ in closed form (the method's
    explicit rates, or its M u̇ = f solved symbolically at zero angles, which it does not
    depend on) and q̇ = ½ q ⊗ (0, ω)."""
    from companion.numerics import c_rhs

    d = system.derive(method)
    omega = list(system.u_independent)
    if d.explicit_rates is not None:
        omega_dot = list(d.explicit_rates)
    else:
        omega_dot = [a.xreplace(dict.fromkeys(d.q, 0)) for a in d.accelerations()]
    quat = sp.symbols("quat_w quat_x quat_y quat_z")
    rates = [*omega_dot, *quaternion_rate_scalar(list(quat), omega)]
    program = Program(system.t, [*omega, *quat], system.parameter_symbols)
    program.rates = program.let(rates)
    return c_rhs.library(program)


def attitude_rhs(system: System, method: str, p: list[float]):
    """x ↦ ẋ for x = (ω, quaternion): compiled to C when a C compiler is found and the
    method's speeds are ω (it then integrates itself: ``"dop853-c"``), else in
    Python from :func:`omega_rate`."""
    from companion.numerics import c_rhs

    d = system.derive(method)
    k = len(system.u_independent)
    if c_rhs.compiler() is not None and (d.explicit_rates is not None or d.speeds == "u"):
        # ω in the place of the coordinates, the quaternion of the speeds: only sizes here
        return c_rhs.CRightHandSide(_compiled_attitude(system, method), k, 4, p)
    rate = omega_rate(system, method, p)

    def f(t: float, x: np.ndarray) -> np.ndarray:
        xs = x.tolist()
        omega, quat = xs[:k], xs[k:]
        return np.array([*rate(t, omega), *quaternion_rate_scalar(quat, omega)])

    return f


@dataclass(frozen=True)
class QuaternionAttitude(Integrator):
    """State (ω, quaternion): ω̇ from the derived equations, the quaternion from
    q̇ = ½ q ⊗ (0, ω) (:func:`attitude_rhs`: compiled, integrated by the compiled DOP853, or
    in Python by LSODA).  Adds the Euler angles as series and ``‖q‖ − 1`` as a residual."""

    solver: str = "dop853-c"
    rtol: float = 1e-11
    atol: float = 1e-13

    def state_names(self, system: System) -> list[str]:
        return [s.name for s in system.u_independent] + ["q_w", "q_x", "q_y", "q_z"]

    def initial_state(self, system: System, values: Mapping[str, float],
                      params: Mapping[str, float]) -> np.ndarray:
        omega = [values[s.name] for s in system.u_independent]
        quat = quaternion_from_euler_angles(*(values[s.name] for s in system.q))
        return np.array([*omega, *quat], dtype=float)

    def integrate(self, system: System, setup: Setup) -> Trajectory:
        k = len(system.u_independent)
        f = attitude_rhs(system, setup.method, setup.p)
        x0 = self.initial_state(system, setup.initial, setup.params)
        solver = compiled_or_lsoda(f) if self.solver == "dop853-c" else self.solver
        states = integrate(f, x0, setup.t, solver=solver, rtol=setup.rtol, atol=setup.atol).y
        setup.guards.finite(setup.t, states)
        traj = Trajectory(t=setup.t, states=states, names=self.state_names(system),
                          params=setup.params)
        quat = traj.states[k:]
        for s, angle in zip(system.q, lie.euler_angles_from_rotations(rotation_matrices(quat)),
                            strict=True):
            traj.series[s.name] = angle
        traj.residuals["quaternion norm − 1"] = np.linalg.norm(quat, axis=0) - 1.0
        setup.guards.evaluate(traj)
        return traj


#: Largest rotation angle |ω| h of one Magnus attitude step (the ω integration is adaptive).
MAX_STEP_ANGLE = 0.02


@dataclass(frozen=True)
class SO3Attitude(Integrator):
    """State ω, integrated with LSODA; R on SO(3) by 4th-order Magnus steps R ← R exp(Θ̂)
    (Rodrigues), which keep RᵀR = I to rounding.

    The attitude step is chosen so that no step turns by more than ``MAX_STEP_ANGLE``
    (judged from |ω| at the samples).  ``trajectory.rotations`` holds R at the sample times,
    ``residuals["‖RᵀR − I‖"]`` the orthogonality drift, ``invariants["M_s = R A ω"]`` the
    spatial angular momentum and the series ``e_x``, ``e_y``, ``e_z`` the body axes in space.
    """

    rtol: float = 1e-12
    atol: float = 1e-12

    def state_names(self, system: System) -> list[str]:
        return [s.name for s in system.u_independent]

    def rotation_run(self, system: System, setup: Setup) -> Trajectory:
        """ω at the samples and R along them, before any series is evaluated."""
        t = setup.t
        omega0 = np.array([setup.initial[s.name] for s in system.u_independent], dtype=float)
        rate = omega_rate(system, setup.method, setup.p)

        def omega(times: np.ndarray) -> np.ndarray:  # (3, N), by LSODA from t = 0 on
            grid = np.concatenate([[0.0], times])
            return integrate(lambda t, x: rate(t, x.tolist()), omega0, grid, solver="lsoda",
                             rtol=setup.rtol, atol=setup.atol).y[:, 1:]

        w = np.hstack([omega0[:, None], omega(t[1:])])
        setup.guards.finite(t, w)
        spin = 1.1 * float(np.max(np.linalg.norm(w, axis=0)))
        per_sample = max(1, math.ceil(spin * t[1] / MAX_STEP_ANGLE))
        fine = np.linspace(0.0, float(t[-1]), (len(t) - 1) * per_sample + 1)
        R0 = lie.rotation_from_euler_angles(*(setup.initial[s.name] for s in system.q))
        return Trajectory(t=t, states=w, names=self.state_names(system), params=setup.params,
                          rotations=lie.magnus_attitude(R0, omega, fine)[::per_sample])

    def attitude_series(self, system: System, traj: Trajectory) -> None:
        """Orthogonality drift and Euler angles read off R (for the system's expressions)."""
        R = traj.rotations
        traj.residuals["‖RᵀR − I‖"] = lie.orthogonality_drift(R)
        for s, angle in zip(system.q, lie.euler_angles_from_rotations(R), strict=True):
            traj.series[s.name] = angle

    def spatial_series(self, system: System, traj: Trajectory, omega: np.ndarray) -> None:
        """Spatial angular momentum R A ω and the body axes in space."""
        R = traj.rotations
        p = [traj.params[s.name] for s in system.parameter_symbols]
        A = np.array(_inertia_operator(system)(*p), dtype=float)
        traj.invariants["M_s = R A ω"] = np.einsum("nij,jk,kn->in", R, A, omega)
        for k, name in enumerate("xyz"):
            traj.series[f"e_{name}"] = R[:, :, k].T

    def integrate(self, system: System, setup: Setup) -> Trajectory:
        traj = self.rotation_run(system, setup)
        self.attitude_series(system, traj)
        setup.guards.evaluate(traj)
        self.spatial_series(system, traj, traj.states)
        return traj


@cache
def _inertia_operator(system: System):
    """Parameters ↦ A, the metric of T in ω (its Hessian), as numbers."""
    A = kinetic_metric(system.T, system.u_independent)
    return sp.lambdify(system.parameter_symbols, A, modules="numpy")


__all__ = ["MAX_STEP_ANGLE", "QuaternionAttitude", "SO3Attitude", "omega_rate"]
