"""Diagram of the knife edge as a distribution (§7.9 reconstructed, ours): the dumbbell at a
heading φ, the allowed directions of particle 1 (X₁ along the blade; X₂ turns about it), the
forbidden sideways direction, and the bracket [X₁, X₂] of the two allowed fields
(computed by the engine, not drawn by hand)."""

from __future__ import annotations

import numpy as np

from companion.examples.knife_edge.scene import PARTICLE_COLORS
from companion.examples.nonholonomic.steering import bracket_at


def draw(ax, phi: float = 0.5, l: float = 1.0) -> None:
    """Draw the labelled diagram on the matplotlib axes ``ax``."""
    one = np.array([0.0, 0.0])
    along = np.array([np.cos(phi), np.sin(phi)])
    two = one + l * along
    sideways = np.array([-np.sin(phi), np.cos(phi)])
    bracket = bracket_at((0.0, 0.0, phi))[:2]
    ax.plot(*np.c_[one, two], color="0.25", lw=3)
    ax.plot(*one, "o", color=PARTICLE_COLORS["particle 1"], ms=11,
            label="particle 1 (knife edge) at (x, y)")
    ax.plot(*two, "o", color=PARTICLE_COLORS["particle 2"], ms=11, label="particle 2")
    blade = np.c_[one - 0.18 * along, one + 0.18 * along]
    ax.plot(*blade, color="k", lw=6, solid_capstyle="butt")
    arrows = [(0.6 * along, "#2ca02c", r"$X_1$: drive along the blade"),
              (0.6 * sideways, "#d62728", r"forbidden: $\omega^3(\dot q) \neq 0$"),
              (0.6 * bracket, "#9467bd", r"$[X_1, X_2]$: the bracket")]
    for vector, color, label in arrows:
        ax.annotate("", one + vector, one, arrowprops=dict(arrowstyle="-|>", color=color, lw=2,
                                                             ls="--" if "forbidden" in label
                                                             else "-"))
        # X₁ lies along the rod: its label goes below the rod, clear of it and of l
        on_rod = color == "#2ca02c"
        at = one + (1.05 * vector - 0.12 * sideways if on_rod else 1.12 * vector)
        ax.text(*at, label, color=color, ha="left" if on_rod else "center", va="center")
    arc = np.linspace(0.0, phi, 30)
    ax.plot(0.35 * np.cos(arc), 0.35 * np.sin(arc), color="0.4", lw=1)
    ax.text(0.42 * np.cos(phi / 2), 0.42 * np.sin(phi / 2), r"$\varphi$", color="0.2")
    turn = phi + np.linspace(0.25, 0.9, 30)
    ax.plot(*(one[:, None] + 0.8 * l * np.vstack([np.cos(turn), np.sin(turn)])), color="#8c564b")
    ax.text(*(0.88 * l * np.array([np.cos(turn[-1]), np.sin(turn[-1])])),
            r"$X_2$: turn, $\dot\varphi$", color="#8c564b")
    ax.text(*(0.5 * (one + two) + 0.08 * sideways), r"$l$")
    ax.axhline(0.0, color="0.8", lw=0.8, zorder=0)
    ax.set(xlabel="x [m]", ylabel="y [m]", aspect="equal", xlim=(-0.9, 1.3), ylim=(-0.9, 1.2),
           title="The knife edge's distribution D = span(X₁, X₂) and the bracket")
    ax.legend(loc="lower right", fontsize="small")
