"""Exercises on the bridge's ideas (ours): Hamel's γ^j_rl are the structure functions of the
frame (constant for a left-invariant one, the other sign for the space components of ω), and
Greenwood's gyroscopic term is −A B(ω, ω).  Every answer, mistake and right option is computed
by the engine."""

from __future__ import annotations

import sympy as sp

from companion.examples.bridge import computations
from companion.examples.rigid_body_so3.exercises import _MOMENTS, _OMEGA
from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise
from companion.exercises.outcomes import decided_by
from companion.mechanics import quasi_velocities as qv
from companion.mechanics.derivation import Step
from companion.system import System

_EX = Declare("bridge")


def _gamma_1(Psi: sp.Matrix, q) -> sp.Matrix:
    """γ¹ = Φᵀ C¹ Φ (4.96), by the engine's Boltzmann–Hamel functions."""
    Phi = qv.inverse(Psi)
    return (Phi.T * qv.c_matrices(Psi, q)[0] * Phi).applyfunc(sp.simplify)


def _spatial_steps(system: System) -> list[Step]:
    Psi = computations.bracket_sign_on_so3(system)["Psi_spatial"]
    return [Step("Ψ of the space components ω_s = R ω", Psi, None,
                 "Rows ω^j: the body rows of (4.89) turned by the attitude R (ours).",
                 r"\Psi_s"),
            Step("γ¹ = Φᵀ C¹ Φ", _gamma_1(Psi, system.q), None,
                 "Greenwood's formula with this Ψ: −ε_1rl, the bracket's other sign (ours).",
                 r"\gamma^1")]


def _why_constant(system: System) -> tuple[bool, bool]:
    """(Example 4.4's frame is left-invariant, the fixed-axes frame's γ's are constant)."""
    frame = computations.knife_edge_frame()
    invariant = all(v == sp.zeros(*v.shape) for v in frame["pushforward"])
    fixed_constant = all(not g.free_symbols for g in frame["fixed_axes"])
    return invariant, fixed_constant


def bridge() -> list[Exercise | ChoiceExercise]:
    """γ¹ for the space components of ω, the gyroscopic column, and why Example 4.4's γ's are
    constant."""
    return [
        _EX.typed("spatial_gamma", "Hamel's γ¹ for the space components of ω", (
            r"Greenwood's $u$'s in Example 4.3 are the *body* components of ω, and "
            r"$\gamma^1 = \varepsilon_{1rl}$. Take instead the components of ω along "
            r"axes fixed in space, $\omega_s = R\,\omega$: their fields $X_r$ are "
            r"right-invariant. Give the matrix $\gamma^1$ (row $r$, column $l$) for "
            r"this frame."),
            answer=lambda s: _gamma_1(computations.bracket_sign_on_so3(s)["Psi_spatial"], s.q),
            names=("phi",),
            hints=("Constant again: right-invariant fields have constant brackets too.",
                   "Right-invariant fields bracket with the opposite sign of left-invariant "
                   "ones."),
            solution=_spatial_steps,
            mistakes=lambda s: [Mistake(
                _gamma_1(s.psi[0], s.q),
                "That is the body frame's γ¹ (left-invariant fields, [X_a, X_b] = X_{a×b}); "
                "fields fixed in space bracket with the other sign.")],
            example_answer="[[a, b, c], [d, e, f], [g, h, i]]",
        ),
        _EX.typed("gyroscopic", "The gyroscopic column of Example 4.3", (
            r"With $p = A\omega$, $A = \mathrm{diag}(I_{xx}, I_{yy}, I_{zz})$ and "
            r"$\gamma^j_{rl} = \varepsilon_{jrl}$, compute the column "
            r"$\sum_j p_j \gamma^j \omega$ of Greenwood's (4.92) for Example 4.3."),
            answer=lambda s: computations.gyroscopic(s).applyfunc(sp.expand),
            names=(*_OMEGA, *_MOMENTS),
            hints=(r"Entry r is $\sum_j \sum_l p_j \gamma^j_{rl} \omega_l = "
                   r"\sum_j \sum_l \varepsilon_{jrl} p_j \omega_l$.",
                   r"Since $\varepsilon_{jrl} = \varepsilon_{rlj}$, that is "
                   r"$\sum \varepsilon_{rlj} \omega_l p_j = (\omega \times p)_r$.",
                   r"The first entry is $(I_{zz} - I_{yy})\,\omega_y \omega_z$."),
            solution=lambda s: s.derive("boltzmann_hamel").steps,
            example_answer="[a, b, c]",
        ),
        _EX.choice("why_constant", "Why are Example 4.4's γ's constant?", (
            r"In Example 4.4, $X_1 = (\cos\varphi, \sin\varphi, 0)$ depends on φ, yet "
            r"the γ's (4.117)–(4.119) are constant. Why?"),
            ("Its frame is left-invariant on SE(2)",
             "The body velocities of SE(2) are left-invariant fields: their brackets "
             "have constant coefficients, as on SO(3) in Example 4.3."),
            ("The constraint is holonomic",
             "It is not: γ³₁₂ = −1 ≠ 0, the γ-test fails."),
            ("Any frame built from sines and cosines of φ gives constant γ's",
             "The fixed-axes frame u₁ = ẋ uses them too, and its γ³₁₂ = −sec φ "
             "varies."),
            ("Because T does not depend on x and y",
             "The γ's come from Ψ alone; T plays no part in them."),
            right=decided_by(_why_constant, {(True, False): 0, (True, True): 2, (False, False): 3,
                                             (False, True): 2}),
        ),
    ]
