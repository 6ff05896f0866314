"""Loparo & Vakalis Example 2 (§7.8, reconstructed): the double pendulum as two pinned links."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Double pendulum (L&V Example 2, reconstructed)"


def draw(ax: Axes) -> None:
    """Pins O (base) and E (elbow), mass centres G₁, G₂ at a₁, a₂ from the pins, link 1 of
    length l₁, absolute angles θ₁, θ₂ counter-clockwise from the downward vertical; gravity g."""
    d.setup(ax, TITLE, (-1.55, 2.45), (-2.2, 0.55))
    th1, th2, l1, a1, a2, l2 = 35.0, 70.0, 1.1, 0.55, 0.5, 1.0
    o = np.zeros(2)
    d.support(ax, (-0.3, 0.0), (0.3, 0.0))
    e = d.hang(ax, o, th1, l1, r"$\theta_1$", arc_radius=0.38, text_radius=0.55)
    tip = d.hang(ax, e, th2, l2, r"$\theta_2$", arc_radius=0.45, text_radius=0.62)
    g1, g2 = o + a1 / l1 * (e - o), e + a2 / l2 * (tip - e)
    ax.text(-0.1, 0.2, r"pin $O$ (base)", fontsize=11, ha="right")
    ax.text(*(e + [-0.12, 0.05]), r"pin $E$ (elbow)", fontsize=11, ha="right")
    d.point(ax, g1, d.COLORS["H"], r"$G_1$", offset=(0.1, -0.1), size=8, marker="s", va="top")
    d.point(ax, g2, d.COLORS["H"], r"$G_2$", offset=(0.02, -0.14), size=8, marker="s", va="top")
    d.dimension(ax, o, g1, r"$a_1$", offset=0.2)
    d.dimension(ax, o, e, r"$l_1$", offset=0.5)
    d.dimension(ax, e, g2, r"$a_2$", offset=0.2)
    d.arrow(ax, (1.9, -0.2), (1.9, -0.9), d.INK, r"$g$", offset=(0.15, 0.35))
    d.notes(ax, -1.5, -1.75, [
        r"link $i$: mass $m_i$, central inertia $J_i$",
        r"$G_2 = (l_1\sin\theta_1 + a_2\sin\theta_2,\ -l_1\cos\theta_1 - a_2\cos\theta_2)$",
        r"a pin transmits a force, no moment",
    ], 0.17)
