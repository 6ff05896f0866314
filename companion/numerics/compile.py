"""Equations of motion compiled once for numbers: ``M(q,t) u̇ = f(q,u,t)``, ``q̇ = Φ u + Φ_t``.

Everything is lambdified in one function with common-subexpression elimination, evaluated
with the ``math`` module on scalars (far cheaper per call than numpy for small systems), and
the linear system for u̇ solved numerically, never symbolically.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import sympy as sp

from companion.mechanics.derivation import Derivation


class SingularConfigurationError(ValueError):
    """The equations cannot be evaluated here: the coordinates or the mass matrix are singular."""


def lambdify_scalar(args: Sequence, exprs: Sequence[sp.Expr]):
    """Lambdify a list of scalar expressions to a fast function of scalars returning a list."""
    return sp.lambdify(args, list(exprs), modules=["math"], cse=True)


class CompiledEOM:
    """Numeric right-hand side of a derivation for fixed parameter symbols.

    Parameters
    ----------
    derivation
        Any method's :class:`Derivation`.
    parameters
        The parameter symbols, in the order parameter values will be passed.
    """

    def __init__(self, derivation: Derivation, parameters: Sequence[sp.Symbol]):
        self.derivation = derivation
        self.parameters = list(parameters)
        missing = set(derivation.parameters()) - set(self.parameters)
        if missing:
            raise ValueError(
                f"the equations use parameters with no value: {sorted(map(str, missing))}"
            )
        self.n = len(derivation.q)
        self.k = len(derivation.u)
        t = derivation.t if derivation.t is not None else sp.Dummy("t")
        args = [t, *derivation.q, *derivation.u, *self.parameters]
        flat = [*derivation.kinematics, *derivation.mass_matrix, *derivation.forcing]
        self._parts = lambdify_scalar(args, flat)

    def parts(self, t: float, q: Sequence[float], u: Sequence[float], p: Sequence[float]):
        """q̇, M and f at one state, as numpy arrays."""
        n, k = self.n, self.k
        try:
            vals = self._parts(t, *q, *u, *p)
        except (ZeroDivisionError, ValueError, OverflowError) as exc:
            raise SingularConfigurationError(
                f"the equations of motion cannot be evaluated at q = {list(q)}: {exc}"
            ) from exc
        qdot = np.array(vals[:n], dtype=float)
        M = np.array(vals[n : n + k * k], dtype=float).reshape(k, k)
        f = np.array(vals[n + k * k :], dtype=float)
        return qdot, M, f

    def accelerations(self, M: np.ndarray, f: np.ndarray, where: str = "") -> np.ndarray:
        """Solve M u̇ = f, refusing a singular M with an explanation."""
        if self.k == 1:
            if M[0, 0] == 0 or not math.isfinite(M[0, 0]):
                raise SingularConfigurationError(f"the mass matrix is singular{where}")
            return f / M[0, 0]
        try:
            return np.linalg.solve(M, f)
        except np.linalg.LinAlgError as exc:
            raise SingularConfigurationError(f"the mass matrix is singular{where}") from exc

    def rhs(self, p: Sequence[float]):
        """The first-order right-hand side ``x ↦ ẋ`` for the state x = (q, u)."""
        n = self.n
        p = list(p)

        def f(t: float, x: np.ndarray) -> np.ndarray:
            q, u = x[:n], x[n:]
            qdot, M, forcing = self.parts(t, q, u, p)
            udot = self.accelerations(M, forcing)
            out = np.concatenate([qdot, udot])
            if not np.all(np.isfinite(out)):
                raise SingularConfigurationError(
                    f"the kinematical equations blow up at t = {t:.6g}, q = {np.round(q, 6)}: "
                    "the coordinates are singular there"
                )
            return out

        return f

    def udot(self, t: float, q, u, p) -> np.ndarray:
        """u̇ at one state."""
        _, M, f = self.parts(t, q, u, p)
        return self.accelerations(M, f)
