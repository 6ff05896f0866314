"""Exercises on the knife edge under the constrained connection (§7.9 reconstructed, ours):
the symbols Γ̃^x, the blade force from the D^⊥ part, which u₃ lets the constrained T work, and
the parking manoeuvre's drift (the projection P is an exercise of the notebook).

Every expected answer, known mistake and right option is computed by the engine."""

from __future__ import annotations

import numpy as np

from companion.examples.nonholonomic import connection as c
from companion.examples.nonholonomic import steering
from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise
from companion.exercises.outcomes import decided_by, is_zero, pick
from companion.mechanics.derivation import Step
from companion.system import System

_EX = Declare("nonholonomic", names=("x", "y", "phi", "u_1", "u_2", "m", "l"))


def _connection_steps(system: System) -> list[Step]:
    con = c.constrained_connection(system)
    return [Step("Metric σ of T(q, q̇)", con.sigma, "(4.108)",
                 "T of (4.108) with u = Ψ q̇, differentiated twice by the q̇'s.", r"\sigma"),
            Step("Allowed directions X = first two columns of Φ", con.X, "(4.111)",
                 "D is spanned by the frame vectors of the unsuppressed u's.", "X"),
            Step("σ-orthogonal projection onto D", con.P, None,
                 "P = X (Xᵀσ X)⁻¹ Xᵀσ: P X = X, and σ(P v, w − P w) = 0.", "P"),
            Step("Christoffel symbols of ∇̃", con.Gamma_tilde, None,
                 "Γ̃ = Γ + ∇P^⊥ (ours, after A. D. Lewis).", r"\tilde\Gamma"),
            Step("Reaction on the motion", con.reaction, None,
                 "σ(q̈ + Γ(q̇, q̇)) with q̈ from ∇̃_c′c′ = 0: a multiple of ω³.", "R"),
            Step("Its multiplier", con.multipliers, None, "λ = R(X₃).", r"\lambda")]


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


def _loop_outcome(system: System) -> int:
    """Simulate the circle of the steering explorer: 0 when q returns and ∮u₁ dt vanishes,
    1 when q returns and ∮u₁ dt does not, 2 when q does not return."""
    model = steering.SteeredKnifeEdge()
    run = model.simulate(params=steering.MANOEUVRES["circle"])
    x, y, phi = run.states[:, -1] - run.states[:, 0]
    back = max(abs(x), abs(y), abs(steering.heading_error(phi, 0.0))) < 1e-8
    return 2 if not back else int(abs(run["theta_1"][-1]) > 1e-8)


