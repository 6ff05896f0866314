"""Loparo & Vakalis Example 1 (§7.5): Euler's equations from the operator B, with the
orientation carried on SO(3).

The system has the same definition as Greenwood Example 4.3 (so both derivation methods
apply to it and can be compared), but it is derived by default in Arnold's form
dω/dt = B(ω, ω) + A⁻¹τ (method ``"arnold"``; the torque τ has the components M_x, M_y, M_z
of Greenwood's moments) and simulated on the group: ω is integrated
with an adaptive method (LSODA), and the rotation matrix R (body → space) follows
Ṙ = R ω̂ with 4th-order Magnus steps R ← R exp(Θ̂) (Rodrigues), which keep RᵀR = I to
rounding.  Energy, |Aω| and the spatial angular momentum R A ω are conserved.
"""

from __future__ import annotations

from companion.examples.euler_body import system as euler_body
from companion.geometry.attitude import SO3Attitude
from companion.system import Evaluation, System


def build() -> System:
    base = euler_body.build()
    return System(
        base.definition, name="rigid_body_so3",
        title="Euler's equations from B, orientation on SO(3) (Loparo Example 1, reconstructed)",
        evaluation=Evaluation(invariants={"energy": base.T, "|Aω|": base.invariants["|H|"]},
                              t_final=20.0, n_points=400),
        method="arnold",
        integrator=SO3Attitude(),
    )

