"""Point contact between a disk and a pivoted link (Loparo & Vakalis §7.9–7.11, reconstructed).

Both bodies start free in SE(2) (§7.1): the link with the planar pose (x_L, y_L, φ_L) of its
mass centre, the disk with (x_D, y_D, φ_D).  Their kinetic-energy metric is
G = diag(M, M, J_G, m, m, I_D).  Contact is described by a map from the *contact
coordinates* (θ, s, h, ψ) into that product space:

* θ: link angle from the horizontal, s: distance from the pivot O to the contact point along
  the link, h: gap between disk and link (h = 0 in contact), ψ: disk rotation angle;
* e₁ = (cos θ, sin θ), e₂ = (−sin θ, cos θ); disk centre c = s e₁ + (r + h) e₂.

Each contact mode is a sub-chart of that map: rolling uses (θ, s) with h = 0 and
ψ = θ − s/r (up to a constant), slipping uses (θ, s, ψ) with h = 0, separation uses all four.
The equations of each mode are Newton's law for the pulled-back metric and forces (7.2),
obtained from :mod:`companion.geometry.metric`; the contact forces N (along e₂) and F (along
e₁) are recovered afterwards from the disk's own Newton–Euler equations (§7.7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import sympy as sp

from companion.geometry.metric import (
    ambient_acceleration,
    covariant_equations,
    jacobian,
    pull_back_form,
    pull_back_metric,
)
from companion.geometry.planar import cross2
from companion.mechanics.derivation import Derivation, Step

# ----------------------------------------------------------------------------- symbols
theta, s, h, psi = sp.symbols("theta s h psi")
theta_d, s_d, h_d, psi_d = sp.symbols(r"\dot{\theta} \dot{s} \dot{h} \dot{\psi}")
theta_dd, s_dd, h_dd, psi_dd = sp.symbols(r"\ddot{\theta} \ddot{s} \ddot{h} \ddot{\psi}")
g, m, r, kappa, M, L = sp.symbols("g m r kappa M L", positive=True)
tau = sp.Symbol("tau")
N, F = sp.symbols("N F")

COORDS = [theta, s, h, psi]
RATES = [theta_d, s_d, h_d, psi_d]
ACCELS = [theta_dd, s_dd, h_dd, psi_dd]

#: Sections of Loparo & Vakalis our copy does not contain: the steps are our reconstruction.
_S7_7, _S7_9, _S7_10 = ("§7.7 (reconstructed)", "§7.9 (reconstructed)",
                        "§7.10 (reconstructed)")


def planar_wrench(force: sp.Matrix, point: sp.Matrix, centre: sp.Matrix) -> list[sp.Expr]:
    """The 1-form on a body's SE(2) coordinates (x, y, φ) of its mass centre for a force
    applied at ``point``: (F_x, F_y, (p − c) × F)."""
    return [force[0], force[1], cross2(point - centre, force)]


def pythagoras(expr: sp.Expr) -> sp.Expr:
    """Expand and use sin²θ + cos²θ = 1 (cheap; enough for polynomials in sin θ, cos θ)."""
    return sp.expand(sp.expand(expr).subs(sp.sin(theta) ** 2, 1 - sp.cos(theta) ** 2))


def time_derivative(expr, q: Sequence, qdot: Sequence):
    """d/dt of an expression (or matrix) of q along q̇ (chain rule)."""
    return sum((sp.diff(expr, qk) * vk for qk, vk in zip(q, qdot, strict=True)),
               sp.zeros(*expr.shape) if isinstance(expr, sp.MatrixBase) else sp.S.Zero)


#: The contact geometry in (θ, s, h, ψ) (§7.9): the link's frame e₁, e₂; the disk centre
#: c = s e₁ + (r + h) e₂; the link's mass centre at L/2 along it (uniform link); the disk's
#: material point nearest the link (the contact point when h = 0) and the link's under it.
E1 = sp.Matrix([sp.cos(theta), sp.sin(theta)])
E2 = sp.Matrix([-sp.sin(theta), sp.cos(theta)])
CENTRE = s * E1 + (r + h) * E2
LINK_CENTRE = L / 2 * E1
DISK_POINT = CENTRE - r * E2
LINK_POINT = s * E1
#: The map into SE(2) × SE(2): (x_L, y_L, φ_L, x_D, y_D, φ_D).
AMBIENT = [*LINK_CENTRE, theta, *CENTRE, psi]
#: G = diag(M, M, J_G, m, m, I_D), J_G = M L²/12, I_D = κ m r².
AMBIENT_METRIC = sp.diag(M, M, M * L**2 / 12, m, m, kappa * m * r**2)
#: Gravity on both bodies and the torque τ on the link, as a 1-form on SE(2)².
EXTERNAL_FORCES = [0, -M * g, tau, 0, -m * g, 0]


def relative_velocity() -> sp.Matrix:
    """Velocity of the disk's contact point relative to the link's, in (e₁, e₂); its first
    entry is v_slip (ṡ − rθ̇ + rψ̇ at h = 0)."""
    def moving(point, centre, omega):  # a body's material point: ċ + ω k × (p − c)
        rel = point - centre
        return time_derivative(centre, COORDS, RATES) + omega * sp.Matrix([-rel[1], rel[0]])

    v = moving(DISK_POINT, CENTRE, psi_d) - moving(LINK_POINT, sp.zeros(2, 1), theta_d)
    return sp.Matrix([pythagoras(v.dot(E1)), pythagoras(v.dot(E2))])


def contact_forces() -> list[sp.Expr]:
    """Contact force N e₂ + F e₁ on the disk at its contact point, the reaction on the link
    at s e₁, as a 1-form on SE(2)²."""
    f = N * E2 + F * E1
    return [*planar_wrench(-f, LINK_POINT, LINK_CENTRE), *planar_wrench(f, DISK_POINT, CENTRE)]


#: The charts of the contact modes: coordinates kept and the substitution for the others.
CHARTS: dict[str, tuple[list[sp.Symbol], dict]] = {
    "rolling": ([theta, s], {h: 0, psi: theta - s / r}),
    "slipping": ([theta, s, psi], {h: 0}),
    "separated": ([theta, s, h, psi], {}),
}


@dataclass
class ModeModel:
    """The pulled-back model of the contact mode ``name`` ("rolling", "slipping" or
    "separated") in its coordinates q, rates and accelerations (subsets of θ, s, h, ψ).

    ``chart`` gives the four contact coordinates (θ, s, h, ψ) as functions of q;
    ``derivation`` is Newton's law (7.2) for the pulled-back metric and forces, whose forcing
    holds τ in every mode and the friction force F as a symbol in the slipping mode;
    ``normal`` and ``tangential`` are N and F on the disk recovered from its Newton–Euler
    equations, in q, q̇, q̈.
    """

    name: str
    q: list[sp.Symbol]
    qdot: list[sp.Symbol]
    qddot: list[sp.Symbol]
    chart: list[sp.Expr]
    derivation: Derivation
    normal: sp.Expr
    tangential: sp.Expr

    @property
    def metric(self) -> sp.Matrix:
        return self.derivation.mass_matrix


def disk_newton_euler() -> tuple[sp.Expr, sp.Expr]:
    """(F, N) from the disk's translational Newton equation m c̈ = N e₂ + F e₁ − m g ĵ,
    in the contact coordinates, rates and accelerations (§7.7)."""
    a_c = ambient_acceleration(CENTRE, COORDS, RATES, ACCELS)
    total = m * a_c + sp.Matrix([0, m * g])
    return pythagoras(total.dot(E1)), pythagoras(total.dot(E2))


@cache
def mode_model(name: str) -> ModeModel:
    """Pull the two bodies' metric and forces back through the chart of mode ``name``."""
    if name not in CHARTS:
        raise ValueError(f"unknown contact mode {name!r}; known: {', '.join(CHARTS)}")
    q, subs = CHARTS[name]
    qdot = [RATES[COORDS.index(c)] for c in q]
    qddot = [ACCELS[COORDS.index(c)] for c in q]
    chart = [sp.sympify(subs.get(c, c)) for c in COORDS]
    embedding = [sp.sympify(e).subs(subs) for e in AMBIENT]
    J = jacobian(embedding, q)
    sigma = pull_back_metric(AMBIENT_METRIC, J)
    ambient_force = [sp.sympify(a + b).subs(subs) for a, b in
                     zip(EXTERNAL_FORCES, contact_forces(), strict=True)]
    Q = pull_back_form(ambient_force, J).applyfunc(pythagoras)
    derivation = covariant_equations(sigma, q, qdot, Q, method="pull_back", pulled_back=True)
    derivation.steps[:0] = [
        Step("Contact map into SE(2) × SE(2)", sp.Matrix(embedding), "(7.2)",
             "Link pose (x_L, y_L, φ_L) and disk pose (x_D, y_D, φ_D) in the mode's "
             "coordinates.", r"j(q)", key="embedding"),
        Step("Jacobian J = ∂j/∂q", J, "(7.2)", "How the mode's rates move both bodies.", "J",
             key="jacobian"),
        Step("Pulled-back metric σ̃ = j*G = Jᵀ G J", sigma, "(7.2)",
             "The bodies' kinetic-energy metric seen from the contact coordinates.",
             r"\tilde\sigma", key="metric"),
        Step("Pulled-back forces F̃ = j*F = Jᵀ F", Q, "(7.2)",
             "Gravity, the link torque and the contact forces; the workless parts drop out.",
             r"\tilde F", key="forces"),
    ]
    # the contact coordinates, their rates and accelerations, in the mode's
    rs = dict(zip([*COORDS, *RATES, *ACCELS],
                  [*chart, *time_derivative(sp.Matrix(chart), q, qdot),
                   *ambient_acceleration(chart, q, qdot, qddot)], strict=True))
    F_ne, N_ne = (sp.expand(e.subs(rs, simultaneous=True)) for e in disk_newton_euler())
    if name == "rolling":
        derivation.steps.append(Step(
            "Contact forces from the disk's Newton–Euler equations", [sp.Eq(N, N_ne),
                                                                     sp.Eq(F, F_ne)],
            _S7_7, "Put the accelerations back into m c̈ = N e₂ + F e₁ − m g ĵ.", None,
            key="contact_forces"))
    elif name == "slipping":
        derivation.steps.append(Step(
            "Normal force from the disk's Newton–Euler equations", sp.Eq(N, N_ne), _S7_7,
            "N is linear in the accelerations; with F = −μ_k N sgn(v_slip) the equations "
            "close.", None, key="normal_force"))
    return ModeModel(name, q, qdot, qddot, chart, derivation, N_ne,
                     F_ne if name == "rolling" else F)


