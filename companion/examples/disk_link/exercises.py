"""Exercises on Loparo & Vakalis §7.9–7.11 (Examples 3 and 4, reconstructed): the disk on a
pivoted link, rolling and with friction, from the contact-mode models of :mod:`.contact`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.model import DiskLink
from companion.examples.disk_link.parameters import mu_k, mu_s
from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise, keyed
from companion.exercises.outcomes import decided_by

_ROLLING = Declare("disk_link_rolling", names=("theta", "s", "m", "r", "kappa", "g"))
_FRICTION = Declare("disk_link_friction")
_S_DOT0 = sp.Symbol("s_dot")  # ṡ₀ of DiskLink.initial
# A DiskLink's derive() is its main mode's pulled-back model: rolling for Example 3,
# slipping for Example 4.


def _tan_threshold(ratio: sp.Expr) -> sp.Expr:
    """tan θ* at which a held link's required friction ratio |F|/N reaches μ_s."""
    tan_theta = sp.Dummy("tan_theta", positive=True)
    on_tan = sp.simplify(ratio.subs(ct.theta, sp.atan(tan_theta)))
    roots = sp.solve(sp.Eq(on_tan, mu_s), tan_theta)
    if len(roots) != 1:
        raise ValueError(f"the held-link friction ratio {ratio} gives no single threshold")
    return sp.factor(roots[0])


def _threshold(system: DiskLink) -> sp.Expr:
    return _tan_threshold(ct.fixed_link_friction_ratio())


