"""Greenwood §4.4: the knife-edge dumbbell as one rigid body with its reference point P at the
knife edge, away from the mass centre (the offset ρ_c of (4.139)–(4.140))."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams.knife_edge import axes_and_angle, rod
from companion.examples.knife_edge.scene import PARTICLE_COLORS

TITLE = "The dumbbell as one rigid body about P (Greenwood §4.4)"


def draw(ax: Axes) -> None:
    """Reference point P on the knife edge, mass centre G at mid-rod, ρ_c from P to G, the
    rod frame A's â_x (along the rod) and â_y (the engine's frame names), the velocity v_P and
    the angular velocity φ̇ n̂_z."""
    d.setup(ax, TITLE, (-0.3, 4.3), (-0.45, 2.95))
    p, two, e, n = rod()
    g = 0.5 * (p + two)
    axes_and_angle(ax, two, e)
    ax.plot(*np.array([p, two]).T, color=d.COLORS["link"], lw=3, solid_capstyle="round")
    d.point(ax, p, PARTICLE_COLORS["particle 1"], r"$P$ (knife edge)", offset=(-0.12, -0.12),
          size=12, ha="right", va="top", fontsize=11)
    d.point(ax, two, PARTICLE_COLORS["particle 2"], None, size=12)
    d.point(ax, g, d.INK, r"$G$", offset=(0.05, -0.42), size=7, marker="s")
    d.arrow(ax, p + 0.28 * n, g + 0.28 * n, d.COLORS["H"], r"$\rho_c = \frac{l}{2}\,\hat a_x$",
          at=0.5, offset=(-0.2, 0.3))
    d.arrow(ax, p, p + 0.75 * n, d.INK, r"$\hat a_y$", lw=1.2, offset=(-0.15, 0.08))
    ax.text(*(p + 1.45 * e - 0.2 * n), r"$\hat a_x$", fontsize=12, ha="center")
    d.arrow(ax, p - 0.16 * n, p - 0.16 * n + 0.85 * e, d.COLORS["omega"],
          r"$v_P = u_1\,\hat a_x$", offset=(0.2, -0.3))
    d.arc(ax, g, 0.3, 120, 400, d.COLORS["omega"], points=40)
    ax.text(*(g + 0.42 * n + 0.35 * e), r"$\omega = \dot\phi\,\hat n_z$", color=d.COLORS["omega"],
            fontsize=12, ha="left")
    d.notes(ax, 0.15, 2.8, [
        r"one body of mass $2m$; reference point $P$ fixed in it, off the mass centre $G$",
        r"$I_P = m\,l^2$ about $P$; $\rho_c$ from $P$ to $G$ enters (4.139)–(4.140)",
        r"the knife edge allows no velocity of $P$ along $\hat a_y$",
    ], 0.24, size=10)
