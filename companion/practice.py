"""Faded worked examples (issue 37, §3): after the book's worked example, a new system with the
last steps left to the reader (``faded``), then one with only its set-up given (``unaided``).

Each practice notebook shows one set of this module (:func:`show`); every key is the engine's
result on the system's own definition, never typed.  The systems are ours, beyond the books:
the Chaplygin sleigh and a puck for (4.85), a pendulum on a cart and a two-link pendulum for
the general dynamical equation (4.133), a particle on a cone and in a bowl for the pull-back
(7.2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import methodcaller

import sympy as sp
import sympy.physics.mechanics as me

from companion.examples.nonholonomic.connection import constrained_T_first
from companion.exercises.check import Mistake
from companion.exercises.exercise import Declare, Exercise, ExerciseSet, keyed, steps_keyed
from companion.geometry.constrained import ConstrainedSystem
from companion.mechanics.derivation import Step
from companion.mechanics.model import MechanicsModel
from companion.system import Parameter, System
from companion.workbench.define import coordinates, define
from companion.workbench.presets import chaplygin_sleigh

__all__ = ["bowl", "cart_pendulum", "cone", "exercise_set", "puck", "set_names", "show",
           "sleigh", "two_link"]


#: The Chaplygin sleigh of the workbench's presets, built once.
sleigh = cache(chaplygin_sleigh)


@cache
def puck() -> System:
    """A puck of mass m and moment of inertia I sliding on ice, pushed by a thrust F along its
    axis (ours): body-frame speeds u₁ = ẋ cos θ + ẏ sin θ, u₂ = −ẋ sin θ + ẏ cos θ, u₃ = θ̇."""
    (x, y, theta), (xd, yd, thd) = coordinates("x y theta")
    m, I, F = sp.symbols("m I F", positive=True)
    c, s = sp.cos(theta), sp.sin(theta)
    return define(
        "puck", title="Puck with a thrust along its axis", q=[x, y, theta],
        speeds=[xd * c + yd * s, -xd * s + yd * c, thd],
        T=m / 2 * (xd**2 + yd**2) + I / 2 * thd**2, forces=[F * c, F * s, 0],
        points={"C": (x, y), "nose": (x + sp.Rational(1, 5) * c, y + sp.Rational(1, 5) * s)},
        parameters={m: (1.0, 0.2, 5.0, "kg"), I: (0.05, 0.01, 0.5, "kg·m²"),
                    F: (0.2, 0.0, 2.0, "N")},
        initial={x: (0.0, -1.0, 1.0, "m"), y: (0.0, -1.0, 1.0, "m"),
                 theta: (0.0, -1.0, 1.0, "rad"), "u_1": (0.0, -2.0, 2.0, "m/s"),
                 "u_2": (0.5, -2.0, 2.0, "m/s"), "u_3": (1.0, -5.0, 5.0, "rad/s")},
        t_final=10.0,
    ).build()


def _udot(system: System, r: int) -> Step:
    return Step("Solved for the accelerations", _bh(system).accelerations(), "(4.85)",
                f"Row {r}: u̇_{r}.", r"\dot u")


_SLEIGH = Declare("chaplygin_sleigh", names=("x", "y", "theta", "u_1", "u_2", "a", "m", "I"))
_PUCK = Declare("puck", names=("x", "y", "theta", "u_1", "u_2", "u_3", "m", "I", "F"))
_bh = methodcaller("derive", "boltzmann_hamel")
_geometric = methodcaller("derive", "geometric")


def boltzmann_hamel() -> list[Exercise]:
    """Faded: the sleigh's u̇₁ from the given Ψ, γ's and T; unaided: the puck's u̇₁, u̇₂."""
    too_early = ("That is what the constrained T gives: put u_3 = 0 only after "
                 "differentiating, because p_3 = ∂T/∂u_3 feeds the γ terms (Greenwood's "
                 "warning at (4.108)).")
    return [
        _SLEIGH.typed("sleigh_u1dot", "Faded: the sleigh's forward acceleration u̇₁", (
            r"The steps above give $\Psi$, the $\gamma$'s and $T$ of the sleigh "
            r"(with $u_3$, the speed across the blade, kept in $T$ until the end). "
            r"Finish (4.85) for $r = 1$: form $p_j = \partial T/\partial u_j$, the "
            r"term $\sum_{j,l} p_j\gamma^j_{1l}u_l$, put $u_3 = 0$ and give "
            r"$\dot u_1$ in terms of $a$, $u_1$ and $u_2$."),
            answer=lambda s: _bh(s).accelerations()[0],
            given_steps=keyed("psi", "gamma", "kinetic_energy", method="boltzmann_hamel"),
            hints=("T does not depend on x, y or θ, so ∂T/∂θ₁ = 0 and Q₁ = 0.",
                   "p_3 = m(u_3 + a u_2) is not zero when u_3 = 0: it carries the term.",
                   "Row 1 reads m u̇₁ − (something) u₂² = 0."),
            solution=lambda s: [*steps_keyed(_bh(s), "momenta", "gyroscopic", "equations"),
                                _udot(s, 1)],
            mistakes=lambda s: [Mistake(constrained_T_first(s).accelerations()[0], too_early,
                                        "constraint_too_early")],
            example_answer="an expression in a, u_1 and u_2",
        ),
        _PUCK.typed("puck_u1dot", "Unaided: the puck's acceleration u̇₁ along its axis", (
            r"A puck of mass $m$ and moment of inertia $I$ about its centre "
            r"$(x, y)$ slides on ice at heading $\theta$, pushed by a thrust $F$ "
            r"along its axis. Take $u_1 = \dot x\cos\theta + \dot y\sin\theta$, "
            r"$u_2 = -\dot x\sin\theta + \dot y\cos\theta$, $u_3 = \dot\theta$. From "
            r"(4.85) give $\dot u_1$ in terms of $m$, $F$, $u_1$, $u_2$, $u_3$."),
            answer=lambda s: _bh(s).accelerations()[0],
            hints=("T = m(u₁² + u₂²)/2 + I u₃²/2; Q_u = Φᵀ Q_q gives the thrust to u₁ alone.",
                   "Only the rows of u₁ and u₂ depend on θ: compute γ¹ and γ² from them.",
                   "The γ term of row 1 comes from p₂ = m u₂ and u₃."),
            solution=lambda s: [*steps_keyed(_bh(s), "psi", "gamma", "momenta", "gyroscopic",
                                             "equations"), _udot(s, 1)],
            mistakes=lambda s: [Mistake(
                _bh(s).accelerations()[0].subs(s.u[2], 0),
                "That is Newton's law along a fixed axis: the axis turns at u₃, so the γ "
                "term p₂ u₃ is missing.", "gamma_missing")],
            example_answer="an expression in m, F, u_1, u_2 and u_3",
        ),
        _PUCK.typed("puck_u2dot", "Unaided: the puck's acceleration u̇₂ across its axis",
            r"From the same equations give $\dot u_2$ in terms of $u_1$, $u_2$, $u_3$.",
            answer=lambda s: _bh(s).accelerations()[1],
            hints=("The thrust has no share in u₂: Q₂ = 0.",
                   "Row 2's γ term comes from p₁ = m u₁ and u₃; mind its sign."),
            solution=lambda s: [*steps_keyed(_bh(s), "gamma", "gyroscopic", "equations"),
                                _udot(s, 2)],
            mistakes=lambda s: [Mistake(-_bh(s).accelerations()[1],
                                        "The sign: here γ²₁₃ = −γ¹₂₃, so row 2's γ term has "
                                        "the opposite sign of row 1's.", "sign")],
            example_answer="an expression in u_1, u_2 and u_3",
        ),
    ]


