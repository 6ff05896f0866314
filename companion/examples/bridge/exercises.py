"""An exercise on the bridge's first idea (ours): Hamel's γ^j_rl = ⟨ω^j, [X_r, X_l]⟩ are the
structure functions of the frame, so the space components of ω (a right-invariant frame on
SO(3)) give the bracket's other sign.  The answer and the mistake are computed by the engine."""

from __future__ import annotations

from companion.examples.bridge import computations
from companion.exercises.check import Mistake
from companion.exercises.exercise import Exercise
from companion.mechanics.derivation import Step
from companion.system import System


def _spatial_steps(system: System) -> list[Step]:
    frames = computations.bracket_sign_on_so3()
    return [Step("Ψ of the space components ω_s = R ω", frames["Psi_spatial"], None,
                 "Rows ω^j: the body rows of (4.89) turned by the attitude R (ours).",
                 r"\Psi_s"),
            Step("γ¹ = ⟨ω¹, [X_r, X_l]⟩", frames["spatial"][0], None,
                 "The structure functions of the right-invariant frame: −ε_1rl (ours).",
                 r"\gamma^1")]


def bridge() -> list[Exercise]:
    """γ¹ for the space components of ω."""
    return [
        Exercise(
            key="spatial_gamma", example="bridge",
            title="Hamel's γ¹ for the space components of ω",
            prompt=(r"Greenwood's $u$'s in Example 4.3 are the *body* components of ω, and "
                    r"$\gamma^1 = \varepsilon_{1rl}$. Take instead the components of ω along "
                    r"axes fixed in space, $\omega_s = R\,\omega$: their fields $X_r$ are "
                    r"right-invariant. Give the matrix $\gamma^1$ (row $r$, column $l$) of "
                    r"$\gamma^1_{rl} = \langle \omega^1, [X_r, X_l]\rangle$ for this frame."),
            answer=lambda s: computations.bracket_sign_on_so3()["spatial"][0],
            names=(),
            hints=("Constant again: right-invariant fields have constant brackets too.",
                   "Right-invariant fields bracket with the opposite sign of left-invariant "
                   "ones: [X_a, X_b] = −X_{a×b}."),
            solution=_spatial_steps,
            mistakes=lambda s: [Mistake(
                computations.bracket_sign_on_so3()["body"][0],
                "That is the body frame's γ¹ (left-invariant fields, [X_a, X_b] = X_{a×b}); "
                "fields fixed in space bracket with the other sign.")],
            example_answer="[[a, b, c], [d, e, f], [g, h, i]]",
        ),
    ]
