"""Between the books: Greenwood's Hamel coefficients and Loparo & Vakalis's geometry, computed.

* The constant γ^j_rl of Example 4.3 (4.100)–(4.102) are the structure constants of so(3):
  [e_r, e_l] = Σ_j γ^j_rl e_j, i.e. γ^j_rl = ε_jrl (Levi-Civita symbol).
* The gyroscopic term of (4.92), Σ_j p_j γ^j u, is A·(−B(ω, ω)) with the B of §7.4, which
  for SO(3) is B(c, a) = A⁻¹((Ac) × a) (§7.4; the companion solves it from B's definition):
  Boltzmann–Hamel's A ω̇ + Σ_j p_j γ^j ω = τ, τ the applied body torque, is §7.4's
  dω/dt = B(ω, ω) + A⁻¹τ (the chapter writes M for the torque); that they agree is ours.
* With the metric σ = Ψᵀ A Ψ of T in the Euler-angle rates (4.89)/(4.93), the geodesic
  equations σ q̈ + Γ_{j,kl} q̇^k q̇^l = 0 of §7.2, mapped to ω = Ψ q̇, are Euler's equations
  (checked at random states: the symbolic σ⁻¹ in Euler angles takes a minute).
* One identity for Examples 4.3 and 4.4: γ^j_rl = ⟨ω^j, [X_r, X_l]⟩, with X_r the columns of
  Φ and ω^j the rows of Ψ (Hamel's coefficients are the structure functions of the frame).
* Both of Greenwood's examples use left-invariant frames, which is why their γ's are constant:
  Example 4.3's body rates on SO(3), and Example 4.4's (4.105)–(4.107), the body velocities of
  SE(2), with [X₁, X₂] = −X₃, [X₂, X₃] = −X₁, [X₁, X₃] = 0.  Fixed axes instead, u₁ = ẋ, give
  γ³₁₂ = −sec φ: a frame that is not left-invariant (:func:`knife_edge_frame`).
* The γ-test: the knife edge's allowed fields have γ³₁₂ = ⟨ω³, [X₁, X₂]⟩ = −1 ≠ 0 (4.119), so
  D is not integrable (Frobenius) and the pull-back of §7.3 has no submanifold to act on.
  C³ ≠ 0 is *not* that test: u₃ = x ẏ has C³ ≠ 0 while ẏ = 0 is holonomic, and rescaling u₃
  by f(q) changes C³ but not the constraint.

Every function returns sympy objects derived from the companion's systems; nothing is typed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import sympy as sp

from companion.examples.double_pendulum.system import build as build_double_pendulum
from companion.examples.euler_body.system import build as build_euler_body
from companion.examples.knife_edge.system import build as build_knife_edge
from companion.geometry.distribution import gamma_test, lie_bracket, structure_functions
from companion.geometry.lie import b_operator, bracket, inertia_operator
from companion.geometry.metric import covariant_equations, products_to_sums
from companion.geometry.metric import robotics_form as metric_robotics_form
from companion.mechanics.quasi_velocities import c_matrices, psi_from_definitions

_euler_body = cache(build_euler_body)
_knife_edge = cache(build_knife_edge)


def hamel_gamma() -> list[sp.Matrix]:
    """γ¹, γ², γ³ of Example 4.3, from the engine's Boltzmann–Hamel derivation."""
    return list(_euler_body().derive("boltzmann_hamel").gamma)


def structure_constants() -> list[sp.Matrix]:
    """c^j with c^j[r, l] = the e_j-component of [e_r, e_l] in so(3) (§7.4's bracket)."""
    e = [sp.eye(3)[:, i] for i in range(3)]
    return [sp.Matrix(3, 3, lambda r, l, j=j: bracket(e[r], e[l])[j]) for j in range(3)]


def levi_civita() -> list[sp.Matrix]:
    """ε_jrl as three matrices (row r, column l)."""
    return [sp.Matrix(3, 3, lambda r, l, j=j: sp.LeviCivita(j, r, l)) for j in range(3)]


def _moments(system: Any) -> list[sp.Symbol]:
    return [s for s in system.parameter_symbols if s.name.startswith("I_")]


def gyroscopic(system: Any = None) -> sp.Matrix:
    """Σ_j p_j γ^j ω of (4.92) from the engine's Boltzmann–Hamel derivation of Example 4.3
    (``system``; the shared one unless given)."""
    system = _euler_body() if system is None else system
    d = system.derive("boltzmann_hamel")
    return sum((d.momenta[j] * d.gamma[j] for j in range(3)), sp.zeros(3, 3)) * sp.Matrix(system.u)