def _point_masses(q: Sequence[sp.Symbol], points: dict[str, tuple[sp.Expr, sp.Expr]],
                  masses: Sequence[sp.Symbol]) -> MechanicsModel:
    """Kane's bodies of planar point masses: a particle of each mass at each of the ``points``
    (x, y in the coordinates ``q``), in the inertial frame N."""
    rates = me.dynamicsymbols(" ".join(s.name for s in q), seq=True)
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    moving = dict(zip(q, rates, strict=True))
    bodies = [me.Particle(name, O.locatenew(name, (sp.sympify(x) * N.x + sp.sympify(y) * N.y)
                                            .xreplace(moving)), mass)
              for (name, (x, y)), mass in zip(points.items(), masses, strict=True)]
    return MechanicsModel(frame=N, q=list(rates), frames={"N": "inertial"}, bodies=bodies)


@cache
def cart_pendulum() -> System:
    """A cart of mass M on a level track (x) carrying a pendulum of length L with a bob of mass
    m (θ from the downward vertical), ours; u₁ = ẋ, u₂ = θ̇, gravity g."""
    (x, theta), (xd, thd) = coordinates("x theta")
    M, m, L, g = sp.symbols("M m L g", positive=True)
    points = {"cart": (x, 0), "bob": (x + L * sp.sin(theta), -L * sp.cos(theta))}
    return define(
        "cart_pendulum", title="Pendulum on a cart", q=[x, theta],
        T=M / 2 * xd**2 + m / 2 * ((xd + L * sp.cos(theta) * thd) ** 2
                                   + (L * sp.sin(theta) * thd) ** 2),
        V=-m * g * L * sp.cos(theta),
        mechanics_model=lambda: _point_masses([x, theta], points, [M, m]),
        points=points,
        parameters={M: (1.0, 0.2, 5.0, "kg"), m: (0.5, 0.1, 2.0, "kg"),
                    L: (1.0, 0.2, 2.0, "m"), g: (9.81, 0.0, 20.0, "m/s²")},
        initial={x: (0.0, -1.0, 1.0, "m"), theta: (0.5, -3.0, 3.0, "rad")},
    ).build()


