"""Exercises on Greenwood Example 4.3: Φ, C², γ³ and Euler's first equation.

Every expected answer, known mistake and solution is taken from the engine's derivation of
the slice's system; the text here only asks, hints and cites equation numbers.
"""

from __future__ import annotations

import sympy as sp

from companion.exercises.check import Mistake
from companion.exercises.exercise import Exercise, steps_by_eq
from companion.mechanics.derivation import Step
from companion.mechanics.quasi_velocities import tidy_matrix
from companion.system import System

_C_ORDER = "In C^j_ik = ∂Ψ_ji/∂q_k − ∂Ψ_jk/∂q_i the index i is the row and k the column."
_GAMMA_ORDER = "In γ^j_rl = Σ_i Σ_k C^j_ik Φ_ir Φ_kl the index r is the row and l the column."
_EULER_NAMES = ("psi", "theta", "phi")
_OMEGA = ("omega_x", "omega_y", "omega_z")



def _flipped_gyroscopic(system: System) -> sp.Expr:
    """ω̇_x with the gyroscopic term of the wrong sign (the transposed-C trap), from the engine."""
    acc = system.derive().accelerations()[0]
    torque_free = acc.subs({s: 0 for s in system.Q})
    return sp.expand(acc - 2 * torque_free)


def euler_body() -> list[Exercise]:
    """Φ, C², γ³ and Euler's first equation for the rigid body of Example 4.3."""
    d = lambda s: s.derive()  # noqa: E731 - the shared, cached derivation
    return [
        Exercise(
            key="Phi", example="euler_body", title="The kinematical matrix Φ",
            prompt=(r"The body rates are $\omega = \Psi(\theta, \phi)\,\dot q$ with "
                    r"$q = (\psi, \theta, \phi)$ (type I Euler angles). Find the matrix $\Phi$ "
                    r"with $\dot q = \Phi\,\omega$."),
            answer=lambda s: d(s).Phi,
            names=_EULER_NAMES,
            hints=("Read Ψ off the three rate equations (4.89): row j holds the coefficients "
                   "of ψ̇, θ̇, φ̇ in ω_j.",
                   "Φ = Ψ⁻¹. Rows 2 and 3 contain only ψ̇ cos θ and θ̇: solve them first "
                   "(combine them with sin φ and cos φ), then row 1 gives φ̇.",
                   "Expect sec θ in the first and third rows: Φ does not exist at θ = ±90°."),
            solution=lambda s: steps_by_eq(d(s).steps, "(4.80)", "(4.81)"),
            mistakes=lambda s: [Mistake(d(s).Psi, "That is Ψ (4.90) itself; Φ is its inverse.")],
            example_answer="[[a, b, c], [d, e, f], [g, h, k]]",
        ),
        Exercise(
            key="C2", example="euler_body", title="The coefficients C² of ω_y",
            prompt=(r"With $C^j_{ik} = \partial\Psi_{ji}/\partial q_k - "
                    r"\partial\Psi_{jk}/\partial q_i$, compute the $3\times 3$ matrix $C^2$ that "
                    r"belongs to the second quasi-velocity $\omega_y$ (row $i$, column $k$)."),
            answer=lambda s: d(s).C[1],
            names=_EULER_NAMES,
            hints=("Only the second row of Ψ enters: Ψ_2• = (cos θ sin φ, cos φ, 0).",
                   "Build D with D_ik = ∂Ψ_2i/∂q_k; then C² = D − Dᵀ, so the diagonal is zero.",
                   "Entry (1, 2): differentiate Ψ_21 by θ, subtract the derivative of Ψ_22 "
                   "by ψ."),
            solution=lambda s: [
                *steps_by_eq(d(s).steps, "(4.80)"),
                Step("C² for ω_y", d(s).C[1], "(4.98)",
                     "The second of the matrices C^j of (4.95).", "C^{2}"),
            ],
            mistakes=lambda s: [
                Mistake(d(s).C[0], "That is C¹, which comes from the first row of Ψ (ω_x)."),
                Mistake(d(s).C[2], "That is C³, which comes from the third row of Ψ (ω_z)."),
            ],
            skew_hint=_C_ORDER,
            example_answer="[[0, a, b], [-a, 0, c], [-b, -c, 0]]",
        ),
        Exercise(
            key="gamma3", example="euler_body", title="The gyroscopic coefficients γ³",
            prompt=(r"Transform $C^3$ into the quasi-velocities: compute "
                    r"$\gamma^3 = \Phi^T C^3 \Phi$, i.e. "
                    r"$\gamma^3_{rl} = \sum_{i,k} C^3_{ik}\,\Phi_{ir}\,\Phi_{kl}$."),
            answer=lambda s: d(s).gamma[2],
            names=_EULER_NAMES,
            hints=("The answer is a constant matrix: the angles all cancel.",
                   "γ³ is skew-symmetric, so only three entries need computing.",
                   "γ³_12 = Σ C³_ik Φ_i1 Φ_k2; only the first column of Φ, (0, 0, 1), enters "
                   "on the left."),
            solution=lambda s: [
                *steps_by_eq(d(s).steps, "(4.81)"),
                Step("C³ for ω_z", d(s).C[2], "(4.99)", "From the third row of Ψ.", "C^{3}"),
                Step("γ³ = Φᵀ C³ Φ", d(s).gamma[2], "(4.102)",
                     "Constant and skew: the coupling it produces does no work.", r"\gamma^{3}"),
            ],
            mistakes=lambda s: [
                Mistake(d(s).C[2], "That is C³ itself: it still has to be transformed with Φ."),
                Mistake(tidy_matrix(d(s).Phi * d(s).C[2] * d(s).Phi.T),
                        "Φ and Φᵀ are swapped: the transformation is Φᵀ C³ Φ."),
            ],
            skew_hint=_GAMMA_ORDER,
            example_answer="[[0, a, b], [-a, 0, c], [-b, -c, 0]]",
        ),
        Exercise(
            key="omega_x_dot", example="euler_body", title="Euler's first equation",
            prompt=(r"Using the Boltzmann–Hamel equation (4.92) with "
                    r"$T = \tfrac12(I_{xx}\omega_x^2 + I_{yy}\omega_y^2 + I_{zz}\omega_z^2)$ "
                    r"and the moments $M_x, M_y, M_z$, give $\dot\omega_x$."),
            answer=lambda s: d(s).accelerations()[0],
            names=(*_OMEGA, "I_xx", "I_yy", "I_zz", "M_x", "M_y", "M_z"),
            aliases={"w_x": "omega_x", "w_y": "omega_y", "w_z": "omega_z"},
            hints=("T does not depend on the angles, so ∂T/∂θ_r = 0 and only the γ terms "
                   "couple the rates.",
                   "For r = 1 the sum Σ_j p_j γ^j_1l ω_l involves γ² and γ³ only.",
                   "The result is I_xx ω̇_x = M_x plus a product of ω_y and ω_z."),
            solution=lambda s: [
                *steps_by_eq(d(s).steps, "(4.103)/(4.121)", "(4.85)"),
                Step("Solved for the rates", d(s).accelerations(), "(4.104)",
                     "Divide each equation by its moment of inertia.", r"\dot\omega"),
            ],
            mistakes=lambda s: [Mistake(
                _flipped_gyroscopic(s),
                "The gyroscopic term has the wrong sign: that is what transposing C^j "
                "(the sign trap of (4.95)) does.", "sign")],
            example_answer="(M_x - ...)/I_xx",
        ),
    ]