def gyroscopic_vs_b() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    """(Σ_j p_j γ^j ω, −A B(ω, ω), their difference expanded): the gyroscopic term of
    (4.92) against §7.4's B."""
    omega, A = sp.Matrix(_euler_body().u), inertia_operator(_moments(_euler_body()))
    gyro, minus_A_B = gyroscopic(), -A * b_operator(A)(omega, omega)
    return gyro, minus_A_B, (gyro - minus_A_B).applyfunc(sp.expand)


def euler_angle_metric() -> sp.Matrix:
    """σ = Ψᵀ A Ψ: the kinetic-energy metric of Example 4.3 in the Euler-angle rates."""
    psi, _ = _euler_body().psi
    return (psi.T * inertia_operator(_moments(_euler_body())) * psi).applyfunc(sp.expand)


def geodesic_in_euler_angles():
    """The geodesic equations σ q̈ + Γ_{j,kl} q̇^k q̇^l = 0 of σ = Ψᵀ A Ψ (first-kind
    Christoffel symbols: no symbolic σ⁻¹, which is slow in Euler angles)."""
    system = _euler_body()
    return covariant_equations(euler_angle_metric(), system.q, system.qdot, None,
                               method="geodesic", kind="first")


def geodesic_vs_euler(n_states: int = 20, seed: int = 0, *, sign: int = 1) -> float:
    """Largest relative difference between ω̇ of the geodesic and B(ω, ω), at random
    attitudes (away from gimbal lock), rates and moments of inertia.

    ω = Ψ(q) q̇, so ω̇ = Ψ q̈ + (Σ_k ∂Ψ/∂q_k q̇_k) q̇, with q̈ from the geodesic equations
    (solved numerically) and q̇ = Φ ω.  ``sign=-1`` uses the wrong bracket [a, b] = −a × b
    (ω̇ = −B(ω, ω), solved by ω(−t)), which must disagree.
    """
    system = _euler_body()
    q, qdot, omega = system.q, sp.Matrix(system.qdot), sp.Matrix(system.u)
    inertia = _moments(system)
    psi, _ = system.psi
    geo = geodesic_in_euler_angles()
    psi_dot = sum((psi.diff(qi) * qd for qi, qd in zip(q, qdot, strict=True)), sp.zeros(3, 3))
    A = inertia_operator(inertia)
    args = [*q, *qdot, *inertia]
    mass = sp.lambdify(args, geo.mass_matrix, cse=True)
    forcing = sp.lambdify(args, geo.forcing, cse=True)
    kin = sp.lambdify(args, [psi, psi_dot], cse=True)
    phi = sp.lambdify([*q], system.derive("boltzmann_hamel").Phi, cse=True)
    b = sp.lambdify([*omega, *inertia], b_operator(A, sign=sign)(omega, omega), cse=True)
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(n_states):
        angles = rng.uniform(-1.2, 1.2, 3)
        w = rng.normal(size=3)
        moments = rng.uniform(0.5, 3.0, 3)
        rates = np.asarray(phi(*angles), dtype=float) @ w
        point = [*angles, *rates, *moments]
        qddot = np.linalg.solve(np.asarray(mass(*point), dtype=float),
                                np.asarray(forcing(*point), dtype=float).ravel())
        psi_n, psi_dot_n = (np.asarray(m, dtype=float) for m in kin(*point))
        rate = psi_n @ qddot + psi_dot_n @ rates
        euler = np.asarray(b(*w, *moments), dtype=float).ravel()
        worst = max(worst, float(np.linalg.norm(rate - euler) / max(np.linalg.norm(euler), 1)))
    return worst


def structure_function_identity(name: str) -> tuple[list[sp.Matrix], list[sp.Matrix]]:
    """(γ^j_rl = ⟨ω^j, [X_r, X_l]⟩ from the frame, the engine's γ^j = ΦᵀC^jΦ of (4.83)) for
    ``"euler_body"`` (Example 4.3: (4.100)–(4.102)) or ``"knife_edge"`` (Example 4.4:
    (4.117)–(4.119)): one identity for both examples."""
    system = {"euler_body": _euler_body, "knife_edge": _knife_edge}[name]()
    return (structure_functions(system.psi[0], system.q),
            list(system.derive("boltzmann_hamel").gamma))


