"""Figures of the benchmark bicycle: eigenvalues against forward speed with the self-stable
band, and the lean of nonlinear motions started with a small lean."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from companion.examples.whipple_bicycle import stability
from companion.numerics import Trajectory
from companion.system import System

BAND_COLOR = "#2ca02c"


def stability_figure(system: System, speeds: Sequence[float] | None = None,
                     band: tuple[float, float] | None = None,
                     fig: Figure | None = None) -> Figure:
    """Real and imaginary parts of the four lean/steer eigenvalues against v, the band
    weave speed < v < capsize speed shaded."""
    import matplotlib.pyplot as plt

    speeds = np.linspace(0.0, 10.0, 81) if speeds is None else np.asarray(speeds, float)
    band = stability.stability_speeds(system) if band is None else band
    ev = stability.eigenvalues_against_speed(system, speeds)
    if fig is None:
        with plt.ioff():
            fig = plt.figure(figsize=(5.6, 5.0), layout="constrained")
    re_ax, im_ax = fig.subplots(2, 1, sharex=True)
    re_ax.plot(speeds, ev.real, ".", color="#1f77b4", markersize=3)
    im_ax.plot(speeds, np.abs(ev.imag), ".", color="#d62728", markersize=3)
    for ax in (re_ax, im_ax):
        ax.axvspan(*band, color=BAND_COLOR, alpha=0.15,
                   label=f"self-stable: {band[0]:.3f} < v < {band[1]:.3f} m/s")
        ax.grid(alpha=0.3)
    re_ax.axhline(0.0, color="k", lw=0.8)
    re_ax.set_ylim(-10, 10)
    re_ax.set_ylabel("Re λ [1/s]")
    im_ax.set_ylabel("|Im λ| [1/s]")
    im_ax.set_xlabel("forward speed v [m/s]")
    re_ax.legend(loc="lower left")
    re_ax.set_title("Lean/steer eigenvalues, upright straight running", fontsize=11)
    return fig


def lean_figure(motions: Mapping[str, Trajectory], fig: Figure | None = None) -> Figure:
    """The lean angle φ against time for each labelled motion."""
    import matplotlib.pyplot as plt

    if fig is None:
        with plt.ioff():
            fig = plt.figure(figsize=(5.6, 3.0), layout="constrained")
    ax = fig.subplots()
    for label, traj in motions.items():
        ax.plot(traj.t, np.degrees(traj["phi"]), label=label)
    ax.axhline(0.0, color="k", lw=0.8)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("lean φ [°]")
    ax.grid(alpha=0.3)
    ax.legend()
    return fig


def lean_disturbance(system: System, speed: float, lean: float = 0.02, t_final: float = 5.0
                     ) -> Trajectory:
    """The nonlinear motion from upright straight running at ``speed`` [m/s] with an initial
    lean [rad] (tolerances loose enough for a notebook, tight enough for a plot)."""
    r_R = system.parameter_values()["r_R"]
    return system.simulate(t_final, initial={"phi": lean, "u_3": speed / r_R}, n_points=201,
                           rtol=1e-8, atol=1e-10)
