"""The Boltzmann–Hamel equations (4.85) for any n, any number m of nonholonomic constraints,
scleronomic or rheonomic, with generalized forces Q.

    d/dt(∂T/∂u_r) − ∂T/∂θ_r + Σ_j Σ_l (∂T/∂u_j) γ^j_rl u_l + Σ_j (∂T/∂u_j) γ^j_r = Q_r

for r = 1..n−m, j = 1..n, l = 1..n−m, with the **unconstrained** T(q, u, t) and the
constraints u_{n−m+1} = … = u_n = 0 applied only after differentiating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from companion.mechanics import inputs
from companion.mechanics import quasi_velocities as qv
from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.methods import Definition, register_method
from companion.mechanics.quadratic import QuadraticForm, expanded_product
from companion.mechanics.quasi_velocities import dot_symbol


@dataclass
class BoltzmannHamelResult(Derivation):
    """A :class:`Derivation` with the Boltzmann–Hamel intermediate objects.

    Attributes
    ----------
    Phi, Phi_t, C, gamma, gamma_t
        Φ = Ψ⁻¹, Φ_t = −Φ Ψ_t (4.81); C^j and γ^j = Φᵀ C^j Φ (4.83), j = 1..n, full n×n;
        γ^j_r as n×1 columns (4.84), all zero unless ``rheonomic``.
    momenta, inertia
        p_j = ∂T/∂u_j (4.87) and m_ij = ∂²T/∂u_i∂u_j (4.88) of the unconstrained T, full.
    constraint_rows
        For r = n−m+1..n: the left side of row r of (4.85), the generalized constraint force
        Q_r that row would need, in q, u and the u̇ symbols.
    """

    Psi: sp.Matrix | None = None
    Psi_t: sp.Matrix | None = None
    Phi: sp.Matrix | None = None
    Phi_t: sp.Matrix | None = None
    C: list[sp.Matrix] | None = None
    gamma: list[sp.Matrix] | None = None
    gamma_t: list[sp.Matrix] | None = None
    momenta: sp.Matrix | None = None
    inertia: sp.Matrix | None = None
    rheonomic: bool = False
    constraint_rows: sp.Matrix | None = None
    u_all: list[sp.Symbol] | None = None
    udot: list[sp.Symbol] | None = None

    def constraint_forces(self) -> sp.Matrix:
        """The generalized constraint forces of the suppressed u's, with u̇ eliminated.

        Row r > n−m of (4.85) evaluated on the motion: for the knife edge this is λ = m v φ̇.
        """
        return self.constraint_rows.subs(dict(zip(self.udot[:len(self.u)], self.accelerations(),
                                                  strict=True)))


def boltzmann_hamel(
    T: Any,
    q: Sequence[sp.Symbol],
    u: Sequence[sp.Symbol],
    Psi: Any,
    *,
    n_constraints: int = 0,
    Q: Sequence[Any] | None = None,
    t: sp.Symbol | None = None,
    Psi_t: Any = None,
) -> BoltzmannHamelResult:
    """Derive the Boltzmann–Hamel equations (4.85) step by step.

    T is the unconstrained kinetic energy in q, u (and t), quadratic or lower in the n u's;
    u = Ψ q̇ + Ψ_t (Ψ_t default zero); the last ``n_constraints`` u's are constrained to zero;
    ``Q`` holds the n − m forces of the independent u's (default zero); ``t`` is needed when
    Ψ, Ψ_t, T or Q depend on time.  Malformed input: ``ValueError``.

    Each step cites the general equation it instantiates (the definition u = Ψ q̇ + Ψ_t has
    no number in our copy of §4.3, which starts at (4.82, by position)): the time derivative
    of the momenta, the gyroscopic matrix and the equations cite (4.92) (scleronomic,
    unconstrained), (4.109) (scleronomic, nonholonomic) or (4.85) (rheonomic).  A worked
    example's own numbers replace them afterwards
    (:meth:`~companion.mechanics.derivation.Derivation.cited`).

    Returns
    -------
    BoltzmannHamelResult
        ``mass_matrix * [u̇_1 … u̇_{n−m}]ᵀ = forcing`` with the constraints applied, the
        kinematics q̇ = Φ u + Φ_t in the independent u's, and every intermediate object.
    """
    q = inputs.symbols_list(q, "q")
    u = inputs.symbols_list(u, "u")
    n = len(q)
    if n == 0:
        raise ValueError("q must hold at least one coordinate")
    if len(u) != n:
        raise ValueError(f"q has {n} coordinates but u has {len(u)} quasi-velocities")
    if set(q) & set(u):
        raise ValueError(f"{sorted(map(str, set(q) & set(u)))} used both in q and in u")
    if isinstance(n_constraints, bool) or not isinstance(n_constraints, int):
        raise ValueError(f"n_constraints must be an integer, got {n_constraints!r}")
    if not 0 <= n_constraints < n:
        raise ValueError(f"n_constraints must be between 0 and {n - 1} for n = {n}")
    m = n_constraints
    k = n - m
    T = inputs.sympify_entry(T, "T")
    psi = inputs.matrix(Psi, (n, n), "Psi")
    psi_t = sp.zeros(n, 1) if Psi_t is None else inputs.matrix(Psi_t, (n, 1), "Psi_t")
    Q_list = [0] * k if Q is None else list(Q)
    if len(Q_list) != k:
        raise ValueError(f"Q must hold n − m = {k} generalized forces, got {len(Q_list)}")
    Q_vec = sp.Matrix(k, 1, [inputs.sympify_entry(e, f"Q[{i}]") for i, e in enumerate(Q_list)])
    t = inputs.check_time(t, [T, psi, psi_t, Q_vec], reserved=q + u)
    if psi.free_symbols & set(u) or psi_t.free_symbols & set(u):
        raise ValueError("Ψ and Ψ_t must depend on q (and t) only, not on the quasi-velocities")

    steps: list[Step] = []
    constrained = dict.fromkeys(u[k:], 0)
    udot = [dot_symbol(ui) for ui in u]

    steps.append(Step("Quasi-velocities u = Ψ q̇ + Ψ_t: the matrix Ψ", psi, None,
                      "Each quasi-velocity is a linear combination of the q̇'s.", r"\Psi",
                      key="psi"))
    if psi_t != sp.zeros(n, 1):
        steps.append(Step("The rheonomic part Ψ_t", psi_t, None,
                          "Terms of u that do not multiply a q̇ (explicit time dependence).",
                          r"\Psi_t", key="psi_t"))
    phi = qv.inverse(psi)
    phi_t = qv.tidy_matrix(-phi * psi_t)
    steps.append(Step("Kinematical equations: Φ = Ψ⁻¹", phi, "(4.81)",
                      "Inverting Ψ gives q̇ = Φ u + Φ_t; where det Ψ = 0 the coordinates are "
                      "singular.", r"\Phi", key="phi"))
    if phi_t != sp.zeros(n, 1):
        steps.append(Step("Φ_t = −Φ Ψ_t", phi_t, "(4.81)",
                          "The part of q̇ present even when every u is zero.", r"\Phi_t",
                          key="phi_t"))
    C = qv.c_matrices(psi, q)
    steps.append(Step("C^j_ik = ∂Ψ_ji/∂q_k − ∂Ψ_jk/∂q_i", C, "(4.83)",
                      "C^j = 0 exactly when u_j is the rate of a function of q (integrable); "
                      "C^j ≠ 0 alone does not make a constraint nonholonomic (rescaling u_j by "
                      "a function of q changes C^j, not the constraint).",
                      ", ".join(rf"C^{{{j + 1}}}" for j in range(n)), key="c_matrices"))
    gamma = qv.gamma_matrices(C, phi)
    steps.append(Step("γ^j = Φᵀ C^j Φ", gamma, "(4.83)",
                      "The coefficients γ^j_rl (row r, column l) are skew in r and l: their "
                      "coupling does no work.",
                      ", ".join(rf"\gamma^{{{j + 1}}}" for j in range(n)), key="gamma"))
    gamma_t = qv.gamma_rheonomic(C, phi, phi_t, psi, psi_t, q, t)
    rheonomic = any(g != sp.zeros(n, 1) for g in gamma_t)
    if rheonomic:
        steps.append(Step("Rheonomic coefficients γ^j_r", gamma_t, "(4.84)",
                          "Extra terms from the explicit time dependence of Ψ and Ψ_t.",
                          ", ".join(rf"\gamma^{{{j + 1}}}_r" for j in range(n)), key="gamma_t"))

    steps.append(Step("Kinetic energy T(q, u, t), unconstrained", T, "(4.85)",
                      "T is written in all n u's: the constraints are applied only after "
                      "differentiating.", "T", key="kinetic_energy"))
    form = QuadraticForm.of(T, u)
    p = form.momenta()
    steps.append(Step("Generalized momenta p_j = ∂T/∂u_j", p, "(4.87)",
                      "The momentum conjugate to each quasi-velocity.", "p", key="momenta"))
    inertia = form.M
    steps.append(Step("Inertia coefficients m_ij = ∂²T/∂u_i∂u_j", inertia, "(4.88)",
                      "The equations are linear in the u̇'s with these coefficients.", "m",
                      key="inertia"))
    dT_dq = form.gradient(q)
    dT_dtheta = (phi.T * dT_dq).applyfunc(sp.expand) if not phi.is_Identity else dT_dq
    steps.append(Step("∂T/∂θ_r = Σ_i (∂T/∂q_i) Φ_ir", dT_dtheta.subs(constrained),
                      "(4.86)", "Derivative with respect to a quasi-coordinate, via the "
                      "chain rule through Φ.", r"\partial T/\partial\theta", key="dT_dtheta"))

    # Time derivative of p_r along the motion: m u̇ + ∂p/∂q q̇ + ∂p/∂t, q̇ = Φ u + Φ_t.  The
    # m u̇ part is kept apart, so the mass matrix is read off rather than differentiated out
    # of the expanded rows again.
    qdot = phi * sp.Matrix(u) + phi_t
    velocity_terms = form.momenta_rates(q, qdot, t)
    gyro = sp.zeros(n, 1)
    for j in range(n):
        if p[j] != 0 and not (gamma[j].is_zero_matrix and gamma_t[j].is_zero_matrix):
            gyro += p[j] * (gamma[j] * sp.Matrix(u) + gamma_t[j])
    # Constraints applied after differentiation: suppressed u and u̇ vanish.  Every part is
    # expanded on its own; their sum needs no expanding again.
    rest = (velocity_terms - dT_dtheta + gyro.applyfunc(sp.expand)).xreplace(constrained)
    # M, read off the expanded T, is free of the speeds and expanded already.
    inertia_on_motion = inertia[:, :k]
    accelerations = expanded_product(inertia_on_motion, sp.Matrix(udot[:k]))  # m u̇, formed once
    rows = accelerations + rest
    # The first term of (4.85) on its own, for the reader: m u̇ + ∂p/∂q q̇ + ∂p/∂t.
    dp_dt = accelerations + velocity_terms.xreplace(constrained)
    weighted = sum((p[j] * gamma[j] for j in range(n)), sp.zeros(n, n))
    general = "(4.85)" if rheonomic else "(4.92)" if m == 0 else "(4.109)"
    steps.append(Step(
        "d/dt(∂T/∂u_r) along the motion, q̇ = Φ u + Φ_t substituted",
        dp_dt[:k, :], general,
        "The first term of the equation: differentiate each momentum p_r(q, u, t) in time, "
        "Σ_l m_rl u̇_l + Σ_i (∂p_r/∂q_i) q̇_i + ∂p_r/∂t, with q̇ replaced by the kinematical "
        "equations; only then are the suppressed u's set to zero.",
        r"\frac{d}{dt}\frac{\partial T}{\partial u_r}", key="dp_dt"))
    steps.append(Step("Gyroscopic matrix Σ_j (∂T/∂u_j) γ^j", qv.tidy_matrix(
        weighted.subs(constrained)), general,
        "Multiplied by u it gives the velocity-coupling terms of (4.85); it is skew, so "
        "these forces do no work.", r"\sum_j p_j \gamma^j", key="gyroscopic"))

    mass_matrix = inertia_on_motion[:k, :]
    forcing = Q_vec.applyfunc(sp.expand) - rest[:k, :]
    # Displayed as derived: evaluating Eq would compare both sides symbolically.
    equations = [sp.Eq(rows[r], Q_vec[r], evaluate=False) for r in range(k)]
    kinematics = qdot.subs(constrained).applyfunc(sp.expand)
    steps.append(Step("Boltzmann–Hamel equations", equations, general,
                      f"{k} first-order dynamical equations in the independent u's.", None,
                      key="equations"))
    steps.append(Step("Kinematical equations q̇ = Φ u + Φ_t with the constraints applied",
                      [sp.Eq(dot_symbol(qi), kinematics[i], evaluate=False)
                       for i, qi in enumerate(q)],
                      "(4.81)" if m == 0 else "(4.134)",  # no constraint: Φ u + Φ_t itself
                      "Only the first n − m columns of Φ enter.", None,
                      key="kinematical_equations"))

    return BoltzmannHamelResult(
        method="boltzmann_hamel", q=q, u=u[:k], mass_matrix=mass_matrix, forcing=forcing,
        kinematics=kinematics, equations=equations, steps=steps, t=t,
        rheonomic=rheonomic,
        Psi=psi, Psi_t=psi_t, Phi=phi, Phi_t=phi_t, C=C, gamma=gamma, gamma_t=gamma_t,
        momenta=p, inertia=inertia, constraint_rows=rows[k:, :], u_all=u, udot=udot,
    )


@register_method("boltzmann_hamel", "Boltzmann–Hamel (4.85)")
def from_system(system: Definition) -> BoltzmannHamelResult:
    """The Boltzmann–Hamel equations of a system's definition (applies to every one)."""
    psi, psi_t = system.psi
    return boltzmann_hamel(
        system.T, system.q, system.u, psi, n_constraints=system.n_constraints,
        Q=system.Q, t=system.t, Psi_t=psi_t,
    )
