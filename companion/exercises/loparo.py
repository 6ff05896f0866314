"""Exercises for the Loparo & Vakalis chapter: the particle on a sphere (§7.2–7.3), B for the
rigid body's inertia operator (§7.4), the double pendulum's metric (§7.8) and the disk on a
pivoted link, rolling and with friction (§7.9–7.11); the last three are reconstructed examples.

Expected answers, known mistakes and solutions come from the engine: the ``geometric``
derivation of ``sphere_particle``, the ``arnold`` derivation of ``rigid_body_so3``, the
``pull_back`` derivation of ``double_pendulum`` and the contact-mode models of
:mod:`companion.contact`.
"""

from __future__ import annotations

import sympy as sp

from companion import contact as ct
from companion.examples.disk_link import mu_k, mu_s
from companion.exercises.check import Mistake
from companion.exercises.exercise import Exercise, steps_titled
from companion.mechanics.derivation import Step
from companion.system import System

_OMEGA = ("omega_x", "omega_y", "omega_z")
_MOMENTS = ("I_xx", "I_yy", "I_zz")
_PENDULUM = ("theta_1", "theta_2", "m_1", "J_1", "a_1", "l_1", "m_2", "J_2", "a_2", "l_2")
_SPHERE = ("theta", "phi", "m", "R", "g")
_SPHERE_RATES = {"theta_dot": r"\dot{\theta}", "phi_dot": r"\dot{\phi}"}
_DISK = ("theta", "s", "m", "r", "kappa", "g")
_DISK_RATES = {"theta_dot": r"\dot{\theta}", "s_dot": r"\dot{s}"}


# --------------------------------------------------------------------------- §7.2–7.3
def _geometric(system: System):
    return system.derive("geometric")


def _radial_reaction(system: System) -> sp.Expr:
    """The outward component R·j/|j| of the sphere's reaction force, from the engine."""
    reaction = _geometric(system).extra["reaction"]
    radius = _symbol(system, "R")
    return sp.trigsimp(sp.expand((reaction.T * system.embedding)[0] / radius))


def _at_rest(expr: sp.Expr, system: System) -> sp.Expr:
    return expr.subs({u: 0 for u in system.u})


def sphere_particle() -> list[Exercise]:
    """The induced metric, Γ^θ_φφ and the normal reaction for the particle on a sphere."""
    metric_steps = ("Coordinate map", "Jacobian", "Induced metric")
    return [
        Exercise(
            key="metric", example="sphere_particle", title="The induced metric JᵀσJ",
            prompt=(r"The sphere of radius $R$ is the image of $j(\theta, \phi) = R(\sin\theta"
                    r"\cos\phi, \sin\theta\sin\phi, \cos\theta)$, $\theta$ measured from the "
                    r"upward vertical; the ambient metric of the particle is $\sigma = m I_3$. "
                    r"Give the $2\times 2$ induced metric $J^T\sigma J$ in the coordinates "
                    r"$(\theta, \phi)$."),
            answer=lambda s: s.induced_metric,
            names=_SPHERE,
            hints=("J has the two columns ∂j/∂θ and ∂j/∂φ; the metric's entries are m times "
                   "their dot products.",
                   "The two columns are perpendicular, so the metric is diagonal.",
                   "∂j/∂φ is tangent to a circle of latitude: how large is that circle?"),
            solution=lambda s: steps_titled(_geometric(s).steps, *metric_steps),
            mistakes=lambda s: [Mistake(
                s.induced_metric.subs(s.q[0], sp.pi / 2 - s.q[0]),
                "θ is measured from the vertical, not from the equator: the circle of latitude "
                "has radius R sin θ.")],
            example_answer="[[a, 0], [0, b]]",
        ),
        Exercise(
            key="Gamma", example="sphere_particle", title="The Christoffel symbol Γ^θ_φφ",
            prompt=(r"From the induced metric, compute the Christoffel symbol "
                    r"$\Gamma^\theta_{\phi\phi} = \tfrac12 \sigma^{\theta\theta}(2\,\partial_\phi"
                    r"\sigma_{\theta\phi} - \partial_\theta \sigma_{\phi\phi})$."),
            answer=lambda s: _geometric(s).extra["christoffel"][0][1, 1],
            names=_SPHERE,
            hints=("The metric does not depend on φ and is diagonal: only −∂σ_φφ/∂θ survives.",
                   "σ^θθ = 1/(m R²), and σ_φφ = m R² sin²θ."),
            solution=lambda s: steps_titled(_geometric(s).steps, *metric_steps,
                                             "Christoffel"),
            mistakes=lambda s: [Mistake(
                _geometric(s).extra["christoffel"][1][0, 1],
                "That is Γ^φ_θφ: the upper index (θ here) is the component of the acceleration, "
                "the lower two are the velocities (φ, φ).")],
            example_answer="-sin(theta)*...",
        ),
        Exercise(
            key="N", example="sphere_particle", title="The sphere's normal reaction",
            prompt=(r"The reaction $R = \sigma^\flat(\ddot j) - F$ is normal to the sphere. "
                    r"Give its outward component $R\cdot j/R$ in terms of $\theta$, "
                    r"$\dot\theta$, $\dot\phi$ (type theta_dot, phi_dot), $m$, $R$ and $g$."),
            answer=_radial_reaction,
            names=_SPHERE, aliases=_SPHERE_RATES,
            hints=("Only the normal part of the ambient acceleration j̈ counts: the tangential "
                   "part is what the reduced equations already balance.",
                   "The normal acceleration of a point moving on a sphere is −v²/R, inward.",
                   "Gravity −m g ĵ_z contributes m g cos θ after the sign of −F."),
            solution=lambda s: [
                *_geometric(s).steps,
                Step("Outward component R·j/R", _radial_reaction(s), "§7.3",
                     "Gravity's normal part minus the centripetal term m v²/R.", r"R_n"),
            ],
            mistakes=lambda s: [Mistake(
                _at_rest(_radial_reaction(s), s),
                "That is the reaction of a particle at rest: a moving particle also needs the "
                "centripetal force m v²/R, v² = R²(θ̇² + sin²θ φ̇²).")],
            example_answer="m*g*cos(theta) - ...",
        ),
    ]