@cache
def two_link() -> System:
    """Two point masses on massless links of lengths l₁, l₂ hinged at a fixed pivot, each angle
    θ₁, θ₂ from the downward vertical (ours); u₁ = θ̇₁, u₂ = θ̇₂, gravity g."""
    (th1, th2), (w1, w2) = coordinates("theta_1 theta_2")
    m1, m2, l1, l2, g = sp.symbols("m_1 m_2 l_1 l_2 g", positive=True)
    p1 = (l1 * sp.sin(th1), -l1 * sp.cos(th1))
    p2 = (p1[0] + l2 * sp.sin(th2), p1[1] - l2 * sp.cos(th2))
    v1 = [sp.diff(c, th1) * w1 for c in p1]
    v2 = [sum(sp.diff(c, q) * w for q, w in ((th1, w1), (th2, w2))) for c in p2]
    return define(
        "two_link", title="Two-link pendulum of point masses", q=[th1, th2],
        T=m1 / 2 * (v1[0] ** 2 + v1[1] ** 2) + m2 / 2 * (v2[0] ** 2 + v2[1] ** 2),
        V=g * (m1 * p1[1] + m2 * p2[1]),
        mechanics_model=lambda: _point_masses(
            [th1, th2], {"particle_1": p1, "particle_2": p2}, [m1, m2]),
        points={"P_1": p1, "P_2": p2},
        parameters={m1: (1.0, 0.2, 5.0, "kg"), m2: (1.0, 0.2, 5.0, "kg"),
                    l1: (1.0, 0.2, 2.0, "m"), l2: (1.0, 0.2, 2.0, "m"),
                    g: (9.81, 0.0, 20.0, "m/s²")},
        initial={th1: (0.5, -3.0, 3.0, "rad"), th2: (1.0, -3.0, 3.0, "rad")},
    ).build()


def _kane_row(system: System, key: str, j: int) -> sp.Expr:
    """Row j of a step of the general dynamical equation (its inertia or applied forces)."""
    return system.derive("kane").step(key).expr[j]


_RATES = {"u_1dot": r"\dot{u_{1}}", "u_2dot": r"\dot{u_{2}}"}
_CART = Declare("cart_pendulum", names=("x", "theta", "u_1", "u_2", "M", "m", "L", "g"),
                aliases=_RATES)
_LINK = Declare("two_link",
                names=("theta_1", "theta_2", "u_1", "u_2", "m_1", "m_2", "l_1", "l_2", "g"))


