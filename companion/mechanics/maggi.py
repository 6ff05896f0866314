"""Maggi's equations (Greenwood §4.4): Lagrange's equations projected on the first n − m
columns of Φ, where the constraint forces do no work.

    Σ_i Φ_ir [d/dt(∂T/∂q̇_i) − ∂T/∂q_i − Q_i] = 0        (r = 1..n−m)

Because the constraint rows A are the last m rows of Ψ and Ψ Φ = 1, A Φ_r = 0 for r ≤ n − m:
the projection removes the multipliers.  The n − m projected equations (second order in q)
and the m constraints determine the motion; substituting the kinematical equations
q̇ = Φ u + Φ_t (4.134) turns them into n − m first-order equations in the independent u's,
the same unknowns as Boltzmann–Hamel and the general dynamical equation.  The book counts
Maggi's method in its own form, though: n − m second-order equations plus the m constraints
differentiated once, with no quasi-velocities — which is why §4.4 finds Boltzmann–Hamel and
the general dynamical equation (n − m first-order equations) more compact.
"""

from __future__ import annotations

import sympy as sp

from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.lagrange import (
    ddot_symbol,
    in_generalized_velocities,
    kinematics_of,
    lagrange_rows,
    projected_on_motion,
    total_derivative,
)
from companion.mechanics.methods import Definition, register_method
from companion.mechanics.quadratic import expanded_product
from companion.mechanics.quasi_velocities import dot_symbol, tidy_matrix


@register_method("maggi", "Maggi")
def from_system(system: Definition) -> Derivation:
    """Maggi's equations for a :class:`System`, in its independent quasi-velocities.

    Applies to every system: it needs the unconstrained T(q, q̇, t), obtained from the
    system's T(q, u, t) through u = Ψ q̇ + Ψ_t, and Φ = Ψ⁻¹.
    """
    q, qdot, t = system.q, system.qdot, system.t
    u = system.u_independent
    n, k = len(q), len(u)
    m = n - k
    T, Q = in_generalized_velocities(system)
    phi, phi_t = kinematics_of(system)
    phi_k = phi[:, :k]
    psi, _ = system.psi
    qddot = [ddot_symbol(s) for s in q]
    rows, form, rest = lagrange_rows(T, q, qdot, qddot, t)
    mass_q = form.M
    left = rows - Q
    steps = [
        Step("Unconstrained kinetic energy T(q, q̇, t)", T, None,
             "As for Lagrange's equations with multipliers: T of the free system in the q̇'s.",
             "T", key="kinetic_energy"),
        Step("Left sides of Lagrange's equations d/dt(∂T/∂q̇) − ∂T/∂q − Q", left, None,
             "Each equals the generalized constraint force Σ λ_j a_ji, which we never need.",
             None, key="lagrange_rows"),
        Step("Projection matrix: the first n − m columns of Φ", phi_k, "(4.81)",
             "Column r of Φ is the motion of the q's when only u_r is nonzero: a virtual "
             "displacement the constraints allow.", r"\Phi_{(n-m)}", key="projection"),
    ]
    if m:
        steps.append(Step("The constraint forces do no work on those columns: A Φ = 0",
                          tidy_matrix(psi[k:, :] * phi_k), None,
                          "A (last m rows of Ψ) times the first n − m columns of Φ vanishes "
                          "because Ψ Φ = 1; the multipliers drop out.", r"A\,\Phi_{(n-m)}",
                          key="orthogonality"))
    # Φᵀ X computed as (Xᵀ Φ)ᵀ, so that the large expanded X multiplies the small Φ.
    expanded = Q.applyfunc(sp.expand)
    if expanded != Q:  # else the left sides above are expanded already
        Q, left = expanded, rows - expanded
    projected = expanded_product(left.T, phi_k).T
    steps.append(Step("Maggi's equations Φᵀ(Lagrange) = 0",
                      [sp.Eq(e, 0, evaluate=False) for e in projected], None,
                      f"{k} second-order equations in q̈; with the {m} constraint equation(s) "
                      "they fix the motion.", None, key="equations"))
    if m:
        # The book's count: n − m second-order equations plus the m constraints differentiated
        # once, n equations linear in the n q̈'s, with no quasi-velocities anywhere.
        constraint = psi[k:, :] * sp.Matrix(qdot) + system.psi[1][k:, :]
        differentiated = (psi[k:, :] * sp.Matrix(qddot)
                          + total_derivative(constraint, q, sp.Matrix(qdot), t))
        steps.append(Step("Differentiated constraints d/dt(a q̇ + a_t) = 0",
                          [sp.Eq(sp.expand(e), 0) for e in differentiated], None,
                          f"With these {m} equation(s), {n} equations linear in the {n} q̈'s: "
                          "the form Greenwood counts (no quasi-velocities needed).", None,
                          key="differentiated_constraints"))
    # q̇ = Φ_k u + Φ_t and q̈ = Φ_k u̇ + d/dt(Φ_k) u + d/dt(Φ_t) (u held fixed in the latter).
    # Substituted into M_q q̈ + rest − Q and projected: the u̇ terms give Φ_kᵀ M_q Φ_k, the
    # rest the forcing, each expanded once (never the whole equation, then differentiated).
    udot = [dot_symbol(s) for s in u]
    qdot_u, mass, forcing, _ = projected_on_motion(system, mass_q, rest - Q)
    # Each row as sympy's mass * u̇ − forcing leaves it, built term by term: the matrix
    # product asks whether every large entry is finite (0·entry) before multiplying.
    in_u = [sp.Add(*[mass[r, j] * s for j, s in enumerate(udot) if mass[r, j] != 0])
            - forcing[r] for r in range(k)]
    steps.append(Step("Kinematical substitution q̇ = Φ u + Φ_t, q̈ = Φ u̇ + Φ̇ u + Φ̇_t",
                      [sp.Eq(e, 0, evaluate=False) for e in in_u], "(4.134)",
                      f"{k} first-order equations in the independent u's; the constraints are "
                      "now satisfied by construction.", None, key="kinematical_substitution"))
    steps.append(Step("Mass matrix Φᵀ M_q Φ", mass, None,
                      "The projection of Lagrange's mass matrix on the allowed directions, "
                      "as the computer leaves it (no simplification).", "M", key="mass_matrix"))
    kinematics = qdot_u.applyfunc(sp.expand)
    return Derivation(
        method="maggi", q=list(q), u=list(u), mass_matrix=mass, forcing=forcing,
        kinematics=kinematics,
        equations=[sp.Eq(lhs, forcing[r], evaluate=False)
                   for r, lhs in enumerate(expanded_product(mass, sp.Matrix(udot)))],
        steps=steps, t=t,
        # Counted as the book counts it: n − m second-order equations plus m differentiated
        # constraints (the u-form above is the companion's way to integrate them).
        order=2, n_constraint_equations=m, constraints_differentiated=True,
        extra={"second_order_form": projected, "mass_matrix_q": mass_q},
    )
