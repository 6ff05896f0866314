"""Exercises on Loparo & Vakalis §7.9–7.11 (Examples 3 and 4, reconstructed): the disk on a
pivoted link, rolling and with friction, from the contact-mode models of :mod:`.contact`.
"""

from __future__ import annotations

import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.model import mu_k, mu_s
from companion.exercises.check import Mistake
from companion.exercises.exercise import Exercise, steps_keyed
from companion.mechanics.derivation import Step
from companion.system import System

_DISK = ("theta", "s", "m", "r", "kappa", "g")
_DISK_RATES = {"theta_dot": r"\dot{\theta}", "s_dot": r"\dot{s}"}



def _rolling(system: System):
    return system.derive()  # the rolling mode's pulled-back model


def _tan_threshold(ratio: sp.Expr) -> sp.Expr:
    """tan θ* at which a held link's required friction ratio |F|/N reaches μ_s."""
    tan_theta = sp.Dummy("tan_theta", positive=True)
    on_tan = sp.simplify(ratio.subs(ct.theta, sp.atan(tan_theta)))
    roots = sp.solve(sp.Eq(on_tan, mu_s), tan_theta)
    if len(roots) != 1:
        raise ValueError(f"the held-link friction ratio {ratio} gives no single threshold")
    return sp.factor(roots[0])


def _threshold(system: System) -> sp.Expr:
    return _tan_threshold(ct.fixed_link_friction_ratio())


def _rolling_force_steps(system: System) -> list[Step]:
    kinematics = [s for s in ct.kinematics_steps()
                  if s.key in ("link_frame", "disk_centre", "centre_velocity")]
    return [*kinematics, _rolling(system).step("contact_forces")]


