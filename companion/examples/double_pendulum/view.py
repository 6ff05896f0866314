"""Explorer of the double pendulum (Loparo & Vakalis §7.8, reconstructed) and of n-link
chains: the animated linkage with its tip trail and the joint-force vectors, the joint forces
and the energy error over time; the divergence of two nearby motions; the normal modes of
small oscillations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from companion.numerics import Trajectory
from companion.scene.items import COLORS
from companion.system import System
from companion.widgets.animation import AnimatedView
from companion.widgets.explorer import Explorer, Preset, few_ticks, rescale


def chain_points(system: System, traj: Trajectory) -> np.ndarray:
    """Pin positions and the free tip, shape (n + 1, 2, N), base first."""
    pins = [traj[f"joint {name}"] for name in system.mechanism.joints]
    n = len(system.q)
    theta = traj[system.q[-1].name]
    length = traj.params[f"l_{n}"]
    tip = pins[-1] + length * np.array([np.sin(theta), -np.cos(theta)])
    return np.array([*pins, tip])


class ChainView(AnimatedView):
    """The linkage of ``system``, a chain built by :func:`~.chain.chain` (with a trail of its
    tip and the joint forces as arrows), the joint-force magnitudes and the relative energy
    error over time; the time cursor moves all of them."""

    figsize = (11.0, 6.0)
    #: Past samples of the tip drawn as its trail.
    trail = 120
    #: Arrow length, as a fraction of the chain's reach, of a typical joint force (the 75th
    #: percentile of the run); the brief peaks are capped at the reach.
    force_length = 0.45

    def __init__(self, system: System):
        self.system = system

    def build(self, fig: Figure, trajectory: Trajectory) -> None:
        grid = fig.add_gridspec(2, 2, width_ratios=[1.1, 1.0])
        self.ax = fig.add_subplot(grid[:, 0])
        self.ax.set(aspect="equal", xticks=[], yticks=[],  # a picture: no tick labels to render
                    title="motion, tip trail and joint forces")
        self.ax.plot([-0.2, 0.2], [0, 0], color="0.3", lw=3)
        (self.trail_line,) = self.ax.plot([], [], color=COLORS["tip"], lw=1, alpha=0.7)
        (self.links,) = self.ax.plot([], [], "o-", color="0.15", lw=3, ms=5)
        (self.centres,) = self.ax.plot([], [], "s", color="tab:blue", ms=8)
        names = list(self.system.mechanism.joints)
        zero = np.zeros(len(names))
        self.arrows = self.ax.quiver(zero, zero, zero, zero, color=COLORS["reaction"],
                                     angles="xy", scale_units="xy", scale=1, width=0.008)
        self.ax_force = fig.add_subplot(grid[0, 1])
        self.ax_force.set_ylabel("|R| [N]")
        self.force_lines = [self.ax_force.plot([], [], label=f"pin {k}")[0] for k in names]
        self.ax_force.legend(loc="upper right", fontsize="small")
        self.ax_energy = fig.add_subplot(grid[1, 1], sharex=self.ax_force)
        self.ax_energy.set(xlabel="t [s]", ylabel="|E − E₀|/|E₀|")
        # decades: a drift is integration noise (about 1e-10), whose sign says nothing, and
        # decades keep the axis still when a slider moves the noise around
        (self.energy_line,) = self.ax_energy.semilogy([], [], color="tab:green")
        for a in (self.ax_force, self.ax_energy):
            self.add_cursor(a)
        self.ax_force.tick_params(labelbottom=False)
        few_ticks(self.ax_force, self.ax_energy)

    def draw_motion(self, traj: Trajectory) -> None:
        self.points = chain_points(self.system, traj)
        self.forces = np.array([traj[f"R {k}"] for k in self.system.mechanism.joints])
        reach = sum(traj.params[f"l_{i + 1}"] for i in range(len(self.system.q)))
        typical = float(np.percentile(np.linalg.norm(self.forces, axis=1), 75)) or 1.0
        self.force_scale = self.force_length * reach / typical
        self.force_cap = reach
        lim = 1.15 * reach
        self.ax.set(xlim=(-lim, lim), ylim=(-lim, lim))
        t = traj.t
        for line, R in zip(self.force_lines, self.forces, strict=True):
            line.set_data(t, np.linalg.norm(R, axis=0))
        E = traj.invariants["energy"]
        # + 1e-17: the first sample's zero drawn at the bottom of a log axis
        self.energy_line.set_data(t, np.abs(E - E[0]) / max(abs(E[0]), 1e-300) + 1e-17)
        for a in (self.ax_force, self.ax_energy):
            rescale(a)

    def draw_sample(self, trajectory: Trajectory, k: int) -> None:
        """Draw the linkage at sample ``k``: links, centres, tip trail, force arrows."""
        pts = self.points[:, :, k]
        self.links.set_data(pts[:, 0], pts[:, 1])
        centres = np.array([trajectory[f"pose {b}"][:2, k] for b in self.system.mechanism.bodies])
        self.centres.set_data(centres[:, 0], centres[:, 1])
        start = max(0, k - self.trail)
        self.trail_line.set_data(self.points[-1, 0, start:k + 1], self.points[-1, 1, start:k + 1])
        R = self.forces[:, :, k] * self.force_scale
        length = np.linalg.norm(R, axis=1, keepdims=True)
        R = R * np.minimum(1.0, self.force_cap / np.maximum(length, 1e-300))
        self.arrows.set_offsets(pts[:-1])
        self.arrows.set_UVC(R[:, 0], R[:, 1])

    def describe(self, trajectory: Trajectory) -> str:
        return (f"Left: the chain at t = {trajectory.t[self.time_index]:.2f} s with the trail "
                "of its tip and arrows for the forces the pins exert (peaks capped). Right: "
                "joint-force magnitudes and the relative energy error against time "
                f"(energy drift {trajectory.drift('energy'):.1e}).")


def nearby_motions(system: System, delta: float = 1e-6, *, angle: str = "theta_2",
                   initial: Mapping[str, float] | None = None, **simulate_kwargs
                   ) -> tuple[Trajectory, Trajectory, np.ndarray]:
    """Two motions whose initial ``angle`` differs by ``delta``, and their separation.

    The separation is the Euclidean distance of the two states (angles and rates) at each
    sample; in the chaotic regime it grows roughly exponentially until it saturates.
    """
    if not (np.isfinite(delta) and delta != 0):
        raise ValueError(f"delta must be a finite non-zero number, got {delta}")
    base = system.initial_values(initial)
    a = system.simulate(initial=base, **simulate_kwargs)
    b = system.simulate(initial={**base, angle: base[angle] + delta}, **simulate_kwargs)
    return a, b, np.linalg.norm(a.states - b.states, axis=0)


@dataclass(frozen=True)
class ToleranceCheck:
    """Two nearby starts, each integrated at a loose and a tight tolerance.

    Energy conservation cannot certify a chaotic trajectory (an integrator error keeps the
    energy and still changes the path); agreement of two tolerances can.  The nearby starts
    are trustworthy up to ``t_agree``, where the two tolerances of either start first differ
    by more than ``accuracy``; the argument holds when they have separated by then.

    Attributes
    ----------
    coarse, fine
        (reference, perturbed) at the loose and at the tight tolerance.
    separation
        |x_reference − x_perturbed| at the tight tolerance, per sample.
    tolerance_gap
        max over both starts of |x_loose − x_tight|, per sample.
    accuracy, separated
        Plotting accuracy of a state, and the separation called "apart" (both in the state
        norm, radians and rad/s).
    """

    coarse: tuple[Trajectory, Trajectory]
    fine: tuple[Trajectory, Trajectory]
    separation: np.ndarray
    tolerance_gap: np.ndarray
    tolerances: tuple[float, float]
    accuracy: float
    separated: float

    @property
    def t(self) -> np.ndarray:
        return self.fine[0].t

    def _first(self, series: np.ndarray, level: float) -> float:
        above = series > level
        return float(self.t[np.argmax(above)]) if above.any() else float(self.t[-1])

    @property
    def t_agree(self) -> float:
        """Until when the two tolerances agree to plotting accuracy."""
        return self._first(self.tolerance_gap, self.accuracy)

    @property
    def t_separated(self) -> float:
        """When the nearby starts are first ``separated`` apart."""
        return self._first(self.separation, self.separated)

    @property
    def certified(self) -> bool:
        """The starts separate while both tolerances still draw the same curves."""
        return self.t_separated < self.t_agree


def tolerance_check(system: System, delta: float = 1e-5, *,
                    tolerances: tuple[float, float] = (1e-10, 1e-13), accuracy: float = 1e-3,
                    separated: float = 0.1, **kwargs: Any) -> ToleranceCheck:
    """:func:`nearby_motions` at two relative tolerances (absolute ones 100× smaller)."""
    runs = [nearby_motions(system, delta, rtol=tol, atol=tol / 100, **kwargs)
            for tol in tolerances]
    (ca, cb, _), (fa, fb, sep) = runs
    gap = np.maximum(np.linalg.norm(ca.states - fa.states, axis=0),
                     np.linalg.norm(cb.states - fb.states, axis=0))
    return ToleranceCheck((ca, cb), (fa, fb), sep, gap, tuple(tolerances), accuracy, separated)


def chaos_figure(fig: Figure, system: System, a: Trajectory, b: Trajectory,
                 separation: np.ndarray, check: ToleranceCheck | None = None) -> None:
    """Tip paths of two nearby motions, and their separation on a log scale.

    With a :class:`ToleranceCheck` the paths are drawn only while the two tolerances agree,
    and the right panel adds the gap between the tolerances beside the separation.
    """
    ax1, ax2 = fig.subplots(1, 2)
    trusted = slice(None) if check is None else a.t <= check.t_agree
    for traj, colour, label in ((a, "tab:blue", "reference"), (b, "tab:orange", "perturbed")):
        tip = chain_points(system, traj)[-1]
        ax1.plot(tip[0][trusted], tip[1][trusted], color=colour, lw=0.8, label=label)
    ax1.set_aspect("equal")
    ax1.set_title("path of the tip" if check is None
                  else f"path of the tip, t ≤ {check.t_agree:.1f} s")
    ax1.legend(fontsize="small")
    ax2.semilogy(a.t, np.maximum(separation, 1e-16), label="separation of the starts")
    if check is not None:
        loose, tight = check.tolerances
        ax2.semilogy(check.t, np.maximum(check.tolerance_gap, 1e-16), color="tab:red",
                     label=f"rtol {loose:.0e} vs {tight:.0e}")
        ax2.axhline(check.accuracy, color="grey", lw=0.8, ls=":")
        ax2.axvline(check.t_agree, color="tab:red", lw=0.8, ls="--")
        ax2.legend(fontsize="small", loc="lower right")
    ax2.set_xlabel("t [s]")
    ax2.set_ylabel("state separation")
    ax2.set_title("two nearby starts drift apart")
    fig.tight_layout()


def modes_figure(fig: Figure, system: System, modes: np.ndarray, w2: np.ndarray, *,
                 amplitude: float = 0.05, periods: float = 3.0) -> list[Trajectory]:
    """Small-angle motions started in each normal mode: the angles keep the mode's ratio."""
    axes = fig.subplots(1, len(w2), sharey=True)
    runs = []
    for k, ax in enumerate(np.atleast_1d(axes)):
        shape = modes[:, k] / np.max(np.abs(modes[:, k])) * np.sign(modes[0, k])
        start = {q.name: amplitude * s for q, s in zip(system.q, shape, strict=True)}
        t_final = periods * 2 * np.pi / np.sqrt(w2[k])
        traj = system.simulate(t_final=t_final, initial=start, n_points=300)
        runs.append(traj)
        for i, q in enumerate(system.q, start=1):
            ax.plot(traj.t, traj[q.name], label=f"θ{i}")
        ax.set_title(f"mode {k + 1}: ω = {np.sqrt(w2[k]):.3f} rad/s")
        ax.set_xlabel("t [s]")
    np.atleast_1d(axes)[0].set_ylabel("angle [rad]")
    np.atleast_1d(axes)[0].legend(fontsize="small")
    fig.tight_layout()
    return runs


#: One-click starts for a lecture, with what to predict.
PRESETS = {
    "small swing": Preset(
        "small swing", {"theta_1": 0.1, "theta_2": 0.1},
        "Small angles: will the motion look like a sum of two steady swings?"),
    "chaotic": Preset(
        "chaotic swing", {"theta_1": 1.8, "theta_2": 2.4},
        "Large angles: can you guess where the tip is after five seconds?"),
}


def explorer(system: System, **kwargs: Any) -> Explorer:
    """The explorer of a registered chain (keyword arguments go to :class:`Explorer`)."""
    if "theta_1" in {p.name for p in system.initial} and len(system.q) == 2:
        kwargs.setdefault("presets", PRESETS)
    kwargs.setdefault("essential", [p.name for p in system.initial])
    return Explorer(system, ChainView(system), **kwargs)
