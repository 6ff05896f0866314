"""The workbench notebook's skate on an inclined plane (ours, not in the books), from above:
a blade unable to move across itself."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Skate on an inclined plane (ours), from above"


def draw(ax: Axes) -> None:
    """The heel at (x, y), the toe 30 cm ahead along the heading θ; u₁ along the blade, u₂ = θ̇,
    the suppressed sideways speed; the slope's pull m g sin α (gravity's) along x."""
    d.setup(ax, TITLE, (-0.3, 4.3), (-0.6, 3.2))
    e, n = d.heading(35.0)
    heel = np.array([1.2, 0.7])
    toe = heel + 1.3 * e
    d.arrow(ax, (0, 0), (4.1, 0), d.INK, r"$x$, down the slope", offset=(-0.1, -0.22), ha="right")
    d.arrow(ax, (0, 0), (0, 2.3), d.INK, r"$y$", offset=(-0.15, 0.05))
    ax.plot(*np.array([heel, toe]).T, color="#333333", lw=6, alpha=0.6, solid_capstyle="round")
    d.point(ax, heel, d.INK, r"heel $(x, y)$", offset=(0.08, -0.3), va="top", fontsize=11)
    d.point(ax, toe, d.INK, r"toe, $0.3$ m ahead", offset=(0.1, 0.05), fontsize=11)
    d.angle(ax, heel, [0.9, 0], 0.6, 35.0, r"$\theta$", text_radius=0.8)
    middle = (heel + toe) / 2
    d.arrow(ax, toe, toe + 0.7 * e, d.COLORS["omega"], r"$u_1$ along the blade", offset=(0.1, 0.1),
          ha="left")
    d.arrow(ax, middle, middle + 0.55 * n, d.MUTED, ls="--", lw=1.4)
    ax.plot(*(middle + 0.4 * n), marker="x", color=d.COLORS["omega"], ms=10, mew=2)
    ax.text(*(middle + 0.65 * n), r"$u_3 = 0$", fontsize=11, ha="center", va="bottom")
    d.arrow(ax, heel + [1.3, -0.35], heel + [2.1, -0.35], d.INK,
          r"$m g \sin\alpha$", offset=(0.05, -0.2), ha="left")
    d.notes(ax, 0.15, 2.9, [
        r"$u_2 = \dot\theta$; $u_3 = -\dot x\sin\theta + \dot y\cos\theta$ held at zero",
        r"mass $m$ and moment $I$ at the heel; the slope, inclined at $\alpha$, pulls along $x$",
    ], 0.24, size=10)
