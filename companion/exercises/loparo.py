"""Exercises for the Loparo & Vakalis chapter: B for the rigid body's inertia operator (§7.4)
and the double pendulum's metric (§7.8, a reconstructed example).

Expected answers, known mistakes and solutions come from the engine: the ``arnold``
derivation of ``rigid_body_so3`` and the ``pull_back`` derivation of ``double_pendulum``.
"""

from __future__ import annotations

import sympy as sp

from companion.exercises.check import Mistake
from companion.exercises.exercise import Exercise
from companion.mechanics.derivation import Step
from companion.system import System

_OMEGA = ("omega_x", "omega_y", "omega_z")
_MOMENTS = ("I_xx", "I_yy", "I_zz")
_PENDULUM = ("theta_1", "theta_2", "m_1", "J_1", "a_1", "l_1", "m_2", "J_2", "a_2", "l_2")


# --------------------------------------------------------------------------- §7.4, Example 1
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
            answer=lambda s: _arnold(s).extra["B(omega, omega)"],
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
            answer=lambda s: _arnold(s).extra["omega_dot"],
            names=(*_OMEGA, *_MOMENTS, "M_x", "M_y", "M_z"),
            hints=("Start from your B(ω, ω) and add A⁻¹ M = (M_x/I_xx, M_y/I_yy, M_z/I_zz).",
                   "Compare with Greenwood's (4.104): the same three equations."),
            solution=lambda s: [
                *_arnold(s).steps,
                Step("Solved for the rates", _arnold(s).extra["omega_dot"], "§7.4",
                     "B(ω, ω) plus the torque term.", r"\dot\omega"),
            ],
            example_answer="[a, b, c]",
        ),
    ]


# --------------------------------------------------------------------------- §7.8, Example 2
def _pull_back(system: System):
    return system.derive("pull_back")


def _symbol(system: System, name: str) -> sp.Symbol:
    return next(p for p in system.parameter_symbols if p.name == name)


def _metric_steps(system: System) -> list[Step]:
    return [s for s in _pull_back(system).steps if s.eq == "(7.2)" and "force" not in s.title]


def double_pendulum() -> list[Exercise]:
    """The entries M₁₁ and M₁₂ of the pulled-back metric of the double pendulum."""
    return [
        Exercise(
            key="M12", example="double_pendulum", title="The coupling entry M₁₂",
            prompt=(r"Both link angles $\theta_1, \theta_2$ are measured from the same fixed "
                    r"direction. Link 2 (mass $m_2$, central inertia $J_2$) has its mass "
                    r"centre at distance $a_2$ from the elbow; link 1 has length $l_1$. Pull "
                    r"the free bodies' metric back to $(\theta_1, \theta_2)$ and give "
                    r"$M_{12}$."),
            answer=lambda s: _pull_back(s).mass_matrix[0, 1],
            names=_PENDULUM,
            hints=("M = Jᵀ G J: M₁₂ collects the products of ∂(position)/∂θ₁ and "
                   "∂(position)/∂θ₂ weighted by the masses.",
                   "Only link 2 moves with both angles: its mass centre is the elbow plus "
                   "a₂ (cos θ₂, sin θ₂).",
                   "The dot product of the two velocity directions is a cosine of an angle "
                   "difference."),
            solution=_metric_steps,
            mistakes=lambda s: [Mistake(
                _pull_back(s).mass_matrix[0, 1].subs(s.q[1], -s.q[1]),
                "The coupling depends on the relative angle θ₁ − θ₂, not θ₁ + θ₂: both "
                "angles are measured from the same fixed direction.")],
            example_answer="m_2*l_1*a_2*cos(...)",
        ),
        Exercise(
            key="M11", example="double_pendulum", title="The diagonal entry M₁₁",
            prompt=(r"In the same metric, give $M_{11}$, the inertia felt when only "
                    r"$\theta_1$ changes (link 1 has mass $m_1$, central inertia $J_1$ and its "
                    r"mass centre at distance $a_1$ from the base)."),
            answer=lambda s: _pull_back(s).mass_matrix[0, 0],
            names=_PENDULUM,
            hints=("Link 1 turns about the base: J₁ + m₁ a₁² (parallel-axis theorem).",
                   "When only θ₁ changes, link 2 translates with the elbow."),
            solution=_metric_steps,
            mistakes=lambda s: [Mistake(
                _pull_back(s).mass_matrix[0, 0].subs(_symbol(s, "m_2"), 0),
                "Link 2 is missing: the elbow carries it along, adding m₂ l₁².")],
            example_answer="J_1 + ...",
        ),
    ]


#: Exercise sets by example name: (title, builder).
SETS = {
    "rigid_body_so3": ("Exercises: Euler's equations from B", rigid_body_so3),
    "double_pendulum": ("Exercises: the double pendulum's metric", double_pendulum),
}