def disk_link_rolling() -> list[Exercise | ChoiceExercise]:
    """The rolling metric entry, the normal force and the held-link rolling threshold; whether
    the released disk keeps rolling; which disk rolls on the steepest link."""
    return [
        _ROLLING.typed("M22", "The rolling metric entry M₂₂", (
            r"While the disk rolls, its spin is tied to the link: "
            r"$\psi = \theta - s/r$. Pull the two bodies' metric back to $(\theta, s)$ "
            r"and give the entry $M_{22}$ that multiplies $\dot s^2/2$ in the kinetic "
            r"energy (disk mass $m$, radius $r$, $I_D = \kappa m r^2$)."),
            answer=lambda s: s.derive().mass_matrix[1, 1],
            hints=("Hold θ fixed and move s: the disk's centre slides along the link and the disk "
                   "turns with ψ̇ = −ṡ/r.",
                   "Translation gives m ṡ², rotation I_D ṡ²/r²: M₂₂ = m + I_D/r²."),
            solution=keyed("embedding", "jacobian", "metric"),
            mistakes=lambda s: [Mistake(
                s.derive().mass_matrix[1, 1].subs(ct.kappa, 0),
                "That counts the disk's translation only: rolling makes it spin too, adding "
                "I_D/r² = κ m.")],
            example_answer="m*(...)",
        ),
        _ROLLING.typed("N", "The contact normal force N", (
            r"The disk's centre is $c = s\,e_1 + r\,e_2$ with $e_1 = (\cos\theta, "
            r"\sin\theta)$, $e_2 = (-\sin\theta, \cos\theta)$. From Newton's law for the "
            r"disk alone, $m\ddot c = N e_2 + F e_1 - m g \hat\jmath$, give $N$ in terms "
            r"of $\theta$, $s$, theta_dot, s_dot, theta_ddot, $m$, $r$, $g$."),
            answer=lambda s: ct.mode_model("rolling").normal,
            aliases={"theta_dot": r"\dot{\theta}", "s_dot": r"\dot{s}",
                     "theta_ddot": r"\ddot{\theta}"},
            hints=("N = (m c̈ + m g ĵ)·e₂: only the normal component of c̈ is needed.",
                   "ė₁ = θ̇ e₂ and ė₂ = −θ̇ e₁: differentiate c twice with these.",
                   "Expect a Coriolis term 2 m θ̇ ṡ and a centripetal term −m r θ̇²."),
            solution=lambda s: [*(k for k in ct.kinematics_steps()
                                  if k.key in ("link_frame", "disk_centre", "centre_velocity")),
                                s.derive().step("contact_forces")],
            mistakes=lambda s: [
                Mistake(_no_coriolis(ct.mode_model("rolling").normal),
                        "The Coriolis term is missing: s e₁ changes both because ṡ ≠ 0 and "
                        "because e₁ turns, and the cross term appears twice (2 m θ̇ ṡ).",
                        "coriolis"),
                Mistake(ct.mode_model("rolling").normal.subs(
                    {ct.theta_d: 0, ct.theta_dd: 0, ct.s_d: 0}),
                    "That is N on a link at rest: the link's turning adds the terms in θ̇, θ̈."),
            ],
            example_answer="m*g*cos(theta) + ...",
        ),
        _ROLLING.typed("threshold", "The steepest held link on which the disk still rolls", (
            r"Hold the link still at angle $\theta$ and release the disk. Rolling needs "
            r"the friction ratio $|F|/N$ not to exceed $\mu_s$. Give the threshold "
            r"value of $\tan\theta$ as an expression in mu_s and kappa "
            r"($I_D = \kappa m r^2$)."),
            answer=_threshold,
            names=("mu_s", "kappa"),
            hints=("On a held link θ̇ = θ̈ = 0: the s-equation gives s̈ = −g sin θ/(1 + κ).",
                   "Then N = m g cos θ and F = m s̈ + m g sin θ.",
                   "Set F/N = μ_s and solve for tan θ; for a uniform disk (κ = ½) it is 3 μ_s."),
            solution=lambda s: ct.contact_force_steps(),
            mistakes=lambda s: [
                Mistake(_tan_threshold(sp.limit(ct.fixed_link_friction_ratio(), ct.kappa,
                                                sp.oo)),
                        "That is the threshold of a sliding block: a rolling disk needs less "
                        "friction, because part of gravity's pull goes into spinning it up.",
                        "block"),
                Mistake(_threshold(s).subs(ct.kappa, sp.Rational(1, 2)),
                        "That is right for a uniform disk (κ = ½, the notebook's default), but "
                        "the exercise asks for any disk: keep κ as a symbol, I_D = κ m r².",
                        "uniform_disk_only"),
            ],
            example_answer="mu_s*(...)",
        ),
        _ROLLING.predict("rolls", "Predict: does the disk keep rolling?", (
            r"With the explorer's defaults the link is released from rest at "
            r"$\theta_0 = 0.2$ rad with the disk at rest on it ($\mu_s = 0.6$). "
            r"The link swings down while the disk rolls. Does rolling last?"),
            ("It rolls until it reaches the tip",
             "As the link swings down, the friction rolling needs, "
             "F = (m/3)(g sin θ − s θ̇²) for a uniform disk, falls through zero and "
             "grows the other way faster than N grows: the static limit comes "
             "first."),
            ("It rolls for a while, then the friction needed exceeds μ_s N",
             "At the start the slope needs a friction force up the link well inside "
             "μ_s N; as the link swings down, θ passes zero and s θ̇² grows, so the "
             "needed F = (m/3)(g sin θ − s θ̇²) reverses and grows faster than N, "
             "until F = −μ_s N and the rolling model stops being valid."),
            ("It slips from the very start",
             "At θ₀ = 0.2 on a link at rest the friction needed is well below μ_s N."),
            right=decided_by(_rolling_outcome,
                             {"rolls": 0, "slips_later": 1, "slips_at_once": 2}),
            then=("Now press ▶ in the explorer below with the defaults and watch the strip "
                  "that marks where the rolling model is valid."),
        ),
        _ROLLING.choice("kappa", "Which disk rolls on the steepest link?", (
            r"On a held link, rolling needs $|F|/N \le \mu_s$. Which disk still rolls "
            r"on the steepest link: a ring ($\kappa = 1$), a uniform disk "
            r"($\kappa = \tfrac12$) or one with its mass near the centre "
            r"($\kappa = 0.1$)?"),
            ("The ring",
             "A ring has the most rotational inertia: it needs the most friction to "
             "spin up, so it slips first."),
            ("The uniform disk",
             "It lies between the two: the threshold tan θ* = μ_s(1 + 1/κ) grows "
             "as κ falls."),
            ("The disk with its mass near the centre",
             "Friction's only job is to spin the disk up, F = κ m s̈: the less "
             "rotational inertia, the less friction rolling needs."),
            ("All alike: the threshold does not depend on κ",
             "It does: part of gravity's pull goes into spinning the disk up, and "
             "that part grows with κ."),
            right=decided_by(_threshold_by_kappa,
                             {"ring": 0, "uniform": 1, "small": 2, "same": 3}),
        ),
    ]