def kane() -> list[Exercise]:
    """Faded: the cart-pendulum's Q*₁ from the given velocity coefficients; unaided: the
    two-link pendulum's Q₂ and Q*₂."""
    given = ("kinematical_equations", "velocities", "velocity_coefficients")
    return [
        _CART.typed("cart_Qstar1", "Faded: the cart-pendulum's generalized inertia force Q*₁", (
            r"The steps above give the velocities and the velocity coefficients "
            r"$\gamma_{ij}$ of the cart ($i = 1$) and the bob ($i = 2$). Finish (4.130): "
            r"differentiate the velocities, and give $Q^*_1 = -\sum_i m_i\,\dot v_i"
            r"\cdot\gamma_{i1}$ in terms of $M$, $m$, $L$, $\theta$, $u_2$ and the "
            r"rates $\dot u_1$, $\dot u_2$ (type u_1dot, u_2dot)."),
            answer=lambda s: _kane_row(s, "inertia_forces", 0),
            given_steps=keyed(*given, method="kane"),
            hints=("γ₁₁ = γ₂₁ = n̂_x: both the cart and the bob move with u₁ = ẋ.",
                   "The bob's acceleration has a tangential part L u̇₂ and a centripetal "
                   "part L u₂² towards the cart.",
                   "Q*₁ is minus the total mass times ẍ, minus the bob's relative "
                   "acceleration along n̂_x."),
            solution=keyed(*given, "accelerations", "inertia_forces", method="kane"),
            mistakes=lambda s: [
                Mistake(_kane_row(s, "inertia_forces", 0).subs(s.parameter_symbols[1], 0),
                        "That is the cart alone: the bob moves with u₁ too (γ₂₁ = n̂_x), so "
                        "its inertia force counts as well.", "particle_missing"),
                Mistake(_kane_row(s, "inertia_forces", 0).subs(s.u[1], 0),
                        "The bob's centripetal acceleration L u₂² is missing.",
                        "centripetal_missing"),
            ],
            example_answer="-(M + m)*u_1dot + ...",
        ),
        _LINK.typed("link_Q2", "Unaided: the two-link pendulum's generalized applied force Q₂", (
            r"Two point masses $m_1$, $m_2$ hang on massless links of lengths "
            r"$l_1$, $l_2$ from a fixed pivot, the angles $\theta_1$, $\theta_2$ "
            r"measured from the downward vertical; $u_1 = \dot\theta_1$, "
            r"$u_2 = \dot\theta_2$. Give the generalized applied force of gravity "
            r"$Q_2 = \sum_i F_i\cdot\gamma_{i2}$ (4.129)."),
            answer=lambda s: _kane_row(s, "applied_forces", 1),
            hints=("γ₁₂ = 0: the first mass does not move when only θ₂ changes.",
                   "γ₂₂ is l₂ times the unit vector across the second link."),
            solution=keyed("velocity_coefficients", "applied_forces", method="kane"),
            mistakes=lambda s: [Mistake(-_kane_row(s, "applied_forces", 1),
                                        "The sign: gravity pulls θ₂ back towards zero.",
                                        "sign")],
            example_answer="an expression in m_2, g, l_2 and theta_2",
        ),
        _LINK.typed(
            "link_Qstar2", "Unaided: the two-link pendulum's generalized inertia force Q*₂", (
            r"For the same pendulum give $Q^*_2 = -\sum_i m_i\,\dot v_i\cdot"
            r"\gamma_{i2}$ (4.130) in terms of the masses, lengths, angles, $u_1$ and "
            r"the rates $\dot u_1$, $\dot u_2$ (type u_1dot, u_2dot)."),
            answer=lambda s: _kane_row(s, "inertia_forces", 1),
            aliases=_RATES,
            hints=("Only the second mass has a share: γ₁₂ = 0.",
                   "The second mass's acceleration is the first mass's (tangential l₁ u̇₁, "
                   "centripetal l₁ u₁²) plus its own about the first.",
                   "Project each part on γ₂₂: the angle between the links, θ₂ − θ₁, "
                   "appears."),
            solution=keyed("velocity_coefficients", "accelerations", "inertia_forces",
                           method="kane"),
            mistakes=lambda s: [Mistake(
                _kane_row(s, "inertia_forces", 1).subs(s.u[0], 0),
                "The first mass's centripetal acceleration l₁ u₁², carried by the second, is "
                "missing.", "centripetal_missing")],
            example_answer="-m_2*l_2**2*u_2dot + ...",
        ),
    ]


