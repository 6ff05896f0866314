"""Closed-form solutions of worked examples, used to check the numerics (tests, benchmarks,
notebooks).  These are solutions of the derived equations found by hand, not the equations
themselves, so they are an independent check of the simulation.
"""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory


def knife_edge_closed_form(t: np.ndarray, v0: float, phidot0: float,
                           l: float) -> tuple[np.ndarray, np.ndarray]:
    """Forward speed v(t) and turning rate φ̇(t) of the knife-edge dumbbell (Greenwood Ex. 4.4)
    started with v₀ = ``v0`` (particle 1's) and φ̇₀ = ``phidot0``, rod length ``l`` > 0.

    The equations (4.122)–(4.123), 2 v̇ = l φ̇² and l φ̈ = −v φ̇, conserve the energy
    m(v² + ½ l² φ̇²) = m v∞², and are solved by

        v = v∞ tanh(v∞ (t − t₀)/l),   φ̇ = ±(√2 v∞/l) sech(v∞ (t − t₀)/l),

    with v∞² = v₀² + l² φ̇₀²/2, the sign of φ̇₀, and t₀ = −(l/v∞) artanh(v₀/v∞) so that
    v(0) = v₀.  The rod's turning dies away and the speed tends to v∞.
    """
    if not l > 0:
        raise ValueError(f"the rod length l must be > 0, got {l}")
    t = np.asarray(t, dtype=float)
    if phidot0 == 0:  # no turning: uniform straight motion (t₀ would be infinite)
        return np.full_like(t, v0), np.zeros_like(t)
    v_inf = np.sqrt(v0**2 + 0.5 * l**2 * phidot0**2)
    t0 = -(l / v_inf) * np.arctanh(v0 / v_inf)
    s = v_inf * (t - t0) / l
    return v_inf * np.tanh(s), np.sign(phidot0) * np.sqrt(2) * v_inf / l / np.cosh(s)


def closed_form_of(trajectory: Trajectory) -> tuple[np.ndarray, np.ndarray]:
    """The closed-form v(t), φ̇(t) for a simulated trajectory's own initial state and l."""
    return knife_edge_closed_form(trajectory.t, trajectory["u_1"][0], trajectory["u_2"][0],
                                  trajectory.params["l"])


def closed_form_error(trajectory: Trajectory) -> float:
    """Largest |numeric − closed form| of v and φ̇ along the motion."""
    v, w = closed_form_of(trajectory)
    return float(max(np.max(np.abs(trajectory["u_1"] - v)),
                     np.max(np.abs(trajectory["u_2"] - w))))
