"""Euler's equations as a geodesic on SO(3), after Arnold (Loparo & Vakalis §7.4–7.5).

The Lie algebra so(3) is identified with (IR³, ×).  The inertia operator A: V → V* gives the
left-invariant metric ⟨ξ, η⟩ = (Aξ, η).  The operator B: V × V → V is *defined* by

    ⟨[a, b], c⟩ = ⟨B(c, a), b⟩   for all b,

and here it is obtained by solving that linear condition symbolically, never typed in.  The
motion of a body with applied body torque τ is Arnold's form dω/dt = B(ω, ω) + A⁻¹τ, which
§7.4 writes with M for the torque (τ here, because M_c = Aω is the angular momentum).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
import sympy as sp

from companion.geometry.metric import _square, kinetic_metric
from companion.mechanics import inputs
from companion.mechanics.boltzmann_hamel import dot_symbol
from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.methods import Definition, register_method


def bracket(a: Sequence, b: Sequence, *, sign: int = 1) -> sp.Matrix:
    """Lie bracket of so(3) ≅ (IR³, ×): [a, b] = sign · a × b.

    ``sign=+1`` is the bracket of left-invariant fields used in §7.4 (the body convention);
    ``sign=-1`` is the bracket of right-invariant fields (the spatial convention), the sign
    trap: with it the torque-free equations become ω̇ = −B(ω, ω), solved by ω(−t).  That is
    not the physical time reversal: a body played backwards turns the other way, −ω(−t),
    which solves the right equations because B(ω, ω) is quadratic in ω.  So the wrong sign
    gives a different motion, not the reversed one.
    """
    if sign not in (1, -1):
        raise ValueError(f"sign must be +1 or -1, got {sign!r}")
    a, b = sp.Matrix(a), sp.Matrix(b)
    if a.shape != (3, 1) or b.shape != (3, 1):
        raise ValueError(f"so(3) elements are 3-vectors, got shapes {a.shape} and {b.shape}")
    return sign * a.cross(b)


def inertia_operator(moments: Sequence) -> sp.Matrix:
    """A = diag(I₁, I₂, I₃) in principal body axes (or any symmetric 3×3 inertia matrix)."""
    mats = sp.Matrix(moments)
    A = sp.diag(*mats) if mats.shape == (3, 1) else mats
    return _square(A, "inertia operator")


def inner(A: sp.Matrix, x: Sequence, y: Sequence) -> sp.Expr:
    """The left-invariant metric ⟨x, y⟩ = (A x, y)."""
    return (sp.Matrix(x).T * A * sp.Matrix(y))[0]


def b_operator(A: sp.Matrix, *, sign: int = 1) -> Callable[[Sequence, Sequence], sp.Matrix]:
    """The operator B of §7.4, solved from its definition ⟨[a, b], c⟩ = ⟨B(c, a), b⟩ ∀ b.

    B(c, a) is an unknown vector β; the condition is linear in b, so each coefficient of b
    gives one linear equation for β.  They are solved once for symbolic a, c and the result
    is returned as a function ``B(c, a)``; ``sign`` is the bracket's (:func:`bracket`).
    """
    A = inertia_operator(A)
    if A.det() == 0:
        raise ValueError("the inertia operator A is singular: ⟨·,·⟩ is not a metric")
    a, b, c, beta = (sp.Matrix(sp.symbols(f"{x}_1:4")) for x in ("a", "b", "c", "beta"))
    condition = sp.expand(inner(A, bracket(a, b, sign=sign), c) - inner(A, beta, b))
    eqs = [condition.coeff(bk) for bk in b]  # the condition holds for all b
    sol = sp.solve(eqs, list(beta), dict=True)
    if len(sol) != 1:
        raise ValueError("the defining condition of B has no unique solution")
    general = beta.subs(sol[0])

    def B(c_: Sequence, a_: Sequence) -> sp.Matrix:
        c_, a_ = sp.Matrix(c_), sp.Matrix(a_)
        if c_.shape != (3, 1) or a_.shape != (3, 1):
            raise ValueError("B takes two 3-vectors of so(3)")
        return general.subs(dict(zip([*c, *a], [*c_, *a_], strict=True)), simultaneous=True)

    return B


def arnold_equations(A: sp.Matrix, omega: Sequence[sp.Symbol], tau: Sequence | None = None,
                     *, sign: int = 1) -> Derivation:
    """Euler's equations in Arnold's form dω/dt = B(ω, ω) + A⁻¹τ (§7.4) as a Derivation,
    τ the applied body torque (default zero).

    The derivation's mass matrix is A and its forcing A·B(ω, ω) + τ, so it can be compared
    row by row with other methods (e.g. Boltzmann–Hamel in Greenwood Ex. 4.3); there are no
    coordinates (q = []): the orientation is carried on SO(3) by the simulation.
    """
    omega = inputs.symbols_list(omega, "omega")
    if len(omega) != 3:
        raise ValueError(f"omega must have 3 components, got {len(omega)}")
    A = inertia_operator(A)
    tau = sp.zeros(3, 1) if tau is None else sp.Matrix(tau)
    if tau.shape != (3, 1):
        raise ValueError(f"the body torque τ must have 3 components, got {tau.shape[0]}")
    B = b_operator(A, sign=sign)
    w = sp.Matrix(omega)
    Bww = B(w, w).applyfunc(sp.factor)
    rate = (Bww + A.inv() * tau).applyfunc(sp.factor)
    # A ω̇ = Aω × ω + τ, one row each: I₁ω̇₁ = (I₂ − I₃)ω₂ω₃ + τ₁
    torque = (A * Bww + tau).applyfunc(sp.expand)
    equations = [sp.Eq((A * sp.Matrix([dot_symbol(s) for s in omega]))[i], torque[i])
                 for i in range(3)]
    c, a = sp.Matrix(sp.symbols("c_1:4")), sp.Matrix(sp.symbols("a_1:4"))
    steps = [
        Step("Bracket of so(3)", bracket(a, c, sign=sign), "§7.4",
             "so(3) is IR³ with the cross product as its bracket"
             + ("" if sign == 1 else " — here with the WRONG sign"),
             r"[a, c]", key="bracket"),
        Step("Inertia operator A", A, "§7.4", "It turns ω into the body angular momentum Aω; "
             + ("diag(I₁, I₂, I₃) in principal axes." if A.is_diagonal()
                else "here not in principal axes, so not diagonal."),
             "A", key="inertia_operator"),
        Step("B(c, a) solved from ⟨[a,b],c⟩ = ⟨B(c,a),b⟩ ∀b", B(c, a).applyfunc(sp.factor),
             "§7.4", "§7.4's A⁻¹((Ac) × a), here solved from the definition (ours): the "
             "condition is linear in b, one equation per component.",
             "B(c, a)", key="b_operator"),
        Step("B(ω, ω)", Bww, "§7.4", "Put c = a = ω: the geodesic term.", r"B(\omega,\omega)",
             key="b_omega_omega"),
        Step("Arnold's form of Euler's equations", equations, "§7.4",
             "Torque-free motion is a geodesic of the left-invariant metric on SO(3).", None,
             key="equations"),
    ]
    return Derivation(method="arnold", q=[], u=omega, mass_matrix=A,
                      forcing=torque, kinematics=sp.zeros(0, 1),
                      equations=equations, steps=steps,
                      explicit_rates=rate,
                      extra={"B": B, "B(omega, omega)": Bww, "sign": sign, "omega_dot": rate})


@register_method("arnold", "Arnold (§7.4)")
def _arnold(system: Definition) -> Derivation:
    """Arnold's form for a system whose speeds are body-axis angular velocities.

    A is the Hessian of the kinetic energy in ω (the metric of T), the torque is the
    system's generalized force Q.
    """
    omega = system.u_independent
    if len(omega) != 3 or system.n_constraints:
        raise NotImplementedError(
            "Arnold's form needs the three body angular velocities as speeds"
        )
    A = kinetic_metric(system.T, omega)
    depends = (A.free_symbols | set().union(*(sp.sympify(e).free_symbols
                                              for e in (system.Q or [])))) & set(system.q)
    if depends:
        raise NotImplementedError(
            "the inertia or torques depend on the attitude "
            f"({', '.join(sorted(map(str, depends)))}); Arnold's ω-equations alone carry no "
            "attitude, so they would need the orientation as well")
    return arnold_equations(A, omega, system.Q)


# ------------------------------------------------------------------- numerics on SO(3)
def hat(w: np.ndarray) -> np.ndarray:
    """ŵ with ŵ v = w × v, for w of shape (3,) or (3, N) → (3, 3) or (N, 3, 3)."""
    w = np.asarray(w, dtype=float)
    x, y, z = w
    o = np.zeros_like(x)
    return np.moveaxis(np.array([[o, -z, y], [z, o, -x], [-y, x, o]]), (0, 1), (-2, -1))


def exp_so3(theta: np.ndarray) -> np.ndarray:
    """Rodrigues' formula exp(θ̂) for θ of shape (3,) or (3, N) (exact, orthogonal)."""
    theta = np.asarray(theta, dtype=float)
    angle = np.linalg.norm(theta, axis=0)
    K = hat(theta)
    small = angle < 1e-6
    safe = np.where(small, 1.0, angle)
    s = np.where(small, 1 - angle**2 / 6, np.sin(safe) / safe)
    c = np.where(small, 0.5 - angle**2 / 24, (1 - np.cos(safe)) / safe**2)
    s, c = np.asarray(s)[..., None, None], np.asarray(c)[..., None, None]
    return np.eye(3) + s * K + c * (K @ K)


