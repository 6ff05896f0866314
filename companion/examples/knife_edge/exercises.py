"""Exercises on Greenwood Example 4.4 (C¹, v̇, φ̈, λ) and on the same dumbbell by the
general dynamical equation of §4.4 (a velocity coefficient, a generalized inertia force),
and the variants of the dumbbell an assignment draws per student (:func:`variants`).

Every expected answer, known mistake and solution is taken from the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import cache

import numpy as np
import sympy as sp

from companion.examples.euler_body.exercises import _C_ORDER
from companion.examples.knife_edge.system import (
    TIGHT_TURN,
    build,
    plain_symbols,
    velocity_coefficients,
)
from companion.examples.nonholonomic.connection import constrained_T_first
from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise, keyed, steps_keyed
from companion.exercises.outcomes import decided_by, is_zero, pick
from companion.exercises.variant import Variant
from companion.mechanics.derivation import Step
from companion.system import Parameter, System

_KNIFE_ALIASES = {"v": "u_1", "phidot": "u_2"}
_EX = Declare("knife_edge", names=("x", "y", "phi", "u_1", "u_2", "u_3", "m", "l"))


def knife_edge(system: System | None = None) -> list[Exercise | ChoiceExercise]:
    """C¹, v̇, φ̈ and the knife-edge force λ for the dumbbell of Example 4.4; which C^j vanish;
    which way the dumbbell turns, forwards and backwards.

    Posed on ``system``, a variant of it (:func:`variants`), the prompts state that system's
    own quasi-velocities and kinetic energy, and the hints, which speak of the book's, are
    left out.  The predictions are always about the book's dumbbell: on a variant the outcome
    depends on the student's numbers and can fall outside the options, so for a variant their
    prompts say they ask about the book's, and the engine decides them on it.
    """
    d = lambda s: s.derive()  # noqa: E731 - the shared, cached derivation
    variant = system is not None
    system = build() if system is None else system
    own = system.definition  # a variant's quasi-velocities and T are stated in its prompts
    speeds = ", ".join(f"${sp.latex(u)} = {sp.latex(e)}$"
                       for u, e in zip(own.u, own.definitions, strict=True))
    hints = (lambda *given: ()) if variant else (lambda *given: given)
    book = build() if variant else None
    on = (lambda s: book) if variant else (lambda s: s)  # noqa: E731
    theirs = "The book's dumbbell of Example 4.4 (not your variant): " if variant else ""
    turning = {"constant": 0, "slower_v_up": 1, "faster_v_down": 2, "faster_v_up": 3}
    backwards = {"slower_v_up": 0, "rise_then_fall": 1, "faster_v_up": 2, "faster_v_down": 2,
                 "constant": 3}
    v0, w0 = TIGHT_TURN["u_1"], TIGHT_TURN["u_2"]
    too_early = ("That is what the constrained T gives: put u_3 = 0 only after "
                 "differentiating, because the gyroscopic terms come from p_3 = ∂T/∂u_3.")
    return [
        _EX.typed("C1", "The coefficients C¹ of the forward speed", (
            rf"The speed along the knife edge is $u_1 = {sp.latex(own.definitions[0])}$ with "
            r"$q = (x, y, \phi)$. Compute $C^1_{ik} = \partial\Psi_{1i}/\partial q_k - "
            r"\partial\Psi_{1k}/\partial q_i$ (row $i$, column $k$)."),
            answer=lambda s: d(s).C[0],
            hints=hints("Ψ_1• = (cos φ, sin φ, 0) depends on φ only, so only derivatives by "
                        "q_3 = φ survive.",
                        "The only non-zero entries are in the third row and the third column."),
            solution=lambda s: [
                *steps_keyed(d(s), "psi"),
                Step("C¹ for u_1", d(s).C[0], "(4.115)", "The first of the matrices Cʲ.",
                     "C^{1}"),
            ],
            mistakes=lambda s: [Mistake(d(s).C[2], "That is C³, from the constraint u_3.")],
            skew_hint=_C_ORDER,
            example_answer="[[0, 0, a], [0, 0, b], [-a, -b, 0]]",
        ),
        _EX.typed("vdot", "The forward acceleration v̇", (
            r"Apply the Boltzmann–Hamel equation for $r = 1$ with the unconstrained "
            rf"kinetic energy $T = {sp.latex(own.T)}$"
            + ("" if variant else " (4.108)")
            + r" and then $u_3 = 0$. Give $\dot v = \dot u_1$ in "
            r"terms of $l$, $v = u_1$ and $\dot\phi = u_2$."),
            answer=lambda s: d(s).accelerations()[0],
            aliases=_KNIFE_ALIASES,
            hints=hints("T does not depend on x, y or φ, so ∂T/∂θ_1 = 0.",
                        "The term Σ_j p_j γʲ₁ₗ u_l is fed by p_3 = m(2u_3 + l u_2), which is not "
                        "zero when u_3 = 0.",
                        "With p_1 = 2m u_1 the equation reads 2m v̇ = (something) φ̇²."),
            solution=lambda s: [
                *steps_keyed(d(s), "momenta", "gyroscopic", "equations"),
                Step("Solved for the accelerations", d(s).accelerations(), "(4.122)–(4.123)",
                     "First row: v̇; second row: φ̈.", r"\dot u"),
            ],
            mistakes=lambda s: [Mistake(constrained_T_first(s).accelerations()[0], too_early,
                                        "constraint_too_early")],
            example_answer="an expression in l, u_1 and u_2",
        ),
        _EX.typed("phiddot", "The turning acceleration φ̈", (
            r"From the $r = 2$ Boltzmann–Hamel equation, give $\ddot\phi = \dot u_2$ in "
            r"terms of $l$, $v = u_1$ and $\dot\phi = u_2$."),
            answer=lambda s: d(s).accelerations()[1],
            aliases=_KNIFE_ALIASES,
            hints=hints("p_2 = m(l² u_2 + l u_3), so the u̇_2 coefficient is m l².",
                        "The gyroscopic term of row 2 comes from p_3 γ³_21 u_1 with γ³_21 = 1."),
            solution=lambda s: [
                *steps_keyed(d(s), "gyroscopic", "equations"),
                Step("Solved for the accelerations", d(s).accelerations(), "(4.122)–(4.123)",
                     "Second row: φ̈.", r"\dot u"),
            ],
            mistakes=lambda s: [Mistake(constrained_T_first(s).accelerations()[1], too_early,
                                        "constraint_too_early")],
            example_answer="an expression in l, u_1 and u_2",
        ),
        _EX.typed("lambda", "The knife-edge force λ", (
            r"The third Boltzmann–Hamel row ($r = 3$, the suppressed $u_3$) is not an "
            r"equation of motion: its left side is the generalized constraint force "
            r"$\lambda$ the knife edge must supply. Evaluate it on the motion and give "
            r"$\lambda$ in terms of $m$, $l$, $v = u_1$ and $\dot\phi = u_2$."),
            answer=lambda s: d(s).constraint_forces()[0],
            aliases=_KNIFE_ALIASES,
            hints=hints("Write row 3 with p_3 = m(2u_3 + l u_2): it contains u̇_2 and the γ terms.",
                        "Replace u̇_2 by the φ̈ you found from row 2.",
                        "The l's cancel: the force depends on m, v and φ̇ only."),
            solution=lambda s: [
                *steps_keyed(d(s), "momenta", "equations"),
                Step("Row r = 3 of (4.85) on the constrained motion", d(s).constraint_rows,
                     None, "Its value is the generalized force the constraint must supply.",
                     r"\lambda"),
                Step("With φ̈ from row 2", d(s).constraint_forces(), None,
                     "The knife-edge force, along the axle direction of particle 1.",
                     r"\lambda"),
            ],
            mistakes=lambda s: [Mistake(constrained_T_first(s).constraint_forces()[0], too_early,
                                        "constraint_too_early")],
            example_answer="an expression in m, l, u_1 and u_2",
        ),
        _EX.choice("which_C", "Which Cʲ vanish, and why", (
            f"The quasi-velocities are {speeds}, the last one constrained to zero. "
            r"Which of the matrices $C^1, C^2, C^3$ are zero?"),
            ("Only C², because u₂ = φ̇ is the rate of a coordinate",
             "Its row of Ψ is (0, 0, 1), constant, so every derivative in C² "
             "vanishes. u₁ and u₃ mix ẋ and ẏ with weights that depend on φ: no "
             "coordinate has them as its rate."),
            ("Only C³, because the constraint makes u₃ = 0",
             "u₃ = 0 on the motion, but C³ is built from the row of Ψ, "
             "(−sin φ, cos φ, 0), which depends on φ: C³ ≠ 0 (that is where the "
             "gyroscopic terms of the constrained equations come from)."),
            ("None of them",
             "Look at the row of u₂ = φ̇: it is constant."),
            ("All three, because T does not depend on x, y or φ",
             "Cʲ comes from Ψ alone, not from T."),
            right=decided_by(lambda s: tuple(map(is_zero, d(s).C)),
                             {(False, True, False): 0, (False, False, True): 1,
                              (False, False, False): 2, (True, True, True): 3}),
            hints=("Cʲᵢₖ = ∂Ψ_ji/∂q_k − ∂Ψ_jk/∂q_i: which rows of Ψ depend on q?",),
        ),
        _EX.predict("turning", "Predict: which way the dumbbell turns", (
            theirs + "Start the dumbbell as the explorer's “tight turn” preset does: "
            rf"forward speed $v_0 = {v0:g}$ m/s and turning rate $\dot\phi_0 = {w0:g}$ rad/s, "
            r"no forces. What happens to $\dot\phi$ and $v$?"),
            ("Both stay constant: no force acts in the plane",
             "The knife edge does act: its sideways force changes the direction of "
             "particle 1's velocity and couples v and φ̇."),
            ("The turning slows down while v grows",
             "v̇ grows with φ̇² and is never negative, while φ̈ has the sign of −v φ̇: "
             "with v > 0 the turning decays and the energy moves into the forward "
             "motion; the dumbbell straightens into a line."),
            ("The turning speeds up while v drops",
             "Look at the sign of v̇ from the r = 1 equation: it is never negative."),
            ("Both grow: the knife edge pumps energy in",
             "The knife-edge force does no work (it acts across the edge's "
             "velocity): m v² + m l² φ̇²/2 is conserved."),
            right=lambda s: pick(turning, _turning_outcome(on(s), TIGHT_TURN)),
            then="Now press ▶ in the explorer below, opened on tight turn, and watch both rates.",
        ),
        _EX.predict("backwards", "Predict: the dumbbell started backwards", (
            theirs + rf"Now start it backwards: $v_0 = {-v0:g}$ m/s, $\dot\phi_0 = {w0:g}$ "
            r"rad/s. What does the turning rate do?"),
            ("It decays from the start, as when moving forwards",
             "φ̈ has the sign of −v φ̇: with v < 0 the turning first speeds up."),
            ("It first grows, peaks when v passes through zero, then decays",
             "v̇ is never negative, so v rises through zero; φ̈, with the sign of "
             "−v φ̇, changes sign with it, and the dumbbell then straightens out "
             "moving forwards."),
            ("It grows without bound",
             "The energy m v² + m l² φ̇²/2 is conserved, so φ̇ is bounded."),
            ("It stays constant",
             "φ̈ is not zero while the dumbbell moves along the rod."),
            right=lambda s: pick(backwards, _turning_outcome(on(s), {**TIGHT_TURN, "u_1": -v0})),
            then=f"Now set v₀ = −{v0:g} in the explorer below, press ▶ and watch φ̇.",
        ),
    ]


def _partial_velocity(system: System, i: int, j: int) -> sp.Matrix:
    """γ_ij of the general dynamical equation as a column of inertial components."""
    return velocity_coefficients(system, system.derive("kane"))[i][j]


def _inertia_share(system: System, particle: int, j: int) -> sp.Expr:
    """−m v̇_i·γ_ij of one particle, from the engine's accelerations and coefficients."""
    kane = system.derive("kane")
    acc = kane.step("accelerations").expr[particle]
    gam = kane.result("velocity_coefficients")[particle][j]
    mass = next(p for p in system.parameter_symbols if p.name == "m")
    return sp.trigsimp(sp.expand(-mass * acc.dot(gam)).xreplace(plain_symbols(system)))


