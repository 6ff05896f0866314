"""Explorers of the disk on a pivoted link (Loparo & Vakalis §7.10–7.11, reconstructed).

One figure, drawn once and updated in place: the scene (link, disk with a spoke so that its
turning shows, contact-force arrows N and F), s(t) and θ(t), the contact forces with the
friction cone ±μ_s N shaded, the slip velocity, the energy bookkeeping and the mode timeline.
A play control moves the scene and the time cursors along the motion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.patches import Circle, Patch

from companion.examples.disk_link.controller import HOLDING_GAINS
from companion.examples.disk_link.model import DiskLink
from companion.examples.disk_link.modes import MODES
from companion.numerics import Trajectory
from companion.widgets.animation import AnimatedView
from companion.widgets.explorer import Explorer, Preset, rescale

#: Okabe–Ito colours, told apart under colour-vision deficiencies (tests/test_colours.py).
MODE_COLORS = {"rolling": "#009E73", "slipping forward": "#E69F00",
               "slipping backward": "#D55E00", "separated": "#56B4E9"}
VALIDITY_COLORS = {"rolling model valid": "#009E73", "rolling model violated": "#D55E00"}
#: Length of a force arrow of magnitude m g, as a fraction of the link length.
ARROW_SCALE = 0.25
#: The smallest half-span of the slip and energy panels, as a share of their scales √(gL) and
#: mgL: below it a curve is integration noise (1e-15 m/s of slip while rolling).
NOISE_FLOOR = 1e-3


def timeline(trajectory: Trajectory) -> tuple[list[tuple[float, float, str]], dict[str, str]]:
    """Segments (t_start, t_end, label) of the mode (or, for the rolling model, of its
    validity) along the motion, and the colour of each label."""
    if "rolling valid" in trajectory.series:
        labels = np.where(trajectory["rolling valid"] > 0, "rolling model valid",
                          "rolling model violated")
        colors = VALIDITY_COLORS
    else:
        labels = np.array([MODES[int(i)] for i in trajectory["mode"]])
        colors = MODE_COLORS
    t = trajectory.t
    cuts = np.flatnonzero(labels[1:] != labels[:-1]) + 1
    starts = np.concatenate([[0], cuts])
    ends = np.concatenate([cuts, [len(t) - 1]])
    return [(t[a], t[b], str(labels[a])) for a, b in zip(starts, ends, strict=True)], colors


#: Legends of the short time-series panels go to their right, where they hide no curve and
#: the layout engine makes room for them (inside, they covered the curves and, on a small
#: screen, the next panel's title).
_BESIDE_THE_PANEL = {"loc": "upper left", "bbox_to_anchor": (1.02, 1.0), "borderaxespad": 0.0,
                     "fontsize": "small"}


class DiskLinkView(AnimatedView):
    """Scene, s and θ, contact forces with the friction cone, v_slip, energy, mode timeline."""

    figsize = (11.0, 8.5)
    #: Two columns whose titles, tick labels and legends stay whole from 700 px on (tests at
    #: 760): side by side the figure keeps its 8.5 in height (850 px) where stacked it would
    #: take 1620 px, so a laptop screen (JupyterLab at 1024 px gives it 806 px) shows the
    #: scene and the curves together, and a frame has half the pixels to render and decode.
    stack_below = 760.0

    def animated_samples(self, trajectory: Trajectory) -> int:
        """For the rolling model, up to and including the first sample where the rolling
        condition (N > 0, |F| ≤ μ_s N) fails — beyond it the rolling equations no longer
        describe the disk (the curves still show them, shaded)."""
        if "rolling valid" not in trajectory.series:
            return len(trajectory.t)
        bad = np.flatnonzero(trajectory["rolling valid"] <= 0)
        return int(bad[0]) + 1 if bad.size else len(trajectory.t)

    def build(self, fig, trajectory: Trajectory) -> None:
        gs = fig.add_gridspec(4, 2, height_ratios=[1, 1, 1, 0.32])
        ax_scene = fig.add_subplot(gs[0:2, 0])
        ax_pos = fig.add_subplot(gs[0, 1])
        ax_force = fig.add_subplot(gs[1, 1])
        ax_slip = fig.add_subplot(gs[2, 0])
        ax_energy = fig.add_subplot(gs[2, 1])
        ax_modes = fig.add_subplot(gs[3, :])
        self.time_axes = (ax_pos, ax_force, ax_slip, ax_energy)
        self.ax_scene, self.ax_modes = ax_scene, ax_modes

        # scene
        (self.link,) = ax_scene.plot([], [], color="0.25", lw=4, solid_capstyle="round")
        ax_scene.plot([0], [0], "o", color="k", ms=6)
        (self.path,) = ax_scene.plot([], [], color="0.7", lw=1, label="disk centre")
        self.disk = Circle((0, 0), 0.1, fill=False, lw=2, color="C0")
        ax_scene.add_patch(self.disk)
        (self.spoke,) = ax_scene.plot([], [], color="C0", lw=2)
        self.arrows = ax_scene.quiver([0, 0], [0, 0], [0, 0], [0, 0], color=["C3", "C2"],
                                      angles="xy", scale_units="xy", scale=1, width=0.008)
        self.clock = ax_scene.text(0.02, 0.96, "", transform=ax_scene.transAxes, va="top")
        ax_scene.set(aspect="equal", title="Disk, link, forces N and F",
                     xlabel="x [m]", ylabel="y [m]")

        # time series
        (self.s,) = ax_pos.plot([], [], color="C0", label="s [m]")
        (self.theta,) = ax_pos.plot([], [], color="C1", label="θ [rad]")
        ax_pos.set(title="Disk position s and link angle θ", xlabel="t [s]")
        ax_pos.legend(**_BESIDE_THE_PANEL)

        self.cone = PolyCollection([], facecolor="C2", alpha=0.18, edgecolor="none",
                                   label="±μₛN (friction cone)")
        ax_force.add_collection(self.cone)
        (self.N,) = ax_force.plot([], [], color="C3", label="N")
        (self.F,) = ax_force.plot([], [], "--", color="C2", label="F")  # not by colour alone
        ax_force.axhline(0, color="0.7", lw=0.8)
        ax_force.set(title="Contact forces on the disk", xlabel="t [s]", ylabel="N, F [N]")
        ax_force.legend(**_BESIDE_THE_PANEL)

        (self.vslip,) = ax_slip.plot([], [], color="C4")
        ax_slip.axhline(0, color="0.7", lw=0.8)
        ax_slip.set(title="Slip vₛₗᵢₚ = ṡ − rθ̇ + rψ̇", xlabel="t [s]",
                    ylabel="vₛₗᵢₚ [m/s]")

        (self.energy,) = ax_energy.plot([], [], color="C0", label="E − E(0)")
        (self.balance,) = ax_energy.plot([], [], color="k", ls="--",
                                         label=r"$E - W_\tau - W_f - E(0)$")
        (self.wf,) = ax_energy.plot([], [], color="C3", label=r"$W_f$ (friction, impacts)")
        ax_energy.set(title="Energy bookkeeping", xlabel="t [s]", ylabel="energy [J]")
        ax_energy.legend(**_BESIDE_THE_PANEL)

        self.bars = PolyCollection([], edgecolor="none")
        ax_modes.add_collection(self.bars)
        ax_modes.set(yticks=[], xlabel="t [s]")
        for ax in (*self.time_axes, ax_modes):
            self.add_cursor(ax)
        self._legend_for = None

    # ------------------------------------------------------------------ update
    def draw_motion(self, trajectory: Trajectory) -> None:
        tr, t = trajectory, trajectory.t
        p = tr.params
        self.path.set_data(tr["x_D"], tr["y_D"])
        reach = p["L"] + 2 * p["r"] + 0.1
        self.ax_scene.set(xlim=(-reach, reach), ylim=(-reach, reach))
        for line, name in ((self.s, "s"), (self.theta, "theta"), (self.N, "N"), (self.F, "F"),
                           (self.vslip, "v_slip"), (self.wf, "W_fric")):
            line.set_data(t, tr[name])
        for line, name in ((self.energy, "energy"), (self.balance, "energy balance")):
            line.set_data(t, tr[name] - tr[name][0])
        cone = p["mu_s"] * np.maximum(tr["N"], 0.0)
        self.cone.set_verts([np.column_stack([np.r_[t, t[::-1]], np.r_[cone, -cone[::-1]]])])
        # while the disk rolls, slip and energy bookkeeping are zero up to integration noise:
        # floors on their scales (speed √(gL), energy mgL) keep noise from filling the panels
        speed, energy = np.sqrt(p["g"] * p["L"]), p["m"] * p["g"] * p["L"]
        floors = (0.0, 0.0, NOISE_FLOOR * speed, NOISE_FLOOR * energy)
        for ax, floor in zip(self.time_axes, floors, strict=True):
            rescale(ax, y_floor=floor)
        segments, colors = timeline(tr)
        self.bars.set_verts([[(a, 0), (b, 0), (b, 1), (a, 1)] for a, b, _ in segments])
        self.bars.set_facecolor([colors[label] for _, _, label in segments])
        # the time axes' span (which keeps still over small moves), so the cursors line up
        self.ax_modes.set(xlim=self.time_axes[0].get_xlim(), ylim=(0, 1))
        if self._legend_for is not colors:
            self.ax_modes.legend(handles=[Patch(color=c, label=k) for k, c in colors.items()],
                                 loc="lower left", bbox_to_anchor=(0.0, 1.0),
                                 ncol=min(len(colors), 2), fontsize="small", frameon=False,
                                 title="Mode timeline")
            self._legend_for = colors

    def draw_sample(self, trajectory: Trajectory, i: int) -> None:
        """Draw the link, disk, spoke and force arrows at sample ``i``."""
        tr = trajectory
        p = tr.params
        th, psi = tr["theta"][i], tr["psi"][i]
        e1, e2 = np.array([np.cos(th), np.sin(th)]), np.array([-np.sin(th), np.cos(th)])
        self.link.set_data([0, p["L"] * e1[0]], [0, p["L"] * e1[1]])
        c = np.array([tr["x_D"][i], tr["y_D"][i]])
        self.disk.set_center(c)
        self.disk.set_radius(p["r"])
        spoke = c + p["r"] * np.array([np.cos(psi), np.sin(psi)])
        self.spoke.set_data([c[0], spoke[0]], [c[1], spoke[1]])
        contact = c - p["r"] * e2
        scale = ARROW_SCALE * p["L"] / (p["m"] * p["g"])
        n_vec, f_vec = tr["N"][i] * e2 * scale, tr["F"][i] * e1 * scale
        self.arrows.set_offsets([contact, contact])
        self.arrows.set_UVC([n_vec[0], f_vec[0]], [n_vec[1], f_vec[1]])
        if "rolling valid" in tr.series:
            mode = "rolling" if tr["rolling valid"][i] > 0 else "rolling condition violated: stop"
        else:
            mode = MODES[int(tr["mode"][i])]
        self.clock.set_text(f"t = {tr.t[i]:.3f} s · {mode}")

    def describe(self, trajectory: Trajectory) -> str:
        segments, _ = timeline(trajectory)
        order = " → ".join(dict.fromkeys(label for _, _, label in segments))
        return (f"Over {trajectory.t[-1]:.3g} s the disk moves from s = "
                f"{trajectory['s'][0]:.3g} m to {trajectory['s'][-1]:.3g} m while the link "
                f"turns from θ = {trajectory['theta'][0]:.3g} to "
                f"{trajectory['theta'][-1]:.3g} rad; modes: {order}; "
                f"energy balance drift {trajectory.drift('energy balance'):.1e}.")


_COMMON = ["mu_s", "r", "m", "M", "theta", "s", "s_dot", "tau_0", "K_theta", "D_theta",
           "k_p", "k_d", "s_ref", "c_g"]


def _on_the_link(values: Mapping[str, float]) -> tuple[float, float]:
    return 0.0, values["L"]


#: Ranges that follow other values: positions on the link, Coulomb's μ_k ≤ μ_s.
ROLLING_LIMITS = {"s": _on_the_link, "s_ref": _on_the_link,
                  "mu_s": lambda values: (values["mu_k"], 1.5)}
FRICTION_LIMITS = {"s": _on_the_link, "s_ref": _on_the_link,
                   "mu_k": lambda values: (0.0, values["mu_s"])}

#: One-click starts for a lecture, with what to predict.
ROLLING_PRESETS = {
    "leaving the link": Preset(
        "disk leaving the link", {"theta": 0.6},
        "Tilted to 0.6 rad: when does the rolling model stop being valid, and why?"),
    "held by feedback": Preset(
        "ball and beam: held by feedback",
        {**HOLDING_GAINS, "s_ref": 0.6, "theta": 0.0, "s": 0.2},
        "Ball and beam: the loop tilts the link to bring the disk to s_ref = 0.6 m: does it "
        "settle there?"),
}
FRICTION_PRESETS = {
    "stick-slip": Preset(
        "stick–slip", {"mu_s": 0.3, "mu_k": 0.2, "theta": 0.3, "theta_dot": 0.0},
        "Released at rest on a 0.3 rad tilt: which modes follow each other?", speed=0.25),
    # the stick–slip's start, launched: the scene's picture before play is the same for both
    "leaving the link": Preset(
        "disk leaving the link", {"mu_s": 0.6, "mu_k": 0.3, "theta": 0.3, "theta_dot": -2.0},
        "From the same tilt, the link swings down fast: does the disk stay on it?",
        speed=0.25),
}


def _explorer(system: DiskLink, defaults: dict[str, Any], kwargs: dict[str, Any]) -> Explorer:
    return Explorer(system, DiskLinkView(), **{"simulate_kwargs": {"n_points": 300},
                                               **defaults, **kwargs})


def rolling_explorer(system: DiskLink, **kwargs: Any) -> Explorer:
    """Explorer of the rolling model (Example 3, reconstructed); kwargs go to Explorer."""
    return _explorer(system, {"controls": _COMMON, "limits": ROLLING_LIMITS,
                              "essential": ["theta", "s", "s_dot", "mu_s", "tau_0", "r"],
                              "presets": ROLLING_PRESETS}, kwargs)


def friction_explorer(system: DiskLink, **kwargs: Any) -> Explorer:
    """Explorer of the hybrid friction model (Example 4, reconstructed)."""
    return _explorer(system, {
        "controls": [*_COMMON[:1], "mu_k", *_COMMON[1:], "theta_dot", "psi_dot"],
        "essential": ["theta", "theta_dot", "s", "mu_s", "mu_k", "psi_dot"],
        "limits": FRICTION_LIMITS, "presets": FRICTION_PRESETS}, kwargs)