#: λ of the Coulomb closure F = λ N (−σ μ_k while slipping, 0 in the other modes).
LAMBDA_F = sp.Symbol("lambda_F")


@cache
def closed_mode(name: str) -> tuple[sp.Matrix, sp.Matrix, list[sp.Expr]]:
    """Mode ``name``'s equations closed for numbers: A q̈ = b, then ``post``, the quantities
    read off q̈.

    In the slipping mode F = λ N with λ = −σ μ_k, and N is linear in the accelerations
    (N = n·q̈ + n₀), so M q̈ = f₀ + b_F F becomes (M − λ b_F nᵀ) q̈ = f₀ + λ b_F n₀; λ (
    :data:`LAMBDA_F`) is 0 in the other modes, where F is not an unknown.  ``post`` are the
    four contact-coordinate accelerations (through the chart), N, F and the θ-row residual
    (the torque a held link needs), in q, q̇, q̈, τ and λ.
    """
    model = mode_model(name)
    forcing = model.derivation.forcing
    acc0 = dict.fromkeys(model.qddot, 0)
    normal = sp.Matrix([model.normal])
    b_f = forcing.diff(F)
    A = model.metric - LAMBDA_F * b_f * normal.jacobian(model.qddot)
    b = forcing.subs({N: 0, F: 0}) + LAMBDA_F * b_f * normal.subs(acc0)
    chart_acc = ambient_acceleration(model.chart, model.q, model.qdot, model.qddot)
    tangential = model.tangential if name == "rolling" else LAMBDA_F * model.normal
    residual = (A[0, :] * sp.Matrix(model.qddot))[0] - b[0]
    return A, b, [*chart_acc, model.normal, tangential, residual]