def knife_edge_kane() -> list[Exercise | ChoiceExercise]:
    """A velocity coefficient and a generalized inertia force of the knife-edge dumbbell; why
    the knife-edge force is absent from Kane's equations; how many speeds they need; how many
    unknowns Lagrange's route solves for against Kane's."""
    coefficient_steps = ("kinematical_equations", "velocities", "velocity_coefficients")
    return [
        _EX.typed("gamma_22", "The velocity coefficient γ₂₂ of particle 2", (
            r"With the independent speeds $u_1 = v$ and $u_2 = \dot\phi$, particle 2 sits "
            r"at $(x + l\cos\phi,\ y + l\sin\phi)$. Its velocity is linear in $u_1, u_2$; "
            r"give the coefficient $\gamma_{22}$ of $u_2$ as a column of its $(x, y, z)$ "
            r"components."),
            answer=lambda s: _partial_velocity(s, 1, 1),
            aliases=_KNIFE_ALIASES,
            hints=("Differentiate particle 2's position and replace ẋ = v cos φ, ẏ = v sin φ "
                   "(the knife edge) before reading off coefficients.",
                   "Only the rod's turning moves particle 2 relative to particle 1."),
            solution=keyed(*coefficient_steps, method="kane"),
            mistakes=lambda s: [Mistake(
                _partial_velocity(s, 1, 0),
                "That is γ₂₁, the coefficient of u₁ = v: the first index is the particle, the "
                "second the speed.", "index_order")],
            example_answer="[a, b, 0]",
        ),
        _EX.typed("Qstar_1", "The generalized inertia force Q*₁", (
            r"Give $Q^*_1 = -\sum_i m\,\dot v_i\cdot\gamma_{i1}$ in terms of $m$, $l$, "
            r"$u_1$, $u_2$ and $\dot u_1$ (type u_1dot)."),
            answer=lambda s: s.derive("kane").step("inertia_forces").expr[0],
            aliases={**_KNIFE_ALIASES, "u_1dot": r"\dot{u_{1}}",
                                         "vdot": r"\dot{u_{1}}"},
            hints=("γ₁₁ = γ₂₁ = (cos φ, sin φ, 0): both particles move with v along the rod.",
                   "Particle 1 accelerates with v̇ along the rod and v φ̇ across it.",
                   "Particle 2 adds the centripetal acceleration −l φ̇² along the rod."),
            solution=keyed(*coefficient_steps, "accelerations", "inertia_forces", method="kane"),
            mistakes=lambda s: [
                Mistake(_inertia_share(s, 0, 0),
                        "That is particle 1 alone: particle 2 moves with u₁ too (γ₂₁ ≠ 0), so "
                        "its inertia force counts as well.", "particle_missing"),
                Mistake(_inertia_share(s, 0, 0) + _inertia_share(s, 1, 0).subs(s.u[1], 0),
                        "Particle 2's centripetal acceleration −l φ̇² along the rod is missing.",
                        "centripetal_missing"),
            ],
            example_answer="-2*m*u_1dot + ...",
        ),
        _EX.choice("force_absent", "Where is the knife-edge force?", (
            r"Kane's equations $Q_j + Q^*_j = 0$ of the dumbbell contain no knife-edge "
            r"force $\lambda$. Why?"),
            ("Its power on every partial velocity is zero",
             "The force acts across the rod at particle 1, while particle 1's "
             "partial velocities γ₁₁ = (cos φ, sin φ, 0) and γ₁₂ = 0 lie along "
             "it: a force that does no work in any motion the constraint allows "
             "drops out."),
            ("The knife-edge force is zero",
             "It is not: the Boltzmann–Hamel route finds a nonzero λ (the third "
             "row of (4.85)), which turns the velocity of particle 1."),
            ("It is included in the inertia forces Q*",
             "Q* contains only m v̇ terms of the two particles."),
            right=lambda s: 0 if _force_absent(s) else 1,
        ),
        _EX.choice("n_speeds", "How many generalized speeds?", (
            r"The dumbbell has three coordinates $(x, y, \phi)$ and one knife-edge "
            r"constraint. How many generalized speeds (and equations) does Kane's form "
            r"need?"),
            ("Two: v and φ̇",
             "Three coordinates minus one nonholonomic constraint: two independent "
             "speeds, two equations. The coordinates still number three."),
            ("Three: one per coordinate",
             "The constraint removes a speed, not a coordinate: the sideways speed "
             "is zero, so it needs no equation."),
            ("Four: two per particle",
             "The rod ties the particles together: their motion has only three "
             "coordinates to begin with."),
            right=lambda s: pick({2: 0, 3: 1, 4: 2}, len(s.u_independent)),
        ),
        _EX.choice("unknowns", "What each route solves for", (
            r"At each instant, Lagrange's equations with a multiplier are solved for "
            r"unknowns taken together (accelerations and multipliers), and so is Kane's "
            r"form. How many for the dumbbell, Lagrange's against Kane's?"),
            ("Four (ẍ, ÿ, φ̈, λ) against two (v̇, φ̈)",
             "n second-order equations and m constraints: n + m = 4 unknowns, "
             "the multiplier among them; Kane's form keeps only the n − m = 2 "
             "independent speeds' rates, with no multiplier."),
            ("Three (ẍ, ÿ, φ̈) against two (v̇, φ̈)",
             "The multiplier λ is an unknown too: the constraint, differentiated, "
             "is the extra equation that fixes it."),
            ("Four against three",
             "Kane's form has no equation for the suppressed sideways speed: "
             "n − m = 2."),
            ("Two against two: both give the same motion",
             "Same motion, not the same system of equations: Lagrange's route "
             "carries every coordinate's acceleration and the multiplier."),
            right=lambda s: pick({(4, 2): 0, (3, 2): 1, (4, 3): 2, (2, 2): 3},
                                 (s.derive("lagrange_multipliers").mass_matrix.rows,
                                  s.derive("kane").mass_matrix.rows)),
            hints=("Count Lagrange's equations and constraints in the forms side by side.",),
        ),
    ]


