"""Figures of the benchmark bicycle: eigenvalues against forward speed with the self-stable
band, the lean of nonlinear motions started with a small lean, and an explorer of them."""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp
from matplotlib.figure import Figure

from companion.examples.whipple_bicycle import stability
from companion.numerics import Trajectory
from companion.numerics.c_rhs import compiler
from companion.system import System
from companion.widgets.explorer import Explorer, Preset
from companion.widgets.frames import holding_matplotlib
from companion.widgets.timeseries import TimeSeriesView

BAND_COLOR = "#2ca02c"


def _figure(height: float) -> Figure:
    """A new figure 5.6 in wide that pyplot does not show."""
    import matplotlib.pyplot as plt

    with plt.ioff():
        return plt.figure(figsize=(5.6, height), layout="constrained")


@holding_matplotlib
def stability_figure(system: System, band: tuple[float, float] | None = None) -> Figure:
    """Real and imaginary parts of the four lean/steer eigenvalues against v = 0…10 m/s, the
    band weave speed < v < capsize speed shaded."""
    speeds = np.linspace(0.0, 10.0, 81)
    band = stability.stability_speeds(system) if band is None else band
    ev = np.array([stability.eigenvalues(system, v) for v in speeds])
    fig = _figure(5.0)
    re_ax, im_ax = fig.subplots(2, 1, sharex=True)
    re_ax.plot(speeds, ev.real, ".", color="#1f77b4", markersize=3)
    im_ax.plot(speeds, np.abs(ev.imag), ".", color="#d62728", markersize=3)
    for ax in (re_ax, im_ax):
        ax.axvspan(*band, color=BAND_COLOR, alpha=0.15,
                   label=f"self-stable: {band[0]:.3f} < v < {band[1]:.3f} m/s")
        ax.grid(alpha=0.3)
    re_ax.axhline(0.0, color="k", lw=0.8)
    re_ax.set(ylim=(-10, 10), ylabel="Re λ [1/s]")
    im_ax.set(xlabel="forward speed v [m/s]", ylabel="|Im λ| [1/s]")
    re_ax.legend(loc="lower left")
    re_ax.set_title("Lean/steer eigenvalues, upright straight running", fontsize=11)
    return fig


@holding_matplotlib
def lean_figure(motions: Mapping[str, Trajectory]) -> Figure:
    """The lean angle φ against time for each labelled motion."""
    fig = _figure(3.0)
    ax = fig.subplots()
    for label, traj in motions.items():
        ax.plot(traj.t, np.degrees(traj["phi"]), label=label)
    ax.axhline(0.0, color="k", lw=0.8)
    ax.set(xlabel="t [s]", ylabel="lean φ [°]")
    ax.grid(alpha=0.3)
    ax.legend()
    return fig


@holding_matplotlib
def drift_figure(motions: Mapping[str, Trajectory]) -> Figure:
    """How well each labelled motion keeps its physics: the relative change of the energy
    T + V and the front contact's height (the configuration constraint), against time."""
    fig = _figure(3.6)
    energy_ax, height_ax = fig.subplots(2, 1, sharex=True)
    floor = 1e-16  # a log axis has no zero: exact zeros (t = 0) are drawn on the floor
    highest = {energy_ax: floor, height_ax: floor}
    for label, traj in motions.items():
        energy = traj.invariants["energy"]
        for ax, values, name in (
                (energy_ax, np.abs(energy - energy[0]) / abs(energy[0]), label),
                (height_ax, np.abs(traj.residuals["configuration constraint"]), None)):
            ax.semilogy(traj.t, np.maximum(values, floor), label=name)
            highest[ax] = max(highest[ax], float(values.max()))
    energy_ax.set_ylabel("|ΔE| / E₀")
    height_ax.set(xlabel="t [s]", ylabel="|front contact\nheight| [m]")
    for ax in (energy_ax, height_ax):
        ax.set_ylim(floor, max(1e-6, 10 * highest[ax]))
        ax.grid(alpha=0.3)
    energy_ax.legend(fontsize=9)
    return fig


def lean_disturbance(system: System, speed: float) -> Trajectory:
    """The nonlinear motion over 5 s from upright straight running at ``speed`` [m/s] started
    leaning 0.02 rad (tolerances loose enough for a notebook, tight enough for a plot)."""
    r_R = system.parameter_values()["r_R"]
    return system.simulate(5.0, initial={"phi": 0.02, "u_3": speed / r_R}, n_points=201,
                           rtol=1e-8, atol=1e-10)