def left_translation_pushforward(a: np.ndarray, xi: np.ndarray, h: float = 1e-3) -> np.ndarray:
    """L_exp(a)* ξ in exponential coordinates: d/dt log(exp(â) exp(t ξ̂)) at t = 0, by a
    fourth-order central difference (error ~1e-13 for |a|, |ξ| of order 1).

    Lemma 7.1 says ξ + ½[a, ξ] + O(|a|²); :func:`pushforward_series` gives the further terms.
    """
    from scipy.spatial.transform import Rotation

    a, xi = np.asarray(a, dtype=float), np.asarray(xi, dtype=float)
    f = {s: Rotation.from_matrix(exp_so3(a) @ exp_so3(s * h * xi)).as_rotvec()
         for s in (-2, -1, 1, 2)}
    return (8 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12 * h)


@cache
def dexp_inverse_coefficients(order: int) -> tuple[sp.Rational, ...]:
    """c₀ … c_order of x / (1 − e⁻ˣ) = Σ cₙ xⁿ, by sympy's series: 1, ½, 1/12, 0, −1/720, …

    They are the coefficients of L_exp(a)* ξ = Σ cₙ ad_aⁿ ξ (ours: exp(a + tη) = exp(a) exp(tξ)
    with the derivative of exp, d/dt exp(a + tη) = exp(a) ((1 − e^{−ad_a})/ad_a) η, see
    B. C. Hall, *Lie Groups, Lie Algebras, and Representations*, Thm. 5.4, gives
    η = (ad_a / (1 − e^{−ad_a})) ξ).  c₁ = ½ is Lemma 7.1's bracket term; c₂ = 1/12 ≠ 0 is why
    its remainder is O(|a|²) and not o(|a|²).
    """
    if order < 0:
        raise ValueError(f"order must be 0 or more, got {order!r}")
    x = sp.Symbol("x")
    series = sp.series(x / (1 - sp.exp(-x)), x, 0, order + 1).removeO()
    return tuple(sp.Rational(series.coeff(x, n)) for n in range(order + 1))


