"""Greenwood Example 4.3: Euler's equations of a free rigid body from Boltzmann–Hamel.

The book's coordinates are type I Euler angles q = (ψ, θ, φ) with the body-axis angular
velocities as quasi-velocities.  Those angles are singular at θ = ±90° (gimbal lock: Φ blows
up), so the *simulation* carries the orientation as a unit quaternion instead, driven by the
same derived dynamical equations for ω.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np
import sympy as sp
import sympy.physics.mechanics as me

from companion.geometry.attitude import QuaternionAttitude
from companion.mechanics.model import MechanicsModel
from companion.numerics import Trajectory
from companion.numerics.rotations import rotate
from companion.system import Evaluation, Parameter, System


def spatial_momentum(system: System, traj: Trajectory) -> None:
    """Observer: the angular momentum in space (conserved without torque) and a note when
    the Euler angles pass through gimbal lock."""
    quat = np.array([traj[n] for n in ("q_w", "q_x", "q_y", "q_z")])
    I = np.array([traj.params[n] for n in ("I_xx", "I_yy", "I_zz")])
    H_body = I[:, None] * np.array([traj[s.name] for s in system.u_independent])
    traj.invariants["H spatial"] = rotate(quat, H_body)
    closest = float(np.degrees(np.max(np.abs(traj.series["theta"]))))
    if closest > 88.85:  # |cos θ| < 2e-2
        traj.events.append(
            f"|θ| comes within {90 - closest:.1f}° of 90° (largest sample {closest:.1f}°): "
            "the type I Euler angles approach gimbal lock there (Φ of (4.91) is singular "
            "at ±90°), but the quaternion attitude carries on smoothly."
        )


def mechanics_model(inertia: Sequence[sp.Symbol], moments: Sequence[sp.Symbol]) -> MechanicsModel:
    """The body's geometry for the general dynamical equation.

    The body frame B is reached from the inertial frame by the type I Euler angles (rotations
    ψ about z, θ about the new y, φ about the newest x); the mass centre is fixed, the
    principal moments are ``inertia`` and the applied couple has body components ``moments``.
    """
    psi, theta, phi = me.dynamicsymbols("psi theta phi")
    N = me.ReferenceFrame("N")
    B = N.orientnew("B", "Body", (psi, theta, phi), "ZYX")
    O = me.Point("O")
    O.set_vel(N, 0)
    body = me.RigidBody("body", O, B, sp.Symbol("m_body"), (me.inertia(B, *inertia), O))
    couple = moments[0] * B.x + moments[1] * B.y + moments[2] * B.z
    return MechanicsModel(frame=N, q=[psi, theta, phi], bodies=[body], loads=[(B, couple)])


def build() -> System:
    psi, theta, phi = sp.symbols("psi theta phi")
    psid, thetad, phid = sp.symbols(r"\dot{\psi} \dot{\theta} \dot{\phi}")
    wx, wy, wz = sp.symbols("omega_x omega_y omega_z")
    Ixx, Iyy, Izz = sp.symbols("I_xx I_yy I_zz", positive=True)
    Mx, My, Mz = sp.symbols("M_x M_y M_z")

    # (4.89): body-axis angular velocity from the type I Euler-angle rates.
    definitions = [
        -psid * sp.sin(theta) + phid,
        psid * sp.cos(theta) * sp.sin(phi) + thetad * sp.cos(phi),
        psid * sp.cos(theta) * sp.cos(phi) - thetad * sp.sin(phi),
    ]
    T = sp.Rational(1, 2) * (Ixx * wx**2 + Iyy * wy**2 + Izz * wz**2)  # (4.93)
    inertia = [Parameter(s, d, 0.2, 3.0, "kg·m²", f"principal moment about {s.name[-1]}",
                         positive=True) for s, d in zip((Ixx, Iyy, Izz), (1.0, 2.0, 3.0),
                                                        strict=True)]
    torques = [Parameter(s, 0.0, -1.0, 1.0, "N·m", f"applied moment about {s.name[-1]}")
               for s in (Mx, My, Mz)]
    return System(
        name="euler_body",
        title="Euler's equations of a rigid body (Greenwood Example 4.3)",
        q=[psi, theta, phi],
        qdot=[psid, thetad, phid],
        u=[wx, wy, wz],
        definitions=definitions,
        T=T,
        Q=[Mx, My, Mz],
        parameters=[*inertia, *torques],
        initial=[
            Parameter(psi, 0.0, -3.14, 3.14, "rad", "ψ₀, first Euler angle"),
            Parameter(theta, 0.0, -1.5, 1.5, "rad", "θ₀, second Euler angle"),
            Parameter(phi, 0.0, -3.14, 3.14, "rad", "φ₀, third Euler angle"),
            *[Parameter(w, d, -3.0, 3.0, "rad/s", f"ω_{w.name[-1]}(0)")
              for w, d in zip((wx, wy, wz), (0.05, 2.0, 0.05), strict=True)],
        ],
        evaluation=Evaluation(invariants={
            "energy": T,
            "|H|": sp.sqrt((Ixx * wx) ** 2 + (Iyy * wy) ** 2 + (Izz * wz) ** 2),
        }, t_final=20.0, observers=[spatial_momentum]),
        mechanics_model=partial(mechanics_model, (Ixx, Iyy, Izz), (Mx, My, Mz)),
        integrator=QuaternionAttitude(),
    )
