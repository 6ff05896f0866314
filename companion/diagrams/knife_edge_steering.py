"""The knife edge as a distribution (§7.9 reconstructed, ours), with the bracket [X₁, X₂] of
its two allowed fields computed by the engine, not drawn by hand."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.examples.knife_edge.scene import PARTICLE_COLORS
from companion.examples.nonholonomic.steering import bracket_at

TITLE = "The knife edge's distribution D = span(X₁, X₂) and the bracket"
PHI = 0.5  # the heading φ [rad]


def draw(ax: Axes) -> None:
    """Particle 1 at (x, y) on the blade, particle 2 a rod length l away at the heading φ; at
    particle 1 the allowed X₁ along the blade and X₂'s turn about it, the forbidden sideways
    direction and the bracket [X₁, X₂]."""
    d.setup(ax, TITLE, (-1.0, 1.45), (-0.85, 1.15))
    along, sideways = d.heading(np.degrees(PHI))
    one, two = np.zeros(2), along
    d.arrow(ax, (-0.9, 0), (1.35, 0), d.INK, r"$x$", offset=(0.08, -0.08))
    d.arrow(ax, (0, -0.8), (0, 1.05), d.INK, r"$y$", offset=(-0.1, 0.03))
    ax.plot(*np.array([one, two]).T, color=d.COLORS["link"], lw=3)
    ax.plot(*np.array([one - 0.18 * along, one + 0.18 * along]).T, color="k", lw=6,
            solid_capstyle="butt")
    d.point(ax, one, PARTICLE_COLORS["particle 1"], "particle 1 (knife edge) at $(x, y)$",
            offset=(-0.05, -0.12), size=11, ha="right", va="top", fontsize=10)
    d.point(ax, two, PARTICLE_COLORS["particle 2"], "particle 2", offset=(0.08, 0.05), size=11,
            fontsize=10)
    ax.text(*(0.5 * two + 0.08 * sideways), r"$l$", fontsize=d.FONT)
    d.arrow(ax, one, 0.6 * along, "#2ca02c", r"$X_1$: drive along the blade", at=1.05,
            offset=-0.12 * sideways, ha="left", size=10, lw=2)
    d.arrow(ax, one, 0.6 * sideways, "#d62728", r"forbidden: $\omega^3(\dot q) \neq 0$",
            offset=(0.0, 0.08), ls="--", size=10, lw=2, ha="right")
    d.arrow(ax, one, 0.6 * bracket_at((0.0, 0.0, PHI))[:2], "#9467bd",
            r"$[X_1, X_2]$: the bracket", at=1.2, size=10, lw=2)
    d.arc(ax, one, 0.35, 0.0, np.degrees(PHI), d.INK, r"$\varphi$", text_radius=0.45)
    d.arc(ax, one, 0.8, np.degrees(PHI + 0.25), np.degrees(PHI + 0.9), "#8c564b",
          r"$X_2$: turn, $\dot\varphi$", text_radius=0.95)
