"""Exercises on Loparo & Vakalis §7.4 (Example 1): B(ω, ω) and ω̇ for the inertia operator
A = diag(I_xx, I_yy, I_zz), from the ``arnold`` derivation.
"""

from __future__ import annotations

from companion.exercises.exercise import Exercise
from companion.mechanics.derivation import Step
from companion.system import System

_OMEGA = ("omega_x", "omega_y", "omega_z")
_MOMENTS = ("I_xx", "I_yy", "I_zz")



def _arnold(system: System):
    return system.derive("arnold")


def rigid_body_so3() -> list[Exercise]:
    """B(ω, ω) and ω̇ for the inertia operator A = diag(I_xx, I_yy, I_zz)."""
    return [
        Exercise(
            key="B", example="rigid_body_so3", title="B(ω, ω) for a diagonal inertia operator",
            prompt=(r"On $so(3) \cong \mathbb{R}^3$ with bracket $[a, b] = a \times b$ and the "
                    r"inertia operator $A = \mathrm{diag}(I_{xx}, I_{yy}, I_{zz})$, the operator "
                    r"$B$ is defined by $\langle [a, b], c\rangle = \langle B(c, a), b\rangle$ "
                    r"for all $b$. Compute the column $B(\omega, \omega)$."),
            answer=lambda s: _arnold(s).result("B(omega, omega)"),
            names=(*_OMEGA, *_MOMENTS),
            hints=("With ⟨x, y⟩ = xᵀ A y the definition gives B(c, a) = A⁻¹((A c) × a).",
                   "Put c = a = ω: B(ω, ω) = A⁻¹((A ω) × ω).",
                   "The first entry is (I_yy − I_zz) ω_y ω_z / I_xx."),
            solution=lambda s: _arnold(s).steps,
            example_answer="[a, b, c]",
        ),
        Exercise(
            key="omega_dot", example="rigid_body_so3", title="Euler's equations as a geodesic",
            prompt=(r"With a body torque $M = (M_x, M_y, M_z)$ the motion obeys "
                    r"$\dot\omega = B(\omega, \omega) + A^{-1} M$. Give the column "
                    r"$\dot\omega$."),
            answer=lambda s: _arnold(s).explicit_rates,
            names=(*_OMEGA, *_MOMENTS, "M_x", "M_y", "M_z"),
            hints=("Start from your B(ω, ω) and add A⁻¹ M = (M_x/I_xx, M_y/I_yy, M_z/I_zz).",
                   "Compare with Greenwood's (4.104): the same three equations."),
            solution=lambda s: [
                *_arnold(s).steps,
                Step("Solved for the rates", _arnold(s).explicit_rates, "§7.4",
                     "B(ω, ω) plus the torque term.", r"\dot\omega"),
            ],
            example_answer="[a, b, c]",
        ),
    ]
