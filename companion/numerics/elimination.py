"""The compiled right-hand side of a derivation by numeric elimination: Φ = Ψ⁻¹ (4.81) and the
projection of Lagrange's expression on the independent quasi-velocities (4.85) are computed
from numbers at each state (see :mod:`companion.mechanics.numeric_elimination`).

Two compiled functions, both lambdified once with common subexpressions eliminated:
``configuration(t, q, p) -> (Ψ, Ψ_t)`` and ``motion(t, q, q̇, p) -> (Ψ̇ q̇ + Ψ̇_t, v, J, J̇,
∂v/∂q, Q_q, v̇_t)``; the weights W of T = ½ vᵀ W v are evaluated once per parameter set.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import sympy as sp

from companion.numerics.compile import (
    NonFiniteMotionError,
    SingularConfigurationError,
    lambdify_scalar,
    solve_linear,
)

if TYPE_CHECKING:  # numerics sits below mechanics: the type only
    from companion.mechanics.numeric_elimination import EliminationParts


class EliminationEOM:
    """u̇ of the independent quasi-velocities with every linear solve done numerically.

    Parameters
    ----------
    parts
        The symbolic pieces of a numeric-elimination derivation.
    parameters
        The parameter symbols, in the order parameter values will be passed.

    Raises
    ------
    ValueError
        When the pieces use a symbol that is neither state, time nor a listed parameter.
    """

    def __init__(self, parts: EliminationParts, parameters: Sequence[sp.Symbol]):
        self.parameters = list(parameters)
        own = {*parts.q, *parts.qdot, *([parts.t] if parts.t is not None else [])}
        missing = parts.free_symbols() - own - set(self.parameters)
        if missing:
            raise ValueError(
                f"the equations use parameters with no value: {sorted(map(str, missing))}")
        self.n, self.k = len(parts.q), parts.k
        self.n_components = parts.components.rows
        t = parts.t if parts.t is not None else sp.Dummy("t")
        self._configuration = lambdify_scalar([t, *parts.q, *self.parameters],
                                              [*parts.psi, *parts.psi_t])
        self._motion = lambdify_scalar(
            [t, *parts.q, *parts.qdot, *self.parameters],
            [*parts.rate, *parts.components, *parts.jacobian, *parts.jacobian_rate,
             *parts.gradient, *parts.forces, *parts.drift_rate])
        self._weights = lambdify_scalar(self.parameters, list(parts.weights))
        self._weights_cache: tuple[tuple, np.ndarray] | None = None
        self._parts = parts
        self._library = None

    def c_rhs(self, p: Sequence[float]):
        """The right-hand side ``x ↦ ẋ`` compiled to C (:mod:`companion.numerics.c_rhs`),
        built on first use; ``RuntimeError`` when no C compiler is available."""
        from companion.numerics import c_rhs

        if self._library is None:
            self._library = c_rhs.build_library(self._parts, self.parameters)
        return c_rhs.CRightHandSide(self._library, self.n, self.k, list(p))

    def weights(self, p: Sequence[float]) -> np.ndarray:
        """W of T = ½ vᵀ W v for parameter values ``p`` (cached for the last p)."""
        key = tuple(p)
        if self._weights_cache is None or self._weights_cache[0] != key:
            c = self.n_components
            self._weights_cache = (key, np.array(self._weights(*key), float).reshape(c, c))
        return self._weights_cache[1]

    def kinematics(self, t: float, q: Sequence[float], u: Sequence[float],
                   p: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
        """(q̇, Φ) at a state: q̇ = Φ u + Φ_t (4.81) with Φ = Ψ⁻¹ computed numerically."""
        n, k = self.n, self.k
        try:
            vals = self._configuration(t, *q, *p)
        except (ZeroDivisionError, ValueError, OverflowError) as exc:
            raise SingularConfigurationError(
                f"Ψ cannot be evaluated at q = {list(q)}: {exc}") from exc
        psi = np.array(vals[: n * n], float).reshape(n, n)
        u_all = np.zeros(n)
        u_all[:k] = u
        u_all -= vals[n * n:]
        try:
            phi = np.linalg.inv(psi)
        except np.linalg.LinAlgError as exc:
            raise SingularConfigurationError(
                f"Ψ is singular at q = {np.round(q, 6).tolist()}: the quasi-velocities do not "
                "determine q̇ there") from exc
        return phi @ u_all, phi

    @cached_property
    def _energy_functions(self):
        """Ψ, Ψ_t and v lambdified for numpy arrays (whole motions at once), on first use."""
        parts = self._parts
        t = parts.t if parts.t is not None else sp.Dummy("t")
        configuration = sp.lambdify([t, *parts.q, *self.parameters],
                                    [list(parts.psi), list(parts.psi_t)], cse=True)
        components = sp.lambdify([t, *parts.q, *parts.qdot, *self.parameters],
                                 list(parts.components), cse=True)
        return configuration, components

    def kinetic_energy(self, t: np.ndarray, q: np.ndarray, u: np.ndarray,
                       p: Sequence[float]) -> np.ndarray:
        """T = ½ vᵀ W v along a motion: ``q`` (n × N) and ``u`` (k × N) at the N times ``t``.

        q̇ = Φ u + Φ_t (4.81) is solved at every sample at once, then the stacked velocity
        components v(q, q̇) and the weights W give T; for checking that a conservative
        motion keeps T + V, not for the right-hand side.
        """
        t = np.asarray(t, float)
        configuration, components = self._energy_functions
        psi, psi_t = configuration(t, *q, *p)

        def stacked(entries: list) -> np.ndarray:  # constant entries come back as scalars
            return np.stack([np.broadcast_to(np.asarray(e, float), t.shape) for e in entries],
                            axis=-1)

        n, k = self.n, self.k
        u_all = -stacked(psi_t)
        u_all[:, :k] += np.asarray(u, float).T
        qdot = np.linalg.solve(stacked(psi).reshape(t.size, n, n), u_all[..., None])[..., 0]
        v = stacked(components(t, *q, *qdot.T, *p))
        return 0.5 * np.einsum("ic,cd,id->i", v, self.weights(p), v)

    def parts(self, t: float, q: Sequence[float], u: Sequence[float], p: Sequence[float]):
        """q̇, the mass matrix Φ_kᵀ M_q Φ_k and the forcing of (4.85) at one state."""
        n, k, c = self.n, self.k, self.n_components
        qdot, phi = self.kinematics(t, q, u, p)
        try:
            vals = np.array(self._motion(t, *q, *qdot.tolist(), *p), float)
        except (ZeroDivisionError, ValueError, OverflowError) as exc:
            raise SingularConfigurationError(
                f"the equations cannot be evaluated at q = {list(q)}: {exc}") from exc
        rate, rest = vals[:n], vals[n:]
        v, rest = rest[:c], rest[c:]
        J, dJ, dv = (rest[i * c * n:(i + 1) * c * n].reshape(c, n) for i in range(3))
        forces, drift = rest[3 * c * n:3 * c * n + n], rest[3 * c * n + n:]
        W = self.weights(p)
        Wv = W @ v
        WJ = W @ J
        mass_q = J.T @ WJ  # M_q = ∂²T/∂q̇²
        # d/dt(Jᵀ W v) − (∂v/∂q)ᵀ W v − Q_q at q̈ = 0, with v̇ = J q̈ + J̇ q̇ + v̇_t
        bias = dJ.T @ Wv + WJ.T @ (dJ @ qdot + drift) - dv.T @ Wv - forces
        phi_k = phi[:, :k]
        mass = phi_k.T @ mass_q @ phi_k
        forcing = phi_k.T @ (mass_q @ (phi @ rate) - bias)
        return qdot, mass, forcing

    def udot(self, t: float, q: Sequence[float], u: Sequence[float],
             p: Sequence[float]) -> np.ndarray:
        """u̇ of the independent quasi-velocities at one state."""
        _, mass, forcing = self.parts(t, q, u, p)
        return np.array(solve_linear(mass.ravel().tolist(), forcing.tolist()))

    def udot_list(self, t: float, q: Sequence[float], u: Sequence[float],
                  p: Sequence[float]) -> list[float]:
        return self.udot(t, q, u, p).tolist()

    def rhs(self, p: Sequence[float]):
        """The first-order right-hand side ``x ↦ ẋ`` for the state x = (q, u)."""
        n = self.n
        p = list(p)

        def f(t: float, x: np.ndarray) -> np.ndarray:
            q, u = x[:n].tolist(), x[n:].tolist()
            qdot, mass, forcing = self.parts(t, q, u, p)
            udot = solve_linear(mass.ravel().tolist(), forcing.tolist(), f" at t = {t:.6g}")
            out = np.concatenate([qdot, udot])
            if not all(map(math.isfinite, out)):
                raise NonFiniteMotionError(f"the accelerations overflow at t = {t:.6g}")
            return out

        return f
