"""Exercises that test understanding: predictions to check against a run, and conceptual
choices with explained feedback, one set per worked example (``<example>_concepts``).

Which option is right is never typed: each ``right`` function asks the engine — a derivation
(which C^j vanish, whether the γ^j are skew, what a reordered q or a reversed bracket does)
or a simulation of the example's own system (which way the dumbbell turns, whether the disk
rolls, when the body flips).  The explanations say why each option is right or wrong; a
prediction's ``then`` says what to run to see it, in words that give nothing away.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np
import sympy as sp

from companion.exercises.exercise import ChoiceExercise, Option
from companion.mechanics import quasi_velocities as qv
from companion.system import System


def _pick(outcomes: Mapping[Hashable, int], outcome: Hashable) -> int:
    """The option index the engine's outcome selects (an outcome no option covers is an
    error, never a silent default)."""
    if outcome not in outcomes:
        raise ValueError(f"the engine's outcome {outcome!r} matches no option")
    return outcomes[outcome]


def _is_zero(matrix: sp.Matrix) -> bool:
    return all(sp.simplify(e) == 0 for e in matrix)


def _sign_changes(values: np.ndarray) -> np.ndarray:
    """Indices where a sampled series changes sign."""
    signs = np.sign(values)
    return np.nonzero(signs[1:] * signs[:-1] < 0)[0] + 1


def _symbols_named(system: System, *names: str) -> list[sp.Symbol]:
    table = {s.name: s for s in system.parameter_symbols}
    return [table[n] for n in names]


# --------------------------------------------------------------------------- Example 4.3
def _reordered_coefficients(system: System) -> tuple[list, list]:
    """C^j and γ^j recomputed with the coordinates in reverse order (same quasi-velocities)."""
    order = list(reversed(range(len(system.q))))
    q = [system.q[i] for i in order]
    qdot = [system.qdot[i] for i in order]
    psi, _ = qv.psi_from_definitions(system.definitions, qdot)
    c = qv.c_matrices(psi, q)
    return c, qv.gamma_matrices(c, qv.inverse(psi))


def _reorder_outcome(system: System) -> tuple[bool, bool]:
    d = system.derive()
    c, gamma = _reordered_coefficients(system)
    same_c = all(_is_zero(a - b) for a, b in zip(c, d.C, strict=True))
    same_gamma = all(_is_zero(a - b) for a, b in zip(gamma, d.gamma, strict=True))
    return same_c, same_gamma


def _gyroscopic_power(system: System) -> tuple[bool, bool]:
    """(every γ^j skew, the coupling's power Σ_j p_j uᵀγ^j u vanishes) from the derivation."""
    d = system.derive()
    u = sp.Matrix(system.u)
    p = next(s.expr for s in d.steps if s.eq == "(4.87)")
    skew = all(_is_zero(g + g.T) for g in d.gamma)
    power = sum((p[j] * (u.T * g * u)[0] for j, g in enumerate(d.gamma)), sp.Integer(0))
    return skew, sp.simplify(power) == 0


def _flip_outcome(system: System) -> str:
    run = system.simulate()
    flips = _sign_changes(run["omega_y"])
    if len(flips) == 0:
        return "steady"
    if run.t[flips[0]] < 1.0:
        return "early"
    return "repeated" if len(flips) >= 2 else "once"


def euler_body_concepts() -> list[ChoiceExercise]:
    """Reordering q, why the gyroscopic terms do no work, and the flip about the middle axis."""
    return [
        ChoiceExercise(
            key="reorder_q", example="euler_body", title="Reordering the coordinates",
            prompt=(r"Write the same body rates $\omega$ with the coordinates in the order "
                    r"$q = (\phi, \theta, \psi)$ instead of $(\psi, \theta, \phi)$. What happens "
                    r"to the coefficients $C^j$ and $\gamma^j$?"),
            options=[
                Option("The C^j are permuted, the γ^j are unchanged",
                       "C^j_ik carries the coordinate indices i, k, which follow q; γ^j_rl = "
                       "Σ C^j_ik Φ_ir Φ_kl carries only quasi-velocity indices, and the ω's "
                       "did not change."),
                Option("Neither changes",
                       "The rows and columns of C^j are labelled by the coordinates: "
                       "reordering q permutes them."),
                Option("Both are permuted",
                       "Φ is permuted too, and in Φᵀ C^j Φ the two permutations cancel: γ^j is "
                       "labelled by the quasi-velocities only."),
                Option("The γ^j change, the C^j do not",
                       "It is the other way round: C^j follows q, γ^j follows u."),
            ],
            right=lambda s: _pick({(False, True): 0, (True, True): 1, (False, False): 2,
                                   (True, False): 3}, _reorder_outcome(s)),
            hints=("Which indices of C^j_ik and of γ^j_rl belong to q, which to u?",),
        ),
        ChoiceExercise(
            key="no_work", example="euler_body", title="Why the gyroscopic terms do no work",
            prompt=(r"The Boltzmann–Hamel equations (4.85) contain the coupling "
                    r"$\sum_j p_j\,\gamma^j_{rl}\,\omega_l$. Multiplied by $\omega_r$ and "
                    r"summed, it gives the power of these terms. Why is that power zero?"),
            options=[
                Option("Each γ^j is skew-symmetric, so ωᵀ γ^j ω = 0",
                       "A skew matrix gives a vector perpendicular to ω: "
                       "Σ_rl ω_r γ^j_rl ω_l = 0 for every j, whatever the momenta."),
                Option("T does not depend on the Euler angles",
                       "That removes the ∂T/∂θ_r term, a different one. The coupling does no "
                       "work even when T depends on q, because of its skew symmetry."),
                Option("The γ^j are constant matrices here",
                       "They are constant for this body, but a constant matrix can do work "
                       "(ωᵀAω > 0 for a positive A). Only skew symmetry makes the power vanish "
                       "for every ω."),
                Option("It is not zero: the torques balance it",
                       "With M = 0 the kinetic energy is conserved (the explorer's energy "
                       "drift stays at round-off), so the coupling does no work at all."),
            ],
            right=lambda s: _pick({(True, True): 0, (False, False): 3}, _gyroscopic_power(s)),
            hints=("Write the power as Σ_j p_j (ωᵀ γ^j ω).",),
        ),
        ChoiceExercise(
            key="flip", example="euler_body", kind="predict",
            title="Predict: a spin about the middle axis",
            prompt=(r"The explorer's defaults spin the torque-free body about its $y$ axis, "
                    r"$\omega(0) = (0.05, 2, 0.05)$ rad/s, with $I_{xx} = 1 < I_{yy} = 2 < "
                    r"I_{zz} = 3$. What does $\omega_y$ do during the 20 s run?"),
            options=[
                Option("It keeps spinning steadily about y",
                       "A spin about the axis of the middle moment is unstable: the small "
                       "ω_x and ω_z grow instead of staying small."),
                Option("It flips over within the first second",
                       "The wobble starts at 0.05 rad/s and needs a few seconds to grow."),
                Option("It flips after a few seconds, then flips back again and again",
                       "The intermediate-axis (tennis-racket) instability: the small wobble "
                       "grows, the body turns over, and the motion repeats periodically."),
                Option("It flips once and then spins steadily the other way",
                       "The torque-free motion is periodic: a body that flipped once flips "
                       "back after the same time."),
            ],
            right=lambda s: _pick({"steady": 0, "early": 1, "repeated": 2, "once": 3},
                                  _flip_outcome(s)),
            then=("Now press ▶ in the explorer above with the default values and watch ω_y "
                  "in the rates plot."),
        ),
    ]


# --------------------------------------------------------------------------- Example 4.4
def _zero_pattern(system: System) -> tuple[bool, ...]:
    return tuple(_is_zero(c) for c in system.derive().C)


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


def knife_edge_concepts() -> list[ChoiceExercise]:
    """Which C^j vanish; which way the dumbbell turns, forwards and backwards."""
    turning = {"constant": 0, "slower_v_up": 1, "faster_v_down": 2, "faster_v_up": 3}
    backwards = {"slower_v_up": 0, "rise_then_fall": 1, "faster_v_up": 2, "faster_v_down": 2,
                 "constant": 3}
    return [
        ChoiceExercise(
            key="which_C", example="knife_edge", title="Which C^j vanish, and why",
            prompt=(r"The quasi-velocities are $u_1 = \dot x\cos\phi + \dot y\sin\phi$, "
                    r"$u_2 = \dot\phi$ and the constrained "
                    r"$u_3 = -\dot x\sin\phi + \dot y\cos\phi$. "
                    r"Which of the matrices $C^1, C^2, C^3$ are zero?"),
            options=[
                Option("Only C², because u₂ = φ̇ is the rate of a coordinate",
                       "Its row of Ψ is (0, 0, 1), constant, so every derivative in C² "
                       "vanishes. u₁ and u₃ mix ẋ and ẏ with weights that depend on φ: no "
                       "coordinate has them as its rate."),
                Option("Only C³, because the constraint makes u₃ = 0",
                       "u₃ = 0 on the motion, but C³ is built from the row of Ψ, "
                       "(−sin φ, cos φ, 0), which depends on φ: C³ ≠ 0 (that is where the "
                       "gyroscopic terms of the constrained equations come from)."),
                Option("None of them",
                       "Look at the row of u₂ = φ̇: it is constant."),
                Option("All three, because T does not depend on x, y or φ",
                       "C^j comes from Ψ alone, not from T."),
            ],
            right=lambda s: _pick({(False, True, False): 0, (False, False, True): 1,
                                   (False, False, False): 2, (True, True, True): 3},
                                  _zero_pattern(s)),
            hints=("C^j_ik = ∂Ψ_ji/∂q_k − ∂Ψ_jk/∂q_i: which rows of Ψ depend on q?",),
        ),
        ChoiceExercise(
            key="turning", example="knife_edge", kind="predict",
            title="Predict: which way the dumbbell turns",
            prompt=(r"Start the dumbbell with the explorer's defaults: forward speed "
                    r"$v_0 = 0.5$ m/s and turning rate $\dot\phi_0 = 1.5$ rad/s, no forces. "
                    r"What happens to $\dot\phi$ and $v$?"),
            options=[
                Option("Both stay constant: no force acts in the plane",
                       "The knife edge does act: its sideways force changes the direction of "
                       "particle 1's velocity and couples v and φ̇."),
                Option("The turning slows down while v grows",
                       "v̇ = l φ̇²/2 > 0 and φ̈ = −v φ̇/l: with v > 0 the turning decays and the "
                       "energy moves into the forward motion; the dumbbell straightens into a "
                       "line."),
                Option("The turning speeds up while v drops",
                       "Look at the sign of v̇ = l φ̇²/2: it is never negative."),
                Option("Both grow: the knife edge pumps energy in",
                       "The knife-edge force does no work (it acts across the edge's "
                       "velocity): m v² + m l² φ̇²/2 is conserved."),
            ],
            right=lambda s: _pick(turning, _turning_outcome(s)),
            then="Now press ▶ in the explorer above with the defaults and watch both rates.",
        ),
        ChoiceExercise(
            key="backwards", example="knife_edge", kind="predict",
            title="Predict: the dumbbell started backwards",
            prompt=(r"Now start it backwards: $v_0 = -0.5$ m/s, $\dot\phi_0 = 1.5$ rad/s. "
                    r"What does the turning rate do?"),
            options=[
                Option("It decays from the start, as when moving forwards",
                       "φ̈ = −v φ̇/l: with v < 0 the turning first speeds up."),
                Option("It first grows, peaks when v passes through zero, then decays",
                       "v̇ = l φ̇²/2 > 0 always, so v rises through zero; φ̈ = −v φ̇/l changes "
                       "sign with it, and the dumbbell then straightens out moving forwards."),
                Option("It grows without bound",
                       "The energy m v² + m l² φ̇²/2 is conserved, so φ̇ is bounded."),
                Option("It stays constant",
                       "φ̈ = −v φ̇/l is not zero while the dumbbell moves along the rod."),
            ],
            right=lambda s: _pick(backwards, _turning_outcome(s, {"u_1": -0.5})),
            then="Now set v₀ = −0.5 in the explorer above, press ▶ and watch φ̇.",
        ),
    ]


# --------------------------------------------------------------------------- §4.4, Kane's form
def _force_absent(system: System) -> bool:
    """Whether the knife-edge force (across the rod at particle 1) has zero power on every
    partial velocity of particle 1 (from the engine's coefficients)."""
    from companion.exercises.greenwood import _partial_velocity

    phi = system.q[2]
    across = sp.Matrix([-sp.sin(phi), sp.cos(phi), 0])
    return all(sp.simplify((across.T * _partial_velocity(system, 0, j))[0]) == 0
               for j in range(len(system.u_independent)))


def knife_edge_kane_concepts() -> list[ChoiceExercise]:
    """Why the knife-edge force is absent from Kane's equations; how many speeds they need."""
    return [
        ChoiceExercise(
            key="force_absent", example="knife_edge",
            title="Where is the knife-edge force?",
            prompt=(r"Kane's equations $Q_j + Q^*_j = 0$ of the dumbbell contain no knife-edge "
                    r"force $\lambda$. Why?"),
            options=[
                Option("Its power on every partial velocity is zero",
                       "The force acts across the rod at particle 1, while particle 1's "
                       "partial velocities γ₁₁ = (cos φ, sin φ, 0) and γ₁₂ = 0 lie along "
                       "it: a force that does no work in any motion the constraint allows "
                       "drops out."),
                Option("The knife-edge force is zero",
                       "It is not: the Boltzmann–Hamel exercise gives λ = m v φ̇, which "
                       "turns the velocity of particle 1."),
                Option("It is included in the inertia forces Q*",
                       "Q* contains only m v̇ terms of the two particles."),
            ],
            right=lambda s: 0 if _force_absent(s) else 1,
        ),
        ChoiceExercise(
            key="n_speeds", example="knife_edge", title="How many generalized speeds?",
            prompt=(r"The dumbbell has three coordinates $(x, y, \phi)$ and one knife-edge "
                    r"constraint. How many generalized speeds (and equations) does Kane's form "
                    r"need?"),
            options=[
                Option("Two: v and φ̇",
                       "Three coordinates minus one nonholonomic constraint: two independent "
                       "speeds, two equations. The coordinates still number three."),
                Option("Three: one per coordinate",
                       "The constraint removes a speed, not a coordinate: the sideways speed "
                       "is zero, so it needs no equation."),
                Option("Four: two per particle",
                       "The rod ties the particles together: their motion has only three "
                       "coordinates to begin with."),
            ],
            right=lambda s: _pick({2: 0, 3: 1, 4: 2}, len(s.u_independent)),
        ),
    ]


# --------------------------------------------------------------------------- §7.4
def _bracket_outcome(system: System) -> str:
    from companion.geometry import lie

    moments = _symbols_named(system, "I_xx", "I_yy", "I_zz")
    omega = system.u
    rates = {sign: lie.arnold_equations(lie.inertia_operator(moments), omega, sign=sign)
             .extra["omega_dot"] for sign in (1, -1)}
    if _is_zero(rates[-1] + rates[1]):
        return "reversed"
    return "same" if _is_zero(rates[-1] - rates[1]) else "other"


def _unstable_axes(system: System) -> tuple[str, ...]:
    """The axes about which a slightly perturbed spin turns over (simulated)."""
    unstable = []
    for axis in ("x", "y", "z"):
        start = {f"omega_{a}": (2.0 if a == axis else 0.05) for a in "xyz"}
        if len(_sign_changes(system.simulate(initial=start)[f"omega_{axis}"])):
            unstable.append(axis)
    return tuple(unstable)


def rigid_body_so3_concepts() -> list[ChoiceExercise]:
    """The wrong bracket sign, and which spin axis is unstable."""
    return [
        ChoiceExercise(
            key="bracket_sign", example="rigid_body_so3", title="The wrong sign of the bracket",
            prompt=(r"Take the bracket of right-invariant fields, $[a, b] = -a\times b$, "
                    r"instead of $a\times b$ in the definition of $B$. What happens to the "
                    r"torque-free equations $\dot\omega = B(\omega, \omega)$?"),
            options=[
                Option("Time runs backwards: ω̇ changes sign for every ω",
                       "B is linear in the bracket, so B(ω, ω) changes sign; since it is "
                       "quadratic in ω, ω(−t) solves the wrong equation: the body runs "
                       "through the true motion backwards."),
                Option("Nothing: B(ω, ω) is symmetric, so the sign cancels",
                       "The sign enters B once, linearly: it cannot cancel."),
                Option("A different motion that is not the time-reversed one",
                       "Compare ω̇ term by term: every term just changes sign."),
                Option("A is replaced by its inverse",
                       "The inertia operator enters B the same way for both signs."),
            ],
            right=lambda s: _pick({"reversed": 0, "same": 1, "other": 2},
                                  _bracket_outcome(s)),
        ),
        ChoiceExercise(
            key="unstable_axis", example="rigid_body_so3", kind="predict",
            title="Predict: which spin axis is unstable",
            prompt=(r"With $I_{xx} = 1 < I_{yy} = 2 < I_{zz} = 3$, spin the body at 2 rad/s "
                    r"about one principal axis with a wobble of 0.05 rad/s about the others. "
                    r"About which axis does the spin turn over?"),
            options=[
                Option("x, the axis of the smallest moment",
                       "Spins about the smallest and the largest moments are stable: the "
                       "wobble stays small."),
                Option("y, the axis of the middle moment",
                       "Linearize ω̇ = B(ω, ω) about a spin about y: the wobble grows "
                       "exponentially because (I_yy − I_xx)(I_zz − I_yy) > 0."),
                Option("z, the axis of the largest moment",
                       "The largest moment is a stable spin (without damping)."),
                Option("None: all three spins are stable",
                       "One of them is not: the tennis-racket theorem."),
            ],
            right=lambda s: _pick({("x",): 0, ("y",): 1, ("z",): 2, (): 3}, _unstable_axes(s)),
            then=("Now try each axis in the explorer above: set that ω component to 2, the "
                  "others to 0.05, and press ▶."),
        ),
    ]


# --------------------------------------------------------------------------- §7.2–7.3
def _height_outcome(system: System) -> str:
    run = system.simulate()
    theta = run["theta"]
    if np.ptp(theta) < 1e-3:
        return "level"
    if theta.max() > np.pi / 2 > theta[0] and np.abs(theta[1:] - theta[0]).min() < 0.05:
        return "oscillates"
    return "falls" if theta[-1] > theta[0] else "climbs"


def _conserved(system: System) -> str:
    run = system.simulate()
    theta, phi_dot = run["theta"], run[r"\dot{\phi}"]
    p_phi = np.sin(theta) ** 2 * phi_dot
    if np.ptp(p_phi) < 1e-6 * abs(p_phi[0]):
        return "p_phi"
    return "phi_dot" if np.ptp(phi_dot) < 1e-6 * abs(phi_dot[0]) else "none"


def sphere_particle_concepts() -> list[ChoiceExercise]:
    """The height of a particle sent sideways, and what stays constant."""
    return [
        ChoiceExercise(
            key="height", example="sphere_particle", kind="predict",
            title="Predict: a particle sent sideways",
            prompt=(r"The explorer's defaults start the particle at $\theta_0 = 1.2$ (above "
                    r"the equator, $\theta$ from the upward vertical) moving sideways with "
                    r"$\dot\phi_0 = 3$ rad/s and $\dot\theta_0 = 0$. What does its height do?"),
            options=[
                Option("It stays on its circle of latitude",
                       "That needs exactly the right φ̇ for the height (a conical pendulum); "
                       "here gravity is not balanced at the start."),
                Option("It dips below the equator and comes back up, again and again",
                       "Gravity pulls it down while the conserved sin²θ φ̇ makes it spin "
                       "faster as it goes: it swings between two circles of latitude."),
                Option("It slides down to the bottom and stays there",
                       "No friction: energy is conserved, so it comes back up to θ₀."),
                Option("It climbs towards the top",
                       "At the start θ̇ = 0 and gravity pulls it down."),
            ],
            right=lambda s: _pick({"level": 0, "oscillates": 1, "falls": 2, "climbs": 3},
                                  _height_outcome(s)),
            then="Now press ▶ in the explorer above with the defaults and watch θ.",
        ),
        ChoiceExercise(
            key="conserved", example="sphere_particle", title="What stays constant?",
            prompt=r"Along the motion on the sphere, which of these is conserved?",
            options=[
                Option("sin²θ φ̇, the momentum of φ divided by m R²",
                       "The metric and the potential do not depend on φ: φ is cyclic and "
                       "its momentum m R² sin²θ φ̇ is conserved."),
                Option("φ̇ itself",
                       "φ̇ changes with the height: the particle turns faster near the "
                       "bottom."),
                Option("Nothing: gravity changes every rate",
                       "Gravity has no moment about the vertical axis."),
            ],
            right=lambda s: _pick({"p_phi": 0, "phi_dot": 1, "none": 2}, _conserved(s)),
        ),
    ]


# --------------------------------------------------------------------------- §7.8
def _depends_on_difference(system: System) -> bool:
    shift = sp.Symbol("shift")
    metric = system.derive("pull_back").mass_matrix
    turned = metric.subs({q: q + shift for q in system.q[:2]})
    return _is_zero(turned - metric)


def _straight_outcome(system: System) -> bool:
    run = system.simulate(initial={"theta_1": 1.8, "theta_2": 1.8, "omega_1": 0.0,
                                   "omega_2": 0.0})
    return bool(np.max(np.abs(run["theta_1"] - run["theta_2"])) > 0.05)


def double_pendulum_concepts() -> list[ChoiceExercise]:
    """Why the metric depends on θ₁ − θ₂ only; whether a straight pendulum stays straight."""
    return [
        ChoiceExercise(
            key="relative_angle", example="double_pendulum",
            title="Why only θ₁ − θ₂ enters the metric",
            prompt=r"The metric M(θ₁, θ₂) depends on the angles only through θ₁ − θ₂. Why?",
            options=[
                Option("Turning the whole pendulum rigidly leaves its kinetic energy unchanged",
                       "Both angles are measured from one fixed direction: adding the same "
                       "angle to both turns the pendulum as a whole, which changes no speed."),
                Option("Because gravity acts along the vertical",
                       "Gravity enters the forces, not the metric: the metric is the kinetic "
                       "energy only."),
                Option("It is not true: M depends on θ₁ + θ₂ as well",
                       "Try θ₁ → θ₁ + c, θ₂ → θ₂ + c in M: nothing changes."),
            ],
            right=lambda s: 0 if _depends_on_difference(s) else 2,
        ),
        ChoiceExercise(
            key="straight", example="double_pendulum", kind="predict",
            title="Predict: released straight",
            prompt=(r"Release the pendulum from rest with both links along the same line, "
                    r"$\theta_1 = \theta_2 = 1.8$. Does link 2 stay aligned with link 1?"),
            options=[
                Option("No: the elbow bends at once",
                       "Link 1 alone would swing like a compound pendulum with its own "
                       "frequency; link 2's would differ, so the constraint at the elbow "
                       "pushes and the links fold."),
                Option("Yes: it swings as one rigid pendulum",
                       "Nothing holds the elbow straight: the two links would swing at "
                       "different rates on their own."),
                Option("Yes for a while, then it folds",
                       "The elbow moment acts from the first instant."),
            ],
            right=lambda s: 0 if _straight_outcome(s) else 1,
            then=("Now set θ₁ = θ₂ = 1.8 and both rates to 0 in the explorer above, press ▶ "
                  "and watch θ₁ − θ₂."),
        ),
    ]


# --------------------------------------------------------------------------- §7.9–7.11
def _rolling_outcome(system: System) -> str:
    """When the rolling model stops being valid at the explorer's defaults (simulated):
    the friction it needs against μ_s N, and N > 0."""
    run = system.simulate()
    valid = (np.abs(run["F"]) <= run["mu_s N"]) & (run["N"] > 0)
    if valid.all():
        return "rolls"
    return "slips_at_once" if not valid[0] else "slips_later"


def _threshold_by_kappa(system: System) -> str:
    from companion.examples.disk_link import mu_s
    from companion.exercises.loparo import _threshold

    tan = _threshold(system)
    kappa = next(s for s in tan.free_symbols if s.name == "kappa")
    values = [float(tan.subs({kappa: k, mu_s: 1})) for k in (1, 0.5, 0.1)]
    if max(values) - min(values) < 1e-12:
        return "same"
    return ("ring", "uniform", "small")[int(np.argmax(values))]


def disk_link_rolling_concepts() -> list[ChoiceExercise]:
    """Whether the released disk keeps rolling; which disk rolls on the steepest link."""
    return [
        ChoiceExercise(
            key="rolls", example="disk_link_rolling", kind="predict",
            title="Predict: does the disk keep rolling?",
            prompt=(r"With the explorer's defaults the link is released from rest at "
                    r"$\theta_0 = 0.2$ rad with the disk at rest on it ($\mu_s = 0.6$). "
                    r"The link swings down while the disk rolls. Does rolling last?"),
            options=[
                Option("It rolls until it reaches the tip",
                       "As the link swings faster the friction rolling needs grows, while N "
                       "shrinks: the static limit is reached first."),
                Option("It rolls for a while, then the friction needed exceeds μ_s N",
                       "At the start a gentle slope needs little friction; as the link turns "
                       "faster the needed |F| grows and N falls, until |F| = μ_s N and the "
                       "rolling model stops being valid."),
                Option("It slips from the very start",
                       "At θ₀ = 0.2 on a link at rest the friction needed is well below μ_s N."),
            ],
            right=lambda s: _pick({"rolls": 0, "slips_later": 1, "slips_at_once": 2},
                                  _rolling_outcome(s)),
            then=("Now press ▶ in the explorer above with the defaults and read its note on "
                  "the rolling model's validity."),
        ),
        ChoiceExercise(
            key="kappa", example="disk_link_rolling",
            title="Which disk rolls on the steepest link?",
            prompt=(r"On a held link, rolling needs $|F|/N \le \mu_s$. Which disk still rolls "
                    r"on the steepest link: a ring ($\kappa = 1$), a uniform disk "
                    r"($\kappa = \tfrac12$) or one with its mass near the centre "
                    r"($\kappa = 0.1$)?"),
            options=[
                Option("The ring",
                       "A ring has the most rotational inertia: it needs the most friction to "
                       "spin up, so it slips first."),
                Option("The uniform disk",
                       "It lies between the two: the threshold tan θ* = μ_s(1 + 1/κ) grows "
                       "as κ falls."),
                Option("The disk with its mass near the centre",
                       "Friction's only job is to spin the disk up, F = κ m s̈: the less "
                       "rotational inertia, the less friction rolling needs."),
                Option("All alike: the threshold does not depend on κ",
                       "It does: part of gravity's pull goes into spinning the disk up, and "
                       "that part grows with κ."),
            ],
            right=lambda s: _pick({"ring": 0, "uniform": 1, "small": 2, "same": 3},
                                  _threshold_by_kappa(s)),
        ),
    ]


def _slip_end_outcome(system: System) -> str:
    """Whether slipping ends before the slide would (t* against ṡ₀/|s̈|), at the defaults."""
    from companion.exercises.loparo import _stop_time, _stop_time_without_spin

    values = {p.symbol: p.default for p in system.parameters}
    values.update({next(p.symbol for p in system.initial if p.name == "s_dot"): 1.0})
    theta = next(p.symbol for p in system.initial if p.name == "theta")
    values[theta] = 0.3
    with_spin = float(_stop_time(system).subs(values))
    without = float(_stop_time_without_spin(system).subs(values))
    if abs(with_spin - without) < 1e-9 * without:
        return "same"
    return "before" if with_spin < without else "after"


def _slipping_coefficient(system: System) -> str:
    from companion.examples.disk_link import mu_k, mu_s
    from companion.exercises.loparo import _held_slipping

    rate = sum(_held_slipping(system, -1).values(), sp.Integer(0))
    return {(True, False): "kinetic", (False, True): "static", (True, True): "both"}.get(
        (rate.has(mu_k), rate.has(mu_s)), "neither")


def disk_link_friction_concepts() -> list[ChoiceExercise]:
    """When slipping ends, and which friction coefficient acts while it slips."""
    return [
        ChoiceExercise(
            key="slip_end", example="disk_link_friction", kind="predict",
            title="Predict: when does the slipping end?",
            prompt=(r"Launch the disk up a held link at $\theta = 0.3$ rad with "
                    r"$\dot s_0 = 1$ m/s and no spin. Friction slows the slide and spins the "
                    r"disk up. When does it stop slipping and start to roll?"),
            options=[
                Option("Before the slide alone would stop",
                       "v_slip = ṡ + r ψ̇ closes from both sides: friction slows ṡ and raises "
                       "r ψ̇, so it reaches zero before ṡ would."),
                Option("Exactly when ṡ reaches zero",
                       "That ignores the spin: r ψ̇ grows while the disk slides."),
                Option("After ṡ reaches zero",
                       "The spin speeds the end of slipping up, it does not delay it."),
                Option("Never: it slips until it leaves the link",
                       "Kinetic friction keeps acting against the slip until v_slip = 0."),
            ],
            right=lambda s: _pick({"before": 0, "same": 1, "after": 2}, _slip_end_outcome(s)),
            then=("Now try it in the explorer above: a steep, held link and ṡ₀ > 0 with "
                  "ψ̇₀ = 0; press ▶ and watch the contact-mode strip and ṡ."),
        ),
        ChoiceExercise(
            key="which_mu", example="disk_link_friction",
            title="Which friction coefficient acts while it slips?",
            prompt=r"While the disk slips on the link, which coefficient sets the friction?",
            options=[
                Option("μ_k: F = −σ μ_k N, against the slip",
                       "Slipping is kinetic friction: its size is fixed by N, its direction "
                       "by the sign σ of the slip velocity."),
                Option("μ_s",
                       "μ_s bounds the friction while the disk rolls; once it slips, the "
                       "friction is μ_k N."),
                Option("Both: F = (μ_s + μ_k) N / 2",
                       "There is no such average: one law per contact mode."),
                Option("Neither: F is whatever keeps the disk rolling",
                       "That is the rolling mode, where F is an unknown reaction."),
            ],
            right=lambda s: _pick({"kinetic": 0, "static": 1, "both": 2, "neither": 3},
                                  _slipping_coefficient(s)),
        ),
    ]


#: Understanding sets by name: (title, builder); ``<set>_concepts`` belongs to ``<set>``.
SETS = {
    "euler_body_concepts": ("Understanding Euler's equations", euler_body_concepts),
    "knife_edge_concepts": ("Understanding the knife edge", knife_edge_concepts),
    "knife_edge_kane_concepts": ("Understanding the general dynamical equation",
                                 knife_edge_kane_concepts),
    "rigid_body_so3_concepts": ("Understanding the geodesic form", rigid_body_so3_concepts),
    "sphere_particle_concepts": ("Understanding the particle on a sphere",
                                 sphere_particle_concepts),
    "double_pendulum_concepts": ("Understanding the double pendulum's metric",
                                 double_pendulum_concepts),
    "disk_link_rolling_concepts": ("Understanding the rolling disk", disk_link_rolling_concepts),
    "disk_link_friction_concepts": ("Understanding the slipping disk",
                                    disk_link_friction_concepts),
}
