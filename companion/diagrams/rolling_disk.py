"""The companion's vertical disk rolling on an inclined plane (beyond the books; the
``rolling_disk`` example), with its spin φ and its two rolling constraints."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Vertical disk rolling on an incline, seen from above the plane (ours)"


def draw(ax: Axes) -> None:
    """The disk seen from above the plane as its edge-on trace, the heading θ from x, the
    contact point C = (x, y), the rolling velocity R φ̇ along the heading and the multipliers
    λ₁ (along x) and λ₂ (along y) at C: the ground's force on the disk."""
    d.setup(ax, TITLE, (-0.3, 4.3), (-0.7, 3.0))
    e, _ = d.heading(40.0)
    C = np.array([1.6, 0.9])
    d.arrow(ax, (0, 0), (4.1, 0), d.INK, r"$x$, down the slope", offset=(-0.1, -0.22), ha="right")
    d.arrow(ax, (0, 0), (0, 2.4), d.INK, r"$y$", offset=(-0.15, 0.05))
    ax.plot(*np.array([C - 0.9 * e, C + 0.9 * e]).T, color=d.COLORS["body"], lw=8, alpha=0.6,
            solid_capstyle="round")
    ax.text(*(C - 1.05 * e + [0.0, 0.18]), r"disk ($m$, $R$), edge on", fontsize=10,
            color=d.COLORS["body"], ha="right")
    d.point(ax, C, d.INK, r"$C = (x, y)$", offset=(0.12, -0.12), va="top", fontsize=11)
    d.angle(ax, C, [1.0, 0], 0.7, 40.0, r"$\theta$", text_radius=0.9)
    d.arrow(ax, C + 0.9 * e, C + 1.6 * e, d.COLORS["omega"], r"$R\dot\phi$ along the heading",
          offset=(0.1, 0.05), ha="left")
    d.arrow(ax, C, C + [0.75, 0], d.COLORS["reaction"], r"$\lambda_1$", offset=(0.05, 0.15))
    d.arrow(ax, C, C + [0, 0.75], d.COLORS["reaction"], r"$\lambda_2$", offset=(-0.2, 0.05))
    d.arrow(ax, C + [0.9, -0.6], C + [1.6, -0.6], d.INK, r"$m g\sin\alpha$",
          offset=(0.05, -0.2), ha="left")
    d.notes(ax, 0.15, 2.95, [
        r"$u_3 = \dot x - R\dot\phi\cos\theta = 0$,  $u_4 = \dot y - R\dot\phi\sin\theta = 0$",
        r"$\lambda_1, \lambda_2$: the ground's force on the disk at $C$ along $x$ and $y$",
        r"$u_1 = \dot\theta$, $u_2 = \dot\phi$; the plane is inclined at $\alpha$",
    ], 0.24, size=10, colours=(d.INK, d.COLORS["reaction"], d.INK))
