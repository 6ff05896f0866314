"""Riemannian toolkit of Loparo & Vakalis §7.2–7.3, in coordinates.

The kinetic-energy metric σ is a symmetric positive-definite matrix in the coordinates;
forces are 1-forms (columns).  Newton's law is σ♭(∇_{c′}c′) = F (7.1); on a constraint
manifold with injection j and Jacobian J it is the same law for the pulled-back metric
Jᵀ σ J and force Jᵀ F (7.2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp
from sympy.simplify.fu import TR8

from companion.mechanics import inputs
from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.methods import Definition, register_method
from companion.mechanics.quasi_velocities import dot_symbol


def _square(sigma, what: str = "metric") -> sp.Matrix:
    sigma = sp.Matrix(sigma)
    if sigma.rows != sigma.cols:
        raise ValueError(f"the {what} must be square, got {sigma.rows}×{sigma.cols}")
    if (sigma - sigma.T).applyfunc(sp.expand) != sp.zeros(*sigma.shape):
        raise ValueError(f"the {what} must be symmetric")
    return sigma


def kinetic_metric(T: sp.Expr, qdot: Sequence[sp.Symbol]) -> sp.Matrix:
    """The metric of a kinetic energy T = ½ q̇ᵀ σ q̇, σ = ∂²T/∂q̇∂q̇."""
    return sp.hessian(inputs.sympify_entry(T, "T"), list(qdot))


def jacobian(embedding: Sequence[sp.Expr], x: Sequence[sp.Symbol]) -> sp.Matrix:
    """J = ∂j/∂x of a coordinate map (injection) j: M → N."""
    x = inputs.symbols_list(x, "coordinates")
    return sp.Matrix(list(embedding)).jacobian(x)


def products_to_sums(e: sp.Expr) -> sp.Expr:
    """Expand, turn products of sines and cosines into sums (fu's TR8), expand again.

    A cheap, predictable alternative to ``trigsimp`` for metrics of linkages: it turns
    sin θ₁ sin θ₂ + cos θ₁ cos θ₂ into cos(θ₁ − θ₂) and sin² + cos² into 1.
    """
    return sp.expand(TR8(sp.expand(e)))


def flat(sigma: sp.Matrix, v: Sequence) -> sp.Matrix:
    """σ♭(v) = σ(v, ·): the 1-form (column) a velocity or acceleration turns into."""
    return _square(sigma) * sp.Matrix(v)


def pull_back_metric(sigma: sp.Matrix, J: sp.Matrix, *, simplify: Callable[[sp.Expr], sp.Expr]
                     = lambda e: sp.trigsimp(sp.expand(e))) -> sp.Matrix:
    """Induced metric j*σ = Jᵀ σ J (7.2); entries expanded and trig-simplified (small).

    ``simplify`` is applied to every entry (default ``trigsimp`` after ``expand``; pass
    :func:`products_to_sums` for many-body linkages, where ``trigsimp`` is slow).
    """
    sigma = _square(sigma)
    if J.rows != sigma.rows:
        raise ValueError(f"J has {J.rows} rows but the metric is {sigma.rows}×{sigma.cols}")
    return (J.T * sigma * J).applyfunc(simplify)


def pull_back_form(F: Sequence, J: sp.Matrix) -> sp.Matrix:
    """Pulled-back 1-form j*F = Jᵀ F (7.2)."""
    F = sp.Matrix(F)
    if F.shape != (J.rows, 1):
        raise ValueError(f"the force needs {J.rows} components, got {F.shape[0]}")
    return (J.T * F).applyfunc(sp.expand)


def christoffel_first(sigma: sp.Matrix, q: Sequence[sp.Symbol]) -> list[sp.Matrix]:
    """Christoffel symbols of the first kind: ``Gamma[j][k, l] = Γ_{j,kl}``.

    Γ_{j,kl} = ½ (∂_k σ_jl + ∂_l σ_jk − ∂_j σ_kl) = σ_ji Γ^i_kl; no inverse of σ is needed,
    so Newton's law σ q̈ + Γ_first(q̇, q̇) = F stays cheap for many coordinates.
    """
    sigma = _square(sigma)
    q = inputs.symbols_list(q, "q")
    n = len(q)
    if sigma.rows != n:
        raise ValueError(f"the metric is {sigma.rows}×{sigma.cols} for {n} coordinates")
    d = [sigma.diff(qk) for qk in q]  # d[k][j, l] = ∂_k σ_jl
    return [
        sp.Matrix(n, n, lambda k, l, j=j: (d[k][j, l] + d[l][j, k] - d[j][k, l]) / 2)
        for j in range(n)
    ]


def robotics_form(sigma: sp.Matrix, forcing: sp.Matrix, potential: sp.Expr,
                  q: Sequence[sp.Symbol], qdot: Sequence[sp.Symbol]) -> dict[str, sp.Matrix]:
    """Newton's law (7.2) written as M(q) q̈ + C(q, q̇) q̇ + g(q) = τ, the form of a robotics
    handbook (ours).

    M = σ, C_ij = Σ_k Γ_{i,jk} q̇^k from the first-kind Christoffel symbols, g = ∂V/∂q, and τ
    what is left of the right side ``forcing`` of σ q̈ = forcing (only the input torques when
    C and g took every velocity and gravity term).  With this C, Ṁ − 2C is skew (passivity):
    (Ṁ − 2C)_ij = Σ_k (∂_j σ_ik − ∂_i σ_jk) q̇^k.

    ``sigma`` and ``forcing`` are a derivation's ``mass_matrix`` and ``forcing``; returns
    ``M``, ``C``, ``g``, ``tau``, ``M_dot_minus_2C`` and ``skew_check`` (its sum with its
    transpose, zero when it is skew), every entry with products of sines and cosines turned
    into sums (and τ's fractions cancelled).
    """
    q = inputs.symbols_list(q, "q")
    qdot = inputs.symbols_list(qdot, "qdot")
    M = _square(sigma)
    n = len(q)
    first = christoffel_first(M, q)
    C = sp.Matrix(n, n, lambda i, j: sum(first[i][j, k] * qdot[k] for k in range(n)))
    g = sp.Matrix([potential]).jacobian(q).T
    M_dot = sum((M.diff(qi) * v for qi, v in zip(q, qdot, strict=True)), sp.zeros(n, n))
    skew = (M_dot - 2 * C).applyfunc(products_to_sums)
    torque = (sp.Matrix(forcing) + g + C * sp.Matrix(qdot)).applyfunc(
        lambda e: sp.cancel(products_to_sums(e)))
    return {"M": M, "C": C.applyfunc(products_to_sums), "g": g, "tau": torque,
            "M_dot_minus_2C": skew, "skew_check": (skew + skew.T).applyfunc(products_to_sums)}


def christoffel(sigma: sp.Matrix, q: Sequence[sp.Symbol]) -> list[sp.Matrix]:
    """Christoffel symbols of the Levi-Civita connection: ``Gamma[i][k, l] = Γ^i_kl``.

    Γ^i_kl = ½ σ^{ij} (∂_k σ_jl + ∂_l σ_jk − ∂_j σ_kl).
    """
    first = christoffel_first(sigma, q)
    n = len(first)
    inv = sp.Matrix(sigma).inv()
    return [
        sum((inv[i, j] * first[j] for j in range(n)), sp.zeros(n, n)).applyfunc(
            lambda e: sp.trigsimp(sp.cancel(e))
        )
        for i in range(n)
    ]


def quadratic(gamma: list[sp.Matrix], v: Sequence) -> sp.Matrix:
    """Γ(v, v): the column with entries Σ_kl Γ^i_kl v^k v^l."""
    v = sp.Matrix(v)
    return sp.Matrix([(v.T * g * v)[0] for g in gamma])


def covariant_equations(
    sigma: sp.Matrix,
    q: Sequence[sp.Symbol],
    qdot: Sequence[sp.Symbol],
    F: Sequence | None = None,
    *,
    method: str = "geometric",
    kind: str = "second",
    pulled_back: bool = False,
) -> Derivation:
    """Newton's law σ(q̈ + Γ(q̇, q̇)) = F (7.1) as a :class:`Derivation` with u = q̇.

    Parameters
    ----------
    sigma, F
        The (possibly pulled-back) kinetic-energy metric in the coordinates q, and the
        generalized force 1-form (default zero: geodesics, ∇_{c′}c′ = 0; name the method
        ``"geodesic"`` then); ``qdot`` are the speeds of the derivation.
    kind
        ``"second"`` shows Γ^i_kl (needs σ⁻¹); ``"first"`` writes the same law as
        σ q̈ + Γ_{j,kl} q̇^k q̇^l = F with the first-kind symbols, with no inverse (fast for
        many coordinates, e.g. n-link chains).
    pulled_back
        True when σ and F are the pull-backs σ̃ = j*σ, F̃ = j*F onto a constrained space,
        already shown by the caller's steps: the steps then use σ̃, F̃, Γ̃ and ∇̃, cite Newton's
        law on the submanifold (7.2), and do not repeat the metric and the force.
    """
    if kind not in ("first", "second"):
        raise ValueError(f"kind must be 'first' or 'second', got {kind!r}")
    q = inputs.symbols_list(q, "q")
    qdot = inputs.symbols_list(qdot, "qdot")
    sigma = _square(sigma)
    F = sp.zeros(len(q), 1) if F is None else sp.Matrix(F)
    big_gamma = r"\tilde\Gamma" if pulled_back else r"\Gamma"
    of = "σ̃, the Levi-Civita connection ∇̃ of the constrained space" if pulled_back else \
        "σ, its Levi-Civita connection ∇"
    second = kind == "second"
    gamma = (christoffel if second else christoffel_first)(sigma, q)
    quad = quadratic(gamma, qdot)  # Γ(q̇, q̇); of the first kind Γ_{j,kl} q̇^k q̇^l = σ Γ(q̇, q̇)
    symbols = ("Γ̃" if pulled_back else "Γ") + ("^i_kl" if second else "_{j,kl}")
    gamma_step = Step(f"Christoffel symbols {'' if second else 'of the first kind '}{symbols}",
                      gamma, "Def. 7.3", f"The connection of {of} " + (
                          "(torsion-free and metric-compatible): how coordinate directions "
                          "turn as q moves." if second else
                          "with its index lowered: no inverse needed."),
                      ", ".join(rf"{big_gamma}{'^' if second else '_'}{{{i + 1}}}"
                                for i in range(len(q))), key="christoffel")
    if pulled_back:  # σ̃ and F̃ are the caller's steps already
        steps = [gamma_step]
    else:
        steps = [
            Step("Kinetic-energy metric σ", sigma, None,
                 "Kinetic energy is ½ q̇ᵀ σ q̇: σ measures velocities.", r"\sigma",
                 key="kinetic_metric"),
            gamma_step,
            Step("Force 1-form F", F, "(7.1)", "Forces pair with velocities to give power.",
                 "F", key="force_form"),
        ]
    qddot = sp.Matrix([dot_symbol(s, "ddot") for s in q])
    if second:
        lhs, forcing = sigma * (qddot + quad), F - sigma * quad
    else:
        lhs, forcing = sigma * qddot + quad, F - quad
    forcing = forcing.applyfunc(sp.expand)
    equations = [sp.Eq(lhs[i], F[i]) for i in range(len(q))]
    steps.append(Step(*(("Newton's law on the constrained space σ̃♭(∇̃_{c̃′} c̃′) = F̃, in "
                         "coordinates", equations, "(7.2)",
                         "The law (7.1) holds unchanged on the submanifold with the pulled-back "
                         "metric, connection and force; the reaction, in the null space of Jᵀ, "
                         "never enters.") if pulled_back else
                        ("Newton's law σ♭(∇_{c′} c′) = F in coordinates", equations, "(7.1)",
                         "Mass times covariant acceleration equals force; with F = 0 the "
                         "motion is a geodesic.")), None, key="equations"))
    return Derivation(method=method, q=q, u=qdot, mass_matrix=sigma, forcing=forcing,
                      kinematics=sp.Matrix(qdot), equations=equations, steps=steps,
                      extra={"christoffel": gamma, "christoffel_kind": kind})


def ambient_acceleration(embedding: Sequence[sp.Expr], x: Sequence[sp.Symbol],
                         xdot: Sequence[sp.Symbol], xddot: Sequence) -> sp.Matrix:
    """d²j(x(t))/dt² = J ẍ + (dJ/dt) ẋ: the acceleration of the image in the ambient space."""
    J = jacobian(embedding, x)
    xdot, xddot = sp.Matrix(list(xdot)), sp.Matrix(list(xddot))
    if xdot.rows != J.cols or xddot.rows != J.cols:
        raise ValueError(f"ẋ and ẍ need {J.cols} components each")
    Jdot = sum((J.diff(xi) * xdot[i] for i, xi in enumerate(x)), sp.zeros(*J.shape))
    return J * xddot + Jdot * xdot


def reaction_force(sigma: sp.Matrix, embedding: Sequence[sp.Expr], x: Sequence[sp.Symbol],
                   xdot: Sequence[sp.Symbol], xddot: Sequence, F: Sequence) -> sp.Matrix:
    """The constraint (reaction) force R = σ♭(ambient acceleration) − F (§7.3).

    With ẍ from the reduced law (7.2) the result lies in the null space of Jᵀ: see
    :func:`reaction_in_null_space`.
    """
    acc = ambient_acceleration(embedding, x, xdot, xddot)
    F = sp.Matrix(list(F))
    if F.shape != acc.shape:
        raise ValueError(f"the ambient force needs {acc.rows} components, got {F.rows}")
    return flat(sigma, acc) - F


def reaction_in_null_space(J, R, *, tol: float = 1e-9) -> bool:
    """True when Jᵀ R = 0: the reaction does no work along any constrained velocity (§7.3).

    Symbolic J, R are simplified entry by entry; numeric arrays (one configuration, or a
    stack of shape (N, n, k) and (N, n)) are compared with ``tol`` relative to |J||R|.
    """
    if isinstance(J, sp.MatrixBase) or isinstance(R, sp.MatrixBase):
        J, R = sp.Matrix(J), sp.Matrix(R)
        if J.rows != R.rows:
            raise ValueError(f"J has {J.rows} rows but R has {R.rows} components")
        return all(sp.simplify(e) == 0 for e in J.T * R)
    J, R = np.asarray(J, dtype=float), np.asarray(R, dtype=float)
    if J.shape[-2] != R.shape[-1]:
        raise ValueError(f"J has {J.shape[-2]} rows but R has {R.shape[-1]} components")
    JtR = np.einsum("...ij,...i->...j", J, R)
    scale = np.linalg.norm(J, axis=(-2, -1)) * np.linalg.norm(R, axis=-1) + 1e-300
    return bool(np.all(np.linalg.norm(JtR, axis=-1) <= tol * np.maximum(scale, 1.0)))


@dataclass(frozen=True)
class Embedding:
    """A constraint surface as the image of coordinates x under j: M → N (§7.3), with the
    ambient metric σ and force F; J, the induced metric Jᵀ σ J and force Jᵀ F follow (7.2).

    It is the ``geometry`` of a system the method ``"geometric"`` applies to.
    """

    x: list[sp.Symbol]
    embedding: sp.Matrix
    ambient_metric: sp.Matrix
    ambient_force: sp.Matrix
    J: sp.Matrix
    induced_metric: sp.Matrix
    force: sp.Matrix

    @classmethod
    def of(cls, x: Sequence[sp.Symbol], embedding: Sequence[sp.Expr], ambient_metric,
           ambient_force: Sequence[sp.Expr]) -> Embedding:
        """The embedding j(x) with everything (7.2) derives from it."""
        j = sp.Matrix(list(embedding))
        J = jacobian(j, x)
        sigma = sp.Matrix(ambient_metric)
        F = sp.Matrix(list(ambient_force))
        return cls(list(x), j, sigma, F, J, pull_back_metric(sigma, J), pull_back_form(F, J))

    def kinetic_energy(self, xdot: Sequence[sp.Symbol]) -> sp.Expr:
        """T = ½ ẋᵀ (Jᵀ σ J) ẋ."""
        v = sp.Matrix(list(xdot))
        return sp.expand((v.T * self.induced_metric * v)[0] / 2)


@register_method("geometric", "covariant (§7.2)")
def geometric(system: Definition) -> Derivation:
    """Newton's law on the constraint manifold σ̃(ẍ + Γ̃(ẋ, ẋ)) = F̃ (7.2) of a system whose
    ``geometry`` is an :class:`Embedding`, with the reaction force R = σ♭(d²j/dt²) − F
    (``result("reaction")``) and ẍ (``result("xddot")``)."""
    emb = getattr(system, "geometry", None)
    if not isinstance(emb, Embedding):
        raise NotImplementedError("this system is not defined by a coordinate map")
    d = covariant_equations(emb.induced_metric, system.q, system.u, system.Q,
                            pulled_back=True)
    xddot = d.accelerations().applyfunc(sp.cancel)
    R = reaction_force(emb.ambient_metric, emb.embedding, system.q, system.u, xddot,
                       emb.ambient_force)
    d.steps[:0] = [
        Step("Coordinate map j", emb.embedding, "§7.3",
             "The constraint surface is the image of the coordinates.", "j(x)", key="embedding"),
        Step("Jacobian J = ∂j/∂x", emb.J, "(7.2)", "It carries velocities to the ambient "
             "space; its transpose carries forces back.", "J", key="jacobian"),
        Step("Induced metric σ̃ = j*σ = Jᵀ σ J", emb.induced_metric, "(7.2), Thm. 7.3",
             "The ambient kinetic energy seen by constrained velocities; j is an immersion, so "
             "σ̃ is positive definite.", r"\tilde\sigma", key="metric"),
        Step("Pulled-back force F̃ = j*F = Jᵀ F", sp.Matrix(system.Q), "(7.2)",
             "Only the force's tangential part survives.", r"\tilde F", key="forces"),
    ]
    d.steps.append(Step("Reaction force R = σ♭(d²j/dt²) − F", R, "§7.3",
                        "What the surface must push with so the particle stays on it; JᵀR = 0.",
                        "R", key="reaction"))
    d.method = "geometric"
    d.extra.update(reaction=R, J=emb.J, xddot=xddot)
    return d


def levi_civita_residuals(sigma: sp.Matrix, q: Sequence[sp.Symbol]
                          ) -> tuple[list[sp.Matrix], list[sp.Matrix]]:
    """The two defining properties of the Levi-Civita connection (Def. 7.3) for the
    Christoffel symbols of σ, as residuals that vanish.

    Returns
    -------
    torsion, compatibility
        ``torsion[i]`` = Γ^i − (Γ^i)ᵀ (torsion-free: Γ^i_kl = Γ^i_lk) and
        ``compatibility[k]`` = ∂_k σ − (Γ_kᵀ σ + σ Γ_k) with (Γ_k)_mi = Γ^m_ki
        (metric-compatible: ∂_k σ_ij = Γ^m_ki σ_mj + Γ^m_kj σ_im), entries simplified.
    """
    sigma = _square(sigma)
    gamma = christoffel(sigma, q)
    n = len(q)
    def tidy(e: sp.Expr) -> sp.Expr:  # small entries: double angles out, then simplify
        return sp.simplify(sp.expand_trig(e))

    torsion = [(g - g.T).applyfunc(tidy) for g in gamma]
    compatibility = []
    for k, qk in enumerate(q):
        gk = sp.Matrix(n, n, lambda m, i, k=k: gamma[m][k, i])
        compatibility.append((sigma.diff(qk) - gk.T * sigma - sigma * gk).applyfunc(tidy))
    return torsion, compatibility


def tangential_projection(sigma: sp.Matrix, J: sp.Matrix) -> sp.Matrix:
    """P = J (Jᵀ σ J)⁻¹ Jᵀ σ: the σ-orthogonal projection of ambient vectors onto the tangent
    space of the constrained surface (Def. 7.4: the covariant derivative on the surface is the
    tangential part of the ambient one; Fig. 7.1)."""
    sigma = _square(sigma)
    induced = J.T * sigma * J
    return J * induced.inv() * J.T * sigma
