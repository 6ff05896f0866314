"""Lagrange's equations with multipliers for nonholonomic constraints (Greenwood §4.4).

    d/dt(∂T/∂q̇_i) − ∂T/∂q_i = Q_i + Σ_j λ_j a_ji        (i = 1..n)
    Σ_i a_ji q̇_i + a_jt = 0                              (j = 1..m)

T(q, q̇, t) is the **unconstrained** kinetic energy; the constraint rows a_j are the last m
rows of Ψ in u = Ψ q̇ + Ψ_t (the suppressed quasi-velocities).  The result is n
second-order equations and m constraint equations in n + m unknowns (q̈, λ): no
quasi-velocities, but the multipliers must be solved for along with the accelerations.

The applied forces Q_i are the definition's own per coordinate (``Q_q``, a motor torque on a
wheel's angle stays on that angle), so Σ_j λ_j a_ji is the constraint forces' share alone:
λ_j is the force (or moment) of constraint j along its own row, the one whose power would be
λ_j a_j q̇ if the constraint let go.  A row that is the velocity of a contact point
along a direction (a wheel's rolling, a blade's sideways slip) gives that contact's force
component along that direction; its scale follows the row (twice the row, half the λ).

To fit the common form ``M ẇ = f`` of :class:`~companion.mechanics.derivation.Derivation`,
the speeds are w = (q̇_1 … q̇_n, μ_1 … μ_m) where μ_j is the impulse of the j-th constraint
force, μ̇_j = λ_j; then ``M`` is the augmented matrix [[M_q, −Aᵀ], [A, 0]] and ẇ = (q̈, λ).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import sympy as sp

from companion.mechanics.definition import kinematics_of
from companion.mechanics.derivation import Derivation, LazyStep, Step
from companion.mechanics.methods import Definition, register_method
from companion.mechanics.quadratic import QuadraticForm, expanded_product
from companion.mechanics.quasi_velocities import (
    dot_symbol,
    expand_angle_sums,
    expand_terms,
    fold_pythagoras,
    tidy,
)

#: The largest number of free speeds n − m for which the multipliers are also solved
#: symbolically for display (λ then comes from a solve of that size, :func:`multipliers_on_motion`;
#: with three, a rolling disk's λ runs to thousands of operations and minutes).
SYMBOLIC_MULTIPLIER_LIMIT = 2

#: A plain Symbol standing for the second time derivative of ``s`` in displayed equations.
ddot_symbol = partial(dot_symbol, accent="ddot")


def total_derivative(
    expr: sp.Matrix, q: Sequence[sp.Symbol], qdot: sp.Matrix, t: sp.Symbol | None
) -> sp.Matrix:
    """d/dt of a column in q (and t) along q̇: (∂expr/∂q) q̇ + ∂expr/∂t."""
    if not expr.has(*q, *([t] if t is not None else [])):  # u = q̇: no Jacobian to form
        return sp.zeros(len(expr), 1)
    out = expr.jacobian(list(q)) * qdot
    return out + expr.diff(t) if t is not None else out


def lagrange_rows(
    T: sp.Expr, q: Sequence[sp.Symbol], qdot: Sequence[sp.Symbol],
    qddot: Sequence[sp.Symbol], t: sp.Symbol | None,
) -> tuple[sp.Matrix, QuadraticForm, sp.Matrix]:
    """The left sides d/dt(∂T/∂q̇) − ∂T/∂q = M_q q̈ + rest of Lagrange's equations,
    expanded; T read once as a :class:`QuadraticForm` in q̇ (M_q = ∂²T/∂q̇², p = M_q q̇ + b),
    so that only the small entries of M_q and b are differentiated.

    Returns
    -------
    rows, form, rest
        The n left sides; T's quadratic form; rest = (∂p/∂q) q̇ + ∂p/∂t − ∂T/∂q.
    """
    form = QuadraticForm.of(T, qdot)
    rest = form.momenta_rates(q, sp.Matrix(qdot), t) - form.gradient(q)
    rows = expanded_product(form.M, sp.Matrix(qddot)) + rest
    return rows, form, rest


def in_generalized_velocities(system: Definition) -> tuple[sp.Expr, sp.Matrix]:
    """T(q, q̇, t) (the unconstrained T(q, u, t) with u = Ψ q̇ + Ψ_t) and the generalized
    forces of the q's (the definition's ``Q_qdot``, so that the multipliers are the constraint
    forces alone)."""
    psi, psi_t = system.psi
    # Angle sums expanded, as in Φ, so that the terms of T cancel (no expression swell).
    u_of_qdot = expand_angle_sums(psi * sp.Matrix(system.qdot) + psi_t)
    to_qdot = dict(zip(system.u, u_of_qdot, strict=True))
    T = fold_pythagoras(expand_terms(sp.sympify(system.T).xreplace(to_qdot)))
    return T, sp.Matrix(system.Q_qdot)


@dataclass
class LagrangeResult(Derivation):
    """A :class:`Derivation` for Lagrange's equations with multipliers: ``u`` holds the n
    q̇'s and the m constraint impulses μ, so ``accelerations()`` returns (q̈, λ); ``qddot``
    are the Symbols of q̈ in the displayed equations, A and a_t those of A q̇ + a_t = 0."""

    qddot: list[sp.Symbol] | None = None
    constraint_matrix: sp.Matrix | None = None
    constraint_t: sp.Matrix | None = None

    @property
    def shows_multipliers(self) -> bool:
        """Whether λ is small enough to be solved symbolically for display (m > 0 and at most
        ``SYMBOLIC_MULTIPLIER_LIMIT`` free speeds n − m)."""
        m = len(self.multipliers)
        return bool(m) and len(self.q) - m <= SYMBOLIC_MULTIPLIER_LIMIT

    def multiplier_values(self) -> sp.Matrix:
        """λ solved symbolically from the augmented system, in q and q̇ (small systems): the
        force (or moment) of each constraint along its own row a_j (see the module
        docstring)."""
        return self.accelerations()[len(self.q):, :]


def projected_on_motion(system: Definition, mass_q: sp.Matrix, rest_minus_Q: sp.Matrix
                        ) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    """Lagrange's left sides M_q q̈ + rest − Q on the motion, and their projection on the
    first n − m columns Φ_k of Φ, where the constraint forces do no work (Maggi's equations).

    With q̇ = Φ_k u + Φ_t and q̈ = Φ_k u̇ + d/dt(Φ_k u + Φ_t) (u held fixed in the latter)
    (4.134), M_q q̈ + rest − Q = M_q Φ_k u̇ + ``pulled``; each part is expanded once, never
    the whole equation.

    Returns q̇ = Φ_k u + Φ_t, Φ_kᵀ M_q Φ_k and −Φ_kᵀ ``pulled`` (mass · u̇ = forcing), and
    ``pulled``.
    """
    k = len(system.u_independent)
    phi, phi_t = kinematics_of(system)
    phi_k = phi[:, :k]
    qdot_u = phi_k * sp.Matrix(system.u_independent) + phi_t
    drift = total_derivative(qdot_u, system.q, qdot_u, system.t)
    mass = expanded_product(expanded_product(mass_q, phi_k).T, phi_k)  # M_q is symmetric
    on_motion = dict(zip(system.qdot, qdot_u, strict=True))
    pulled = rest_minus_Q.xreplace(on_motion)
    if not all(v.is_Symbol for v in on_motion.values()):  # u = q̇ keeps it expanded
        pulled = pulled.applyfunc(sp.expand)
    pulled += expanded_product(mass_q, drift)
    return qdot_u, mass, -expanded_product(pulled.T, phi_k).T, pulled


def multipliers_on_motion(result: LagrangeResult, system: Definition) -> sp.Matrix:
    """λ in q and the free u's, from the n − m projected equations (a solve of their size,
    not of the n + m augmented ones): u̇ from Φ_kᵀ(M_q q̈ + rest − Q) = 0, then
    λ = Φ_mᵀ(M_q q̈ + rest − Q), since the last m columns Φ_m of Φ = Ψ⁻¹ satisfy A Φ_m = 1."""
    n, k = len(system.q), len(system.u_independent)
    mass_q = result.mass_matrix[:n, :n]
    _, mass, forcing, pulled = projected_on_motion(system, mass_q, -result.forcing[:n, :])
    phi = kinematics_of(system)[0]
    # u̇ = adj(M) f / det M, so each λ is tidied as one fraction over det M, not the nested
    # ones an LU solve leaves (a differential-drive robot's took minutes to cancel).
    det = tidy(mass.det())
    lhs = mass_q * (phi[:, :k] * (mass.adjugate() * forcing)) + pulled * det
    return (phi[:, k:].T * lhs).applyfunc(lambda e: tidy(tidy(e) / det))


@register_method("lagrange_multipliers", "Lagrange with multipliers")
def from_system(system: Definition) -> LagrangeResult:
    """Lagrange's equations with multipliers for a :class:`System` (applies to every one),
    step by step: the augmented system [[M_q, −Aᵀ], [A, 0]] (q̈, λ) = f, with the constraint
    rows A q̇ + a_t = 0 the last m rows of u = Ψ q̇ + Ψ_t."""
    psi, psi_t = system.psi
    k = len(system.u_independent)
    T, Q = in_generalized_velocities(system)
    q, qdot, t = list(system.q), list(system.qdot), system.t
    A, a_t = sp.Matrix(psi[k:, :]), sp.Matrix(psi_t[k:, :])
    n, m = len(q), A.rows
    qd = sp.Matrix(qdot)
    qddot = [ddot_symbol(s) for s in q]
    lam, mu = list(sp.symbols(f"lambda_1:{m + 1}")), list(sp.symbols(f"mu_1:{m + 1}"))
    steps: list[Step] = [
        Step("Unconstrained kinetic energy T(q, q̇, t)", T, None,
             "T of the free system, written in the generalized velocities by substituting "
             "u = Ψ q̇ + Ψ_t; no quasi-velocities are used from here on.", "T",
             key="kinetic_energy"),
    ]
    if m:
        steps.append(Step("Constraint equations A q̇ + a_t = 0", [
            sp.Eq(sp.expand((A * qd + a_t)[j]), 0) for j in range(m)], None,
            "The rows of the suppressed quasi-velocities, set to zero.", None, key="constraints"))
    rows, form, rest = lagrange_rows(T, q, qdot, qddot, t)
    mass = form.M
    steps.append(Step("Generalized momenta ∂T/∂q̇", form.momenta(), None,
                      "The momentum conjugate to each coordinate.", r"\partial T/\partial\dot q",
                      key="momenta"))
    steps.append(Step("Mass matrix M_q = ∂²T/∂q̇²", mass, None,
                      "Lagrange's equations are linear in q̈ with these coefficients.", "M_q",
                      key="mass_matrix"))
    generalized = A.T * sp.Matrix(m, 1, lam)
    equations = [sp.Eq(rows[i], sp.expand(Q[i] + generalized[i]), evaluate=False)
                 for i in range(n)]
    steps.append(Step("Lagrange's equations with multipliers", equations, None,
                      f"{n} second-order equations; the constraint forces enter as Σ λ_j a_ji, "
                      "one unknown multiplier per constraint.", None, key="equations"))
    acc_rest = total_derivative(A * qd + a_t, q, qd, t).applyfunc(sp.expand)
    if m:
        acc_rows = (A * sp.Matrix(qddot)).applyfunc(sp.expand) + acc_rest
        steps.append(Step("Differentiated constraints",
                          [sp.Eq(e, 0, evaluate=False) for e in acc_rows], None,
                          f"The {m} constraint equation(s) at the acceleration level, which "
                          "close the system for the n + m unknowns (q̈, λ).", None,
                          key="constraint_accelerations"))
        equations += [sp.Eq(e, 0, evaluate=False) for e in acc_rows]
    aug = sp.zeros(n + m, n + m)
    aug[:n, :n], aug[:n, n:], aug[n:, :n] = mass, -A.T, A
    # aug·(q̈, λ) − (left sides − right sides) leaves the parts free of q̈ and λ.
    forcing = sp.Matrix([*(Q - rest), *(-acc_rest)]).applyfunc(expand_terms)
    steps.append(Step("Augmented system [[M_q, −Aᵀ], [A, 0]] (q̈, λ) = f", [aug, forcing], None,
                      "Accelerations and multipliers come out of one linear solve.", None,
                      key="augmented_system"))
    result = LagrangeResult(
        method="lagrange_multipliers", q=q, u=[*qdot, *mu], mass_matrix=aug, forcing=forcing,
        kinematics=qd, equations=equations, steps=steps, t=t,
        speeds="qdot", order=2, n_constraint_equations=m, multipliers=lam,
        qddot=qddot, constraint_matrix=A, constraint_t=a_t,
    )
    if result.shows_multipliers:
        # Solved when the step is first read (the stepper shows it), never while deriving.
        result.steps.append(LazyStep(
            "Multipliers on the motion", partial(multipliers_on_motion, result, system),
            None, "λ solved from the augmented system and written in the independent speeds: "
            "each constraint's own force (or moment) along its row a_j, the generalized "
            "constraint force being Σ_j λ_j a_j.", r"\lambda",
            key="multipliers"))
    elif result.multipliers:
        result.absent_steps["multipliers"] = (
            f"λ is solved symbolically for display only up to n − m = "
            f"{SYMBOLIC_MULTIPLIER_LIMIT} free speeds (here {k}: the expressions grow too long "
            "to read); multiplier_values() solves it anyway, and the numerics solve for λ with "
            "the accelerations")
    else:
        result.absent_steps["multipliers"] = ("the system has no constraints, so no "
                                              "multipliers")
    return result
