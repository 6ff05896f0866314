"""The practice notebook's puck (ours; :func:`companion.practice.puck`): a body sliding freely
on ice, pushed by a thrust F along its axis, seen from above."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Circle

from companion.diagrams import _draw as d

TITLE = "Puck with a thrust along its axis (ours), seen from above"


def draw(ax: Axes) -> None:
    """The centre C = (x, y), the heading θ of the axis from x; the quasi-velocities u₁ along the
    axis, u₂ across it and the turning rate u₃ = θ̇; the thrust F along the axis."""
    d.setup(ax, TITLE, (-0.3, 4.3), (-0.45, 3.1))
    e, n = d.heading(30.0)
    C, R = np.array([1.9, 1.0]), 0.5
    d.arrow(ax, (0, 0), (4.1, 0), d.INK, r"$x$", offset=(0.12, -0.12))
    d.arrow(ax, (0, 0), (0, 2.4), d.INK, r"$y$", offset=(-0.15, 0.05))
    ax.add_patch(Circle(tuple(C), R, facecolor="#cfe0f1", edgecolor=d.COLORS["body"], lw=1.5))
    ax.plot(*np.array([C - R * e, C + R * e]).T, color=d.INK, lw=1.0)
    d.point(ax, C, d.INK, r"$C = (x, y)$", offset=(0.0, -0.62), ha="center", va="top",
          fontsize=11)
    d.angle(ax, C, (1.0, 0.0), 0.75, 30.0, r"$\theta$", text_radius=0.95)
    d.arrow(ax, C + R * e, C + (R + 0.75) * e, d.COLORS["omega"], r"$u_1$ along the axis",
          offset=(0.1, 0.05), ha="left")
    d.arrow(ax, C + R * n, C + (R + 0.6) * n, d.COLORS["omega"], r"$u_2$ across the axis",
          offset=(0.0, 0.15), ha="right")
    d.arc(ax, C, 0.25, 110.0, 260.0, d.COLORS["omega"], r"$u_3 = \dot\theta$", text_radius=0.62)
    d.arrow(ax, C - (R + 0.7) * e, C - R * e, d.INK, r"thrust $F$", at=0.0,
          offset=(0.0, -0.12), va="top")
    d.notes(ax, 0.15, 3.0, [
        r"$u_1 = \dot x\cos\theta + \dot y\sin\theta$, $u_2 = -\dot x\sin\theta"
        r" + \dot y\cos\theta$, $u_3 = \dot\theta$",
        r"mass $m$, moment of inertia $I$ about $C$; no constraint, no friction",
    ], 0.24, size=10)
