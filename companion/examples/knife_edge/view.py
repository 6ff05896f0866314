"""Explorer of Greenwood's Example 4.4: the knife-edge dumbbell (:class:`KnifeEdgeView`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.collections import LineCollection

from companion.examples.knife_edge.closed_form import closed_form_error, closed_form_of
from companion.examples.knife_edge.scene import FORCE_COLOR, PARTICLE_COLORS
from companion.examples.knife_edge.system import TIGHT_TURN
from companion.numerics import Trajectory
from companion.system import System
from companion.widgets.animation import AnimatedView
from companion.widgets.explorer import Explorer, Preset, few_ticks, rescale

_N_RODS = 9


def _rods(trajectory: Trajectory, index) -> np.ndarray:
    i = np.atleast_1d(index)
    x1, y1 = trajectory["x"][i], trajectory["y"][i]
    x2, y2 = trajectory["x2"][i], trajectory["y2"][i]
    return np.stack([np.stack([x1, y1], -1), np.stack([x2, y2], -1)], 1)


class KnifeEdgeView(AnimatedView):
    """Four panels: the paths of both particles in the plane with the rod drawn along the way;
    the forward speed v(t) and turning rate φ̇(t), numeric (solid) against the closed form
    (dashed); the knife-edge force λ(t) from the suppressed third Boltzmann–Hamel row; and the
    energy drift with the error against the closed form."""

    figsize = (10.0, 7.0)

    def build(self, fig, trajectory: Trajectory) -> None:
        ax_xy = fig.add_subplot(2, 2, 1)
        ax_v = fig.add_subplot(2, 2, 2)
        ax_l = fig.add_subplot(2, 2, 3)
        ax_e = fig.add_subplot(2, 2, 4)
        self.axes = (ax_xy, ax_v, ax_l, ax_e)
        # empty artists: draw_motion, which runs next, gives them the motion
        (self.path1,) = ax_xy.plot([], [], label="particle 1 (knife)",
                                   color=PARTICLE_COLORS["particle 1"])
        (self.path2,) = ax_xy.plot([], [], label="particle 2", color=PARTICLE_COLORS["particle 2"])
        self.rods = LineCollection([], colors="0.4", linewidths=1.0)
        ax_xy.add_collection(self.rods)
        (self.rod_now,) = ax_xy.plot([], [], "o-", color="k", lw=2, ms=4)
        ax_xy.set(xlabel="x [m]", ylabel="y [m]", aspect="equal",
                  title="Paths of particles 1 (knife) and 2")
        ax_xy.legend(loc="upper left", fontsize="small")
        ax_xy.set_adjustable("datalim")

        (self.v,) = ax_v.plot([], [], color="C0", label="v (numeric)")
        (self.w,) = ax_v.plot([], [], color="C1", label="φ̇ (numeric)")
        (self.v_cf,) = ax_v.plot([], [], "--", color="k", lw=1, label="closed form")
        (self.w_cf,) = ax_v.plot([], [], "--", color="k", lw=1)
        self.add_cursor(ax_v)
        ax_v.set(xlabel="t [s]", ylabel="v [m/s], φ̇ [rad/s]", title="Speed and turning rate")
        ax_v.legend(loc="upper right", fontsize="small")

        (self.lam,) = ax_l.plot([], [], color=FORCE_COLOR)
        ax_l.axhline(0.0, color="0.7", lw=0.8)
        ax_l.set(xlabel="t [s]", ylabel="λ [N]", title="Knife-edge force λ(t)")

        (self.energy,) = ax_e.semilogy([], [], label="energy drift")
        (self.error,) = ax_e.semilogy([], [], label="|numeric − closed form|")
        ax_e.set(xlabel="t [s]", title="Accuracy")
        ax_e.legend(loc="upper left", fontsize="small")
        few_ticks(*self.axes)

    def draw_motion(self, trajectory: Trajectory) -> None:
        t = trajectory.t
        v, w = closed_form_of(trajectory)
        self.path1.set_data(trajectory["x"], trajectory["y"])
        self.path2.set_data(trajectory["x2"], trajectory["y2"])
        rods = np.linspace(0, len(t) - 1, _N_RODS).round().astype(int)
        self.rods.set_segments(_rods(trajectory, rods))
        self.v.set_data(t, trajectory["u_1"])
        self.w.set_data(t, trajectory["u_2"])
        self.v_cf.set_data(t, v)
        self.w_cf.set_data(t, w)
        self.lam.set_data(t, trajectory["lambda"])
        e = trajectory.invariants["energy"]
        # floored: the first sample's zero drawn at the bottom of the log axis
        self.energy.set_data(t, np.maximum(np.abs(e - e[0]) / abs(e[0]), 1e-17))
        error = np.maximum(np.abs(trajectory["u_1"] - v), np.abs(trajectory["u_2"] - w))
        self.error.set_data(t, np.maximum(error, 1e-17))
        for ax in self.axes:
            rescale(ax)

    def draw_sample(self, trajectory: Trajectory, i: int) -> None:
        """Draw the rod at sample ``i``."""
        self.rod_now.set_data(*_rods(trajectory, i)[0].T)

    def describe(self, trajectory: Trajectory) -> str:
        v, w = trajectory["u_1"], trajectory["u_2"]
        return (f"Over {trajectory.t[-1]:.0f} s the forward speed goes from {v[0]:.3g} to "
                f"{v[-1]:.3g} m/s and the turning rate from {w[0]:.3g} to {w[-1]:.3g} rad/s; "
                f"the knife-edge force peaks at {np.max(np.abs(trajectory['lambda'])):.3g} N; "
                f"energy drift {trajectory.drift('energy'):.1e}, largest deviation from the "
                f"closed form {closed_form_error(trajectory):.1e}.")


#: One-click starts for a lecture, with what to predict.
PRESETS = {
    "straight": Preset(
        "no turning", {"u_1": 1.0, "u_2": 0.0},
        "No turning rate: what path, and how large is the knife-edge force?"),
    "tight turn": Preset(
        "tight turn", TIGHT_TURN,
        "Turning fast while moving slowly: where does the knife point go?"),
}


def explorer(system: System, **kwargs: Any) -> Explorer:
    """The explorer of Example 4.4 (keyword arguments go to :class:`Explorer`)."""
    return Explorer(system, KnifeEdgeView(),
                    **{"controls": ["m", "l", "u_1", "u_2"], "presets": PRESETS, **kwargs})