def potential() -> sp.Expr:
    """Gravity's potential energy g (M y_L + m y_D) in the contact coordinates."""
    return g * (M * LINK_CENTRE[1] + m * CENTRE[1])


def energy() -> sp.Expr:
    """Kinetic plus potential energy in the contact coordinates (θ, s, h, ψ) and rates."""
    pose_rates = jacobian(AMBIENT, COORDS) * sp.Matrix(RATES)
    T = pythagoras((pose_rates.T * AMBIENT_METRIC * pose_rates)[0] / 2)
    return sp.expand(T + potential())


def fixed_link_friction_ratio() -> sp.Expr:
    """F/N that rolling needs on a link held still (θ̇ = θ̈ = 0), from the rolling model.

    The link's own equation is dropped (its torque is whatever holds it); the s-equation gives
    s̈, and the disk's Newton–Euler equations give N and F.
    """
    roll = mode_model("rolling")
    at_rest = {theta_d: 0, theta_dd: 0}
    s_acc = sp.solve(roll.derivation.equations[1].subs(at_rest), s_dd)
    if len(s_acc) != 1:
        raise ValueError("the rolling model does not determine s̈ on a held link")
    ratio = (roll.tangential / roll.normal).subs(at_rest).subs(s_dd, s_acc[0])
    return sp.simplify(ratio)