def _on_surface(name: str, title: str, radial: sp.Symbol, embedding: Sequence[sp.Expr],
                shape: Parameter) -> ConstrainedSystem:
    """A particle of mass m under gravity g on a surface of revolution j(radial, φ) ⊂ IR³,
    σ = m I₃, F = (0, 0, −m g) (ours)."""
    phi = sp.Symbol("phi")
    rate, phid = sp.symbols(rf"\dot{{{radial.name}}} \dot{{\phi}}")
    m, g = sp.symbols("m g", positive=True)
    return ConstrainedSystem(
        name=name, title=title, x=[radial, phi],
        xdot=[rate, phid], embedding=embedding, ambient_metric=m * sp.eye(3),
        ambient_force=[0, 0, -m * g],
        parameters=[Parameter(m, 1.0, 0.2, 5.0, "kg", "mass", positive=True),
                    Parameter(g, 9.81, 0.0, 20.0, "m/s²", "gravity", positive=True), shape],
        initial=[Parameter(radial, 1.0, 0.2, 3.0, "m", f"{radial.name}(0)", positive=True),
                 Parameter(phi, 0.0, -3.14, 3.14, "rad", "φ(0)"),
                 Parameter(rate, 0.0, -2.0, 2.0, "m/s", f"{radial.name}̇(0)"),
                 Parameter(phid, 1.0, -3.0, 3.0, "rad/s", "φ̇(0)")])


@cache
def cone() -> ConstrainedSystem:
    """A particle on the inside of a cone with its vertex down, half-angle α, at distance s
    from the vertex along a generator and at azimuth φ (ours)."""
    s, phi, alpha = sp.symbols("s phi alpha")
    return _on_surface(
        "cone", "Particle on a cone", s,
        [s * sp.sin(alpha) * sp.cos(phi), s * sp.sin(alpha) * sp.sin(phi), s * sp.cos(alpha)],
        Parameter(alpha, 0.5, 0.1, 1.4, "rad", "half-angle α", positive=True))


@cache
def bowl() -> ConstrainedSystem:
    """A particle in the paraboloidal bowl z = k r², at radius r and azimuth φ (ours)."""
    r, phi, k = sp.symbols("r phi k")
    return _on_surface(
        "bowl", "Particle in a paraboloidal bowl", r,
        [r * sp.cos(phi), r * sp.sin(phi), k * r**2],
        Parameter(k, 0.5, 0.1, 2.0, "1/m", "bowl's curvature k", positive=True))


