"""Steering the knife edge with prescribed quasi-velocities (ours, §7.9 reconstructed).

With the forward speed u₁(t) and the turning rate u₂(t) given, the blade follows the
kinematics q̇ = Φ u (4.134) of Example 4.4 in the allowed directions X₁, X₂ only.  The
parallel-parking manoeuvre — drive ε, turn ε, back ε, turn back ε (each leg for a unit time at
speed ε) — returns φ to its start and moves particle 1 by ε²[X₁, X₂] + O(ε³): sideways, across
the blade, a direction D does not contain.  Every (x, y, φ) is reachable because D with its
bracket spans TQ (Chow–Rashevskii; not Frobenius, which is about integrability).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import sympy as sp

from companion.examples.knife_edge.system import build as build_knife_edge
from companion.geometry.distribution import lie_bracket
from companion.numerics import Trajectory
from companion.numerics.integrate import integrate

_system = cache(build_knife_edge)

#: The four legs of the manoeuvre: (u₁, u₂) in units of ε — drive, turn, back, turn back.
PARKING = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


@cache
def _compiled():
    """(q̇(q, u₁, u₂), [X₁, X₂](q)) as numeric functions, from the engine's kinematics."""
    s = _system()
    d = s.derive("boltzmann_hamel")
    q, u = s.q, s.u_independent
    rate = sp.lambdify([q, u], list(d.kinematics), modules="numpy")
    frame = d.Phi[:, : len(u)]
    bracket = sp.lambdify([q], list(lie_bracket(frame[:, 0], frame[:, 1], q)), modules="numpy")
    return rate, bracket


def bracket_at(q0) -> np.ndarray:
    """[X₁, X₂] at the configuration q0 = (x, y, φ)."""
    return np.asarray(_compiled()[1](list(q0)), dtype=float)


@dataclass(frozen=True)
class Manoeuvre:
    """One run of a leg sequence: samples and the net displacement.

    Attributes
    ----------
    t, q
        Sample times (N,) and configurations (3, N), legs one after another.
    displacement
        q(end) − q(0).
    predicted
        ε²[X₁, X₂](q0).
    """

    epsilon: float
    t: np.ndarray
    q: np.ndarray
    displacement: np.ndarray
    predicted: np.ndarray

    @property
    def relative_error(self) -> float:
        """|Δq − ε²[X₁, X₂]| / |ε²[X₁, X₂]|: O(ε) (the O(ε³) remainder over ε²)."""
        return float(np.linalg.norm(self.displacement - self.predicted)
                     / np.linalg.norm(self.predicted))

    @property
    def along_bracket(self) -> float:
        """The displacement's component along the unit bracket, over ε²."""
        unit = self.predicted / np.linalg.norm(self.predicted)
        return float(self.displacement @ unit) / self.epsilon**2


def parking(epsilon: float, q0=(0.0, 0.0, 0.0), legs=PARKING, samples: int = 40,
            rtol: float = 1e-12) -> Manoeuvre:
    """Integrate q̇ = u₁X₁ + u₂X₂ through ``legs`` ((u₁, u₂) in units of ε, a unit time each).

    Raises ValueError for ε ≤ 0 (the manoeuvre's size must be positive).
    """
    epsilon = float(epsilon)
    if not epsilon > 0:
        raise ValueError(f"epsilon must be positive, got {epsilon}")
    rate, _ = _compiled()
    state = np.asarray(q0, dtype=float)
    if state.shape != (3,):
        raise ValueError(f"q0 must be (x, y, phi), got {q0!r}")
    times, configurations = [np.zeros(1)], [state[:, None]]
    for i, (a, b) in enumerate(legs):
        u = (epsilon * a, epsilon * b)
        run = integrate(lambda t, z, u=u: np.asarray(rate(z, u), dtype=float).ravel(),
                        state, np.linspace(0.0, 1.0, samples + 1)[1:], solver="dop853",
                        t_start=0.0, rtol=rtol, atol=rtol * 1e-3)
        times.append(i + run.t)
        configurations.append(run.y)
        state = run.y[:, -1]
    q = np.hstack(configurations)
    return Manoeuvre(epsilon, np.concatenate(times), q, q[:, -1] - q[:, 0],
                     epsilon**2 * bracket_at(q0))


def scaling(epsilons=(0.4, 0.2, 0.1, 0.05, 0.025), q0=(0.0, 0.0, 0.0)) -> dict[str, np.ndarray]:
    """Net displacement against ε: sizes |Δq|, the fitted log–log slope and each run's
    relative error against the bracket's prediction."""
    runs = [parking(e, q0) for e in epsilons]
    eps = np.asarray(epsilons, dtype=float)
    size = np.array([np.linalg.norm(r.displacement) for r in runs])
    slope = np.polyfit(np.log(eps), np.log(size), 1)[0]
    return {"epsilon": eps, "size": size, "slope": np.array(slope),
            "relative_error": np.array([r.relative_error for r in runs])}


def trajectory(run: Manoeuvre, l: float = 1.0, m: float = 1.0) -> Trajectory:
    """The manoeuvre as a :class:`Trajectory` for the scene (series x2, y2 of particle 2)."""
    x, y, phi = run.q
    return Trajectory(t=run.t, states=run.q, names=["x", "y", "phi"], params={"l": l, "m": m},
                      series={"x2": x + l * np.cos(phi), "y2": y + l * np.sin(phi)})