def fixed_link_threshold(mu_static: float, inertia_ratio: float = 0.5) -> float:
    """The steepest angle θ* of a held link on which the disk still rolls: |F|/N = μ_s."""
    if mu_static < 0 or inertia_ratio <= 0:
        raise ValueError("need μ_s ≥ 0 and κ = I_D/(m r²) > 0")
    ratio = fixed_link_friction_ratio().subs(kappa, inertia_ratio)
    roots = sp.solve(sp.Eq(ratio, mu_static), theta)
    angles = [float(a) for a in roots if a.is_real and 0 <= float(a) <= float(sp.pi / 2)]
    if not angles:
        raise ValueError(f"no held-link angle in [0, π/2] needs |F|/N = {mu_static}")
    return min(angles)


def kinematics_steps() -> list[Step]:
    """The contact kinematics, step by step: frame, disk centre, velocities, slip (§7.9)."""
    rel = relative_velocity()
    v_slip = rel[0].subs(h, 0)
    rolling = sp.solve(sp.Eq(v_slip, 0), psi_d)[0]
    return [
        Step("Frame of the link", [E1, E2], _S7_9,
             "e₁ along the link, e₂ its normal; both turn with θ.", r"e_1,\ e_2", key="link_frame"),
        Step("Disk centre", CENTRE, _S7_9,
             "s along the link to the contact point, then r + h along the normal (h = gap).",
             "c", key="disk_centre"),
        Step("Velocity of the disk centre", time_derivative(CENTRE, COORDS, RATES).applyfunc(
            sp.expand), _S7_9, "Differentiate c along the motion.", r"\dot c",
             key="centre_velocity"),
        Step("Relative velocity of the touching material points (along e₁, e₂)", rel, _S7_9,
             "Disk point c − r e₂ turning with ψ̇ minus link point s e₁ turning with θ̇.",
             r"v_{rel}", key="relative_velocity"),
        Step("Slip velocity in contact (h = 0)", v_slip, _S7_9,
             "The tangential part: zero when the disk rolls.", r"v_{slip}", key="slip_velocity"),
        Step("Rolling constraint", sp.Eq(psi_d, rolling), _S7_10,
             "Integrable in the plane: ψ = θ − s/r + const, leaving the coordinates (θ, s).",
             None, key="rolling_constraint"),
    ]


def contact_force_steps() -> list[Step]:
    """Contact forces of the rolling model from the disk's Newton–Euler equations (§7.7)."""
    roll = mode_model("rolling")
    forcing = roll.derivation.forcing.applyfunc(sp.factor)
    acc = {a: sp.factor(sp.cancel(e)) for a, e in
           zip(roll.qddot, roll.metric.LUsolve(forcing), strict=True)}
    N_state = sp.factor(sp.cancel(roll.normal.subs(acc)))
    F_state = sp.factor(sp.cancel(roll.tangential.subs(acc)))
    return [
        Step("Newton's law for the disk alone", r"m \ddot c = N e_2 + F e_1 - m g \hat\jmath",
             _S7_7, "The disk as a free body: the contact force is the only unknown.", None,
             key="disk_newton"),
        Step("Normal and tangential components", [sp.Eq(N, roll.normal),
                                                  sp.Eq(F, roll.tangential)], _S7_7,
             "Project on e₂ and e₁, with the rolling model's accelerations.", None,
             key="force_components"),
        Step("Rolling model, equations solved", [sp.Eq(k, v) for k, v in acc.items()], "(7.2)",
             "The pulled-back equations give θ̈ and s̈ at any state.", None, key="rolling_solved"),
        Step("Contact forces at a state", [sp.Eq(N, N_state), sp.Eq(F, F_state)], _S7_10,
             "F depends only on θ, s, θ̇: with κ = ½ it is (m/3)(g sin θ − s θ̇²).", None,
             key="forces_at_state"),
        Step("Validity of the rolling model", r"N > 0,\quad |F| \le \mu_s N",
             _S7_10, "Contact needs N > 0; rolling needs the static friction to suffice.", None,
             key="validity"),
    ]