def knife_edge_gamma_test() -> dict[str, sp.Matrix]:
    """The γ-test on the knife edge: the allowed fields X₁, X₂ (columns of Φ (4.111)), their
    bracket, the constraint's row ω³ of Ψ (4.110) and γ³₁₂ = ⟨ω³, [X₁, X₂]⟩."""
    system = _knife_edge()
    psi, _ = system.psi
    d = system.derive("boltzmann_hamel")
    X1, X2 = d.Phi[:, 0], d.Phi[:, 1]
    lie = lie_bracket(X1, X2, system.q)
    return {"X1": X1, "X2": X2, "bracket": lie, "omega3": psi[2, :],
            "gamma3_12": sp.simplify((psi[2, :] * lie)[0]),
            "block": gamma_test(psi, system.q, system.n_constraints)[0], "C3": d.C[2]}


def knife_edge_frame() -> dict[str, Any]:
    """Example 4.4's frame is left-invariant on SE(2) (ours), and a fixed-axes frame is not.

    Returned: ``"q"``; ``"frame"``, X_r the columns of Φ (4.111); ``"brackets"``, the
    coefficients c with [X_r, X_l] = Σ_j c[j][r, l] X_j (the structure functions of
    (4.105)–(4.107), constant); ``"pushforward"``,
    dL_h X_r(g) − X_r(h g) for the left translation L_h by a symbolic h = (a, b, α) (zero: the
    fields are left-invariant); and ``"fixed_axes"``, the same coefficients for u₁ = ẋ,
    u₂ = φ̇ and the knife edge's u₃ (4.107), where γ³₁₂ = −sec φ depends on φ.
    """
    system = _knife_edge()
    q = system.q
    x, y, phi = q
    psi, _ = system.psi
    Phi = psi.inv().applyfunc(sp.simplify)
    a, b, alpha = sp.symbols("a b alpha")
    left = sp.Matrix([a + x * sp.cos(alpha) - y * sp.sin(alpha),
                      b + x * sp.sin(alpha) + y * sp.cos(alpha), alpha + phi])
    moved = dict(zip(q, left, strict=True))
    push = [(left.jacobian(q) * Phi[:, r] - Phi[:, r].xreplace(moved)).applyfunc(sp.simplify)
            for r in range(len(q))]
    xd, yd, phid = system.qdot
    fixed, _ = psi_from_definitions([xd, phid, -xd * sp.sin(phi) + yd * sp.cos(phi)],
                                    system.qdot)
    return {"q": q, "frame": [Phi[:, r] for r in range(len(q))],
            "brackets": structure_functions(psi, q), "pushforward": push,
            "fixed_axes": structure_functions(fixed, q)}


def c_is_not_the_test() -> dict[str, dict[str, sp.Matrix]]:
    """Two counterexamples to "C^j ≠ 0 means nonholonomic".

    ``"x_ydot"``: q = (x, y, z), u₁ = ẋ, u₂ = ż and the suppressed u₃ = x ẏ; u₃ = 0 is ẏ = 0
    (for x ≠ 0), holonomic (y = const), yet C³ ≠ 0; its γ-test block is zero.
    ``"rescaled"``: the knife edge with u₃ multiplied by f = eˣ: the same constraint, a
    different C³, and a γ-test block multiplied by f (still ≠ 0).
    """
    x, y, z = sp.symbols("x y z")
    xd, yd, zd = sp.symbols(r"\dot{x} \dot{y} \dot{z}")
    psi, _ = psi_from_definitions([xd, zd, x * yd], [xd, yd, zd])
    out = {"x_ydot": {"Psi": psi, "C3": c_matrices(psi, [x, y, z])[2],
                      "block": gamma_test(psi, [x, y, z], 1)[0]}}
    knife = _knife_edge()
    scaled = sp.Matrix(knife.psi[0])  # a mutable copy of the frozen Ψ
    scaled[2, :] = sp.exp(knife.q[0]) * scaled[2, :]
    out["rescaled"] = {"Psi": scaled, "C3": c_matrices(scaled, knife.q)[2],
                       "block": gamma_test(scaled, knife.q, 1)[0]}
    return out


