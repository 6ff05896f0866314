"""Exercises on Loparo & Vakalis §7.8 (Example 2, reconstructed): the entries M₁₁ and M₁₂ of the
double pendulum's pulled-back metric.
"""

from __future__ import annotations

from operator import methodcaller

import numpy as np
import sympy as sp

from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise, keyed, parameter_symbol
from companion.exercises.outcomes import is_zero
from companion.system import System

_EX = Declare("double_pendulum",
               names=("theta_1", "theta_2", "m_1", "J_1", "a_1", "l_1", "m_2", "J_2", "a_2", "l_2"))
_pull_back = methodcaller("derive", "pull_back")


def double_pendulum() -> list[Exercise | ChoiceExercise]:
    """The entries M₁₁ and M₁₂ of the pulled-back metric of the double pendulum; why it
    depends on θ₁ − θ₂ only; whether a straight pendulum stays straight."""
    return [
        _EX.typed("M12", "The coupling entry M₁₂", (
            r"Both link angles $\theta_1, \theta_2$ are measured from the same fixed "
            r"direction. Link 2 (mass $m_2$, central inertia $J_2$) has its mass "
            r"centre at distance $a_2$ from the elbow; link 1 has length $l_1$. Pull "
            r"the free bodies' metric back to $(\theta_1, \theta_2)$ and give "
            r"$M_{12}$."),
            answer=lambda s: _pull_back(s).mass_matrix[0, 1],
            hints=("M = Jᵀ G J: M₁₂ collects the products of ∂(position)/∂θ₁ and "
                   "∂(position)/∂θ₂ weighted by the masses.",
                   "Only link 2 moves with both angles: its mass centre is the elbow plus "
                   "(a₂ sin θ₂, −a₂ cos θ₂), the map's x₂ and y₂ less the elbow's.",
                   "The dot product of the two velocity directions is a cosine of an angle "
                   "difference."),
            solution=keyed("jacobian", "metric", method="pull_back"),
            mistakes=lambda s: [Mistake(
                _pull_back(s).mass_matrix[0, 1].subs(s.q[1], -s.q[1]),
                "The coupling depends on the relative angle θ₁ − θ₂, not θ₁ + θ₂: both "
                "angles are measured from the same fixed direction.")],
            example_answer="m_2*l_1*a_2*cos(...)",
        ),
        _EX.typed("M11", "The diagonal entry M₁₁", (
            r"In the same metric, give $M_{11}$, the inertia felt when only "
            r"$\theta_1$ changes (link 1 has mass $m_1$, central inertia $J_1$ and its "
            r"mass centre at distance $a_1$ from the base)."),
            answer=lambda s: _pull_back(s).mass_matrix[0, 0],
            hints=("Link 1 turns about the base: J₁ + m₁ a₁² (parallel-axis theorem).",
                   "When only θ₁ changes, link 2 translates with the elbow."),
            solution=keyed("jacobian", "metric", method="pull_back"),
            mistakes=lambda s: [Mistake(
                _pull_back(s).mass_matrix[0, 0].subs(parameter_symbol(s, "m_2"), 0),
                "Link 2 is missing: the elbow carries it along, adding m₂ l₁².")],
            example_answer="J_1 + ...",
        ),
        _EX.choice("relative_angle", "Why only θ₁ − θ₂ enters the metric",
            r"The metric M(θ₁, θ₂) depends on the angles only through θ₁ − θ₂. Why?",
            ("Turning the whole pendulum rigidly leaves its kinetic energy unchanged",
             "Both angles are measured from one fixed direction: adding the same "
             "angle to both turns the pendulum as a whole, which changes no speed."),
            ("Because gravity acts along the vertical",
             "Gravity enters the forces, not the metric: the metric is the kinetic "
             "energy only."),
            ("It is not true: M depends on θ₁ + θ₂ as well",
             "Try θ₁ → θ₁ + c, θ₂ → θ₂ + c in M: nothing changes."),
            right=lambda s: 0 if _depends_on_difference(s) else 2,
        ),
        _EX.predict("straight", "Predict: released straight", (
            r"Release the pendulum from rest with both links along the same line, "
            r"$\theta_1 = \theta_2 = 1.8$. Does link 2 stay aligned with link 1?"),
            ("No: the elbow bends at once",
             "Link 1 alone would swing like a compound pendulum with its own "
             "frequency; link 2's would differ, so the constraint at the elbow "
             "pushes and the links fold."),
            ("Yes: it swings as one rigid pendulum",
             "Nothing holds the elbow straight: the two links would swing at "
             "different rates on their own."),
            ("Yes for a while, then it folds",
             "There is no delay: a pin transmits no moment, so nothing holds the "
             "elbow straight, and at the release the equations already give "
             "θ̈₁ ≠ θ̈₂, so the links fold from t = 0. With point masses link 1 "
             "swings off as a simple pendulum, θ̈₁ = −(g/l₁) sin θ₁, while link 2 "
             "does not turn at first (θ̈₂ = 0)."),
            right=lambda s: 0 if _straight_outcome(s) else 1,
            then=("Now set θ₁ = θ₂ = 1.8 and both rates to 0 in the explorer below, press ▶ "
                  "and watch the elbow."),
        ),
    ]


# --------------------------------------------------------------------------- understanding
def _depends_on_difference(system: System) -> bool:
    shift = sp.Symbol("shift")
    metric = system.derive("pull_back").mass_matrix
    turned = metric.subs({q: q + shift for q in system.q[:2]})
    return is_zero(turned - metric)


def _straight_outcome(system: System) -> bool:
    run = system.simulate(initial={"theta_1": 1.8, "theta_2": 1.8, "omega_1": 0.0,
                                   "omega_2": 0.0})
    return bool(np.max(np.abs(run["theta_1"] - run["theta_2"])) > 0.05)