def pushforward_series(a: Sequence[float], xi: Sequence[float], order: int = 2) -> np.ndarray:
    """Σ_{n ≤ order} cₙ ad_aⁿ ξ, with ad_a ξ = [a, ξ] = a × ξ and the cₙ of
    :func:`dexp_inverse_coefficients`: L_exp(a)* ξ up to a remainder O(|a|^(order+1))
    (order 1 is Lemma 7.1, ξ + ½[a, ξ]; order 2 adds (1/12)[a, [a, ξ]], leaving O(|a|⁴),
    since c₃ = 0)."""
    a, term = np.asarray(a, dtype=float), np.asarray(xi, dtype=float)
    if a.shape != (3,) or term.shape != (3,):
        raise ValueError(f"a and ξ are 3-vectors of so(3), got shapes {a.shape}, {term.shape}")
    total = np.zeros(3)
    for c in dexp_inverse_coefficients(order):
        total += float(c) * term
        term = np.cross(a, term)
    return total


def adjoint(R: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """Ad_g ξ = (R ξ̂ Rᵀ)^∨ for g = R in SO(3): conjugation in the group, pushed to so(3)."""
    M = R @ hat(xi) @ R.T
    return np.array([M[2, 1], M[0, 2], M[1, 0]])


def magnus_attitude(R0: np.ndarray, omega: Callable[[np.ndarray], np.ndarray],
                    t: np.ndarray) -> np.ndarray:
    """Integrate Ṙ = R ω̂(t) on SO(3) with the 4th-order Magnus method.

    Each step is an exact group update R ← R exp(Θ̂) (Rodrigues) with
    Θ = h/2 (ω₁ + ω₂) + (√3 h²/12) ω₁ × ω₂ at the two Gauss points, so R stays orthogonal
    to rounding.  ``omega(times)`` returns the body angular velocity, shape (3, len(times));
    it is called once, with increasing times.
    The running products are formed by a parallel prefix (a few batched products instead
    of a Python loop).  Returns rotations of shape (len(t), 3, 3).
    """
    t = np.asarray(t, dtype=float)
    h = np.diff(t)
    c = np.sqrt(3) / 6
    gauss = np.column_stack([t[:-1] + (0.5 - c) * h, t[:-1] + (0.5 + c) * h]).ravel()
    w = omega(gauss)  # one call, at increasing times
    w1, w2 = w[:, 0::2], w[:, 1::2]
    theta = h / 2 * (w1 + w2) + np.sqrt(3) * h**2 / 12 * np.cross(w1, w2, axis=0)
    prefix = exp_so3(theta)  # step k's update; turned in place into S_0 ⋯ S_k
    d = 1
    while d < len(prefix):  # parallel prefix product: log₂N batched 3×3 products
        prefix[d:] = prefix[:-d] @ prefix[d:]
        d *= 2
    return np.concatenate([np.asarray(R0, dtype=float)[None], R0 @ prefix])


def orthogonality_drift(R: np.ndarray) -> np.ndarray:
    """‖RᵀR − I‖ (Frobenius) for rotations of shape (N, 3, 3)."""
    err = np.swapaxes(R, -1, -2) @ R - np.eye(3)
    return np.linalg.norm(err, axis=(-2, -1))


def rotation_from_euler_angles(psi: float, theta: float, phi: float) -> np.ndarray:
    """Rotation (body → space) of type I Euler angles ψ (z), θ (new y), φ (new x)."""
    return (exp_so3(np.array([0.0, 0.0, psi])) @ exp_so3(np.array([0.0, theta, 0.0]))
            @ exp_so3(np.array([phi, 0.0, 0.0])))


def euler_angles_from_rotations(R: np.ndarray) -> np.ndarray:
    """Type I Euler angles (ψ, θ, φ), shape (3, N), of rotations R of shape (N, 3, 3)."""
    psi = np.arctan2(R[:, 1, 0], R[:, 0, 0])
    theta = np.arcsin(np.clip(-R[:, 2, 0], -1.0, 1.0))
    phi = np.arctan2(R[:, 2, 1], R[:, 2, 2])
    return np.array([psi, theta, phi])
