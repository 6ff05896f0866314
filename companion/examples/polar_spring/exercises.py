"""Exercises for the Boltzmann–Hamel notebook (Greenwood §4.3): the particle on a spring in
polar quasi-velocities u₁ = ṙ, u₂ = r θ̇.

Everything asked is derived by the engine: the next steps of its stepper (γ² after the C^j,
u̇₁ after the gyroscopic matrix) and the facts behind the choices (which C^j vanish, what
u₂ = θ̇ would change).
"""

from __future__ import annotations

from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise, keyed
from companion.exercises.outcomes import is_zero
from companion.mechanics.quasi_velocities import (
    c_matrices,
    gamma_matrices,
    inverse,
    psi_from_definitions,
)
from companion.system import System

_EX = Declare("polar_spring", names=("r", "theta", "u_1", "u_2", "m", "k"))


_UP_TO_C = ("psi", "phi", "c_matrices")
#: From T to the gyroscopic matrix: the γ^j themselves are the first exercise's answer.
_T_TO_GYRO = ("kinetic_energy", "momenta", "inertia", "dT_dtheta", "gyroscopic")


def _gammas_with_rate(system: System) -> bool:
    """Whether every γ^j vanishes when u₂ is defined as θ̇ instead of r θ̇ (re-derived)."""
    psi, _ = psi_from_definitions(system.qdot, system.qdot)
    gammas = gamma_matrices(c_matrices(psi, system.q), inverse(psi))
    return all(is_zero(g) for g in gammas)


def polar_spring() -> list[Exercise | ChoiceExercise]:
    """Two steps of the stepper to supply, and two choices on what the C^j and γ^j mean."""
    d = lambda s: s.derive()  # noqa: E731 - the shared, cached derivation
    return [
        _EX.typed("gamma2", "Next step: γ² from C²", (
            r"The stepper has reached the $C^j$ (shown above the answer box). Supply "
            r"the next step: $\gamma^2 = \Phi^T C^2 \Phi$ for $u_2 = r\dot\theta$."),
            given_steps=keyed(*_UP_TO_C),
            answer=lambda s: d(s).gamma[1],
            hints=("Φ = diag(1, 1/r): each entry of C² is divided by the r's of its row and "
                   "column speeds.",),
            solution=keyed(*_UP_TO_C, "gamma"),
            mistakes=lambda s: [Mistake(d(s).C[1], "That is C² itself: it still has to be "
                                        "transformed with Φ (the θ-column carries 1/r).")],
            skew_hint="In γʲᵣₗ the index r is the row and l the column.",
            example_answer="[[0, a], [-a, 0]]",
        ),
        _EX.typed("u1dot", "Next step: the radial acceleration u̇₁", (
            r"The stepper has reached the gyroscopic matrix $\sum_j p_j\gamma^j$. "
            r"Supply the next step for $r = 1$: solve the first Boltzmann–Hamel "
            r"equation for $\dot u_1$."),
            given_steps=keyed(*_T_TO_GYRO),
            answer=lambda s: d(s).accelerations()[0],
            hints=("m u̇₁ plus row 1 of the gyroscopic matrix times u equals the spring's "
                   "force −k r.",
                   "Row 1 is (0, −m u₂/r)."),
            solution=keyed(*_UP_TO_C, "gamma", *_T_TO_GYRO, "equations"),
            mistakes=lambda s: [Mistake(d(s).accelerations()[0].subs(s.u[1], 0),
                                        "The centripetal term u₂²/r is missing: it is what the "
                                        "gyroscopic matrix contributes to row 1.",
                                        "centripetal_missing")],
            example_answer="(...)/m",
        ),
        _EX.choice("which_C", "Is u₂ = r θ̇ the rate of a coordinate?", (
            r"Is there a function $f(r, \theta)$ whose time derivative is "
            r"$u_2 = r\dot\theta$?"),
            ("No: C² ≠ 0",
             "u₂ = ḟ would need ∂f/∂θ = r and ∂f/∂r = 0, which contradict each "
             "other; C² measures exactly that mismatch, ∂Ψ₂₂/∂r − ∂Ψ₂₁/∂θ = 1 ≠ 0."),
            ("Yes: f = r θ",
             "d(r θ)/dt = ṙ θ + r θ̇: the extra ṙ θ spoils it."),
            ("Yes: every linear combination of rates is a rate",
             "Only when the combination's coefficients pass the test Cʲ = 0."),
            right=lambda s: 0 if tuple(map(is_zero, d(s).C)) == (True, False) else 1,
        ),
        _EX.choice("true_rates", "What if u₂ = θ̇?", (
            r"Change the notebook's definition to $u_2 = \dot\theta$ (a true "
            r"coordinate rate). What happens to the $\gamma^j$?"),
            ("They all vanish: the equations become Lagrange's",
             "Both speeds are then rates of coordinates, so every Cʲ and hence "
             "every γʲ is zero; the centripetal term now comes from ∂T/∂r "
             "instead (T = m(u₁² + r² u₂²)/2)."),
            ("They stay the same",
             "γʲ is built from Ψ, and Ψ changes with the definition."),
            ("They change sign",
             "With u₂ = θ̇ the row of Ψ is constant: there is nothing left to "
             "change sign."),
            right=lambda s: 0 if _gammas_with_rate(s) else 1,
        ),
    ]

