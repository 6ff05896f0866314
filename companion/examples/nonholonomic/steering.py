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
from companion.mechanics.definition import Parameter, ParameterTable
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


def drive(legs, q0=(0.0, 0.0, 0.0), samples: int = 40,
          rtol: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """Integrate q̇ = u₁X₁ + u₂X₂ through ``legs``, each ``(u₁, u₂, seconds)`` held constant:
    sample times (N,) and configurations (3, N), the start included.

    Raises ValueError for a leg that is not three finite numbers with a positive duration, or
    q0 that is not (x, y, φ).
    """
    rate, _ = _compiled()
    state = np.asarray(q0, dtype=float)
    if state.shape != (3,) or not np.all(np.isfinite(state)):
        raise ValueError(f"q0 must be three finite numbers (x, y, phi), got {q0!r}")
    times, configurations, start = [np.zeros(1)], [state[:, None]], 0.0
    for k, leg in enumerate(legs, start=1):
        u1, u2, seconds = np.asarray(leg, dtype=float).reshape(3)
        if not (np.isfinite([u1, u2]).all() and seconds > 0 and np.isfinite(seconds)):
            raise ValueError(f"leg {k} must be (u1, u2, seconds) with finite speeds and a "
                             f"positive duration, got {leg!r}")
        run = integrate(lambda t, z, u=(u1, u2): np.asarray(rate(z, u), dtype=float).ravel(),
                        state, np.linspace(0.0, seconds, samples + 1)[1:], solver="dop853",
                        t_start=0.0, rtol=rtol, atol=rtol * 1e-3)
        times.append(start + run.t)
        configurations.append(run.y)
        state, start = run.y[:, -1], start + seconds
    return np.concatenate(times), np.hstack(configurations)


def parking(epsilon: float, q0=(0.0, 0.0, 0.0), legs=PARKING) -> Manoeuvre:
    """Integrate q̇ = u₁X₁ + u₂X₂ through ``legs`` ((u₁, u₂) in units of ε, a unit time each).

    Raises ValueError for ε ≤ 0 (the manoeuvre's size must be positive).
    """
    epsilon = float(epsilon)
    if not epsilon > 0:
        raise ValueError(f"epsilon must be positive, got {epsilon}")
    t, q = drive([(epsilon * a, epsilon * b, 1.0) for a, b in legs], q0)
    return Manoeuvre(epsilon, t, q, q[:, -1] - q[:, 0], epsilon**2 * bracket_at(q0))


def scaling(epsilons=(0.4, 0.2, 0.1, 0.05, 0.025), q0=(0.0, 0.0, 0.0)) -> dict[str, np.ndarray]:
    """Net displacement against ε: sizes |Δq|, the fitted log–log slope and each run's
    relative error against the bracket's prediction."""
    runs = [parking(e, q0) for e in epsilons]
    eps = np.asarray(epsilons, dtype=float)
    size = np.array([np.linalg.norm(r.displacement) for r in runs])
    slope = np.polyfit(np.log(eps), np.log(size), 1)[0]
    return {"epsilon": eps, "size": size, "slope": np.array(slope),
            "relative_error": np.array([r.relative_error for r in runs])}


def trajectory(run: Manoeuvre) -> Trajectory:
    """The manoeuvre as a :class:`Trajectory` for the scene (series x2, y2 of particle 2, a
    rod of 1 m away)."""
    x, y, phi = run.q
    return Trajectory(t=run.t, states=run.q, names=["x", "y", "phi"], params={"l": 1.0, "m": 1.0},
                      series={"x2": x + np.cos(phi), "y2": y + np.sin(phi)})


# ------------------------------------------------------------------ the reader steers
#: Legs the reader sets in the steering explorer, one second each.
N_LEGS = 4
#: Each leg's inputs: (name, unit, meaning).
_INPUTS = (("v", "m/s", "u₁ in leg {k}: speed along the blade"),
           ("w", "rad/s", "u₂ in leg {k}: turning rate"))


#: Leg inputs (v_k, w_k) of named manoeuvres: a closed loop in q (a circle, q returns with
#: ∮u₁ dt = 4 m) and the parallel parking of ε = 0.6 (∮u₁ dt = 0, q does not return).
MANOEUVRES = {
    "circle": {**{f"v_{k}": 1.0 for k in range(1, 5)},
               **{f"w_{k}": float(np.pi / 2) for k in range(1, 5)}},
    "parking": {"v_1": 0.6, "w_2": 0.6, "v_3": -0.6, "w_4": -0.6},
}


def heading_error(phi, target: float) -> np.ndarray:
    """φ − φ* wrapped to (−π, π]: a whole turn more is the same heading."""
    return np.pi - np.mod(np.pi - (np.asarray(phi) - target), 2 * np.pi)


class SteeredKnifeEdge:
    """The knife edge driven by piecewise-constant inputs (ours, §7.9 reconstructed): u₁ = v_k
    and u₂ = w_k held for one second in leg k, q̇ = u₁X₁ + u₂X₂ (Example 4.4's kinematics),
    towards a target (x*, y*, φ*).  A :class:`~companion.model.Model`: the explorer's sliders
    set the legs, the start and the target.

    The trajectory carries the states x, y, φ; the series x2, y2 (particle 2), u_1, u_2 (the
    inputs), theta_1 = ∫u₁ dt (the quasi-coordinate of u₁: its change around a closed loop in
    q is not zero, so it is no function of q) and the distance to the target (particle 1's
    distance, and the heading's error as an arc of the rod length l, combined).
    """

    name = "knife_edge_steered"
    title = "The knife edge steered by piecewise-constant inputs (reconstructed, ours)"

    def __init__(self):
        x, y, phi = sp.symbols("x y phi")
        self.parameters = [*(Parameter(sp.Symbol(f"{a}_{k}"), 0.0, -2.0, 2.0, unit,
                                       meaning.format(k=k))
                             for k in range(1, N_LEGS + 1) for a, unit, meaning in _INPUTS),
                           Parameter(sp.Symbol("x_target"), 0.0, -2.0, 2.0, "m", "target x"),
                           Parameter(sp.Symbol("y_target"), -0.3, -2.0, 2.0, "m", "target y"),
                           Parameter(sp.Symbol("phi_target"), 0.0, -3.14, 3.14, "rad",
                                     "target heading")]
        self.initial = [Parameter(x, 0.0, -2.0, 2.0, "m", "start x of particle 1"),
                        Parameter(y, 0.0, -2.0, 2.0, "m", "start y of particle 1"),
                        Parameter(phi, 0.0, -3.14, 3.14, "rad", "start heading")]

    def simulate(self, t_final: float | None = None, params=None, initial=None, *,
                 n_points: int | None = None, **options) -> Trajectory:
        """Drive the legs from the start: :func:`drive` with (v_k, w_k, 1 s).

        Raises ValueError for a ``t_final`` other than the legs' total (N_LEGS s), or options
        (this model takes none).
        """
        if options:
            raise ValueError(f"{self.name}.simulate takes no options; got "
                             f"{', '.join(sorted(options))}")
        if t_final is not None and float(t_final) != N_LEGS:
            raise ValueError(f"{self.name} drives {N_LEGS} legs of 1 s: t_final is {N_LEGS} s "
                             f"(got {t_final}); change the legs' inputs instead")
        p = ParameterTable(tuple(self.parameters)).values(params)
        q0 = ParameterTable(tuple(self.initial), "initial condition(s)", "initial").values(
            initial)
        samples = max(2, (n_points or 40 * N_LEGS) // N_LEGS)
        legs = [(p[f"v_{k}"], p[f"w_{k}"], 1.0) for k in range(1, N_LEGS + 1)]
        t, q = drive(legs, list(q0.values()), samples=samples, rtol=1e-10)
        x, y, phi = q  # particle 1; particle 2 a rod of 1 m away
        leg = np.minimum(np.ceil(t).astype(int), N_LEGS) - 1  # t in (k−1, k] is leg k
        leg[0] = 0
        u1, u2 = np.array([legs[k][:2] for k in leg]).T
        theta_1 = np.concatenate([[0.0], np.cumsum(np.diff(t) * u1[1:])])
        miss = np.hypot(np.hypot(x - p["x_target"], y - p["y_target"]),
                        heading_error(phi, p["phi_target"]))  # times l = 1 m
        return Trajectory(t=t, states=q, names=["x", "y", "phi"], params={**p, "l": 1.0, "m": 1.0},
                          series={"x2": x + np.cos(phi), "y2": y + np.sin(phi), "u_1": u1,
                                  "u_2": u2, "theta_1": theta_1, "miss": miss})
