"""Jacobians of compiled right-hand sides by differences: the linearization's numbers.

Central differences with one Richardson step, D = (4 D(h/2) − D(h)) / 3, have an error of
order h⁴ (the truncation) plus ε/h (rounding): with h = 1e-3 on quantities of order one,
about 1e-12, enough for eigenvalues to 10 digits without deriving the Jacobian symbolically.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def jacobian(f: Callable[[np.ndarray], np.ndarray], x0: np.ndarray, step: float = 1e-3
             ) -> np.ndarray:
    """∂f/∂x at ``x0`` by Richardson-extrapolated central differences.

    Parameters
    ----------
    f
        A function of a vector returning a vector (may leave a manifold's parametrization to
        the caller: it is only ever called at x0 ± a step along one axis).
    x0
        Where to differentiate.
    step
        The larger of the two steps h and h/2, scaled by max(1, |x0_j|) per component.

    Raises
    ------
    ValueError
        When ``step`` is not a positive finite number or f is not finite near x0.
    """
    if not (np.isfinite(step) and step > 0):
        raise ValueError(f"step must be a positive number, got {step!r}")
    x0 = np.asarray(x0, dtype=float)
    columns = []
    for j in range(x0.size):
        h = step * max(1.0, abs(x0[j]))

        def central(h: float, j: int = j) -> np.ndarray:
            e = np.zeros_like(x0)
            e[j] = h
            return (np.asarray(f(x0 + e), float) - np.asarray(f(x0 - e), float)) / (2 * h)

        columns.append((4 * central(h / 2) - central(h)) / 3)
    out = np.column_stack(columns)
    if not np.all(np.isfinite(out)):
        raise ValueError("the right-hand side is not finite near the point of linearization")
    return out
