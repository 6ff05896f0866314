"""Figures of the geometric examples, drawn once and updated in place.

Each view follows the explorer's view protocol: ``setup(fig, trajectory)`` creates the
artists once, ``refresh(trajectory)`` moves them with ``set_data``/``set_data_3d`` only, and
``show_frame(k)`` moves the markers to sample k (for a play control).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from companion.numerics import Trajectory

_AXIS_COLORS = ("tab:red", "tab:green", "tab:blue")

#: ``simulate`` keyword arguments for the explorers of each example: tolerances that keep the
#: invariants to ~1e-8 while a slider update stays fast.
EXPLORER_SETTINGS: dict[str, dict] = {
    "sphere_particle": {"n_points": 300, "rtol": 1e-9, "atol": 1e-11},
    "rigid_body_so3": {"n_points": 300, "rtol": 1e-10, "atol": 1e-11},
    "thrown_body": {"n_points": 200, "rtol": 1e-10, "atol": 1e-11},
}


def _set_line3d(line, points: np.ndarray) -> None:
    line.set_data_3d(points[0], points[1], points[2])


def _fit_3d(ax, points: np.ndarray, margin: float = 0.1) -> None:
    """Equal-aspect limits enclosing ``points`` (3, N)."""
    lo, hi = points.min(axis=1), points.max(axis=1)
    centre, half = (lo + hi) / 2, max(float(np.max(hi - lo)) / 2, 1e-9) * (1 + margin)
    for set_lim, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre, strict=True):
        set_lim(c - half, c + half)


class SphereView:
    """A particle on a sphere: path on the sphere with the reaction arrow (3D), and the
    normal reaction with the tangential residual |JᵀR| over time."""

    n_circles = 6
    figsize = (10.0, 4.5)

    def setup(self, fig: Figure, trajectory: Trajectory) -> None:
        self.fig = fig
        self.ax3d = fig.add_subplot(1, 2, 1, projection="3d")
        self.ax = fig.add_subplot(1, 2, 2)
        s = np.linspace(0, 2 * np.pi, 73)
        self._circle = np.array([np.cos(s), np.sin(s)])
        self.grid = [self.ax3d.plot([], [], [], color="0.8", lw=0.6)[0]
                     for _ in range(2 * self.n_circles)]
        self.path = self.ax3d.plot([], [], [], color="tab:blue", lw=1.5, label="path")[0]
        self.dot = self.ax3d.plot([], [], [], "o", color="tab:blue")[0]
        self.arrow = self.ax3d.plot([], [], [], color="tab:red", lw=2,
                                    label="reaction (scaled)")[0]
        self.ax3d.legend(loc="upper left", fontsize="small")
        self.ax3d.set_axis_off()  # the sphere's grid is the frame; tick text costs ~⅓ a redraw
        self.normal = self.ax.plot([], [], label="normal reaction R·n")[0]
        self.tangential = self.ax.plot([], [], label="tangential |JᵀR|")[0]
        self.cursor = self.ax.axvline(0.0, color="0.5", lw=0.8)
        self.ax.set_xlabel("t [s]")
        self.ax.set_ylabel("force [N]")
        self.ax.legend(loc="upper right", fontsize="small")
        self.text = self.ax.text(0.02, 0.02, "", transform=self.ax.transAxes, fontsize="small",
                                 va="bottom")
        self.refresh(trajectory)

    def _sphere(self, radius: float) -> None:
        k = self.n_circles
        for i, lat in enumerate(np.linspace(-np.pi / 2, np.pi / 2, k + 2)[1:-1]):
            ring = radius * np.cos(lat) * self._circle
            _set_line3d(self.grid[i], np.vstack([ring, np.full(ring.shape[1],
                                                                radius * np.sin(lat))]))
        for i, lon in enumerate(np.linspace(0, np.pi, k, endpoint=False)):
            c, z = radius * self._circle
            _set_line3d(self.grid[k + i], np.array([c * np.cos(lon), c * np.sin(lon), z]))

    def refresh(self, trajectory: Trajectory) -> None:
        self.traj = tr = trajectory
        radius = tr.params["R"]
        self._sphere(radius)
        self.pos = np.array([tr[f"p_{c}"] for c in "xyz"])
        self.reaction = np.array([tr[f"reaction_{i}"] for i in range(3)])
        scale = 0.5 * radius / max(float(np.max(np.linalg.norm(self.reaction, axis=0))), 1e-12)
        self.reaction_scale = scale
        _set_line3d(self.path, self.pos)
        _fit_3d(self.ax3d, np.tile([-1.2 * radius, 1.2 * radius], (3, 1)))
        self.normal.set_data(tr.t, tr["reaction normal"])
        self.tangential.set_data(tr.t, tr.residuals["JᵀR"])
        self.ax.relim()
        self.ax.autoscale_view()
        lines = [f"max |JᵀR| = {tr.max_residual('JᵀR'):.1e} N",
                 f"energy drift = {tr.drift('energy'):.1e}"]
        if tr.params.get("g", 1.0) == 0:
            lines.append(f"off great-circle plane ≤ "
                         f"{np.max(np.abs(tr['off great-circle plane'])):.1e} m")
        lines += [e[:90] + "…" for e in tr.events[:1]]
        self.text.set_text("\n".join(lines))
        self.show_frame(len(tr.t) - 1)

    def show_frame(self, k: int) -> None:
        p, r = self.pos[:, k], self.reaction[:, k] * self.reaction_scale
        _set_line3d(self.dot, p[:, None])
        _set_line3d(self.arrow, np.array([p, p + r]).T)
        self.cursor.set_xdata([self.traj.t[k]])


def box_edges(half: np.ndarray) -> np.ndarray:
    """The 12 edges of a box with half-lengths ``half``: shape (12, 3, 2) in body axes."""
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    pairs = [(i, j) for i in range(8) for j in range(i + 1, 8)
             if np.sum(corners[i] != corners[j]) == 1]
    return np.array([np.array([corners[i], corners[j]]).T for i, j in pairs]) * half[:, None]


def box_half_lengths(I: np.ndarray) -> np.ndarray:
    """Half-lengths of the uniform box with principal moments I (unit mass), scaled to a
    largest half-length of 1; moments violating the triangle inequality get a thin side."""
    full_sq = 6.0 * (np.sum(I) - 2 * np.asarray(I, dtype=float))
    half = np.sqrt(np.maximum(full_sq, 1e-3 * np.max(full_sq))) / 2
    return half / np.max(half)


class RigidBodyView:
    """A box with its principal axes moving on SO(3) (and along its path when the system
    translates), the spatial angular momentum M_s, and ω(t) with the drifts."""

    figsize = (10.0, 4.5)

    def setup(self, fig: Figure, trajectory: Trajectory) -> None:
        self.fig = fig
        self.ax3d = fig.add_subplot(1, 2, 1, projection="3d")
        self.ax = fig.add_subplot(1, 2, 2)
        self.edges = [self.ax3d.plot([], [], [], color="0.3", lw=1)[0] for _ in range(12)]
        self.axes = [self.ax3d.plot([], [], [], color=c, lw=2.5, label=f"body {n}")[0]
                     for c, n in zip(_AXIS_COLORS, "xyz", strict=True)]
        self.momentum = self.ax3d.plot([], [], [], color="k", ls="--", lw=1.5,
                                       label="M_s (fixed)")[0]
        self.path = self.ax3d.plot([], [], [], color="tab:purple", lw=1, label="mass centre")[0]
        self.ax3d.legend(loc="upper left", fontsize="small")
        self.ax3d.set_axis_off()
        self.omega = [self.ax.plot([], [], color=c, label=f"ω_{n}")[0]
                      for c, n in zip(_AXIS_COLORS, "xyz", strict=True)]
        self.cursor = self.ax.axvline(0.0, color="0.5", lw=0.8)
        self.ax.set_xlabel("t [s]")
        self.ax.set_ylabel("body angular velocity [rad/s]")
        self.ax.legend(loc="upper right", fontsize="small")
        self.text = self.ax.text(0.02, 0.02, "", transform=self.ax.transAxes, fontsize="small",
                                 va="bottom")
        self.refresh(trajectory)

    def refresh(self, trajectory: Trajectory) -> None:
        self.traj = tr = trajectory
        I = np.array([tr.params[n] for n in ("I_xx", "I_yy", "I_zz")])
        self.half = box_half_lengths(I)
        self.body_edges = box_edges(self.half)
        n = len(tr.t)
        self.centre = (np.array([tr[c] for c in "xyz"]) if "x" in tr.names
                       else np.zeros((3, n)))
        self.path.set_data_3d(*self.centre)
        M = tr.invariants["M_s = R A ω"][:, 0]
        self.M_dir = 1.5 * M / max(float(np.linalg.norm(M)), 1e-12)
        for line, w in zip(self.omega, tr.states[-3:], strict=True):
            line.set_data(tr.t, w)
        self.ax.relim()
        self.ax.autoscale_view()
        self.text.set_text("\n".join([
            f"max ‖RᵀR − I‖ = {tr.max_residual('‖RᵀR − I‖'):.1e}",
            *(f"{k} drift = {tr.drift(k):.1e}" for k in tr.invariants
              if k != "horizontal momentum"),
        ]))
        pad = np.array([[-1.6], [1.6]]).T
        _fit_3d(self.ax3d, np.hstack([self.centre.min(axis=1)[:, None] + pad,
                                      self.centre.max(axis=1)[:, None] + pad]))
        self.show_frame(0)

    def show_frame(self, k: int) -> None:
        R, c = self.traj.rotations[k], self.centre[:, k]
        for line, edge in zip(self.edges, self.body_edges, strict=True):
            _set_line3d(line, R @ edge + c[:, None])
        for i, line in enumerate(self.axes):
            tip = R[:, i] * (self.half[i] + 0.5)
            _set_line3d(line, np.array([c, c + tip]).T)
        _set_line3d(self.momentum, np.array([c, c + self.M_dir]).T)
        self.cursor.set_xdata([self.traj.t[k]])