# --------------------------------------------------------------------------- §7.4, Example 1
def _arnold(system: System):
    return system.derive("arnold")


def rigid_body_so3() -> list[Exercise]:
    """B(ω, ω) and ω̇ for the inertia operator A = diag(I_xx, I_yy, I_zz)."""
    return [
        Exercise(
            key="B", example="rigid_body_so3", title="B(ω, ω) for a diagonal inertia operator",
            prompt=(r"On $so(3) \cong \mathbb{R}^3$ with bracket $[a, b] = a \times b$ and the "
                    r"inertia operator $A = \mathrm{diag}(I_{xx}, I_{yy}, I_{zz})$, the operator "
                    r"$B$ is defined by $\langle [a, b], c\rangle = \langle B(c, a), b\rangle$ "
                    r"for all $b$. Compute the column $B(\omega, \omega)$."),
            answer=lambda s: _arnold(s).extra["B(omega, omega)"],
            names=(*_OMEGA, *_MOMENTS),
            hints=("With ⟨x, y⟩ = xᵀ A y the definition gives B(c, a) = A⁻¹((A c) × a).",
                   "Put c = a = ω: B(ω, ω) = A⁻¹((A ω) × ω).",
                   "The first entry is (I_yy − I_zz) ω_y ω_z / I_xx."),
            solution=lambda s: _arnold(s).steps,
            example_answer="[a, b, c]",
        ),
        Exercise(
            key="omega_dot", example="rigid_body_so3", title="Euler's equations as a geodesic",
            prompt=(r"With a body torque $M = (M_x, M_y, M_z)$ the motion obeys "
                    r"$\dot\omega = B(\omega, \omega) + A^{-1} M$. Give the column "
                    r"$\dot\omega$."),
            answer=lambda s: _arnold(s).extra["omega_dot"],
            names=(*_OMEGA, *_MOMENTS, "M_x", "M_y", "M_z"),
            hints=("Start from your B(ω, ω) and add A⁻¹ M = (M_x/I_xx, M_y/I_yy, M_z/I_zz).",
                   "Compare with Greenwood's (4.104): the same three equations."),
            solution=lambda s: [
                *_arnold(s).steps,
                Step("Solved for the rates", _arnold(s).extra["omega_dot"], "§7.4",
                     "B(ω, ω) plus the torque term.", r"\dot\omega"),
            ],
            example_answer="[a, b, c]",
        ),
    ]


# --------------------------------------------------------------------------- §7.8, Example 2
def _pull_back(system: System):
    return system.derive("pull_back")


def _symbol(system: System, name: str) -> sp.Symbol:
    return next(p for p in system.parameter_symbols if p.name == name)


def _metric_steps(system: System) -> list[Step]:
    return [s for s in _pull_back(system).steps if s.eq == "(7.2)" and "force" not in s.title]


