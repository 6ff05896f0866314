"""The workbench's Chaplygin sleigh (ours, not in the books;
:func:`companion.workbench.presets.chaplygin_sleigh`), seen from above."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Chaplygin sleigh (ours), seen from above"


def draw(ax: Axes) -> None:
    """The blade at P = (x, y) along the heading θ, the mass centre C a distance a ahead on its
    line; u₁ along the blade, u₂ = θ̇, the suppressed sideways speed at P and the blade force
    across it."""
    d.setup(ax, TITLE, (-0.3, 4.3), (-0.45, 3.1))
    e, n = d.heading(25.0)
    P = np.array([1.0, 0.8])
    C = P + 1.6 * e
    d.arrow(ax, (0, 0), (4.1, 0), d.INK, r"$x$", offset=(0.12, -0.12))
    d.arrow(ax, (0, 0), (0, 2.4), d.INK, r"$y$", offset=(-0.15, 0.05))
    body = np.array([P - 0.5 * e - 0.45 * n, C + 0.5 * e - 0.45 * n, C + 0.5 * e + 0.45 * n,
                     P - 0.5 * e + 0.45 * n, P - 0.5 * e - 0.45 * n])
    ax.plot(*body.T, color=d.COLORS["body"], lw=1.5)
    ax.plot(*np.array([P - 0.35 * e, P + 0.35 * e]).T, color="#333333", lw=7, alpha=0.45,
            solid_capstyle="butt")
    d.point(ax, P, d.INK, r"$P = (x, y)$, blade", offset=(0.05, -0.62), ha="center", va="top",
          fontsize=11)
    d.point(ax, C, d.COLORS["tip"], r"$C$: mass centre ($m$, $I$)", offset=(0.0, 0.55),
          ha="center", fontsize=11)
    d.dimension(ax, P, C, r"$a$", offset=-0.62)
    d.angle(ax, P, [1.0, 0], 0.7, 25.0, r"$\theta$", text_radius=0.9)
    d.arrow(ax, C, C + 0.8 * e, d.COLORS["omega"], r"$u_1$ along the blade", offset=(0.1, -0.2),
          ha="left")
    d.arc(ax, C, 0.32, 100.0, 250.0, d.COLORS["omega"], r"$u_2 = \dot\theta$", text_radius=0.62)
    d.arrow(ax, P, P + 0.6 * n, d.COLORS["reaction"], r"$\lambda$", offset=(-0.18, 0.05))
    d.notes(ax, 0.15, 3.0, [
        r"$u_3 = -\dot x\sin\theta + \dot y\cos\theta = 0$: no sideways slip at $P$",
        r"$\lambda$: the blade's force on the sleigh at $P$, across the blade",
        r"$C = (x + a\cos\theta,\ y + a\sin\theta)$",
    ], 0.24, size=10, colours=(d.INK, d.COLORS["reaction"], d.INK))