def linear_equations_latex(system: System, digits: int = 4) -> str:
    """The linearized lean and steer equations in Meijaard et al.'s form (their §5),
    M q̈ + v C₁ q̇ + (g K₀ + v² K₂) q = f with q = (φ, δ), and the four matrices as our
    linearization of the nonlinear equations gives them (:func:`stability.benchmark_matrices`),
    to ``digits`` significant digits, two matrices a line."""
    def shown(a: np.ndarray) -> str:
        # entries below 1e-9 of the largest are the finite differences' rounding: print 0
        a = np.where(np.abs(a) < 1e-9 * np.abs(a).max(), 0.0, a)
        return sp.latex(sp.Matrix(a).applyfunc(lambda x: sp.Float(x, digits) if x else 0))

    m = stability.benchmark_matrices(system)
    return (r"\begin{aligned}&M\ddot{\mathbf{q}} + v\,C_1\dot{\mathbf{q}} + (g K_0 + v^2 K_2)"
            r"\,\mathbf{q} = \mathbf{f},\quad \mathbf{q} = (\phi, \delta)\\"
            rf"&M = {shown(m['M'])},\quad C_1 = {shown(m['C1'])}\\"
            rf"&K_0 = {shown(m['K0'])},\quad K_2 = {shown(m['K2'])}\end{{aligned}}")


#: Rear-wheel rates u₃ = v / r_R on the slider grid for a few forward speeds v (r_R = 0.3 m).
PRESETS = {
    "self-stable": Preset(
        "4.8 m/s, leaning", {"u_3": 16.0, "phi": 0.05, "delta": 0.0},
        "Inside the self-stable band, started leaning 0.05 rad: does the bicycle right itself, "
        "and which way does the handlebar turn first?"),
    "weave": Preset(
        "4.2 m/s, leaning", {"u_3": 14.0, "phi": 0.05, "delta": 0.0},
        "Just below the weave speed: does the lean die out, grow steadily or oscillate and grow?"),
    "capsize": Preset(
        "9 m/s, leaning", {"u_3": 30.0, "phi": 0.05, "delta": 0.0},
        "Above the capsize speed: how fast does the lean grow compared with the weave?"),
}

#: Forward speeds [m/s] the explorer offers: slower, the weave throws the bicycle over within
#: its 5 s and the nonlinear model integrates a fall (minutes of work); faster, nothing new.
SPEEDS = (4.0, 10.0)
#: Largest start lean and steer [rad]: small disturbances, as in the benchmark's question.
START = 0.1


def explorer(system: System, **kwargs: Any) -> Explorer:
    """Lean φ and steer δ against time and the rear contact's path, for a start from
    straight running at rear-wheel rate u₃ = v / r_R with a small lean and steer (keyword
    arguments go to :class:`Explorer`).  Speeds stay within :data:`SPEEDS`, following r_R."""
    kwargs.setdefault("controls", ["u_3", "phi", "delta"])
    kwargs.setdefault("limits", {
        # whole rad/s at the ends, so the slider's grid holds the defaults and presets
        "u_3": lambda values: (math.ceil(SPEEDS[0] / values["r_R"]),
                               math.floor(SPEEDS[1] / values["r_R"])),
        "phi": lambda values: (-START, START),
        "delta": lambda values: (-START, START)})
    kwargs.setdefault("presets", PRESETS)
    kwargs.setdefault("simulate_kwargs", {"t_final": 5.0, "n_points": 201, "rtol": 1e-8,
                                          "atol": 1e-10})
    made = Explorer(system, TimeSeriesView(["phi", "delta"], ("x", "y")), **kwargs)

    def first_move(_trajectory: Trajectory) -> None:
        made.on_update.remove(first_move)
        build_c_in_background(system, made)

    # from the first move on, not when the notebook runs: nothing is compiled for a reader
    # (or a test) who never moves a slider
    made.on_update.append(first_move)
    return made


def build_c_in_background(system: System, explorer: Explorer) -> threading.Thread | None:
    """Let ``explorer`` simulate with the C right-hand side once it is built.

    A run of the explorer takes 12 ms with it against 107 ms in Python (the slider's whole
    latency was over 200 ms), but compiling it takes about 6 s the first time on a machine
    (then it is cached on disk): it is built in a thread, so the kernel never waits for it,
    and the explorer switches when it is ready.  Without a C compiler, or when the
    compilation fails, the explorer stays with Python.  Returns the thread (None without a
    compiler).
    """
    compiled = system.compiled()
    if compiler() is None or not hasattr(compiled, "c_rhs"):
        return None
    integrator = dataclasses.replace(system.integrator, backend="c")

    def build() -> None:
        try:
            compiled.c_rhs([0.0] * len(compiled.parameters))  # compiles, or loads the cache
        except RuntimeError:
            return
        # one assignment: an update reading the old mapping meanwhile simulates in Python
        explorer.simulate_kwargs = {**explorer.simulate_kwargs, "integrator": integrator}

    thread = threading.Thread(target=build, name="bicycle: C right-hand side", daemon=True)
    thread.start()
    return thread
