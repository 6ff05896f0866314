"""The compiled right-hand side of a derivation by numeric elimination: Φ = Ψ⁻¹ (4.81) and the
projection of Lagrange's expression on the independent quasi-velocities (4.85) are computed
from numbers at each state (see :mod:`companion.mechanics.numeric_elimination`), as
statements of the one :class:`~companion.numerics.compile.Program` (Python and C alike).

Ψ and Ψ_t are evaluated and Φ solved from Ψ Φ = 1; then q̇ = Φ (u − Ψ_t), the pieces
Ψ̇ q̇ + Ψ̇_t, v, J, J̇, ∂v/∂q, Q_q, v̇_t at that q̇ and the weights W of T = ½ vᵀ W v; then
M_q = Jᵀ W J, Lagrange's expression at q̈ = 0 and their projections Φ_kᵀ M_q Φ_k and
Φ_kᵀ[…] of (4.85), solved for u̇.  Every product is written out entry by entry, so the zero
entries of J and W cost nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from companion.numerics.compile import CompiledEOM, Program, lambdify_scalar
from companion.numerics.trajectory import sampled

if TYPE_CHECKING:  # numerics sits below mechanics: the types only
    from companion.mechanics.numeric_elimination import (
        EliminationParts,
        NumericEliminationResult,
    )


def elimination_program(parts: EliminationParts, parameters: Sequence[sp.Symbol]) -> Program:
    """The :class:`Program` of ẋ = (q̇, u̇) by numeric elimination (the module docstring)."""
    n, k, c = len(parts.q), parts.k, parts.components.rows
    u = sp.symbols(f"u_:{k}", cls=sp.Dummy)
    program = Program(parts.t, [*parts.q, *u], parameters)
    values = program.let([*parts.psi, *parts.psi_t])
    phi = sp.Matrix(n, n, program.solve(values[:n * n], list(sp.eye(n)), 1))
    u_all = sp.Matrix([(u[i] if i < k else 0) - values[n * n + i] for i in range(n)])
    qd = sp.Matrix(program.let(phi * u_all))
    pieces = [parts.rate, parts.components, parts.jacobian, parts.jacobian_rate,
              parts.gradient, parts.forces, parts.drift_rate]
    motion = iter(program.let([e for piece in pieces for e in piece],
                              at=dict(zip(parts.qdot, qd, strict=True))))
    rate, v, J, dJ, dv, Q, drift = (sp.Matrix(*piece.shape, [next(motion) for _ in piece])
                                    for piece in pieces)

    def let(matrix: sp.Matrix) -> sp.Matrix:
        return sp.Matrix(*matrix.shape, program.let(matrix))

    W = let(sp.Matrix(c, c, list(parts.weights)))
    Wv, WJ = let(W * v), let(W * J)
    mass_q = let(J.T * WJ)  # M_q = ∂²T/∂q̇²
    # d/dt(Jᵀ W v) − (∂v/∂q)ᵀ W v − Q_q at q̈ = 0, with v̇ = J q̈ + J̇ q̇ + v̇_t
    bias = dJ.T * Wv + WJ.T * let(dJ * qd + drift) - dv.T * Wv - Q
    r = let(mass_q * let(phi * rate) - let(bias))
    phi_k = phi[:, :k]
    mass, forcing = phi_k.T * let(mass_q * phi_k), phi_k.T * r
    program.rates = [*qd, *program.solve(program.let(mass), program.let(forcing), 2)]
    return program


class EliminationEOM(CompiledEOM):
    """u̇ of the independent quasi-velocities with every linear solve done numerically: a
    :class:`CompiledEOM` of a numeric-elimination derivation (its symbolic pieces in
    ``parts``).

    Raises
    ------
    ValueError
        When the pieces use a symbol that is neither state, time nor a listed parameter.
    """

    def __init__(self, derivation: NumericEliminationResult, parameters: Sequence[sp.Symbol]):
        super().__init__(derivation, parameters, elimination_program(derivation.parts, parameters))

    @cached_property
    def _energy_functions(self):
        """Ψ, Ψ_t and v lambdified for numpy arrays (whole motions at once), and W of
        T = ½ vᵀ W v for the parameter values, on first use."""
        parts = self.derivation.parts
        t = parts.t if parts.t is not None else sp.Dummy("t")
        configuration = sp.lambdify([t, *parts.q, *self.parameters],
                                    [list(parts.psi), list(parts.psi_t)], cse=True)
        components = sp.lambdify([t, *parts.q, *parts.qdot, *self.parameters],
                                 list(parts.components), cse=True)
        return configuration, components, lambdify_scalar(self.parameters, list(parts.weights))

    def kinetic_energy(self, t: np.ndarray, q: np.ndarray, u: np.ndarray,
                       p: Sequence[float]) -> np.ndarray:
        """T = ½ vᵀ W v along a motion: ``q`` (n × N) and ``u`` (k × N) at the N times ``t``.

        q̇ = Φ u + Φ_t (4.81) is solved at every sample at once, then the stacked velocity
        components v(q, q̇) and the weights W give T; for checking that a conservative
        motion keeps T + V, not for the right-hand side.
        """
        t = np.asarray(t, float)
        configuration, components, weights = self._energy_functions
        psi, psi_t = configuration(t, *q, *p)
        n, k = self.n, self.k
        u_all = -sampled(psi_t, t.shape).T
        u_all[:, :k] += np.asarray(u, float).T
        qdot = np.linalg.solve(sampled(psi, t.shape).T.reshape(t.size, n, n),
                               u_all[..., None])[..., 0]
        v = sampled(components(t, *q, *qdot.T, *p), t.shape).T
        W = np.array(weights(*p), float).reshape(v.shape[1], v.shape[1])
        return 0.5 * np.einsum("ic,cd,id->i", v, W, v)
