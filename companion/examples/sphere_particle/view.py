"""Explorer of the particle on a sphere (Loparo §7.2–7.3): the path on the sphere with the
reaction force, which stays normal to the surface, and the reaction over time.

With g = 0 the path is a geodesic, a great circle; the readout then reports how far it
leaves its plane through the centre.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from companion.examples.sphere_particle.system import SENT_SIDEWAYS
from companion.numerics import Trajectory
from companion.scene.items import COLORS
from companion.system import System
from companion.widgets.animation import AnimatedView
from companion.widgets.explorer import (
    KEEP_LIMITS_FILL,
    ROOM_TO_GROW,
    Explorer,
    Preset,
    few_ticks,
    rescale,
)
from companion.widgets.frames import holding_matplotlib

#: Tolerances (DOP853, changing chart near the poles) that keep the energy to ~1e-9 while an
#: update stays fast.
SIMULATE = {"n_points": 300, "rtol": 1e-10, "atol": 1e-12}


def fit_3d(ax, lo: np.ndarray, hi: np.ndarray, margin: float = 0.1, *,
           keep: bool = False) -> None:
    """Equal-aspect cube limits enclosing the box [lo, hi].

    With ``keep``, a cube that still holds the box and is not more than
    1/``KEEP_LIMITS_FILL`` times its size stays; a new one leaves room to grow.  A slider
    move (the sphere's radius) then changes the drawing, not the projection, and the frame is
    drawn over the cached background instead of rendered whole."""
    centre, half = (lo + hi) / 2, max(float(np.max(hi - lo)) / 2, 1e-9) * (1 + margin)
    if keep:
        now = np.array([ax.get_xlim(), ax.get_ylim(), ax.get_zlim()])
        holds = bool(np.all(now[:, 0] <= lo) and np.all(hi <= now[:, 1]))
        if holds and half >= KEEP_LIMITS_FILL * float(np.max(now[:, 1] - now[:, 0])) / 2:
            return
        half *= 1 + ROOM_TO_GROW  # the room a refitted 2D axis leaves, on every side
    for set_lim, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre, strict=True):
        set_lim(c - half, c + half)
    ax.set_box_aspect((1, 1, 1))


class SphereView(AnimatedView):
    """Path on the sphere with the (scaled) reaction arrow; normal reaction and |JᵀR| vs t."""

    figsize = (10.0, 4.5)
    n_circles = 6

    def build(self, fig: Figure, trajectory: Trajectory) -> None:
        self.ax3d = fig.add_subplot(1, 2, 1, projection="3d")
        self.ax = fig.add_subplot(1, 2, 2)
        s = np.linspace(0, 2 * np.pi, 73)
        self._circle = np.array([np.cos(s), np.sin(s)])
        self.grid = [self.ax3d.plot([], [], [], color="0.8", lw=0.6)[0]
                     for _ in range(2 * self.n_circles)]
        # the scene's colours: the particle and its path, the reaction
        self.path = self.ax3d.plot([], [], [], color=COLORS["tip"], lw=1.5, label="path")[0]
        self.dot = self.ax3d.plot([], [], [], "o", color=COLORS["tip"])[0]
        self.arrow = self.ax3d.plot([], [], [], color=COLORS["reaction"], lw=2.5,
                                    label="reaction (scaled)")[0]
        self.ax3d.legend(loc="upper left", fontsize="small")
        self.ax3d.set_axis_off()  # the sphere's grid is the frame; tick text is costly
        self.normal = self.ax.plot([], [], color=COLORS["reaction"],
                                   label="normal reaction R·n")[0]
        self.tangential = self.ax.plot([], [], color="C2", label="tangential |JᵀR|")[0]
        self.add_cursor(self.ax)
        self.ax.set(xlabel="t [s]", ylabel="force [N]", title="Reaction of the sphere")
        self.ax.legend(loc="upper right", fontsize="small")
        few_ticks(self.ax)

    def _sphere(self, radius: float) -> None:
        k = self.n_circles
        for i, lat in enumerate(np.linspace(-np.pi / 2, np.pi / 2, k + 2)[1:-1]):
            ring = radius * np.cos(lat) * self._circle
            height = np.full(ring.shape[1], radius * np.sin(lat))
            self.grid[i].set_data_3d(*np.vstack([ring, height]))
        for i, lon in enumerate(np.linspace(0, np.pi, k, endpoint=False)):
            c, z = radius * self._circle
            self.grid[k + i].set_data_3d(*np.array([c * np.cos(lon), c * np.sin(lon), z]))

    def draw_motion(self, trajectory: Trajectory) -> None:
        tr = trajectory
        radius = tr.params["R"]
        self._sphere(radius)
        self.pos = np.array([tr[f"p_{c}"] for c in "xyz"])
        self.reaction = np.array([tr[f"reaction_{i}"] for i in range(3)])
        biggest = float(np.max(np.linalg.norm(self.reaction, axis=0)))
        self.scale = 0.5 * radius / max(biggest, 1e-12)
        self.path.set_data_3d(*self.pos)
        fit_3d(self.ax3d, np.full(3, -radius), np.full(3, radius), keep=True)
        self.normal.set_data(tr.t, tr["reaction normal"])
        self.tangential.set_data(tr.t, tr.residuals["JᵀR"])
        rescale(self.ax)

    def draw_sample(self, trajectory: Trajectory, k: int) -> None:
        """Move the particle and its reaction arrow to sample ``k``."""
        p, r = self.pos[:, k], self.reaction[:, k] * self.scale
        self.dot.set_data_3d(*p[:, None])
        self.arrow.set_data_3d(*np.array([p, p + r]).T)

    def describe(self, trajectory: Trajectory) -> str:
        text = (f"Path of the particle on a sphere of radius {trajectory.params['R']:.3g} m "
                f"over {trajectory.t[-1]:.3g} s with the sphere's reaction force; its "
                f"tangential part |JᵀR| stays below {trajectory.max_residual('JᵀR'):.1e} N.")
        if trajectory.params["g"] == 0:
            off = np.max(np.abs(trajectory["off great-circle plane"]))
            text += f" Without gravity the path stays within {off:.1e} m of a great circle."
        return text


#: One-click starts for a lecture, with what to predict.
PRESETS = {
    "geodesic": Preset(
        "geodesic (g = 0)", {"g": 0.0},
        "Without gravity, which curve does the particle follow on the sphere?"),
    "spherical pendulum": Preset(
        "spherical pendulum", {"\\dot{\\phi}": 0.0, "theta": 2.6},
        "Released at rest near the bottom: does it swing in one plane?"),
    "sent sideways": Preset(
        "sent sideways", SENT_SIDEWAYS,
        "Sent sideways above the equator: what does its height do?"),
}


def explorer(system: System, **kwargs: Any) -> Explorer:
    """The sphere-particle explorer (keyword arguments go to :class:`Explorer`)."""
    # the motion does not depend on m (it only scales the reaction): m under "more parameters"
    essential = ["R", "g", "theta", "phi", r"\dot{\theta}", r"\dot{\phi}"]
    return Explorer(system, SphereView(), **{"essential": essential, "simulate_kwargs": SIMULATE,
                                             "presets": PRESETS, **kwargs})


@cache
def _acceleration_parts(system: System):
    """Lambdified point j(x), ambient acceleration d²j/dt², its σ-tangential projection and
    J ∇̃_ẋ ẋ = J (ẍ + Γ̃(ẋ, ẋ)), on the derived motion (ẍ from (7.2))."""
    import sympy as sp

    from companion.geometry.metric import (
        ambient_acceleration,
        christoffel,
        quadratic,
        tangential_projection,
    )

    d = system.derive("geometric")
    xddot = d.accelerations()
    ambient = ambient_acceleration(system.embedding, system.q, system.u, xddot)
    projector = tangential_projection(system.ambient_metric, system.J)
    covariant = system.J * (xddot + quadratic(christoffel(system.induced_metric, system.q),
                                                system.u))
    args = [*system.q, *system.u, *system.parameter_symbols]
    return sp.lambdify(args, [sp.Matrix(system.embedding), ambient, projector * ambient,
                              covariant], modules="numpy", cse=True)


def acceleration_parts(system: System, trajectory: Trajectory, k: int) -> dict[str, np.ndarray]:
    """At sample ``k``: the point, the ambient acceleration, its tangential part and
    J ∇̃_ẋ ẋ (Def. 7.4: the last two are equal), and the normal part."""
    p = [trajectory.params[s.name] for s in system.parameter_symbols]
    values = _acceleration_parts(system)(*trajectory.states[:, k], *p)
    point, ambient, tangential, covariant = (np.asarray(v, dtype=float).ravel() for v in values)
    return {"point": point, "ambient": ambient, "tangential": tangential,
            "covariant": covariant, "normal": ambient - tangential}


@holding_matplotlib
def covariant_derivative_figure(fig: Figure, system: System, trajectory: Trajectory,
                                k: int, scale: float = 0.08) -> dict[str, np.ndarray]:
    """Def. 7.4 (Fig. 7.1) on the sphere: the ambient acceleration of the particle split into
    its normal part and its tangential part, which is the covariant acceleration ∇̃_ẋ ẋ."""
    parts = acceleration_parts(system, trajectory, k)
    ax = fig.add_subplot(projection="3d")
    radius = trajectory.params["R"]
    u, v = np.mgrid[0 : 2 * np.pi : 25j, 0 : np.pi : 13j]
    ax.plot_wireframe(radius * np.cos(u) * np.sin(v), radius * np.sin(u) * np.sin(v),
                      radius * np.cos(v), color="0.88", lw=0.5)
    path = np.array([trajectory[f"p_{c}"] for c in "xyz"])
    ax.plot(*path, color="0.5", lw=1, label="path")
    start = parts["point"]
    for key, colour, style, label in (
            ("ambient", "k", "-", "ambient acceleration d²j/dt²"),
            ("normal", "0.6", "-", "normal part"),
            ("tangential", "C0", "-", "tangential part"),
            ("covariant", "C3", "--", "J ∇̃_ẋ ẋ = J(ẍ + Γ̃(ẋ, ẋ))")):
        vec = scale * parts[key]
        ax.plot(*np.column_stack([start, start + vec]), color=colour, ls=style, lw=2,
                label=label)
    ax.set_title("Def. 7.4 on the sphere: the covariant acceleration is the tangential part")
    ax.legend(loc="upper left", fontsize="small")
    fit_3d(ax, -radius * np.ones(3), radius * np.ones(3))
    return parts