# --------------------------------------------------------------------------- understanding
def _turning_outcome(system: System, initial: Mapping[str, float] | None = None) -> str:
    """How |φ̇| and v change over the run (simulated from the derived equations)."""
    run = system.simulate(initial=initial)
    turn, v = np.abs(run["u_2"]), run["u_1"]
    if np.ptp(turn) < 1e-6 * (1 + turn[0]) and np.ptp(v) < 1e-6 * (1 + abs(v[0])):
        return "constant"
    peak = int(np.argmax(turn))
    if 0 < peak < len(turn) - 1 and turn[peak] > turn[0] * (1 + 1e-3):
        return "rise_then_fall"
    return ("slower" if turn[-1] < turn[0] else "faster") + ("_v_up" if v[-1] > v[0]
                                                             else "_v_down")


# --------------------------------------------------------------------------- §4.4, Kane's form
def _force_absent(system: System) -> bool:
    """Whether the knife-edge force (across the rod at particle 1) has zero power on every
    partial velocity of particle 1 (from the engine's coefficients)."""
    phi = system.q[2]
    across = sp.Matrix([-sp.sin(phi), sp.cos(phi), 0])
    return all(sp.simplify((across.T * _partial_velocity(system, 0, j))[0]) == 0
               for j in range(len(system.u_independent)))