def knife_edge_frobenius() -> dict[str, sp.Expr | sp.Matrix]:
    """Frobenius' test in its 1-form version: the knife-edge constraint form
    a = −sin φ dx + cos φ dy (the row ω³ of Ψ) has a ∧ da ≠ 0, i.e. a · (∇ × a) ≠ 0, and the
    allowed fields X₁, X₂ with their bracket span all directions (det ≠ 0)."""
    system = _knife_edge()
    q = system.q
    a = system.psi[0][2, :].T  # the constraint row (4.107)
    curl = sp.Matrix([a[2].diff(q[1]) - a[1].diff(q[2]), a[0].diff(q[2]) - a[2].diff(q[0]),
                      a[1].diff(q[0]) - a[0].diff(q[1])])
    g = knife_edge_gamma_test()
    span = sp.Matrix.hstack(g["X1"], g["X2"], g["bracket"])
    return {"a": a, "a_dot_curl_a": sp.trigsimp((a.T * curl)[0]),
            "det": sp.trigsimp(span.det())}


# ------------------------------------------------------------------ the bridge's other joints
_double_pendulum = cache(build_double_pendulum)


def kane_vs_pull_back() -> dict[str, sp.Matrix]:
    """(4.133)/(4.142) and (7.2) on the double pendulum: one equation (ours).

    With u = q̇, the velocity coefficients γ_ij, β_ij of (4.125)/(4.135)–(4.136) are
    ∂(ḟ)/∂u_j for the bodies' (ẋ, ẏ) and θ̇ (reference points at the mass centres, so
    ρ_c = 0): the columns of Loparo's J.  Q_j of (4.137) is then (JᵀF)_j = j*F, and the inertia
    side of (4.142) is Jᵀ G f̈, which equals σ̃ q̈ + Γ_{j,kl} q̇^k q̇^l of (7.2).  Returned:
    the coefficients, the left minus right of (4.142), of (7.2), and their difference.
    """
    system = _double_pendulum()
    mech = system.mechanism
    q, qdot, qddot = mech.q, mech.qdot, mech.qddot
    f = mech.constraint_map()
    t = sp.Symbol("t")
    path = {qi: sp.Function(qi.name)(t) for qi in q}
    velocity = f.xreplace(path).diff(t)
    back = {**{sp.Derivative(path[qi], (t, 2)): a for qi, a in zip(q, qddot, strict=True)},
            **{sp.Derivative(path[qi], t): v for qi, v in zip(q, qdot, strict=True)}}
    acceleration = velocity.diff(t).subs(back).xreplace({path[qi]: qi for qi in q})
    velocity = velocity.subs(back).xreplace({path[qi]: qi for qi in q})
    coefficients = velocity.jacobian(qdot)  # γ_ij and β_ij, one column per u_j
    G, F = mech.ambient_metric(), mech.ambient_force()
    kane = (coefficients.T * (G * acceleration - F)).applyfunc(sp.expand)
    d = system.derive("pull_back")
    pull_back = (d.mass_matrix * sp.Matrix(qddot) - d.forcing).applyfunc(sp.expand)
    return {"coefficients": coefficients, "J": mech.jacobian(), "kane": kane,
            "pull_back": pull_back,
            "difference": (kane - pull_back).applyfunc(products_to_sums)}


def robotics_form() -> dict[str, sp.Matrix]:
    """M(q) q̈ + C(q, q̇) q̇ + g(q) = τ for the double pendulum (ours): its pulled-back metric
    and forcing handed to :func:`companion.geometry.metric.robotics_form` with the potential of
    its mechanism; Ṁ − 2C is skew (passivity)."""
    system = _double_pendulum()
    mech = system.mechanism
    d = system.derive("pull_back")
    return metric_robotics_form(d.mass_matrix, d.forcing, mech.potential_energy(), mech.q,
                                mech.qdot)


def bracket_sign_on_so3(system: Any = None) -> dict[str, list[sp.Matrix]]:
    """γ^j_rl = ⟨ω^j, [X_r, X_l]⟩ for body (left-invariant) and spatial (right-invariant)
    angular velocities in Greenwood's type I Euler angles (ours): ε_jrl and −ε_jrl.

    The spatial ω_s = R ω_b with R = R_z(ψ) R_y(θ) R_x(φ), the attitude whose body rates are
    (4.89) (``rotation`` is returned so that a test can check Rᵀ Ṙ = ω̂_b).  ``system`` is
    Example 4.3's (the shared one unless given).
    """
    system = _euler_body() if system is None else system
    psi, theta, phi = system.q
    R = (sp.rot_axis3(-psi) * sp.rot_axis2(-theta) * sp.rot_axis1(-phi))
    body, _ = system.psi
    spatial = (R * body).applyfunc(sp.trigsimp)
    return {"body": structure_functions(body, system.q),
            "spatial": structure_functions(spatial, system.q), "rotation": R,
            "Psi_spatial": spatial}
