"""The knife edge (and any scleronomic system of the engine with velocity constraints) under the
constrained connection: the companion's reconstruction of the nonholonomic half of Loparo &
Vakalis §7.9, built from the system's definition only (nothing typed in).

* :func:`constrained_connection`: the metric σ of T(q, q̇), the distribution D of allowed
  velocities (first n − m columns of Φ), the σ-orthogonal projection P onto D, the symbols Γ̃
  of ∇̃_X Y = ∇_X Y + (∇_X P^⊥)(Y), the motion ∇̃_{c′}c′ = P(σ♯F) written as u̇, the reduced
  equations Xᵀσ(q̈ + Γ̃(q̇, q̇)) = XᵀF, and the reaction σ♭(P^⊥ ∇_{c′}c′) with its multipliers.
* :func:`orthogonal_quasi_velocities`: the suppressed quasi-velocities chosen σ-orthogonal to
  D; then Boltzmann–Hamel with the *constrained* T gives the right equations, while with
  Greenwood's own u₃ (4.107) it does not (:func:`constrained_T_first`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import sympy as sp

from companion.geometry import metric
from companion.geometry.distribution import constrained_christoffel, gamma_test
from companion.geometry.metric import kinetic_metric, quadratic, tangential_projection
from companion.mechanics import boltzmann_hamel
from companion.mechanics import quasi_velocities as qv
from companion.mechanics.boltzmann_hamel import BoltzmannHamelResult, dot_symbol
from companion.system import System


@dataclass(frozen=True)
class ConstrainedConnection:
    """The objects of Newton's law on a distribution, for one system (all sympy).

    Attributes
    ----------
    sigma
        The kinetic-energy metric in q̇ (Def. 7.1 in coordinates).
    X
        n × (n − m): the allowed frame vectors, the first n − m columns of Φ (4.81).
    obstruction
        The γ-test blocks γ^j_rl = ⟨ω^j, [X_r, X_l]⟩, suppressed j, allowed r, l.
    P
        The σ-orthogonal projection onto D.
    Gamma, Gamma_tilde
        Levi-Civita symbols Γ^i_kl of σ (Thm 7.1) and those of the constrained connection.
    qdot
        q̇ = X u on D (u the independent quasi-velocities).
    qddot
        q̈ = −Γ̃(q̇, q̇) + P σ⁻¹ F on D.
    udot
        The independent u̇ of that motion (u̇ = Ψ q̈ + Ψ̇ q̇, first n − m rows).
    reduced
        Xᵀσ(q̈ + Γ̃(q̇, q̇)) − XᵀF with q̈ = X u̇ + Ẋ u in the u̇ symbols of
        :func:`~companion.mechanics.boltzmann_hamel.dot_symbol`: the equations of motion.
    reaction
        σ(q̈ + Γ(q̇, q̇)) − F on the motion: the 1-form the constraint supplies (in D^⊥'s σ♭).
    multipliers
        Its components on the suppressed coframe: reaction = Σ_j λ_j ω^j.
    """

    sigma: sp.Matrix
    X: sp.Matrix
    obstruction: list[sp.Matrix]
    P: sp.Matrix
    Gamma: list[sp.Matrix]
    Gamma_tilde: list[sp.Matrix]
    qdot: sp.Matrix
    qddot: sp.Matrix
    udot: sp.Matrix
    reduced: sp.Matrix
    reaction: sp.Matrix
    multipliers: sp.Matrix


def metric_in_qdot(system: System) -> sp.Matrix:
    """σ = ∂²T/∂q̇∂q̇ of the unconstrained T written in q̇ through u = Ψ q̇."""
    psi, psi_t = system.psi
    if psi_t != sp.zeros(*psi_t.shape):
        raise ValueError(f"{system.name} is rheonomic (Ψ_t ≠ 0): the constrained connection "
                         "here is for scleronomic systems")
    T = sp.expand(system.T.xreplace(dict(zip(system.u, psi * sp.Matrix(system.qdot),
                                             strict=True))))
    return kinetic_metric(T, system.qdot).applyfunc(sp.trigsimp)


@cache
def constrained_connection(system: System) -> ConstrainedConnection:
    """Every object of ∇̃_{c′}c′ = P(σ♯F) for a scleronomic system with velocity constraints
    (computed once per system).

    The force F is the system's ``Q_q`` (a 1-form in q; zero when it has none).
    """
    if system.n_constraints == 0:
        raise ValueError(f"{system.name} has no velocity constraint: D would be all of TQ")
    q, n, k = system.q, len(system.q), len(system.u_independent)
    psi, _ = system.psi
    phi = qv.inverse(psi).applyfunc(sp.simplify)
    sigma = metric_in_qdot(system)
    X = phi[:, :k]
    # the σ-orthogonal projection onto D = span(X): Def. 7.4's tangential one, X for J (ours)
    P = tangential_projection(sigma, X).applyfunc(sp.simplify)
    force = sp.Matrix(system.Q_q) if system.Q_q is not None else sp.zeros(n, 1)
    u = sp.Matrix(system.u_independent)
    qdot = X * u
    gamma = metric.christoffel(sigma, q)
    gamma_tilde = constrained_christoffel(sigma, q, P, gamma)
    qddot = (-quadratic(gamma_tilde, qdot) + P * sigma.inv() * force).applyfunc(sp.simplify)
    psi_dot = sum((psi.diff(qi) * v for qi, v in zip(q, qdot, strict=True)), sp.zeros(n, n))
    udot = (psi * qddot + psi_dot * qdot).applyfunc(sp.simplify)
    udot_symbols = sp.Matrix([dot_symbol(s) for s in system.u_independent])
    x_dot = sum((X.diff(qi) * v for qi, v in zip(q, qdot, strict=True)), sp.zeros(n, k))
    qddot_in_u = X * udot_symbols + x_dot * u
    reduced = (X.T * (sigma * (qddot_in_u + quadratic(gamma_tilde, qdot)) - force))
    reaction = (sigma * (qddot + quadratic(gamma, qdot)) - force).applyfunc(sp.simplify)
    return ConstrainedConnection(
        sigma=sigma, X=X, obstruction=gamma_test(psi, q, system.n_constraints), P=P,
        Gamma=gamma, Gamma_tilde=gamma_tilde, qdot=qdot, qddot=qddot, udot=udot[:k, :],
        reduced=reduced.applyfunc(sp.simplify), reaction=reaction,
        multipliers=(phi[:, k:].T * reaction).applyfunc(sp.simplify))


@dataclass(frozen=True)
class OrthogonalChoice:
    """Another choice of the suppressed quasi-velocities (σ-orthogonal to D, or any other),
    and what Boltzmann–Hamel gives with them.

    Attributes
    ----------
    Phi, Psi
        The new frame [X_1 … X_{n−m}, the suppressed columns] and its coframe Ψ′ = Φ′⁻¹.
    u
        The new quasi-velocities' symbols (primed), the suppressed ones last.
    T
        The unconstrained T in the new u's (block-diagonal when the choice is σ-orthogonal).
    unconstrained, constrained
        Boltzmann–Hamel (4.85) with that T, and with the suppressed u's put to zero first.
    """

    Phi: sp.Matrix
    Psi: sp.Matrix
    u: list[sp.Symbol]
    T: sp.Expr
    unconstrained: BoltzmannHamelResult
    constrained: BoltzmannHamelResult


def orthogonal_quasi_velocities(system: System) -> OrthogonalChoice:
    """Keep the allowed frame vectors of Φ; replace each suppressed one by σ⁻¹(ω^j)ᵀ, scaled so
    that ω^j of it is 1: the suppressed velocities are then σ-orthogonal to D (ours)."""
    k = len(system.u_independent)
    psi, _ = system.psi
    inv = metric_in_qdot(system).inv()
    normals = [inv * psi[j, :].T for j in range(k, len(system.q))]
    return with_suppressed_frame(system, [(v / (psi[j, :] * v)[0]).applyfunc(sp.simplify)
                                          for j, v in enumerate(normals, start=k)])


def with_suppressed_frame(system: System, columns: list[sp.Matrix]) -> OrthogonalChoice:
    """Quasi-velocities whose frame keeps the allowed columns of Φ and takes ``columns`` for the
    suppressed ones (D, the span of the allowed ones, is unchanged), with
    Boltzmann–Hamel by the unconstrained and by the constrained T (computed once per system
    and choice)."""
    return _with_frame(system, tuple(sp.ImmutableMatrix(col) for col in columns))


@cache
def _with_frame(system: System, columns: tuple[sp.ImmutableMatrix, ...]) -> OrthogonalChoice:
    q, n, k = system.q, len(system.q), len(system.u_independent)
    if len(columns) != n - k:
        raise ValueError(f"{system.name} suppresses {n - k} quasi-velocities: give {n - k} "
                         f"frame columns, got {len(columns)}")
    psi, _ = system.psi
    phi = qv.inverse(psi).applyfunc(sp.simplify)
    sigma = metric_in_qdot(system)
    new_phi = sp.Matrix.hstack(*[phi[:, r] for r in range(k)], *map(sp.Matrix, columns))
    if sp.simplify(new_phi.det()) == 0:
        raise ValueError("the suppressed frame columns must complete the allowed ones to a "
                         "basis (Φ′ is singular)")
    new_psi = qv.inverse(new_phi).applyfunc(sp.simplify)
    u = [sp.Symbol(f"{s.name}'") for s in system.u]
    T = sp.Rational(1, 2) * (sp.Matrix(u).T * new_phi.T * sigma * new_phi * sp.Matrix(u))[0]
    T = sp.expand(sp.trigsimp(sp.expand(T)))
    forces = None if system.Q_q is None else list(new_phi[:, :k].T * sp.Matrix(system.Q_q))
    unconstrained, constrained = (
        boltzmann_hamel(energy, q, u, new_psi, n_constraints=system.n_constraints, Q=forces)
        for energy in (T, T.subs({s: 0 for s in u[k:]})))
    return OrthogonalChoice(Phi=new_phi, Psi=new_psi, u=u, T=T, unconstrained=unconstrained,
                            constrained=constrained)


def constrained_T_first(system: System) -> BoltzmannHamelResult:
    """Boltzmann–Hamel with the system's own quasi-velocities and the suppressed u's put into T
    *before* differentiating (the mistake (4.108) warns against)."""
    psi, psi_t = system.psi
    wrong_T = system.T.subs({u: 0 for u in system.u[len(system.u_independent):]})
    return boltzmann_hamel(wrong_T, system.q, system.u, psi, n_constraints=system.n_constraints,
                           Q=system.Q, t=system.t, Psi_t=psi_t)


def renamed(expr: sp.Matrix, old: list[sp.Symbol], new: list[sp.Symbol]) -> sp.Matrix:
    """``expr`` with the symbols ``old`` replaced by ``new`` (to compare results in two sets of
    quasi-velocities that agree on D)."""
    return sp.Matrix(expr).xreplace(dict(zip(old, new, strict=True)))
