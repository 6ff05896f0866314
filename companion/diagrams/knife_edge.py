"""Greenwood Example 4.4, Fig. 4.1 redrawn: the knife-edge dumbbell seen from above."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.examples.knife_edge.scene import FORCE_COLOR, PARTICLE_COLORS

TITLE = "Knife-edge dumbbell (Greenwood Ex. 4.4), seen from above"


def rod(phi_deg: float = 28.0, l: float = 2.2):
    """Particle 1, particle 2 and the unit vectors along and across the rod."""
    one = np.array([1.0, 0.75])
    e, n = d.heading(phi_deg)
    return one, one + l * e, e, n


def axes_and_angle(ax: Axes, two, e) -> None:
    """The x and y axes, and φ measured from the x direction to the rod (at particle 2)."""
    d.arrow(ax, (0, 0), (4.1, 0), d.INK, r"$x$", offset=(0.12, -0.12))
    d.arrow(ax, (0, 0), (0, 2.85), d.INK, r"$y$", offset=(-0.15, 0.05))
    d.datum(ax, two, 0.65 * e)
    d.angle(ax, two, [0.75, 0], 0.55, np.degrees(np.arctan2(e[1], e[0])), r"$\phi$",
            text_radius=0.75)


def draw(ax: Axes) -> None:
    """Particle 1 at (x, y) on the blade, particle 2 a rod length l away at the angle φ; the
    speed v = u₁ along the rod, the suppressed sideways speed u₃ = 0, the blade force λ."""
    d.setup(ax, TITLE, (-0.3, 4.3), (-0.45, 2.95))
    one, two, e, n = rod()
    axes_and_angle(ax, two, e)
    for a, b in (([one[0], one[0]], [0, one[1]]), ([0, one[0]], [one[1], one[1]])):
        ax.plot(a, b, ls=":", color=d.MUTED, lw=1)
    ax.text(one[0], -0.2, r"$x$", ha="center", fontsize=11, color=d.MUTED)
    ax.text(-0.16, one[1], r"$y$", va="center", fontsize=11, color=d.MUTED)
    ax.plot(*np.array([one, two]).T, color=d.COLORS["link"], lw=3, solid_capstyle="round")
    blade = np.array([one - 0.32 * e, one + 0.32 * e])
    ax.plot(*blade.T, color="#333333", lw=7, alpha=0.45, solid_capstyle="butt")
    d.point(ax, one, PARTICLE_COLORS["particle 1"], "particle 1", offset=(0.1, -0.42),
          size=12, ha="right", va="top", fontsize=11)
    ax.text(*(one - 0.72 * e - 0.02 * n), "blade", fontsize=10, color="#555555", ha="center",
            va="center", rotation=np.degrees(np.arctan2(e[1], e[0])))
    d.point(ax, two, PARTICLE_COLORS["particle 2"], r"particle 2", offset=(-0.25, 0.18),
          size=12, ha="right", fontsize=11)
    d.dimension(ax, one, two, r"$l$", offset=-0.5)
    d.arrow(ax, one - 0.16 * n, one - 0.16 * n + 0.85 * e, d.COLORS["omega"], r"$v = u_1$",
          offset=(0.45, -0.05))
    d.arrow(ax, one, one + 0.75 * n, d.MUTED, ls="--", lw=1.4)
    ax.plot(*(one + 0.5 * n), marker="x", color=d.COLORS["omega"], ms=10, mew=2)
    ax.text(*(one + 0.82 * n), r"$u_3 = 0$", fontsize=11, ha="center", va="bottom")
    back = one - 0.3 * e
    d.arrow(ax, back, back + 0.55 * n, FORCE_COLOR, r"$\lambda$", offset=(-0.15, 0.0))
    d.notes(ax, 0.15, 2.8, [
        r"$u_3 = -\dot x\sin\phi + \dot y\cos\phi = 0$: no sideways slip at particle 1",
        r"$\lambda$: blade force on particle 1, along $(-\sin\phi, \cos\phi)$",
        r"particle 2 at $(x + l\cos\phi,\ y + l\sin\phi)$",
    ], 0.24, size=10, colours=(d.INK, FORCE_COLOR, d.INK))