def _no_coriolis(expr: sp.Expr) -> sp.Expr:
    """``expr`` without its θ̇ ṡ term (the Coriolis mistake), from the engine's expression."""
    return sp.expand(expr - sp.diff(expr, ct.theta_d, ct.s_d) * ct.theta_d * ct.s_d)


# --------------------------------------------------------------------------- §7.11, Example 4
def _friction_form(system: DiskLink) -> sp.Matrix:
    """The generalized force of the friction F: the F-part of the pulled-back forces."""
    forces = system.derive().step("forces").expr
    return forces.applyfunc(lambda e: sp.expand(e.diff(ct.F) * ct.F))


def _friction_at_centre(system: DiskLink) -> sp.Matrix:
    """The friction pulled back as if it acted at the disk's centre (a mistake)."""
    jac = system.derive().step("jacobian").expr
    on_disk = ct.planar_wrench(ct.F * ct.E1, ct.CENTRE, ct.CENTRE)
    on_link = ct.planar_wrench(-ct.F * ct.E1, ct.LINK_POINT, ct.LINK_CENTRE)
    chart = ct.CHARTS["slipping"][1]
    form = [sp.sympify(e).subs(chart) for e in (*on_link, *on_disk)]
    return ct.pull_back_form(form, jac).applyfunc(ct.pythagoras)


def _held_slipping(system: DiskLink, sigma: int) -> dict:
    """Accelerations (s̈, ψ̈) on a held link (θ̇ = θ̈ = 0) while slipping with sign σ of
    v_slip, from the slipping model: F = −σ μ_k N with N from the disk's Newton–Euler law."""
    model = ct.mode_model("slipping")
    held = {ct.theta_d: 0, ct.theta_dd: 0}
    metric = system.derive().mass_matrix[1:, 1:]
    forcing = system.derive().forcing[1:, :].subs(held)
    friction = {ct.F: -sigma * mu_k * model.normal.subs(held)}
    acc = metric.LUsolve(forcing.subs(friction))
    return {a: sp.simplify(e) for a, e in zip(model.qddot[1:], acc, strict=True)}


def _stop_time(system: DiskLink) -> sp.Expr:
    """t* at which v_slip = ṡ₀ (launched up the held link without spin) has decayed to 0,
    at the constant rate d(v_slip)/dt of a forward slip on the held link."""
    slip = ct.relative_velocity()[0]
    rate = ct.time_derivative(slip, [*ct.COORDS, *ct.RATES], [*ct.RATES, *ct.ACCELS])
    held = {ct.h: 0, ct.h_d: 0, ct.h_dd: 0, ct.theta_d: 0, ct.theta_dd: 0}
    rate = sp.simplify(rate.subs(held).subs(_held_slipping(system, 1)))
    slip0 = slip.subs({ct.h: 0, ct.theta_d: 0, ct.psi_d: 0, ct.s_d: _S_DOT0})
    return sp.simplify(-slip0 / rate)


def _stop_time_without_spin(system: DiskLink) -> sp.Expr:
    return sp.simplify(-_S_DOT0 / _held_slipping(system, 1)[ct.s_dd])