def disk_link_rolling() -> list[Exercise]:
    """The rolling metric entry, the normal force and the held-link rolling threshold."""
    rates = {**_DISK_RATES, "theta_ddot": r"\ddot{\theta}"}
    return [
        Exercise(
            key="M22", example="disk_link_rolling", title="The rolling metric entry M₂₂",
            prompt=(r"While the disk rolls, its spin is tied to the link: "
                    r"$\psi = \theta - s/r$. Pull the two bodies' metric back to $(\theta, s)$ "
                    r"and give the entry $M_{22}$ that multiplies $\dot s^2/2$ in the kinetic "
                    r"energy (disk mass $m$, radius $r$, $I_D = \kappa m r^2$)."),
            answer=lambda s: _rolling(s).mass_matrix[1, 1],
            names=_DISK,
            hints=("Hold θ fixed and move s: the disk's centre slides along the link and the disk "
                   "turns with ψ̇ = −ṡ/r.",
                   "Translation gives m ṡ², rotation I_D ṡ²/r²: M₂₂ = m + I_D/r²."),
            solution=lambda s: steps_keyed(_rolling(s), "embedding", "jacobian", "metric"),
            mistakes=lambda s: [Mistake(
                _rolling(s).mass_matrix[1, 1].subs(ct.kappa, 0),
                "That counts the disk's translation only: rolling makes it spin too, adding "
                "I_D/r² = κ m.")],
            example_answer="m*(...)",
        ),
        Exercise(
            key="N", example="disk_link_rolling", title="The contact normal force N",
            prompt=(r"The disk's centre is $c = s\,e_1 + r\,e_2$ with $e_1 = (\cos\theta, "
                    r"\sin\theta)$, $e_2 = (-\sin\theta, \cos\theta)$. From Newton's law for the "
                    r"disk alone, $m\ddot c = N e_2 + F e_1 - m g \hat\jmath$, give $N$ in terms "
                    r"of $\theta$, $s$, theta_dot, s_dot, theta_ddot, $m$, $r$, $g$."),
            answer=lambda s: ct.mode_model("rolling").normal,
            names=_DISK, aliases=rates,
            hints=("N = (m c̈ + m g ĵ)·e₂: only the normal component of c̈ is needed.",
                   "ė₁ = θ̇ e₂ and ė₂ = −θ̇ e₁: differentiate c twice with these.",
                   "Expect a Coriolis term 2 m θ̇ ṡ and a centripetal term −m r θ̇²."),
            solution=_rolling_force_steps,
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
        Exercise(
            key="threshold", example="disk_link_rolling",
            title="The steepest held link on which the disk still rolls",
            prompt=(r"Hold the link still at angle $\theta$ and release the disk. Rolling needs "
                    r"the friction ratio $|F|/N$ not to exceed $\mu_s$. Give the threshold "
                    r"value of $\tan\theta$ as an expression in mu_s and kappa "
                    r"($I_D = \kappa m r^2$)."),
            answer=_threshold,
            names=("mu_s", "kappa"),
            hints=("On a held link θ̇ = θ̈ = 0: the s-equation gives s̈ = −g sin θ/(1 + κ).",
                   "Then N = m g cos θ and F = m s̈ + m g sin θ.",
                   "Set F/N = μ_s and solve for tan θ; for a uniform disk (κ = ½) it is 3 μ_s."),
            solution=lambda s: ct.contact_force_steps(),
            mistakes=lambda s: [Mistake(
                _tan_threshold(sp.limit(ct.fixed_link_friction_ratio(), ct.kappa, sp.oo)),
                "That is the threshold of a sliding block: a rolling disk needs less friction, "
                "because part of gravity's pull goes into spinning it up.", "block")],
            example_answer="mu_s*(...)",
        ),
    ]


def _no_coriolis(expr: sp.Expr) -> sp.Expr:
    """``expr`` without its θ̇ ṡ term (the Coriolis mistake), from the engine's expression."""
    return sp.expand(expr - sp.diff(expr, ct.theta_d, ct.s_d) * ct.theta_d * ct.s_d)


# --------------------------------------------------------------------------- §7.11, Example 4
def _slipping(system: System):
    return system.derive()  # the slipping mode's pulled-back model


def _pulled_back_forces(system: System) -> sp.Matrix:
    return _slipping(system).step("forces").expr


def _friction_form(system: System) -> sp.Matrix:
    """The generalized force of the friction F: the F-part of the pulled-back forces."""
    return _pulled_back_forces(system).applyfunc(lambda e: sp.expand(e.diff(ct.F) * ct.F))


def _friction_at_centre(system: System) -> sp.Matrix:
    """The friction pulled back as if it acted at the disk's centre (a mistake)."""
    jac = _slipping(system).step("jacobian").expr
    on_disk = ct.planar_wrench(ct.F * ct.KIN.e1, ct.KIN.centre, ct.KIN.centre)
    on_link = ct.planar_wrench(-ct.F * ct.KIN.e1, ct.KIN.link_point, ct.KIN.link_centre)
    chart = ct.CHARTS["slipping"][1]
    form = [sp.sympify(e).subs(chart) for e in (*on_link, *on_disk)]
    return ct.pull_back_form(form, jac).applyfunc(ct.pythagoras)


def _held_slipping(system: System, sigma: int) -> dict:
    """Accelerations (s̈, ψ̈) on a held link (θ̇ = θ̈ = 0) while slipping with sign σ of
    v_slip, from the slipping model: F = −σ μ_k N with N from the disk's Newton–Euler law."""
    model = ct.mode_model("slipping")
    held = {ct.theta_d: 0, ct.theta_dd: 0}
    metric = _slipping(system).mass_matrix[1:, 1:]
    forcing = _slipping(system).forcing[1:, :].subs(held)
    friction = {ct.F: -sigma * mu_k * model.normal.subs(held)}
    acc = metric.LUsolve(forcing.subs(friction))
    return {a: sp.simplify(e) for a, e in zip(model.qddot[1:], acc, strict=True)}


def _slip_rate(system: System) -> sp.Expr:
    """d(v_slip)/dt on a held link while the disk slips forward (launched up, no spin)."""
    slip = ct.KIN.slip_velocity()
    rate = ct.time_derivative(slip, [*ct.COORDS, *ct.RATES], [*ct.RATES, *ct.ACCELS])
    held = {ct.h: 0, ct.h_d: 0, ct.h_dd: 0, ct.theta_d: 0, ct.theta_dd: 0}
    return sp.simplify(rate.subs(held).subs(_held_slipping(system, 1)))


def _stop_time(system: System) -> sp.Expr:
    """t* at which v_slip = ṡ₀ (launched up the held link without spin) has decayed to 0."""
    s_dot0 = next(p.symbol for p in system.initial if p.name == "s_dot")
    slip0 = ct.KIN.slip_velocity().subs({ct.h: 0, ct.theta_d: 0, ct.psi_d: 0, ct.s_d: s_dot0})
    return sp.simplify(-slip0 / _slip_rate(system))


def _stop_time_without_spin(system: System) -> sp.Expr:
    s_dot0 = next(p.symbol for p in system.initial if p.name == "s_dot")
    return sp.simplify(-s_dot0 / _held_slipping(system, 1)[ct.s_dd])


def disk_link_friction() -> list[Exercise]:
    """The friction's generalized force, s̈ while slipping, and when slipping stops."""
    slide_steps = lambda s: steps_keyed(_slipping(s), "metric", "forces", "normal_force")  # noqa: E731
    return [
        Exercise(
            key="Q_F", example="disk_link_friction",
            title="The generalized force of the friction",
            prompt=(r"While the disk slips, the coordinates are $(\theta, s, \psi)$. The "
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
            solution=lambda s: steps_keyed(_slipping(s), "embedding", "jacobian", "metric",
                                           "forces"),
            mistakes=lambda s: [Mistake(
                _friction_at_centre(s),
                "That treats the friction as if it acted at the disk's centre: at the contact "
                "point it also has the moment r F about the centre, which drives ψ.",
                "moment_missing")],
            example_answer="[a, b, c]",
        ),
        Exercise(
            key="s_ddot", example="disk_link_friction",
            title="Sliding down a held link",
            prompt=(r"The link is held still at an angle $\theta$ too steep for rolling, and "
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
        Exercise(
            key="t_stop", example="disk_link_friction",
            title="When does a launched disk stop slipping?",
            prompt=(r"On the held link at angle $\theta$, the disk is launched up the link with "
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
    ]


#: Exercise sets by example name: (title, builder).
