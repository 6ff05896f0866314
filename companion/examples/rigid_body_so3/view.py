"""Explorer of Loparo's Example 1 on SO(3): a box with its principal axes turning in space
(and flying, for the thrown body of §7.6), the fixed spatial angular momentum M_s, and the
body angular velocity ω(t) with the intermediate-axis flip.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from companion.examples.sphere_particle.view import fit_3d
from companion.numerics import Trajectory
from companion.scene.items import COLORS, box_mesh
from companion.scene.rigid import INERTIA, OMEGA
from companion.system import System
from companion.widgets.animation import AnimatedView
from companion.widgets.explorer import Explorer, Preset, few_ticks, rescale

_AXIS_COLORS = (COLORS["x"], COLORS["y"], COLORS["z"])  # the scene's body axes
SIMULATE = {"n_points": 300, "rtol": 1e-10, "atol": 1e-11}


def box_edges(half: np.ndarray) -> np.ndarray:
    """The 12 edges of a box with half-lengths ``half``: shape (12, 3, 2), body axes."""
    corners = box_mesh(2 * half).vertices
    return np.array([corners[[i, j]].T for i in range(8) for j in range(i + 1, 8)
                     if np.sum(corners[i] != corners[j]) == 1])


def box_half_lengths(I: np.ndarray) -> np.ndarray:
    """Half-lengths of the uniform box with principal moments I, scaled to a largest
    half-length of 1 (moments breaking the triangle inequality get a thin side)."""
    full_sq = 6.0 * (np.sum(I) - 2 * np.asarray(I, dtype=float))
    half = np.sqrt(np.maximum(full_sq, 1e-3 * np.max(full_sq))) / 2
    return half / np.max(half)


class RigidBodyView(AnimatedView):
    """The box on SO(3) with its principal axes and M_s (3D), and ω(t)."""

    figsize = (10.0, 4.5)

    def build(self, fig: Figure, trajectory: Trajectory) -> None:
        self.ax3d = fig.add_subplot(1, 2, 1, projection="3d")
        self.ax = fig.add_subplot(1, 2, 2)
        self.edges = [self.ax3d.plot([], [], [], color="0.3", lw=1)[0] for _ in range(12)]
        self.body_axes = [self.ax3d.plot([], [], [], color=c, lw=2.5, label=f"body {n}")[0]
                          for c, n in zip(_AXIS_COLORS, "xyz", strict=True)]
        # the scene's colours: angular momentum (its arrow H), the path of the centre
        self.momentum = self.ax3d.plot([], [], [], color=COLORS["H"], ls="--", lw=1.5,
                                       label="M_s (fixed in space)")[0]
        self.path = self.ax3d.plot([], [], [], color=COLORS["path"], lw=1,
                                   label="mass centre")[0]
        self.ax3d.legend(loc="upper left", fontsize="small")
        self.ax3d.set_axis_off()
        self.omega = [self.ax.plot([], [], color=c, label=f"$\\omega_{n[-1]}$")[0]
                      for c, n in zip(_AXIS_COLORS, OMEGA, strict=True)]
        self.add_cursor(self.ax)
        self.ax.set(xlabel="t [s]", ylabel="ω [rad/s]", title="Body angular velocity")
        self.ax.legend(loc="upper right", fontsize="small")
        few_ticks(self.ax)

    def draw_motion(self, trajectory: Trajectory) -> None:
        tr = trajectory
        self.half = box_half_lengths(np.array([tr.params[n] for n in INERTIA]))
        self.body_edges = box_edges(self.half)
        self.centre = (np.array([tr[c] for c in "xyz"]) if "x" in tr.names
                       else np.zeros((3, len(tr.t))))
        self.path.set_data_3d(*self.centre)
        M = tr.invariants["M_s = R A ω"][:, 0]
        self.M_dir = 1.5 * M / max(float(np.linalg.norm(M)), 1e-12)
        for line, name in zip(self.omega, OMEGA, strict=True):
            line.set_data(tr.t, tr[name])
        rescale(self.ax)
        fit_3d(self.ax3d, self.centre.min(axis=1) - 1.6, self.centre.max(axis=1) + 1.6)

    def draw_sample(self, trajectory: Trajectory, k: int) -> None:
        """Turn (and move) the box to sample ``k``."""
        R, c = trajectory.rotations[k], self.centre[:, k]
        for line, edge in zip(self.edges, self.body_edges, strict=True):
            line.set_data_3d(*R @ edge + c[:, None])
        for i, line in enumerate(self.body_axes):
            line.set_data_3d(*np.array([c, c + R[:, i] * (self.half[i] + 0.5)]).T)
        self.momentum.set_data_3d(*np.array([c, c + self.M_dir]).T)

    def describe(self, trajectory: Trajectory) -> str:
        w = trajectory["omega_y"]
        flips = int(np.sum(np.diff(np.sign(w)) != 0))
        return (f"A box turning on SO(3) for {trajectory.t[-1]:.3g} s: its spin about y "
                f"changes sign {flips} times (the intermediate-axis flip); ‖RᵀR − I‖ stays below "
                f"{trajectory.max_residual('‖RᵀR − I‖'):.1e}; the dashed spatial angular "
                "momentum M_s stays fixed.")


#: One-click starts for a lecture, with what to predict.
PRESETS = {
    "tennis racket": Preset(
        "spin about the middle axis", {"omega_x": 0.05, "omega_y": 2.0, "omega_z": 0.05},
        "Spun about the middle axis: does the box keep its attitude, or turn over?"),
    "largest axis": Preset(
        "spin about the largest axis", {"omega_x": 0.05, "omega_y": 0.05, "omega_z": 2.0},
        "Spun about the axis of most inertia: does the box wobble?"),
}


def explorer(system: System, **kwargs: Any) -> Explorer:
    """The explorer of Example 1 on SO(3) (keyword arguments go to :class:`Explorer`)."""
    return Explorer(system, RigidBodyView(), **{"controls": [*INERTIA, *OMEGA],
                                                "presets": PRESETS, "simulate_kwargs": SIMULATE,
                                                **kwargs})


#: The thrown body's (§7.6): a short flight, sampled more coarsely.
THROWN_SIMULATE = {"n_points": 200, "rtol": 1e-10, "atol": 1e-11}
THROWN_PRESETS = {
    "flip in flight": Preset(
        "thrown spinning about the middle axis", {"omega_x": 0.2, "omega_y": 8.0, "omega_z": 0.2},
        "Thrown spinning about its middle axis: how many times does it flip before landing?"),
    "no gravity": Preset(
        "no gravity", {"g": 0.0},
        "Without gravity: what path does the centre take, and does the spin change?"),
}


def thrown_explorer(system: System, **kwargs: Any) -> Explorer:
    """The explorer of the thrown body of §7.6: the same view, the box flying on a parabola
    (keyword arguments go to :class:`Explorer`)."""
    controls = [*INERTIA, *OMEGA, "v_x", "v_z", "g"]
    return Explorer(system, RigidBodyView(), **{"controls": controls,
                                                "simulate_kwargs": THROWN_SIMULATE,
                                                "presets": THROWN_PRESETS, **kwargs})
