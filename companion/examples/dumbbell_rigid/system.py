"""Greenwood §4.4: the knife-edge dumbbell of Example 4.4 as *one* rigid body, written about a
reference point P away from its mass centre — the knife edge itself.

The body has mass 2m, its mass centre G halfway along the rod (ρ_c = (l/2) â_x from P), and
inertia m l² about the vertical through P (central inertia m l²/2, plus 2m (l/2)² by parallel
axes, which the engine adds).  The general dynamical equation (4.142) with these ρ_c terms
(4.139)/(4.140) must give (4.122)–(4.123) again, as the two-particle form does.  The same
coordinates, speeds and kinetic energy as Example 4.4 (so every other method applies too).

Also: d'Alembert's principle carried to the general dynamical equation on the knife edge,
step by step ((4.124, by position)–(4.132), through (4.127, by position)–(4.128, by position)
and (4.131, by position)): :func:`dalembert_steps`.
"""

from __future__ import annotations

from functools import cache, partial

import sympy as sp
import sympy.physics.mechanics as me

from companion.examples.knife_edge import system as knife_edge
from companion.mechanics.derivation import Step
from companion.mechanics.model import MechanicsModel
from companion.system import System


def rigid_model(m: sp.Symbol, l: sp.Symbol) -> MechanicsModel:
    """One rigid body, mass 2m, reference point P at the knife edge (x, y)."""
    (x, y, phi), N, A, O = knife_edge.rod_frames()
    P = O.locatenew("P", x * N.x + y * N.y)  # the knife edge
    G = P.locatenew("G", l / 2 * A.x)  # the mass centre, halfway along the rod
    central = me.inertia(A, 0, m * l**2 / 2, m * l**2 / 2)  # two masses m at ±l/2 from G
    body = me.RigidBody("dumbbell", G, A, 2 * m, (central, G))
    return MechanicsModel(frame=N, q=[x, y, phi], bodies=[body], reference_points={"dumbbell": P},
                          frames=knife_edge.FRAMES)


def build() -> System:
    system = knife_edge.build()
    m, l = system.parameter_symbols
    return system.variant(
        name="dumbbell_rigid",
        title="The knife-edge dumbbell as one rigid body about the knife edge (§4.4)",
        mechanics_model=partial(rigid_model, m, l))


#: Example 4.4's two-particle system, whose coefficients d'Alembert's principle uses.
_two_particles = cache(knife_edge.build)


def dalembert_steps(system: System) -> list[Step]:
    """D'Alembert's principle to the general dynamical equation on the knife edge.

    The virtual displacements allowed by the knife edge, δq = Φ δθ with δθ₃ = 0, move particle
    1 only along the rod; the generalized applied and inertia forces Q_j, Q*_j follow by
    projecting on the velocity coefficients, and the knife-edge force, perpendicular to the
    rod at particle 1, does no virtual work — which is why it never appears.
    """
    phi = system.q[2]
    kane = _two_particles().derive("kane")  # the two particles' coefficients
    phi_k = sp.Matrix(kane.kinematics).jacobian(system.u_independent)
    dtheta = sp.symbols(r"\delta\theta_1 \delta\theta_2")
    dq = phi_k * sp.Matrix(dtheta)
    psi, _ = system.psi
    constraint_row = psi[len(system.u_independent):, :]
    dr = [sum((c * d for c, d in zip(row, dtheta, strict=True)), sp.zeros(3, 1))
          for row in knife_edge.velocity_coefficients(system, kane)]
    lam = sp.Symbol("lambda")
    reaction = lam * sp.Matrix([-sp.sin(phi), sp.cos(phi), 0])  # on particle 1, across the rod
    reaction_work = sp.simplify((reaction.T * dr[0])[0])
    q_star = kane.step("inertia_forces").expr
    q_applied = kane.step("applied_forces").expr
    return [
        Step("D'Alembert's principle Σ_i (F_i + R_i − m_i a_i)·δr_i = 0",
             r"\sum_i (F_i + R_i - m_i a_i)\cdot\delta r_i = 0", "(4.124, by position)",
             "The applied forces F_i, the constraint forces R_i and the inertia forces −m_i a_i "
             "do no net virtual work in every virtual displacement the constraints allow."),
        Step("Virtual displacements the knife edge allows: δq = Φ δθ, δθ₃ = 0", dq, "(4.126)",
             "Only the first n − m columns of Φ: the suppressed u₃ (sideways slip) gets no "
             "virtual displacement.", r"\delta q"),
        Step("They satisfy the constraint: a δq = 0", sp.simplify(constraint_row * dq), None,
             "The constraint row of Ψ annihilates every allowed δq.", r"a\,\delta q"),
        Step("δr_i = Σ_j γ_ij δθ_j (components in the inertial frame N)", dr, "(4.126)",
             "Particle 1 moves only along the rod; particle 2 also swings across it.", None),
        Step("The knife-edge force does no virtual work: R·δr₁ = 0", reaction_work, None,
             "R = λ(−sin φ, cos φ) acts on particle 1 across the rod, perpendicular to γ₁₁ and "
             "γ₁₂, so it drops out of the principle: no multiplier is needed.",
             r"R\cdot\delta r_1"),
        Step("The principle in the independent δθ_j",
             r"\sum_j \Big[\sum_i (F_i - m_i a_i)\cdot\gamma_{ij}\Big]\,\delta\theta_j = 0",
             "(4.127, by position)–(4.128, by position)",
             "Put δr_i = Σ_j γ_ij δθ_j into the principle and collect the coefficient of each "
             "δθ_j; the constraint forces have already dropped out.", None),
        Step("Generalized applied forces Q_j = Σ_i F_i·γ_ij", q_applied, "(4.129)",
             "The plane is horizontal and smooth: no applied force works.", "Q"),
        Step("Generalized inertia forces Q*_j = −Σ_i m_i a_i·γ_ij", q_star, "(4.130)",
             "The inertia forces projected on the same coefficients.", "Q^*"),
        Step("Σ_j (Q_j + Q*_j) δθ_j = 0", sp.Eq(sp.expand(sum(
                 ((a + b) * d for a, b, d in zip(q_applied, q_star, dtheta, strict=True)),
                 sp.Integer(0))), 0), "(4.131, by position)",
             "The principle written with the generalized forces just defined.", None),
        Step("δθ_j independent ⇒ Q_j + Q*_j = 0", [sp.Eq(-e, 0) for e in q_star], "(4.132)",
             "Each coefficient of an independent δθ_j vanishes: (4.122)–(4.123).", None),
    ]