def disk_link_friction() -> list[Exercise | ChoiceExercise]:
    """The friction's generalized force, s̈ while slipping, and when slipping stops; when
    slipping ends, and which friction coefficient acts while it slips."""
    slide_steps = keyed("metric", "forces", "normal_force")
    return [
        _FRICTION.typed("Q_F", "The generalized force of the friction", (
            r"While the disk slips, the coordinates are $(\theta, s, \psi)$. The "
            r"friction force $F e_1$ acts on the disk at the contact point and "
            r"$-F e_1$ on the link at $s\,e_1$. Pull both back and give the column "
            r"$(Q_\theta, Q_s, Q_\psi)$ of the friction alone."),
            answer=_friction_form,
            names=("r", "F", "s"),
            hints=("Q = Jᵀ(force 1-form): pair the force with the velocity each coordinate "
                   "gives the point where it acts.",
                   "ψ only turns the disk: the contact point moves with r ψ̇ along e₁.",
                   "Under θ alone the disk's centre moves with θ̇(s e₂ − r e₁) and the link's "
                   "point s e₁ with s θ̇ e₂: only e₁ parts do work against F e₁."),
            solution=keyed("embedding", "jacobian", "metric", "forces"),
            mistakes=lambda s: [Mistake(
                _friction_at_centre(s),
                "That treats the friction as if it acted at the disk's centre: at the contact "
                "point it also has the moment r F about the centre, which drives ψ.",
                "moment_missing")],
            example_answer="[a, b, c]",
        ),
        _FRICTION.typed("s_ddot", "Sliding down a held link", (
            r"The link is held still at an angle $\theta$ too steep for rolling, and "
            r"the disk slides down it (its contact point moves down relative to the "
            r"link, $v_{slip} < 0$) with kinetic friction $\mu_k$. Give $\ddot s$."),
            answer=lambda s: _held_slipping(s, -1)[ct.s_dd],
            names=("theta", "g", "mu_k", "mu_s", "m", "r", "kappa"),
            hints=("On a held link N = m g cos θ.",
                   "Friction opposes the slip: with v_slip < 0 it points up the link, "
                   "F = +μ_k N.",
                   "The s-equation is m s̈ = F − m g sin θ: the spin does not enter it."),
            solution=slide_steps,
            mistakes=lambda s: [
                Mistake(_held_slipping(s, 1)[ct.s_dd],
                        "The friction points the wrong way: it opposes the slip, so on a disk "
                        "sliding down it points up the link.", "friction_direction"),
                Mistake(_held_slipping(s, -1)[ct.s_dd].subs(
                    mu_k, mu_s),
                    "While it slips the friction is kinetic: use μ_k, not μ_s.", "static_mu"),
            ],
            example_answer="-g*(...)",
        ),
        _FRICTION.typed("t_stop", "When does a launched disk stop slipping?", (
            r"On the held link at angle $\theta$, the disk is launched up the link with "
            r"speed $\dot s_0$ (type s_dot) and no spin, so it slips forward. Friction "
            r"slows the slide and spins the disk up. Give the time $t^*$ at which the "
            r"slip velocity $v_{slip} = \dot s + r\dot\psi$ reaches zero."),
            answer=_stop_time,
            names=("theta", "g", "mu_k", "r", "kappa", "s_dot"),
            hints=("v_slip = ṡ + r ψ̇ starts at ṡ₀ and, with constant forces, changes at a "
                   "constant rate: t* = ṡ₀ / (−d v_slip/dt).",
                   "F = −μ_k m g cos θ. The s-equation gives s̈ = F/m − g sin θ; the ψ-equation "
                   "gives κ m r² ψ̈ = r F.",
                   "d v_slip/dt = s̈ + r ψ̈."),
            solution=slide_steps,
            mistakes=lambda s: [Mistake(
                _stop_time_without_spin(s),
                "That is when ṡ would vanish: the slip also stops because the friction spins "
                "the disk up (r ψ̈ adds to the rate).", "spin_missing")],
            example_answer="s_dot/(g*(...))",
        ),
        _FRICTION.predict("slip_end", "Predict: when does the slipping end?", (
            r"Launch the disk up a held link at $\theta = 0.3$ rad with "
            r"$\dot s_0 = 1$ m/s and no spin. Friction slows the slide and spins the "
            r"disk up. When does it stop slipping and start to roll?"),
            ("Before the slide alone would stop",
             "v_slip = ṡ + r ψ̇ falls through both terms: gravity and friction slow "
             "ṡ, and friction spins the disk in the rolling sense, driving r ψ̇ "
             "negative, so v_slip reaches zero before ṡ would."),
            ("Exactly when ṡ reaches zero",
             "That ignores the spin: r ψ̇ grows negative (the rolling sense) while "
             "the disk slides."),
            ("After ṡ reaches zero",
             "The spin speeds the end of slipping up, it does not delay it."),
            ("Never: it slips until it leaves the link",
             "Kinetic friction keeps acting against the slip until v_slip = 0."),
            right=decided_by(_slip_end_outcome, {"before": 0, "same": 1, "after": 2}),
            then=("To see it, run the held-link simulation in a code cell: "
                  "examples.get(\"disk_link_friction\").simulate(initial={\"theta\": 0.3, "
                  "\"s_dot\": 1.0, \"theta_dot\": 0, \"psi_dot\": 0}, link_held=True).events "
                  "lists when slipping gives way to rolling; compare it with the time ṡ₀/|s̈| "
                  "the slide alone would take."),
        ),
        _FRICTION.choice("which_mu", "Which friction coefficient acts while it slips?",
            r"While the disk slips on the link, which coefficient sets the friction?",
            ("μ_k: F = −σ μ_k N, against the slip",
             "Slipping is kinetic friction: its size is fixed by N, its direction "
             "by the sign σ of the slip velocity."),
            ("μ_s",
             "μ_s bounds the friction while the disk rolls; once it slips, the "
             "friction is μ_k N."),
            ("Both: F = (μ_s + μ_k) N / 2",
             "There is no such average: one law per contact mode."),
            ("Neither: F is whatever keeps the disk rolling",
             "That is the rolling mode, where F is an unknown reaction."),
            right=decided_by(_slipping_coefficient,
                             {"kinetic": 0, "static": 1, "both": 2, "neither": 3}),
        ),
    ]


