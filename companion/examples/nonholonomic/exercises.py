"""Exercises on the knife edge under the constrained connection (§7.9 reconstructed, ours):
the projection P, which u₃ lets the constrained T work, and the parking manoeuvre's drift.

Every expected answer, known mistake and right option is computed by the engine."""

from __future__ import annotations

import numpy as np
import sympy as sp

from companion.examples.nonholonomic import connection as c
from companion.examples.nonholonomic import steering
from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Exercise, Option
from companion.exercises.outcomes import is_zero, pick
from companion.mechanics.derivation import Step
from companion.system import System

_NAMES = ("x", "y", "phi", "m", "l")


def _projection_steps(system: System) -> list[Step]:
    con = c.constrained_connection(system)
    return [Step("Metric σ of T(q, q̇)", con.sigma, "(4.108)",
                 "T of (4.108) with u = Ψ q̇, differentiated twice by the q̇'s.", r"\sigma"),
            Step("Allowed directions X = first two columns of Φ", con.X, "(4.111)",
                 "D is spanned by the frame vectors of the unsuppressed u's.", "X"),
            Step("σ-orthogonal projection onto D", con.P, None,
                 "P = X (Xᵀσ X)⁻¹ Xᵀσ: P X = X, and σ(P v, w − P w) = 0.", "P")]


def _euclidean(X: sp.Matrix) -> sp.Matrix:
    return (X * (X.T * X).inv() * X.T).applyfunc(sp.simplify)


def _constrained_T_works(system: System, columns) -> bool:
    choice = c.with_suppressed_frame(system, columns)
    got = c.renamed(choice.constrained.accelerations(), choice.u, system.u)
    return is_zero(got - system.derive("boltzmann_hamel").accelerations())


def _which_u3(system: System) -> int:
    greenwood = system.derive("boltzmann_hamel").Phi[:, 2]
    orthogonal = c.orthogonal_quasi_velocities(system).Phi[:, 2]
    works = (_constrained_T_works(system, [greenwood]),
             _constrained_T_works(system, [orthogonal]),
             _constrained_T_works(system, [2 * greenwood]))
    return pick({(True, True, True): 3, (False, True, False): 1, (True, False, False): 0,
                 (False, False, True): 2, (False, False, False): 4}, works)


def _parking_outcome(system: System) -> str:
    """Sign across the blade and order in ε of the net displacement, by simulation."""
    runs = [steering.parking(e) for e in (0.1, 0.05)]
    across = np.array([0.0, 1.0, 0.0])  # (−sin φ₀, cos φ₀) at φ₀ = 0
    sideways = [float(r.displacement @ across) for r in runs]
    order = round(np.log(abs(sideways[0] / sideways[1])) / np.log(2.0))
    side = "left" if sideways[0] > 0 else "right"
    return f"{side}_{order}" if max(abs(s) for s in sideways) > 1e-12 else "none"