# --------------------------------------------------------------------------- per-student variants
# Variants of the knife-edge dumbbell for per-student assignments (ours, not the book's).
#
# Example 4.4's blade sits at particle 1, along the rod, and both particles weigh m.  A variant
# turns the blade by an angle β from the rod, moves it a distance a along the rod from
# particle 1, or gives particle 2 a mass m₂ of its own.  The quasi-velocities follow the blade:
# u₁ and u₃ are the velocity of the blade's contact point along and across the blade (u₃ = 0
# is the constraint), u₂ = φ̇; the kinetic energy is the particles' own, in q̇ (the
# definition converts it to the u's by (4.81)).  With β = 0, a = 0 and equal masses this is the
# book's system.

#: The blade's angle to the rod, its distance from particle 1 (a fraction of l), and whether
#: the masses differ: every combination is a variant.
ANGLES = (sp.Integer(0), sp.pi / 6, sp.pi / 4, sp.pi / 3)
OFFSETS = (sp.Integer(0), sp.Rational(1, 4))
UNEQUAL = (False, True)


@cache
def variant_system(angle: sp.Expr, offset: sp.Rational, unequal: bool) -> System:
    """The dumbbell with the blade turned ``angle`` from the rod at ``offset`` l from
    particle 1, particle 2 of mass m₂ when ``unequal`` (built once per variant)."""
    shared = build()
    book = shared.definition
    phi, (xd, yd, phid) = book.q[2], book.qdot
    m, l = book.parameter_symbols
    a = offset * l
    along, across = sp.cos(phi + angle), sp.sin(phi + angle)
    # the blade's contact point moves with (ẋ − a φ̇ sin φ, ẏ + a φ̇ cos φ)
    definitions = [xd * along + yd * across + a * phid * sp.sin(angle), phid,
                   -xd * across + yd * along + a * phid * sp.cos(angle)]
    parameters = list(book.parameters)
    m2 = m
    if unequal:
        m2 = sp.Symbol("m_2", positive=True)
        parameters = [Parameter(m, 1.0, 0.1, 5.0, "kg", "mass of particle 1", positive=True),
                      Parameter(m2, 2.0, 0.1, 5.0, "kg", "mass of particle 2", positive=True),
                      parameters[1]]
    half = sp.Rational(1, 2)
    T = (half * m * (xd**2 + yd**2)
         + half * m2 * ((xd - l * sp.sin(phi) * phid) ** 2 + (yd + l * sp.cos(phi) * phid) ** 2))
    definition = book.replace(definitions=definitions, T_qdot=T, parameters=parameters)
    return System(definition, name="knife_edge_variant",
                  title="Knife-edge dumbbell, a variant (ours)", evaluation=shared.evaluation)


def variants() -> list[Variant]:
    """Every variant, each described by its choices; the book's system is among them, marked
    ``book`` (never drawn for a student)."""
    l = sp.Symbol("l", positive=True)
    found = []
    for (i, angle), (j, offset), unequal in itertools.product(
            enumerate(ANGLES), enumerate(OFFSETS), UNEQUAL):
        choices = {"the knife edge's angle to the rod, β": angle,
                   "its distance from particle 1 along the rod": offset * l,
                   "the masses": ("m at particle 1, m₂ at particle 2" if unequal
                                  else "m each")}
        found.append(Variant(key=f"angle{i}-offset{j}-{'unequal' if unequal else 'equal'}",
                             choices=choices, book=not (i or j or unequal),
                             system=lambda a=angle, o=offset, u=unequal: variant_system(a, o, u)))
    return found