def nonholonomic() -> list[Exercise | ChoiceExercise]:
    """Γ̃^x and λ for the knife edge; which u₃ works with the constrained T; the parking
    drift."""
    return [
        _EX.typed("gamma_tilde", "The Christoffel symbols Γ̃ˣ of the constrained connection", (
            r"With $\sigma$ of (4.108) in $(\dot x, \dot y, \dot\phi)$, its Levi-Civita "
            r"symbols $\Gamma$ and the $\sigma$-orthogonal projection $P$ onto "
            r"$D = \operatorname{span}(X_1, X_2)$, compute the matrix "
            r"$\tilde\Gamma^{x}_{kl} = \Gamma^{x}_{kl} + "
            r"(\nabla_k P^\perp)^{x}{}_l$ "
            r"(row $k$, column $l$, both over $x, y, \phi$)."),
            answer=lambda s: c.constrained_connection(s).Gamma_tilde[0],
            hints=("σ and P depend on φ only: every entry with k ≠ φ is zero.",
                   r"$(\nabla_k P^\perp)^i{}_l = \partial_k P^{\perp i}{}_l + \Gamma^i_{ka} "
                   r"P^{\perp a}{}_l - P^{\perp i}{}_a \Gamma^a_{kl}$.",
                   "Check: with q̇ = v X₁ + φ̇ X₂, ẍ = −Γ̃ˣ(q̇, q̇) must be d/dt(v cos φ) with v̇ "
                   "and φ̈ of (4.122)–(4.123)."),
            solution=_connection_steps,
            mistakes=lambda s: [Mistake(
                c.constrained_connection(s).Gamma[0],
                r"That is $\Gamma^x$ of σ itself: the term $(\nabla_k P^\perp)^x{}_l$, which keeps "
                "the motion in D, "
                "is missing.", "projection_missing")],
            example_answer="[[0, 0, 0], [0, 0, 0], [..., ..., 0]]",
        ),
        _EX.typed("blade_force", r"The blade force from the $D^\perp$ part", (
            r"On the motion $\tilde\nabla_{c'}c' = 0$ with "
            r"$\dot q = v X_1 + \dot\phi X_2$, "
            r"the constraint supplies $R = \sigma(\ddot q + \Gamma(\dot q, \dot q)) = "
            r"\lambda\,\omega^3$. Find $\lambda$ in terms of $m, l, v, \dot\phi$."),
            answer=lambda s: c.constrained_connection(s).multipliers[0],
            aliases={"v": "u_1", "phidot": "u_2"},
            hints=("λ = R(X₃) with X₃ = (−sin φ, cos φ, 0), the third column of Φ (4.111).",
                   "Only particle 1 carries the blade: λ turns its velocity v X₁ at the rate φ̇."),
            solution=_connection_steps,
            mistakes=lambda s: [Mistake(
                -c.constrained_connection(s).multipliers[0],
                "Check the sign: at φ = 0 with v, φ̇ > 0, particle 1 must be pushed towards +y.",
                "sign")],
            example_answer="m*v*...",
        ),
        _EX.choice("which_u3", "Which u₃ lets the constrained T work?", (
            "Boltzmann–Hamel with the *constrained* T (u₃ = 0 put in before "
            "differentiating) gives wrong equations for the knife edge with Greenwood's "
            "u₃ = −ẋ sin φ + ẏ cos φ. The constraint stays the same for any other choice "
            "of the suppressed frame vector X₃. For which X₃ does the constrained T "
            "give (4.122)–(4.123)?"),
            ("Greenwood's own, X₃ = (−sin φ, cos φ, 0)",
             "With it T has the cross term m l u₂ u₃: p₃ = m l u₂ ≠ 0 on the motion, "
             "and the gyroscopic terms come from p₃γ³, lost when u₃ = 0 goes in "
             "first."),
            ("The σ-orthogonal one, X₃ = (−sin φ, cos φ, −1/l)",
             "Then T has no cross term between allowed and suppressed u's, so p₃ = 0 "
             "on the motion and nothing is lost; the gyroscopic terms now come from "
             "p₂γ². The ambient metric enters through the choice of X₃."),
            ("Greenwood's, doubled: X₃ = 2(−sin φ, cos φ, 0)",
             "Scaling X₃ scales u₃ and p₃ but keeps the cross term: still wrong."),
            ("Any of them: the constraint is the same",
             "The constraint is the same, but p₃ on the motion is not."),
            ("None of them",
             "One choice makes p₃ vanish on the motion: try σ⁻¹ of the constraint "
             "form."),
            right=_which_u3,
            hints=("Which choice makes ∂T/∂u₃ vanish when u₃ = 0?",),
        ),
        _EX.predict("parking", "Predict: the parallel-parking drift", (
            r"Start at $x = y = \phi = 0$. Drive forward ($u_1 = \varepsilon$) for 1 s, "
            r"turn ($u_2 = \varepsilon$) for 1 s, drive back ($u_1 = -\varepsilon$) for "
            r"1 s, turn back ($u_2 = -\varepsilon$) for 1 s. Where does particle 1 end, "
            r"relative to the blade's first heading (the $x$-axis)?"),
            ("Back where it started: each motion was undone",
             "The flows do not commute: undoing them in the same order leaves the "
             "bracket ε²[X₁, X₂] behind."),
            ("To the left (+y), by about ε",
             "First order cancels; what is left is of order ε²."),
            ("To the left (+y), by about ε²",
             "Order ε² is right; the side comes from [X₁, X₂] = (sin φ, −cos φ, 0)."),
            ("To the right (−y), by about ε²",
             "[X₁, X₂] = (sin φ, −cos φ, 0) at φ = 0 is (0, −1, 0): ε² to the right, "
             "across the blade — a direction D does not contain."),
            ("To the right (−y), by about ε",
             "First order cancels; what is left is of order ε²."),
            right=decided_by(_parking_outcome, {"none": 0, "left_1": 1, "left_2": 2, "right_2": 3,
                                                "right_1": 4}),
            then="Now run the manoeuvre below and read the measured drift and its slope.",
        ),
        _EX.choice("closed_loop", "∮u₁ dt around a closed loop", (
            r"In the steering explorer, the preset *a closed loop* drives four legs "
            r"at $u_1 = 1$ m/s, $u_2 = \pi/2$ rad/s: the blade goes once round a circle "
            r"and $q = (x, y, \phi)$ comes back (φ by a whole turn). What does "
            r"$\theta_1 = \int u_1\,dt$ do, and what follows for $\theta_1$?"),
            ("It comes back too: θ₁ is a function of q, like x, y, φ",
             "Read θ₁ at the end of the loop in the explorer."),
            ("It grows by 4 m while q comes back: θ₁ is no function of q (a "
             "quasi-coordinate)",
             "u₁ = ẋ cos φ + ẏ sin φ is not the rate of any function of q: "
             "cos φ dx + sin φ dy is not exact, so its integral depends on the path, "
             "and around a closed loop it need not vanish."),
            ("q does not come back, so nothing follows",
             "Read x, y and φ at the end of the loop: they return (φ by 2π)."),
            right=_loop_outcome,
            hints=("Is cos φ dx + sin φ dy the differential of some f(x, y, φ)? Compare "
                   "∂(cos φ)/∂y with ∂(sin φ)/∂x, and ∂(cos φ)/∂φ with ∂(0)/∂x.",),
            then="The parking preset shows the other side: ∮u₁ dt = 0 there, yet q moves.",
        ),
    ]