def nonholonomic() -> list[Exercise | ChoiceExercise]:
    """P for the knife edge; which u₃ works with the constrained T; the parking drift."""
    return [
        Exercise(
            key="projection", example="nonholonomic",
            title="The σ-orthogonal projection onto D",
            prompt=(r"For the knife edge, D is spanned by $X_1 = (\cos\phi, \sin\phi, 0)$ and "
                    r"$X_2 = (0, 0, 1)$. With the kinetic-energy metric $\sigma$ of (4.108) in "
                    r"$(\dot x, \dot y, \dot\phi)$, compute the $\sigma$-orthogonal projection "
                    r"$P = X(X^{\mathsf T}\sigma X)^{-1}X^{\mathsf T}\sigma$ (a 3×3 matrix)."),
            answer=lambda s: c.constrained_connection(s).P,
            names=_NAMES,
            hints=(r"First σ: T = m(ẋ² + ẏ²) + ½ m l² φ̇² + m l φ̇(−ẋ sin φ + ẏ cos φ).",
                   "Xᵀσ X comes out diagonal, diag(2m, m l²): its inverse is easy.",
                   "Check your P: P X₁ = X₁, P X₂ = X₂, and P of (−sin φ, cos φ, −1/l) is 0."),
            solution=_projection_steps,
            mistakes=lambda s: [Mistake(
                _euclidean(c.constrained_connection(s).X),
                "That is the Euclidean projection X (XᵀX)⁻¹ Xᵀ: the metric σ must enter, "
                "P = X (Xᵀσ X)⁻¹ Xᵀσ, or the reaction would not be σ-orthogonal to D.",
                "euclidean")],
            example_answer="[[cos(phi)**2, ..., 0], [..., ..., 0], [..., ..., 1]]",
        ),
        ChoiceExercise(
            key="which_u3", example="nonholonomic",
            title="Which u₃ lets the constrained T work?",
            prompt=("Boltzmann–Hamel with the *constrained* T (u₃ = 0 put in before "
                    "differentiating) gives wrong equations for the knife edge with Greenwood's "
                    "u₃ = −ẋ sin φ + ẏ cos φ. The constraint stays the same for any other choice "
                    "of the suppressed frame vector X₃. For which X₃ does the constrained T "
                    "give (4.122)–(4.123)?"),
            options=[
                Option("Greenwood's own, X₃ = (−sin φ, cos φ, 0)",
                       "With it T has the cross term m l u₂ u₃: p₃ = m l u₂ ≠ 0 on the motion, "
                       "and the gyroscopic terms come from p₃γ³, lost when u₃ = 0 goes in "
                       "first."),
                Option("The σ-orthogonal one, X₃ = (−sin φ, cos φ, −1/l)",
                       "Then T has no cross term between allowed and suppressed u's, so p₃ = 0 "
                       "on the motion and nothing is lost; the gyroscopic terms now come from "
                       "p₂γ². The ambient metric enters through the choice of X₃."),
                Option("Greenwood's, doubled: X₃ = 2(−sin φ, cos φ, 0)",
                       "Scaling X₃ scales u₃ and p₃ but keeps the cross term: still wrong."),
                Option("Any of them: the constraint is the same",
                       "The constraint is the same, but p₃ on the motion is not."),
                Option("None of them",
                       "One choice makes p₃ vanish on the motion: try σ⁻¹ of the constraint "
                       "form."),
            ],
            right=_which_u3,
            hints=("Which choice makes ∂T/∂u₃ vanish when u₃ = 0?",),
        ),
        ChoiceExercise(
            key="parking", example="nonholonomic", kind="predict",
            title="Predict: the parallel-parking drift",
            prompt=(r"Start at $x = y = \phi = 0$. Drive forward ($u_1 = \varepsilon$) for 1 s, "
                    r"turn ($u_2 = \varepsilon$) for 1 s, drive back ($u_1 = -\varepsilon$) for "
                    r"1 s, turn back ($u_2 = -\varepsilon$) for 1 s. Where does particle 1 end, "
                    r"relative to the blade's first heading (the $x$-axis)?"),
            options=[
                Option("Back where it started: each motion was undone",
                       "The flows do not commute: undoing them in the same order leaves the "
                       "bracket ε²[X₁, X₂] behind."),
                Option("To the left (+y), by about ε",
                       "First order cancels; what is left is of order ε²."),
                Option("To the left (+y), by about ε²",
                       "Order ε² is right; the side comes from [X₁, X₂] = (sin φ, −cos φ, 0)."),
                Option("To the right (−y), by about ε²",
                       "[X₁, X₂] = (sin φ, −cos φ, 0) at φ = 0 is (0, −1, 0): ε² to the right, "
                       "across the blade — a direction D does not contain."),
                Option("To the right (−y), by about ε",
                       "First order cancels; what is left is of order ε²."),
            ],
            right=lambda s: pick({"none": 0, "left_1": 1, "left_2": 2, "right_2": 3,
                                  "right_1": 4}, _parking_outcome(s)),
            then="Now run the manoeuvre below and read the measured drift and its slope.",
        ),
    ]
