"""Stability of the bicycle's upright, straight-ahead motion against forward speed: the
linearization of the nonlinear equations about that steady motion (System.linearize), its
eigenvalues, and the speeds where the weave and capsize modes change stability.

At upright straight running the forward-speed equation decouples from lean and steer (the
lean/steer rows of the u₃ column and the u₃ row vanish by symmetry), so the lean/steer block
(φ, δ, φ̇, δ̇) carries the four eigenvalues of the benchmark.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from companion.stability import eigenvalues_at, stability_sweep
from companion.system import Linearization, System

#: Coordinates the equations of motion do not depend on.
CYCLIC = ("x", "y", "psi", "theta_R", "theta_F")
#: The lean/steer states of the linear equations.
LEAN_STEER = ("phi", "delta", "u_1", "u_2")
#: Upright, straight ahead (the forward speed u₃ is set apart).
UPRIGHT = {"phi": 0.0, "delta": 0.0, "u_1": 0.0, "u_2": 0.0}


def upright(system: System, speed: float, params: Mapping[str, float] | None = None
            ) -> Linearization:
    """The linear equations about upright straight running at ``speed`` [m/s]."""
    r_R = system.parameter_values(params)["r_R"]
    nominal = {**UPRIGHT, "u_3": speed / r_R}
    return system.linearize(nominal, params, cyclic=CYCLIC)


def eigenvalues(system: System, speed: float, params: Mapping[str, float] | None = None
                ) -> np.ndarray:
    """The four lean/steer eigenvalues at ``speed``, sorted by real then imaginary part."""
    r_R = system.parameter_values(params)["r_R"]
    return eigenvalues_at(system, "u_3", speed / r_R, params=params, cyclic=CYCLIC,
                          states=LEAN_STEER, nominal=UPRIGHT)


def stability_speeds(system: System, params: Mapping[str, float] | None = None,
                     weave_bracket: tuple[float, float] = (3.0, 5.0),
                     capsize_bracket: tuple[float, float] = (5.5, 7.0)
                     ) -> tuple[float, float]:
    """(weave speed, capsize speed) [m/s]: where the largest real part of the lean/steer
    eigenvalues crosses zero, up at the weave speed (the weave pair) and down at the capsize
    speed (the capsize mode), by the general sweep :func:`companion.stability.
    stability_sweep`; the self-stable band lies between.

    Raises
    ------
    ValueError
        When the upright motion is not unstable, stable, stable, unstable at the brackets'
        ends (a mode does not change sign inside its bracket).
    """
    r_R = system.parameter_values(params)["r_R"]
    ends = [*weave_bracket, *capsize_bracket]
    sweep = stability_sweep(system, "u_3", np.array(ends) / r_R, params=params,
                            cyclic=CYCLIC, states=LEAN_STEER, nominal=UPRIGHT, tolerance=0.0)
    if list(sweep.stable) != [False, True, True, False]:
        raise ValueError(f"the upright bicycle is not unstable, stable, stable, unstable at "
                         f"{ends} m/s (stable: {list(sweep.stable)}): widen the brackets")
    weave, capsize = (v * r_R for v in sweep.critical)
    return weave, capsize


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