# --------------------------------------------------------------------------- understanding
def _rolling_outcome(system: DiskLink) -> str:
    """When the rolling model stops being valid at the explorer's defaults (simulated):
    the friction it needs against μ_s N, and N > 0."""
    run = system.simulate()
    valid = (np.abs(run["F"]) <= run["mu_s N"]) & (run["N"] > 0)
    if valid.all():
        return "rolls"
    return "slips_at_once" if not valid[0] else "slips_later"


def _threshold_by_kappa(system: DiskLink) -> str:
    tan = _threshold(system)
    kappa = next(s for s in tan.free_symbols if s.name == "kappa")
    values = [float(tan.subs({kappa: k, mu_s: 1})) for k in (1, 0.5, 0.1)]
    if max(values) - min(values) < 1e-12:
        return "same"
    return ("ring", "uniform", "small")[int(np.argmax(values))]


def _slip_end_outcome(system: DiskLink) -> str:
    """Whether slipping ends before the slide would (t* against ṡ₀/|s̈|), at the defaults."""
    values = {**{p.symbol: p.default for p in system.parameters}, _S_DOT0: 1.0, ct.theta: 0.3}
    with_spin = float(_stop_time(system).subs(values))
    without = float(_stop_time_without_spin(system).subs(values))
    if abs(with_spin - without) < 1e-9 * without:
        return "same"
    return "before" if with_spin < without else "after"


def _slipping_coefficient(system: DiskLink) -> str:
    rate = sum(_held_slipping(system, -1).values(), sp.Integer(0))
    return {(True, False): "kinetic", (False, True): "static", (True, True): "both"}.get(
        (rate.has(mu_k), rate.has(mu_s)), "neither")