def pull_back() -> list[Exercise]:
    """Faded: the cone's σ̃ and s̈ from the given j and J; unaided: the bowl's σ̃ and r̈."""
    on_cone = Declare("cone", names=("s", "phi", "m", "g", "alpha"),
                      aliases={"sdot": r"\dot{s}", "phidot": r"\dot{\phi}"})
    on_bowl = Declare("bowl", names=("r", "phi", "m", "g", "k"),
                      aliases={"rdot": r"\dot{r}", "phidot": r"\dot{\phi}"})
    given = ("embedding", "jacobian")
    return [
        on_cone.typed("cone_metric", "Faded: the cone's induced metric σ̃", (
            r"The steps above give the cone's map $j(s, \phi)$ and its Jacobian $J$. "
            r"With $\sigma = m I_3$, give $\tilde\sigma = J^{\mathsf T}\sigma J$ "
            r"(7.2) as a 2×2 matrix in the order $(s, \phi)$."),
            answer=lambda s: _geometric(s).step("metric").expr,
            given_steps=keyed(*given, method="geometric"),
            hints=("σ̃_ij = m (column i of J)·(column j of J).",
                   "The columns are orthogonal: σ̃ is diagonal.",
                   "The circle at distance s along a generator has radius s sin α."),
            solution=keyed(*given, "metric", method="geometric"),
            mistakes=lambda s: [Mistake(
                _geometric(s).step("metric").expr.subs(s.parameter_symbols[2], sp.pi / 2),
                "That is the flat plane's polar metric: on the cone the circle through the "
                "particle has radius s sin α, not s.", "flat")],
            example_answer="[[a, 0], [0, b]]",
        ),
        on_cone.typed("cone_sddot", "Faded: the cone's equation for s̈", (
            r"Pull the force back, $\tilde F = J^{\mathsf T} F$ with "
            r"$F = (0, 0, -m g)$, write (7.2) with the Christoffel symbols of "
            r"$\tilde\sigma$ and give $\ddot s$ in terms of $s$, $\dot\phi$ "
            r"(type phidot), $g$ and $\alpha$."),
            answer=lambda s: _geometric(s).result("xddot")[0],
            given_steps=keyed(*given, method="geometric"),
            hints=("F̃₁ = (column 1 of J)·F: only its z-part, cos α, survives.",
                   "Γ̃^s_φφ = −½ ∂σ̃_φφ/∂s ÷ σ̃_ss."),
            solution=keyed("metric", "forces", "christoffel", "equations", method="geometric"),
            mistakes=lambda s: [Mistake(
                _geometric(s).result("xddot")[0].subs(s.u[1], 0),
                "The φ̇² term is missing: the metric's σ̃_φφ depends on s, so Γ̃^s_φφ ≠ 0.",
                "centripetal_missing")],
            example_answer="an expression in s, phidot, g and alpha",
        ),
        on_bowl.typed("bowl_metric", "Unaided: the bowl's induced metric σ̃", (
            r"A particle of mass $m$ slides without friction in the bowl "
            r"$z = k r^2$, at radius $r$ and azimuth $\phi$ (so "
            r"$j(r, \phi) = (r\cos\phi,\ r\sin\phi,\ k r^2)$), under gravity "
            r"$F = (0, 0, -m g)$ with $\sigma = m I_3$. Give $\tilde\sigma$ "
            r"(7.2) in the order $(r, \phi)$."),
            answer=lambda s: _geometric(s).step("metric").expr,
            hints=("Write J = ∂j/∂(r, φ) first: a 3×2 matrix.",
                   "The bowl's slope dz/dr = 2 k r adds to the radial entry."),
            solution=keyed("embedding", "jacobian", "metric", method="geometric"),
            mistakes=lambda s: [Mistake(
                _geometric(s).step("metric").expr.subs(s.parameter_symbols[2], 0),
                "That is the flat plane: the slope 2 k r of the bowl adds (2 k r)² to σ̃_rr.",
                "flat")],
            example_answer="[[a, 0], [0, b]]",
        ),
        on_bowl.typed("bowl_rddot", "Unaided: the bowl's equation for r̈", (
            r"From (7.2) on the bowl give $\ddot r$ in terms of $r$, $\dot r$, "
            r"$\dot\phi$ (type rdot, phidot), $g$ and $k$."),
            answer=lambda s: _geometric(s).result("xddot")[0],
            hints=("F̃_r = (column r of J)·F = −2 m g k r.",
                   "σ̃_rr depends on r: it brings a Γ̃^r_rr ṙ² term besides Γ̃^r_φφ φ̇²."),
            solution=keyed("metric", "forces", "christoffel", "equations", method="geometric"),
            mistakes=lambda s: [Mistake(
                _geometric(s).result("xddot")[0].subs(s.u[0], 0),
                "The ṙ² term is missing: through the slope 2 k r, σ̃_rr depends on r, so "
                "Γ̃^r_rr ≠ 0.", "rdot_missing")],
            example_answer="an expression in r, rdot, phidot, g and k",
        ),
    ]


#: name → (title, exercises, system): the exercise sets of the practice notebooks.
_SETS: dict[str, tuple[str, Callable[[], list[Exercise]], dict[str, Callable[[], System]]]] = {
    "boltzmann_hamel": ("Practice: the Boltzmann–Hamel equation", boltzmann_hamel,
                        {"chaplygin_sleigh": sleigh, "puck": puck}),
    "kane": ("Practice: the general dynamical equation", kane,
             {"cart_pendulum": cart_pendulum, "two_link": two_link}),
    "pull_back": ("Practice: the pull-back", pull_back, {"cone": cone, "bowl": bowl}),
}


def set_names() -> list[str]:
    """Names of the practice sets."""
    return list(_SETS)


def exercise_set(name: str) -> ExerciseSet:
    """A practice set, each exercise attached to its system."""
    if name not in _SETS:
        raise ValueError(f"no practice set {name!r}; known: {', '.join(_SETS)}")
    title, builder, systems = _SETS[name]
    exercises = builder()
    for exercise in exercises:
        exercise.system_of = systems[exercise.example]
    return ExerciseSet(example=name, title=title, exercises=exercises)


def show(name: str, *, only: Sequence[str], title: str | None = None, first: int = 1) -> None:
    """Display the exercises ``only`` of a practice set in a notebook (works in Voilà too),
    numbered from ``first``, under ``title`` (none by default: the notebook's section heads
    them, and a page shows a heading once)."""
    from IPython.display import display

    display(exercise_set(name).chosen(only, title=title or "").widget(first=first))
