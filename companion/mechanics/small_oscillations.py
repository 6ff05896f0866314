"""Small oscillations about an equilibrium: linearize M q̈ = f and solve K v = ω² M v.

Near an equilibrium q₀ (f(q₀, 0) = 0) with speeds u = q̇, the equations become
M(q₀) δq̈ = −K δq with the stiffness K = −∂f/∂q at (q₀, 0); the velocity terms of f are
quadratic and drop out.  The normal modes solve the generalized eigenproblem K v = ω² M v.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import sympy as sp
from scipy.linalg import eigh

from companion.mechanics.derivation import Derivation


def linearize(derivation: Derivation, values: Mapping[sp.Symbol | str, float],
              q0: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(M, K) at the equilibrium q₀ (default all zeros) for numeric parameter ``values``
    (keyed by Symbol or by name); ``ValueError`` for a parameter without a value or with an
    unknown name, or a q₀ that is not an equilibrium."""
    d = derivation
    if list(d.kinematics) != list(d.u):
        raise ValueError("linearize needs a derivation with speeds u = q̇")
    q0 = [0.0] * len(d.q) if q0 is None else list(q0)
    by_name = {s.name: s for s in d.parameters()}
    unknown = sorted(k for k in values if isinstance(k, str) and k not in by_name)
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; the equations have "
                         f"{', '.join(by_name) or 'none'}")
    named = {by_name[k] if isinstance(k, str) else k: v for k, v in values.items()}
    at = {**named, **dict(zip(d.q, q0, strict=True)), **{u: 0 for u in d.u}}
    missing = [s for s in d.parameters() if s not in at]
    if missing:
        raise ValueError(f"no value for the parameter(s) {sorted(map(str, missing))}")
    f0 = np.array(d.forcing.subs(at), dtype=float).ravel()
    if np.max(np.abs(f0)) > 1e-12:
        raise ValueError(f"q₀ = {q0} is not an equilibrium: the forcing there is {f0}")
    M = np.array(d.mass_matrix.subs(at), dtype=float)
    return M, -np.array(d.forcing.jacobian(d.q).subs(at), dtype=float)  # K = −∂f/∂q


def normal_modes(derivation: Derivation, values: Mapping[sp.Symbol, float],
                 q0: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Squared frequencies ω² (ascending) and mode shapes (columns, M-orthonormal);
    ``ValueError`` when the equilibrium is not stable (some ω² ≤ 0)."""
    M, K = linearize(derivation, values, q0)
    w2, modes = eigh(K, M)
    if np.any(w2 <= 0):
        raise ValueError(f"the equilibrium is not stable: ω² = {w2}")
    return w2, modes
