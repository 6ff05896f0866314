"""Stability of the bicycle's upright, straight-ahead motion against forward speed: the
linearization of the nonlinear equations about that steady motion (System.linearize), its
eigenvalues, and the speeds where the weave and capsize modes change stability.

At upright straight running the forward-speed equation decouples from lean and steer (the
lean/steer rows of the u₃ column and the u₃ row vanish by symmetry), so the lean/steer block
(φ, δ, φ̇, δ̇) carries the four eigenvalues of the benchmark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from companion.system import Linearization, System

#: Coordinates the equations of motion do not depend on.
CYCLIC = ("x", "y", "psi", "theta_R", "theta_F")
#: The lean/steer states of the linear equations.
LEAN_STEER = ("phi", "delta", "u_1", "u_2")


def upright(system: System, speed: float, params: Mapping[str, float] | None = None
            ) -> Linearization:
    """The linear equations about upright straight running at ``speed`` [m/s]."""
    r_R = system.parameter_values(params)["r_R"]
    nominal = {"phi": 0.0, "delta": 0.0, "u_1": 0.0, "u_2": 0.0, "u_3": speed / r_R}
    return system.linearize(nominal, params, cyclic=CYCLIC)


def lean_steer_matrix(system: System, speed: float,
                      params: Mapping[str, float] | None = None) -> np.ndarray:
    """The 4×4 state matrix of (φ, δ, φ̇, δ̇) at ``speed``."""
    lin = upright(system, speed, params)
    index = [lin.states.index(name) for name in LEAN_STEER]
    return lin.A[np.ix_(index, index)]


def eigenvalues(system: System, speed: float, params: Mapping[str, float] | None = None
                ) -> np.ndarray:
    """The four lean/steer eigenvalues at ``speed``, sorted by real then imaginary part."""
    ev = np.linalg.eigvals(lean_steer_matrix(system, speed, params))
    return ev[np.lexsort((ev.imag, ev.real))]


def eigenvalues_against_speed(system: System, speeds: Sequence[float],
                              params: Mapping[str, float] | None = None) -> np.ndarray:
    """Eigenvalues at each speed, one row per speed."""
    return np.array([eigenvalues(system, v, params) for v in speeds])


def _weave_real_part(system: System, speed: float, params) -> float:
    ev = eigenvalues(system, speed, params)
    complex_pair = ev[np.abs(ev.imag) > 1e-9]
    if complex_pair.size == 0:
        raise ValueError(f"no oscillatory (weave) mode at v = {speed} m/s")
    return float(np.max(complex_pair.real))


def _capsize_eigenvalue(system: System, speed: float, params) -> float:
    ev = eigenvalues(system, speed, params)
    real = ev[np.abs(ev.imag) <= 1e-9].real
    return float(real[np.argmin(np.abs(real))])  # the slow real mode near zero


def stability_speeds(system: System, params: Mapping[str, float] | None = None,
                     weave_bracket: tuple[float, float] = (3.0, 5.0),
                     capsize_bracket: tuple[float, float] = (5.5, 7.0)
                     ) -> tuple[float, float]:
    """(weave speed, capsize speed) [m/s]: where the weave pair's real part and the capsize
    eigenvalue cross zero (Brent's method to 1e-14 m/s); the self-stable band lies between.

    Raises
    ------
    ValueError
        When a mode does not change sign inside its bracket.
    """
    from scipy.optimize import brentq

    found = []
    for fn, bracket in ((_weave_real_part, weave_bracket),
                        (_capsize_eigenvalue, capsize_bracket)):
        lo, hi = (fn(system, v, params) for v in bracket)
        if lo * hi > 0:
            raise ValueError(f"{fn.__name__.strip('_')} does not change sign between "
                             f"{bracket[0]} and {bracket[1]} m/s")
        found.append(brentq(lambda v, fn=fn: fn(system, v, params), *bracket, xtol=1e-14,
                            rtol=4 * np.finfo(float).eps))
    return found[0], found[1]


def benchmark_matrices(system: System, params: Mapping[str, float] | None = None
                       ) -> dict[str, np.ndarray]:
    """M, C₁, K₀, K₂ of M q̈ + v C₁ q̇ + (g K₀ + v² K₂) q = f, q = (φ, δ), recovered from the
    linearization of the nonlinear equations: M from the input matrix (B = M⁻¹ in the
    lean/steer rows), then the velocity and stiffness blocks of A at v = 0 and v = 1 m/s
    (A = [[0, I], [−M⁻¹(g K₀ + v² K₂), −v M⁻¹ C₁]])."""
    g = system.parameter_values(params)["g"]
    blocks = {}
    for speed in (0.0, 1.0):
        lin = upright(system, speed, params)
        q = [lin.states.index(n) for n in LEAN_STEER[:2]]
        u = [lin.states.index(n) for n in LEAN_STEER[2:]]
        blocks[speed] = (lin.A[np.ix_(u, q)], lin.A[np.ix_(u, u)], lin.B[u][:, :2])
    mass = np.linalg.inv(blocks[0.0][2])
    k0 = -mass @ blocks[0.0][0] / g
    k2 = -mass @ blocks[1.0][0] - g * k0
    c1 = -mass @ blocks[1.0][1]
    return {"M": mass, "C1": c1, "K0": k0, "K2": k2}
