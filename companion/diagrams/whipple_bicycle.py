"""The Whipple bicycle of Meijaard et al. (2007), by the Boltzmann–Hamel equations of §4.3:
its four bodies, the benchmark geometry (w, c, λ) and the lean φ and steer δ."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Circle

from companion.diagrams import _draw as d

TITLE = "Whipple bicycle (Meijaard et al. 2007): bodies, lean, steer"


def _side_view(ax: Axes) -> None:
    w, c, lam, r_r, r_f = 1.02, 0.08, np.pi / 10, 0.3, 0.35
    ax.plot([-0.45, 1.55], [0, 0], color=d.INK, lw=1.5)
    rear, front = np.array([0.0, r_r]), np.array([w, r_f])
    for centre, radius, name in ((rear, r_r, r"rear wheel $R$"),
                                 (front, r_f, r"front wheel $F$")):
        ax.add_patch(Circle(tuple(centre), radius, fill=False, lw=2, color=d.COLORS["body"]))
        ax.text(centre[0], -0.09, name, fontsize=10, ha="center", va="top")
    axis_dir = np.array([-np.sin(lam), np.cos(lam)])  # up the steering axis, tilted back by λ
    foot = np.array([w + c, 0.0])
    head = foot + 1.05 * axis_dir
    ax.plot(*np.array([foot, foot + 1.3 * axis_dir]).T, ls="-.", color=d.MUTED, lw=1)
    ax.plot(*np.array([head, front]).T, color=d.COLORS["omega"], lw=3)
    ax.text(*(head + [0.08, -0.05]), r"front frame $H$", fontsize=10, color=d.COLORS["omega"])
    for a, b in ((rear, head - 0.2 * axis_dir), (rear, np.array([0.35, 0.85])),
                 (np.array([0.35, 0.85]), head - 0.05 * axis_dir)):
        ax.plot(*np.array([a, b]).T, color=d.COLORS["H"], lw=3)
    d.point(ax, (0.3, 1.05), d.COLORS["H"], r"rear frame $B$ with rider", offset=(-0.1, 0.1),
          size=9, fontsize=10, ha="center")
    d.angle(ax, foot, [0, 0.55], 0.42, np.degrees(lam), r"$\lambda$", text_radius=0.56)
    d.dimension(ax, (0.0, 0.0), (w, 0.0), r"$w$", offset=-0.3)
    d.dimension(ax, (w, 0.0), (w + c, 0.0), r"$c$", offset=0.1, size=10)
    d.arrow(ax, (-0.45, 0.8), (-0.12, 0.8), d.INK, r"$x$ (forward)", offset=(0.0, -0.1), size=10)
    d.arrow(ax, (-0.45, 0.8), (-0.45, 1.13), d.INK, r"$z$ (up)", offset=(0.0, 0.08), size=10)


def _lean_view(ax: Axes, origin: np.ndarray) -> None:
    """Seen from behind: the rear frame leans by φ from the vertical."""
    phi = np.radians(20.0)
    ax.plot(*np.array([origin - [0.3, 0], origin + [0.3, 0]]).T, color=d.INK, lw=1.5)
    top = origin + 0.75 * np.array([np.sin(phi), np.cos(phi)])
    ax.plot(*np.array([origin, top]).T, color=d.COLORS["H"], lw=3)
    d.angle(ax, origin, [0, 0.8], 0.45, -np.degrees(phi), r"$\phi$", text_radius=0.58)
    ax.text(origin[0], origin[1] - 0.1, "lean of the rear frame,\nseen from behind",
            fontsize=9.5, ha="center", va="top")


def _steer_view(ax: Axes, origin: np.ndarray) -> None:
    """Seen from above: the front frame turns by δ about the steering axis."""
    delta = np.radians(25.0)
    ax.plot(*np.array([origin - [0.55, 0], origin]).T, color=d.COLORS["H"], lw=3)
    wheel = np.array([np.cos(delta), np.sin(delta)])
    ax.plot(*np.array([origin - 0.15 * wheel, origin + 0.35 * wheel]).T,
            color=d.COLORS["omega"], lw=3)
    d.angle(ax, origin, [0.45, 0], 0.3, np.degrees(delta), r"$\delta$", text_radius=0.43)
    ax.text(origin[0] - 0.1, origin[1] - 0.12, "steer of the front frame,\nseen from above",
            fontsize=9.5, ha="center", va="top")


def draw(ax: Axes) -> None:
    """Side view with the wheel base w, trail c and steer-axis tilt λ; insets for the lean φ
    (rear frame, seen from behind) and the steer δ (front frame, seen from above)."""
    d.setup(ax, TITLE, (-0.5, 2.45), (-0.55, 1.65))
    _side_view(ax)
    _lean_view(ax, np.array([2.05, 0.85]))
    _steer_view(ax, np.array([2.1, 0.1]))
