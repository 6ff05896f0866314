"""Riemannian toolkit of Loparo & Vakalis §7.2–7.3, in coordinates.

The kinetic-energy metric σ is a symmetric positive-definite matrix in the coordinates;
forces are 1-forms (columns).  Newton's law is σ♭(∇_{c′}c′) = F (7.1); on a constraint
manifold with injection j and Jacobian J it is the same law for the pulled-back metric
Jᵀ σ J and force Jᵀ F (7.2).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp

from companion.mechanics import inputs
from companion.mechanics.derivation import Derivation, Step


def _square(sigma, what: str = "metric") -> sp.Matrix:
    sigma = sp.Matrix(sigma)
    if sigma.rows != sigma.cols:
        raise ValueError(f"the {what} must be square, got {sigma.rows}×{sigma.cols}")
    if (sigma - sigma.T).applyfunc(sp.expand) != sp.zeros(*sigma.shape):
        raise ValueError(f"the {what} must be symmetric")
    return sigma


def flat(sigma: sp.Matrix, v: Sequence) -> sp.Matrix:
    """σ♭(v) = σ(v, ·): the 1-form (column) a velocity or acceleration turns into."""
    return _square(sigma) * sp.Matrix(v)


def kinetic_metric(T: sp.Expr, qdot: Sequence[sp.Symbol]) -> sp.Matrix:
    """The metric of a kinetic energy T = ½ q̇ᵀ σ q̇, σ = ∂²T/∂q̇∂q̇."""
    return sp.hessian(inputs.sympify_entry(T, "T"), list(qdot))


def jacobian(embedding: Sequence[sp.Expr], x: Sequence[sp.Symbol]) -> sp.Matrix:
    """J = ∂j/∂x of a coordinate map (injection) j: M → N."""
    x = inputs.symbols_list(x, "coordinates")
    return sp.Matrix(list(embedding)).jacobian(x)


def pull_back_metric(sigma: sp.Matrix, J: sp.Matrix) -> sp.Matrix:
    """Induced metric j*σ = Jᵀ σ J (7.2); entries expanded and trig-simplified (small)."""
    sigma = _square(sigma)
    if J.rows != sigma.rows:
        raise ValueError(f"J has {J.rows} rows but the metric is {sigma.rows}×{sigma.cols}")
    return (J.T * sigma * J).applyfunc(lambda e: sp.trigsimp(sp.expand(e)))


def pull_back_form(F: Sequence, J: sp.Matrix) -> sp.Matrix:
    """Pulled-back 1-form j*F = Jᵀ F (7.2)."""
    F = sp.Matrix(F)
    if F.shape != (J.rows, 1):
        raise ValueError(f"the force needs {J.rows} components, got {F.shape[0]}")
    return (J.T * F).applyfunc(sp.expand)


def christoffel(sigma: sp.Matrix, q: Sequence[sp.Symbol]) -> list[sp.Matrix]:
    """Christoffel symbols of the Levi-Civita connection: ``Gamma[i][k, l] = Γ^i_kl``.

    Γ^i_kl = ½ σ^{ij} (∂_k σ_jl + ∂_l σ_jk − ∂_j σ_kl).
    """
    sigma = _square(sigma)
    q = inputs.symbols_list(q, "q")
    n = len(q)
    if sigma.rows != n:
        raise ValueError(f"the metric is {sigma.rows}×{sigma.cols} for {n} coordinates")
    d = [sigma.diff(qk) for qk in q]  # d[k][j, l] = ∂_k σ_jl
    first = [  # Γ_{j,kl} (first kind)
        sp.Matrix(n, n, lambda k, l, j=j: (d[k][j, l] + d[l][j, k] - d[j][k, l]) / 2)
        for j in range(n)
    ]
    inv = sigma.inv()
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
) -> Derivation:
    """Newton's law σ(q̈ + Γ(q̇, q̇)) = F (7.1) as a :class:`Derivation` with u = q̇.

    Parameters
    ----------
    sigma
        The (possibly pulled-back) kinetic-energy metric in the coordinates q.
    q, qdot
        Coordinates and the Symbols used for their rates (the speeds of the derivation).
    F
        Generalized force 1-form (default zero: geodesics).
    """
    q = inputs.symbols_list(q, "q")
    qdot = inputs.symbols_list(qdot, "qdot")
    sigma = _square(sigma)
    F = sp.zeros(len(q), 1) if F is None else sp.Matrix(F)
    gamma = christoffel(sigma, q)
    quad = quadratic(gamma, qdot)
    steps = [
        Step("Kinetic-energy metric σ", sigma, None,
             "Kinetic energy is ½ q̇ᵀ σ q̇: σ measures velocities.", r"\sigma"),
        Step("Christoffel symbols Γ^i_kl", gamma, None,
             "The connection of σ: how coordinate directions turn as q moves.",
             ", ".join(rf"\Gamma^{{{i + 1}}}" for i in range(len(q)))),
        Step("Force 1-form F", F, "(7.1)", "Forces pair with velocities to give power.", "F"),
    ]
    forcing = (F - sigma * quad).applyfunc(sp.expand)
    qddot = [sp.Symbol(r"\ddot{" + sp.latex(s) + "}") for s in q]
    equations = [
        sp.Eq((sigma * (sp.Matrix(qddot) + quad))[i], F[i]) for i in range(len(q))
    ]
    steps.append(Step("Newton's law σ♭(∇_{c′} c′) = F in coordinates", equations, "(7.1)",
                      "Mass times covariant acceleration equals force; with F = 0 the motion "
                      "is a geodesic.", None))
    return Derivation(method=method, q=q, u=qdot, mass_matrix=sigma, forcing=forcing,
                      kinematics=sp.Matrix(qdot), equations=equations, steps=steps,
                      extra={"christoffel": gamma})


def geodesic_equations(sigma: sp.Matrix, q: Sequence[sp.Symbol], qdot: Sequence[sp.Symbol]
                       ) -> Derivation:
    """Force-free motion ∇_{c′}c′ = 0 (7.1 with F = 0): q̈ + Γ(q̇, q̇) = 0, as a Derivation."""
    return covariant_equations(sigma, q, qdot, None, method="geodesic")


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
