"""Exercises on Greenwood Example 4.3: Φ, C², γ³ and Euler's first equation.

Every expected answer, known mistake and solution is taken from the engine's derivation of
the slice's system; the text here only asks, hints and cites equation numbers.
"""

from __future__ import annotations

import sympy as sp

from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise, steps_keyed
from companion.exercises.outcomes import decided_by, is_zero, sign_changes
from companion.mechanics import quasi_velocities as qv
from companion.mechanics.derivation import Step
from companion.mechanics.quasi_velocities import tidy_matrix
from companion.system import System

_C_ORDER = "In Cʲᵢₖ = ∂Ψ_ji/∂q_k − ∂Ψ_jk/∂q_i the index i is the row and k the column."
_GAMMA_ORDER = "In γʲᵣₗ = Σ_i Σ_k Cʲᵢₖ Φ_ir Φ_kl the index r is the row and l the column."
_EX = Declare("euler_body", names=("psi", "theta", "phi"))


def euler_body() -> list[Exercise | ChoiceExercise]:
    """Φ, C², γ³ and Euler's first equation for the rigid body of Example 4.3; reordering q,
    why the gyroscopic terms do no work, and the flip about the middle axis."""
    d = lambda s: s.derive()  # noqa: E731 - the shared, cached derivation
    return [
        _EX.typed("Phi", "The kinematical matrix Φ", (
            r"The body rates are $\omega = \Psi(\theta, \phi)\,\dot q$ with "
            r"$q = (\psi, \theta, \phi)$ (type I Euler angles). Find the matrix $\Phi$ "
            r"with $\dot q = \Phi\,\omega$."),
            answer=lambda s: d(s).Phi,
            hints=("Read Ψ off the three rate equations (4.89): row j holds the coefficients "
                   r"of ψ̇, θ̇, φ̇ in $\omega_j$.",
                   "Φ = Ψ⁻¹. Rows 2 and 3 contain only ψ̇ cos θ and θ̇: solve them first "
                   "(combine them with sin φ and cos φ), then row 1 gives φ̇.",
                   "Expect sec θ in the first and third rows: Φ does not exist at θ = ±90°."),
            solution=lambda s: steps_keyed(d(s), "psi", "phi"),
            mistakes=lambda s: [Mistake(d(s).Psi, "That is Ψ (4.90) itself; Φ is its inverse.")],
            example_answer="[[a, b, c], [d, e, f], [g, h, k]]",
        ),
        _EX.typed("C2", r"The coefficients C² of $\omega_y$", (
            r"With $C^j_{ik} = \partial\Psi_{ji}/\partial q_k - "
            r"\partial\Psi_{jk}/\partial q_i$, compute the $3\times 3$ matrix $C^2$ that "
            r"belongs to the second quasi-velocity $\omega_y$ (row $i$, column $k$)."),
            answer=lambda s: d(s).C[1],
            hints=("Only the second row of Ψ enters: Ψ_2• = (cos θ sin φ, cos φ, 0).",
                   "Build D with D_ik = ∂Ψ_2i/∂q_k; then C² = D − Dᵀ, so the diagonal is zero.",
                   "Entry (1, 2): differentiate Ψ_21 by θ, subtract the derivative of Ψ_22 "
                   "by ψ."),
            solution=lambda s: [
                *steps_keyed(d(s), "psi"),
                Step("C² for the rate about y", d(s).C[1], "(4.98)",
                     "The second of the matrices Cʲ (defined just before (4.95)).",
                     "C^{2}"),
            ],
            mistakes=lambda s: [
                Mistake(d(s).C[0], r"That is C¹, from the first row of Ψ ($\omega_x$)."),
                Mistake(d(s).C[2], r"That is C³, from the third row of Ψ ($\omega_z$)."),
            ],
            skew_hint=_C_ORDER,
            example_answer="[[0, a, b], [-a, 0, c], [-b, -c, 0]]",
        ),
        _EX.typed("gamma3", "The gyroscopic coefficients γ³", (
            r"Transform $C^3$ into the quasi-velocities: compute "
            r"$\gamma^3 = \Phi^T C^3 \Phi$, i.e. "
            r"$\gamma^3_{rl} = \sum_{i,k} C^3_{ik}\,\Phi_{ir}\,\Phi_{kl}$."),
            answer=lambda s: d(s).gamma[2],
            hints=("The answer is a constant matrix: the angles all cancel.",
                   "γ³ is skew-symmetric, so only three entries need computing.",
                   "γ³_12 = Σ C³_ik Φ_i1 Φ_k2; only the first column of Φ, (0, 0, 1), enters "
                   "on the left."),
            solution=lambda s: [
                *steps_keyed(d(s), "phi"),
                Step("C³ for the rate about z", d(s).C[2], "(4.99)", "From the third row of Ψ.",
                     "C^{3}"),
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
        _EX.typed("omega_x_dot", "Euler's first equation", (
            r"Using the Boltzmann–Hamel equation (4.92) with "
            r"$T = \tfrac12(I_{xx}\omega_x^2 + I_{yy}\omega_y^2 + I_{zz}\omega_z^2)$ "
            r"and the moments $M_x, M_y, M_z$, give $\dot\omega_x$."),
            answer=lambda s: d(s).accelerations()[0],
            names=("omega_x", "omega_y", "omega_z", "I_xx", "I_yy", "I_zz", "M_x", "M_y", "M_z"),
            aliases={"w_x": "omega_x", "w_y": "omega_y", "w_z": "omega_z"},
            hints=("T does not depend on the angles, so ∂T/∂θ_r = 0 and only the γ terms "
                   "couple the rates.",
                   r"For r = 1 the sum $\sum_j p_j \gamma^j_{1l} \omega_l$ involves γ² and γ³ "
                   "only.",
                   r"The result is $I_{xx}\dot\omega_x = M_x$ plus a product of $\omega_y$ and "
                   r"$\omega_z$."),
            solution=lambda s: [
                *steps_keyed(d(s), "gyroscopic", "equations"),
                Step("Solved for the rates", d(s).accelerations(), "(4.104)",
                     "Divide each equation by its moment of inertia.", r"\dot\omega"),
            ],
            mistakes=lambda s: [Mistake(  # ω̇_x less twice its torque-free (gyroscopic) part
                sp.expand(d(s).accelerations()[0]
                          - 2 * d(s).accelerations()[0].subs({m: 0 for m in s.Q})),
                "The gyroscopic term has the wrong sign: that is what transposing Cʲ "
                "(the sign trap of the Cʲ that enter (4.95)) does.", "sign")],
            example_answer="(M_x - ...)/I_xx",
        ),
        _EX.choice("reorder_q", "Reordering the coordinates", (
            r"Write the same body rates $\omega$ with the coordinates in the order "
            r"$q = (\phi, \theta, \psi)$ instead of $(\psi, \theta, \phi)$. What happens "
            r"to the coefficients $C^j$ and $\gamma^j$?"),
            ("The Cʲ are permuted, the γʲ are unchanged",
             "Cʲᵢₖ carries the coordinate indices i, k, which follow q; γʲᵣₗ = "
             "Σ Cʲᵢₖ Φ_ir Φ_kl carries only quasi-velocity indices, and the ω's "
             "did not change."),
            ("Neither changes",
             "The rows and columns of Cʲ are labelled by the coordinates: "
             "reordering q permutes them."),
            ("Both are permuted",
             "Φ is permuted too, and in Φᵀ Cʲ Φ the two permutations cancel: γʲ is "
             "labelled by the quasi-velocities only."),
            ("The γʲ change, the Cʲ do not",
             "It is the other way round: Cʲ follows q, γʲ follows u."),
            right=decided_by(_reorder_outcome, {(False, True): 0, (True, True): 1,
                                                (False, False): 2, (True, False): 3}),
            hints=("Which indices of Cʲᵢₖ and of γʲᵣₗ belong to q, which to u?",),
        ),
        _EX.choice("no_work", "Why the gyroscopic terms do no work", (
            r"The Boltzmann–Hamel equations (4.85) contain the coupling "
            r"$\sum_j p_j\,\gamma^j_{rl}\,\omega_l$. Multiplied by $\omega_r$ and "
            r"summed, it gives the power of these terms. Why is that power zero?"),
            ("Each γʲ is skew-symmetric, so ωᵀ γʲ ω = 0",
             "A skew matrix gives a vector perpendicular to ω: "
             r"$\sum_{rl} \omega_r \gamma^j_{rl} \omega_l = 0$ for every j, whatever the momenta."),
            ("T does not depend on the Euler angles",
             "That removes the ∂T/∂θ_r term, a different one. The coupling does no "
             "work even when T depends on q, because of its skew symmetry."),
            ("The γʲ are constant matrices here",
             "They are constant for this body, but a constant matrix can do work "
             "(ωᵀAω > 0 for a positive A). Only skew symmetry makes the power vanish "
             "for every ω."),
            ("It is not zero: the torques balance it",
             "With M = 0 the kinetic energy is conserved (the explorer's energy "
             "drift stays at round-off), so the coupling does no work at all."),
            right=decided_by(_gyroscopic_power, {(True, True): 0, (False, False): 3}),
            hints=("Write the power as Σ_j p_j (ωᵀ γʲ ω).",),
        ),
        _EX.predict("flip", "Predict: a spin about the middle axis", (
            r"The explorer's defaults spin the torque-free body about its $y$ axis, "
            r"$\omega(0) = (0.05, 2, 0.05)$ rad/s, with $I_{xx} = 1 < I_{yy} = 2 < "
            r"I_{zz} = 3$. What does $\omega_y$ do during the 20 s run?"),
            ("It keeps spinning steadily about y",
             "A spin about the axis of the middle moment is unstable: the small "
             r"$\omega_x$ and $\omega_z$ grow instead of staying small."),
            ("It flips over within the first second",
             "The wobble starts at 0.05 rad/s and needs a few seconds to grow."),
            ("It flips after a few seconds, then flips back again and again",
             "The intermediate-axis (tennis-racket) instability: the small wobble "
             "grows, the body turns over, and the motion repeats periodically."),
            ("It flips once and then spins steadily the other way",
             "The torque-free motion is periodic: a body that flipped once flips "
             "back after the same time."),
            right=decided_by(_flip_outcome, {"steady": 0, "early": 1, "repeated": 2, "once": 3}),
            then=("Now press ▶ in the explorer below with the default values and watch "
                  r"$\omega_y$ in its body angular velocity plot."),
        ),
    ]


# --------------------------------------------------------------------------- understanding
def _reorder_outcome(system: System) -> tuple[bool, bool]:
    """Whether C^j and γ^j stay the same when recomputed with the coordinates in reverse order
    (same quasi-velocities)."""
    d = system.derive()
    psi, _ = qv.psi_from_definitions(system.definitions, system.qdot[::-1])
    c = qv.c_matrices(psi, system.q[::-1])
    gamma = qv.gamma_matrices(c, qv.inverse(psi))
    same_c = all(is_zero(a - b) for a, b in zip(c, d.C, strict=True))
    same_gamma = all(is_zero(a - b) for a, b in zip(gamma, d.gamma, strict=True))
    return same_c, same_gamma


def _gyroscopic_power(system: System) -> tuple[bool, bool]:
    """(every γ^j skew, the coupling's power Σ_j p_j uᵀγ^j u vanishes) from the derivation."""
    d = system.derive()
    u = sp.Matrix(system.u)
    p = d.step("momenta").expr
    skew = all(is_zero(g + g.T) for g in d.gamma)
    power = sum((p[j] * (u.T * g * u)[0] for j, g in enumerate(d.gamma)), sp.Integer(0))
    return skew, sp.simplify(power) == 0


def _flip_outcome(system: System) -> str:
    run = system.simulate()
    flips = sign_changes(run["omega_y"])
    if len(flips) == 0:
        return "steady"
    if run.t[flips[0]] < 1.0:
        return "early"
    return "repeated" if len(flips) >= 2 else "once"