def double_pendulum() -> list[Exercise]:
    """The entries M₁₁ and M₁₂ of the pulled-back metric of the double pendulum."""
    return [
        Exercise(
            key="M12", example="double_pendulum", title="The coupling entry M₁₂",
            prompt=(r"Both link angles $\theta_1, \theta_2$ are measured from the same fixed "
                    r"direction. Link 2 (mass $m_2$, central inertia $J_2$) has its mass "
                    r"centre at distance $a_2$ from the elbow; link 1 has length $l_1$. Pull "
                    r"the free bodies' metric back to $(\theta_1, \theta_2)$ and give "
                    r"$M_{12}$."),
            answer=lambda s: _pull_back(s).mass_matrix[0, 1],
            names=_PENDULUM,
            hints=("M = Jᵀ G J: M₁₂ collects the products of ∂(position)/∂θ₁ and "
                   "∂(position)/∂θ₂ weighted by the masses.",
                   "Only link 2 moves with both angles: its mass centre is the elbow plus "
                   "a₂ (cos θ₂, sin θ₂).",
                   "The dot product of the two velocity directions is a cosine of an angle "
                   "difference."),
            solution=_metric_steps,
            mistakes=lambda s: [Mistake(
                _pull_back(s).mass_matrix[0, 1].subs(s.q[1], -s.q[1]),
                "The coupling depends on the relative angle θ₁ − θ₂, not θ₁ + θ₂: both "
                "angles are measured from the same fixed direction.")],
            example_answer="m_2*l_1*a_2*cos(...)",
        ),
        Exercise(
            key="M11", example="double_pendulum", title="The diagonal entry M₁₁",
            prompt=(r"In the same metric, give $M_{11}$, the inertia felt when only "
                    r"$\theta_1$ changes (link 1 has mass $m_1$, central inertia $J_1$ and its "
                    r"mass centre at distance $a_1$ from the base)."),
            answer=lambda s: _pull_back(s).mass_matrix[0, 0],
            names=_PENDULUM,
            hints=("Link 1 turns about the base: J₁ + m₁ a₁² (parallel-axis theorem).",
                   "When only θ₁ changes, link 2 translates with the elbow."),
            solution=_metric_steps,
            mistakes=lambda s: [Mistake(
                _pull_back(s).mass_matrix[0, 0].subs(_symbol(s, "m_2"), 0),
                "Link 2 is missing: the elbow carries it along, adding m₂ l₁².")],
            example_answer="J_1 + ...",
        ),
    ]


# --------------------------------------------------------------------------- §7.9–7.10, Example 3
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
    return [*ct.kinematics_steps()[:3], _rolling(system).steps[-1]]


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
            solution=lambda s: _rolling(s).steps[:3],
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
    ]


def _no_coriolis(expr: sp.Expr) -> sp.Expr:
    """``expr`` without its θ̇ ṡ term (the Coriolis mistake), from the engine's expression."""
    return sp.expand(expr - sp.diff(expr, ct.theta_d, ct.s_d) * ct.theta_d * ct.s_d)


# --------------------------------------------------------------------------- §7.11, Example 4
def _slipping(system: System):
    return system.derive()  # the slipping mode's pulled-back model


def _pulled_back_forces(system: System) -> sp.Matrix:
    return next(s.expr for s in _slipping(system).steps if s.title.startswith("Pulled-back forces"))


def _friction_form(system: System) -> sp.Matrix:
    """The generalized force of the friction F: the F-part of the pulled-back forces."""
    return _pulled_back_forces(system).applyfunc(lambda e: sp.expand(e.diff(ct.F) * ct.F))


def _friction_at_centre(system: System) -> sp.Matrix:
    """The friction pulled back as if it acted at the disk's centre (a mistake)."""
    jac = next(s.expr for s in _slipping(system).steps if s.title.startswith("Jacobian"))
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
    slide_steps = lambda s: [*_slipping(s).steps[2:4], _slipping(s).steps[-1]]  # noqa: E731
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
            solution=lambda s: _slipping(s).steps[:4],
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
SETS = {
    "rigid_body_so3": ("Exercises: Euler's equations from B", rigid_body_so3),
    "double_pendulum": ("Exercises: the double pendulum's metric", double_pendulum),
    "sphere_particle": ("Exercises: the particle on a sphere", sphere_particle),
    "disk_link_rolling": ("Exercises: the disk rolling on the link", disk_link_rolling),
    "disk_link_friction": ("Exercises: the disk slipping on the link", disk_link_friction),
}
