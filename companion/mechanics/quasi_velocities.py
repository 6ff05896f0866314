"""Quasi-velocity machinery of Greenwood §4.3: Ψ, Φ, Φ_t, C^j, γ^j and γ^j_r.

The quasi-velocities are ``u = Ψ(q, t) q̇ + Ψ_t(q, t)``; their inverse, the kinematical
equations, is ``q̇ = Φ u + Φ_t`` with ``Φ = Ψ⁻¹`` and ``Φ_t = −Φ Ψ_t`` (4.81)/(4.134).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import sympy as sp

from companion.mechanics.inputs import sympify_entry


def dot_symbol(s: sp.Symbol, accent: str = "dot") -> sp.Symbol:
    """A plain Symbol that stands for the time derivative of ``s`` in displayed equations
    (``accent="ddot"``: the second derivative)."""
    return sp.Symbol(rf"\{accent}{{{sp.latex(s)}}}")


def _stays_expanded(term: sp.Expr) -> bool:
    """Whether ``expand`` leaves ``term`` as it is: a product of numbers and of symbols and
    functions of symbols (sin θ, not sin 2θ) to integer powers."""
    for factor in sp.Mul.make_args(term):
        if factor.is_Number:
            continue
        base, exponent = factor.as_base_exp()
        if not exponent.is_Integer or not (
                base.is_Symbol or base.is_Function and all(a.is_Symbol for a in base.args)):
            return False
    return True


def expand_terms(expr: sp.Expr) -> sp.Expr:
    """``sympy.expand(expr)``, expanding only the terms of a sum that expand would change
    (:func:`_stays_expanded`): an expanded kinetic energy is not walked again, and in one
    with a few products to distribute only those are."""
    terms = sp.Add.make_args(expr)
    todo = [t for t in terms if not _stays_expanded(t)]
    if not todo:
        return expr
    return sp.Add(*[t for t in terms if _stays_expanded(t)], *map(sp.expand, todo))


def fold_pythagoras(expr: sp.Expr) -> sp.Expr:
    """Cheap clean-up of an expanded expression: sin²a → 1 − cos²a, expanded again, so that
    sin²a + cos²a terms collapse (no trigsimp)."""
    squares = {e: 1 - sp.cos(e.base.args[0]) ** 2 for e in expr.atoms(sp.Pow)
               if isinstance(e.base, sp.sin) and e.exp == 2}
    return expand_terms(expr.xreplace(squares)) if squares else expr


def expand_angle_sums(expr: sp.Basic) -> sp.Basic:
    """sin(a ± b), cos(a ± b) written as products of sines and cosines of the single angles.

    ``cancel`` and ``expand`` treat sin(θ + φ) and sin θ, cos φ as unrelated symbols, so terms
    that cancel by the addition theorems survive and multiply at every later step (the
    snakeboard typed with angle sums: 300 000 operations by Maggi's method against 80
    expanded).  Only the sines and cosines of sums are expanded (``expand_trig`` on each,
    nothing else), so the work is proportional to the number of such atoms.
    """
    # an angle sum inside an angle sum shows up once the outer one is expanded
    while found := {e for e in expr.atoms(sp.sin, sp.cos) if e.args[0].is_Add}:
        expr = expr.xreplace({e: sp.expand_trig(e) for e in found})
    return expr


def _has_fraction(expr: sp.Expr) -> bool:
    """Whether a symbol (or function of one) appears in a denominator of ``expr``."""
    return any(p.exp.is_negative and p.base.free_symbols for p in expr.atoms(sp.Pow))


def tidy(expr: sp.Expr) -> sp.Expr:
    """Cheap clean-up for *small* intermediate objects (entries of Φ, C^j, γ^j).

    Angle sums are expanded first (:func:`expand_angle_sums`), so that ``cancel`` sees one
    set of generators, sin and cos of the single angles; ``cancel`` clears nested fractions;
    sin² + cos² = 1 is folded by rewriting even powers of sines as powers of 1 − cos² and
    cancelling again, kept only when that is shorter.  (Much cheaper than ``trigsimp``; never
    used on whole equations of motion.)
    """
    if expr.is_number or not expr.free_symbols:
        return sp.nsimplify(expr) if expr.is_Float else expr
    expr = expand_angle_sums(expr)
    # A polynomial (no symbol in a denominator) only needs expanding; cancel would build
    # polynomials over every sine and cosine just to find nothing to cancel.
    clean = sp.cancel if _has_fraction(expr) else expand_terms
    return _fold_squares(clean(expr), clean)


def _fold_squares(expr: sp.Expr, clean: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
    """sin² + cos² = 1 folded in a cleaned ``expr``, when that makes it shorter (see tidy)."""
    squares = {e: (1 - sp.cos(e.base.args[0]) ** 2) ** (e.exp / 2)
               for e in expr.atoms(sp.Pow) if isinstance(e.base, sp.sin) and e.exp.is_even}
    if not squares:
        return expr
    folded = clean(expr.xreplace(squares))
    return folded if sp.count_ops(folded) < sp.count_ops(expr) else expr


def polynomial_terms(expr: sp.Expr) -> list[sp.Expr] | None:
    """The terms of ``expr`` expanded, angle sums included, as :func:`tidy` would expand it;
    ``None`` when a symbol appears in a denominator (tidy would then cancel, not expand)."""
    expr = expand_angle_sums(expr)
    if _has_fraction(expr):
        return None
    return [t for t in sp.Add.make_args(expand_terms(expr)) if t != 0]


def tidy_sum_of_products(products: Sequence[Sequence[list[sp.Expr]]]) -> sp.Expr:
    """``tidy(Σ_k Π_i f_ki)`` for factors given by their :func:`polynomial_terms`.

    The products are distributed term by term: a product of expanded polynomials needs no
    ``expand``, which on a 10-link chain's generalized inertia forces walks ten times more
    than the multiplication itself.  Equal, term for term, to tidying the sum.
    """
    expr = sp.Add(*[sp.Mul(*combo) for factors in products
                    for combo in itertools.product(*factors)])
    if expr.is_number or not expr.free_symbols:
        return tidy(expr)
    return _fold_squares(expr, expand_terms)


def expanded_sum(terms: Sequence[sp.Expr]) -> sp.Expr:
    """``expand(Σ terms)`` for outputs of :func:`tidy`, without walking them all again.

    A polynomial tidied is expanded already and a sum of expanded terms is expanded, so only
    the fractions (``cancel``'s p/q) are expanded; on the 10-link chain this saves a full
    ``expand`` of every equation (about 0.4 s of Kane's 2.4 s).
    """
    return sp.Add(*(sp.expand(t) if _has_fraction(t) else t for t in terms))


def tidy_matrix(mat: sp.Matrix) -> sp.Matrix:
    """:func:`tidy` applied entrywise."""
    return mat.applyfunc(tidy)


def psi_from_definitions(
    definitions: Sequence[sp.Expr],
    qdot: Sequence[sp.Symbol],
) -> tuple[sp.Matrix, sp.Matrix]:
    """Ψ = ∂u/∂q̇ (n×n) and the remainder Ψ_t = u − Ψ q̇ (n×1) from the definitions
    ``u_j = Σ_i Ψ_ji q̇_i + Ψ_jt`` in q, the rates ``qdot`` (and t), by differentiation;
    ``ValueError`` when they are not linear in the q̇'s."""
    defs = sp.Matrix([sympify_entry(d, f"u[{j}] definition") for j, d in enumerate(definitions)])
    qd = sp.Matrix(qdot)
    if defs.shape[0] != qd.shape[0]:
        raise ValueError(
            f"there are {defs.shape[0]} quasi-velocity definitions for {qd.shape[0]} coordinates"
        )
    psi = defs.jacobian(qd)
    if psi.free_symbols & set(qdot):
        raise ValueError("the quasi-velocities must be linear in the generalized velocities q̇")
    # Linear in q̇: what remains at q̇ = 0 is Ψ_t (no expansion of large definitions).
    return psi, defs.xreplace(dict.fromkeys(qdot, 0)).applyfunc(tidy)


def inverse(psi: sp.Matrix) -> sp.Matrix:
    """Φ = Ψ⁻¹ (4.81), entrywise tidied; ``ValueError`` when Ψ is singular everywhere."""
    det = tidy(psi.det(method="berkowitz"))
    if det == 0:
        raise ValueError(
            "Ψ is singular (its determinant is identically zero): the quasi-velocities are not "
            "independent, so q̇ cannot be recovered from them"
        )
    if not psi.free_symbols:  # numbers (u = q̇ on a chain): exact, without 10×10 cofactors
        return psi.inv()
    # adj(Ψ)/det Ψ: the cofactors and the determinant are tidied as polynomials in the
    # coordinates' functions, each once, which keeps the entries of Φ small.
    return psi.adjugate(method="berkowitz").applyfunc(lambda e: tidy(tidy(e) / det))


def generalized_forces(
    Q_q: Sequence[sp.Expr], psi: sp.Matrix, n_constraints: int = 0
) -> list[sp.Expr]:
    """Generalized forces of the independent quasi-velocities from those of the coordinates.

    The virtual work Σ_i Q_qi δq_i with δq = Φ δθ gives Q_r = Σ_i Q_qi Φ_ir, r = 1..n−m
    (the forces Q_r of (4.85)); ``Q_q`` may be −∂V/∂q plus any nonconservative forces.
    """
    n = psi.shape[0]
    q_forces = sp.Matrix([sympify_entry(e, f"Q_q[{i}]") for i, e in enumerate(Q_q)])
    if q_forces.shape[0] != n:
        raise ValueError(f"Q_q must hold {n} generalized forces, got {q_forces.shape[0]}")
    return list(tidy_matrix(inverse(psi).T * q_forces)[: n - n_constraints])


def c_matrices(psi: sp.Matrix, q: Sequence[sp.Symbol]) -> list[sp.Matrix]:
    """C^j_ik = ∂Ψ_ji/∂q_k − ∂Ψ_jk/∂q_i, one skew n×n matrix per quasi-velocity: the
    bracket inside (4.83); (4.112) in Example 4.4, unnumbered just before (4.95) in Example 4.3."""
    # d[i, k] = ∂Ψ_ji/∂q_k
    return [d - d.T for d in (psi[j, :].T.jacobian(q) for j in range(len(q)))]


def gamma_matrices(c: Sequence[sp.Matrix], phi: sp.Matrix) -> list[sp.Matrix]:
    """γ^j = Φᵀ C^j Φ, i.e. γ^j_rl = Σ_i Σ_k C^j_ik Φ_ir Φ_kl (4.83); r row, l column
    (in Example 4.3 (4.95), matrix form (4.96); in Example 4.4 (4.113), matrix form (4.114))."""
    return [cj if cj.is_zero_matrix and type(cj) is type(phi)  # Φᵀ 0 Φ, of the same type
            else tidy_matrix(phi.T * cj * phi) for cj in c]


def gamma_rheonomic(
    c: Sequence[sp.Matrix],
    phi: sp.Matrix,
    phi_t: sp.Matrix,
    psi: sp.Matrix,
    psi_t: sp.Matrix,
    q: Sequence[sp.Symbol],
    t: sp.Symbol | None,
) -> list[sp.Matrix]:
    """The rheonomic coefficients γ^j_r (4.84), one n×1 column per j.

    γ^j_r = Σ_i Σ_k C^j_ik Φ_kt Φ_ir + Σ_i (∂Ψ_ji/∂t − ∂Ψ_jt/∂q_i) Φ_ir; zero when scleronomic.
    """
    out = []
    for j, cj in enumerate(c):
        dpsi_dt = -sp.Matrix([psi_t[j]]).jacobian(q).T
        if t is not None:
            dpsi_dt += psi[j, :].T.diff(t)
        out.append(tidy_matrix(phi.T * (cj * phi_t + dpsi_dt)))
    return out
