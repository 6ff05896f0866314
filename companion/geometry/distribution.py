"""Velocity constraints as distributions, in coordinates (the companion's reconstruction of the
nonholonomic half of Loparo & Vakalis §7.9, with A. D. Lewis's constrained connection).

A frame of vector fields X_1..X_n on the configuration space is the columns of Greenwood's Φ
(4.81), its dual coframe ω^1..ω^n the rows of Ψ.  Suppressing the last m
quasi-velocities leaves the distribution D = span(X_1..X_{n−m}) = the kernel of the suppressed
ω^j.  Everything here is ours, built on the Levi-Civita connection of :mod:`.metric`:

* :func:`lie_bracket` and :func:`structure_functions`: γ^j_rl = ⟨ω^j, [X_r, X_l]⟩, which are
  Greenwood's Hamel coefficients (4.83) (ΦᵀC^jΦ) computed from the frame alone;
* :func:`gamma_test`: D is integrable (Frobenius) iff γ^j_rl = 0 for every suppressed j and
  allowed r, l — a test that does not depend on how the constraint is scaled;
* :func:`constrained_christoffel`: ∇̃_X Y = ∇_X Y + (∇_X P^⊥)(Y) with P the σ-orthogonal
  projection onto D; for Y in D it is P(∇_X Y), and ∇̃_{c′}c′ = P(σ♯F) with c′ in D are the
  Lagrange–d'Alembert equations (Newton's law (7.1) on a distribution).
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from companion.geometry import metric
from companion.geometry.metric import _square
from companion.mechanics import inputs


def lie_bracket(X: Sequence, Y: Sequence, q: Sequence[sp.Symbol]) -> sp.Matrix:
    """[X, Y] = (∂Y/∂q) X − (∂X/∂q) Y, the bracket of two vector fields in coordinates (ours).

    With this sign the flow of X, then Y, then −X, then −Y, each for a time ε, moves a point
    by ε²[X, Y] + O(ε³) (the parallel-parking manoeuvre).
    """
    q = inputs.symbols_list(q, "q")
    X, Y = sp.Matrix(X), sp.Matrix(Y)
    if X.shape != (len(q), 1) or Y.shape != (len(q), 1):
        raise ValueError(f"X and Y must be columns of {len(q)} entries (one per coordinate), "
                         f"got {X.shape} and {Y.shape}")
    return (Y.jacobian(q) * X - X.jacobian(q) * Y).applyfunc(sp.simplify)


def structure_functions(Psi: sp.Matrix, q: Sequence[sp.Symbol]) -> list[sp.Matrix]:
    """γ^j_rl = ⟨ω^j, [X_r, X_l]⟩ for every j, r, l: ``gamma[j][r, l]`` (ours).

    X_r are the columns of Φ = Ψ⁻¹ (4.81), ω^j the rows of Ψ.  Since ω^j(X_l) is
    constant, Cartan's formula gives dω^j(X_r, X_l) = −ω^j([X_r, X_l]); with C^j of (4.83)
    the left side is −(Φᵀ C^j Φ)_rl, so these are Greenwood's γ^j of (4.83)/(4.96)/(4.114).
    """
    q = inputs.symbols_list(q, "q")
    Psi, n = sp.Matrix(Psi), len(q)
    if Psi.shape != (n, n):
        raise ValueError(f"Ψ must be {n}×{n} (one row per quasi-velocity, one column "
                         f"per coordinate), got {Psi.shape[0]}×{Psi.shape[1]}")
    if sp.simplify(Psi.det()) == 0:
        raise ValueError("Ψ is singular: its rows do not define independent quasi-velocities")
    Phi = Psi.inv().applyfunc(sp.simplify)
    brackets = {(r, l): lie_bracket(Phi[:, r], Phi[:, l], q) for r in range(n) for l in range(n)}
    return [sp.Matrix(n, n, lambda r, l, j=j: sp.simplify((Psi[j, :] * brackets[r, l])[0]))
            for j in range(n)]


def gamma_test(Psi: sp.Matrix, q: Sequence[sp.Symbol], n_constraints: int) -> list[sp.Matrix]:
    """The γ-test of a constraint u_{n−m+1} = … = u_n = 0: for each suppressed j, the block
    γ^j_rl with r, l allowed (ours).

    All blocks zero ⇔ [X_r, X_l] stays in D for all allowed r, l ⇔ D is integrable
    (Frobenius), i.e. the constraints are holonomic.  Rescaling a suppressed ω^j by f(q) ≠ 0
    multiplies its block by f, so the test does not depend on that choice (C^j does).
    """
    q = inputs.symbols_list(q, "q")
    m, n = n_constraints, len(q)
    if not isinstance(m, int) or not 0 < m < n:
        raise ValueError(f"n_constraints must be between 1 and {n - 1} for {n} coordinates, "
                         f"got {m}")
    gamma = structure_functions(Psi, q)
    return [gamma[j][: n - m, : n - m] for j in range(n - m, n)]


def constrained_christoffel(sigma: sp.Matrix, q: Sequence[sp.Symbol], P: sp.Matrix,
                            gamma: list[sp.Matrix]) -> list[sp.Matrix]:
    """Γ̃^i_kl of ∇̃_X Y = ∇_X Y + (∇_X P^⊥)(Y): ``Gamma[i][k, l]`` (ours, after A. D. Lewis).

    Γ̃^i_kl = Γ^i_kl + (∇_k P^⊥)^i_l with (∇_k P^⊥)^i_l = ∂_k P^⊥i_l + Γ^i_ka P^⊥a_l
    − P^⊥i_a Γ^a_kl and ``gamma`` the Levi-Civita symbols Γ of σ (Thm 7.1).
    Then q̈ = −Γ̃(q̇, q̇) + P σ⁻¹F with q̇ in D is ∇̃_{c′}c′ = P(σ♯F).
    """
    q = inputs.symbols_list(q, "q")
    sigma = _square(sigma)
    n = len(q)
    P = sp.Matrix(P)
    if P.shape != (n, n):
        raise ValueError(f"P must be {n}×{n}, got {P.shape[0]}×{P.shape[1]}")
    Pp = sp.eye(n) - P
    covariant = [  # covariant[k][i, l] = (∇_k P^⊥)^i_l
        Pp.diff(q[k]) + sp.Matrix(n, n, lambda i, l, k=k: sum(
            gamma[i][k, a] * Pp[a, l] - Pp[i, a] * gamma[a][k, l] for a in range(n)))
        for k in range(n)]
    return [sp.Matrix(n, n, lambda k, l, i=i: metric.products_to_sums(
        sp.cancel(gamma[i][k, l] + covariant[k][i, l]))) for i in range(n)]
