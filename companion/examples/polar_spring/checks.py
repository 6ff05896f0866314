"""(4.82, by position) beside (4.85): the triple-sum form of the velocity-coupling terms equals
the γ form
(a consistency check the companion adds, on three systems of the companion).

Before the coefficients γ^j_rl (4.83) and γ^j_r (4.84) are named, the coupling terms of
row r read Σ_j Σ_i Σ_k p_j C^j_ik Φ_ir q̇_k + Σ_j Σ_i p_j (∂Ψ_ji/∂t − ∂Ψ_jt/∂q_i) Φ_ir
(the triple-sum form (4.82, by position)); substituting q̇ = Φ u + Φ_t (4.81) must give
Σ_j p_j (Σ_l γ^j_rl u_l + γ^j_r), the terms of (4.85).
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from companion.checks import CONSISTENCY, Check
from companion.system import System


def triple_sum_minus_gamma_form(system: System) -> sp.Matrix:
    """(4.82, by position)'s triple sum minus the γ terms of (4.85), row by row, from the engine's
    Ψ, Φ, C^j and γ's (every u kept: the rows before the constraints are applied)."""
    d = system.derive("boltzmann_hamel")
    psi, psi_t = d.Psi, d.Psi_t
    q, u, t = system.q, sp.Matrix(d.u_all), system.t
    qdot = d.Phi * u + d.Phi_t
    n = len(q)
    triple, gamma_form = sp.zeros(n, 1), sp.zeros(n, 1)
    for j in range(n):
        explicit = sp.Matrix([(psi[j, i].diff(t) if t is not None else 0)
                              - psi_t[j].diff(q[i]) for i in range(n)])
        triple += d.momenta[j] * d.Phi.T * (d.C[j] * qdot + explicit)
        gamma_form += d.momenta[j] * (d.gamma[j] * u + d.gamma_t[j])
    return (triple - gamma_form).applyfunc(sp.simplify)


def _identity() -> tuple[bool, str]:
    from companion.examples.knife_edge.system import build as knife_edge
    from companion.examples.moving_carriage.system import build as moving_carriage
    from companion.examples.polar_spring.system import build as polar_spring

    rows = {build.__module__.split(".")[2]: triple_sum_minus_gamma_form(build())
            for build in (polar_spring, knife_edge, moving_carriage)}
    ok = all(r == sp.zeros(*r.shape) for r in rows.values())
    return ok, "; ".join(f"{name}: {list(r)}" for name, r in rows.items())


def checks(printed: Mapping[str, object]) -> list[Check]:
    return [Check("Greenwood", "(4.82, by position)→(4.85)", "triple-sum form "
                  "Σ_j Σ_i Σ_k p_j C^j_ik Φ_ir q̇_k (+ rheonomic terms) = "
                  "Σ_j p_j (γ^j u + γ^j_r) with q̇ = Φ u + Φ_t (polar spring, knife edge, "
                  "moving carriage)", _identity, CONSISTENCY)]
