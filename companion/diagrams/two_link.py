"""The practice notebook's two-link pendulum of point masses (ours;
:func:`companion.practice.two_link`) on massless links."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Two-link pendulum of point masses (ours)"


def draw(ax: Axes) -> None:
    """The fixed pin O, m₁ at the end of the link l₁, m₂ on the link l₂ hinged at m₁, the
    absolute angles θ₁, θ₂ from the downward vertical (counter-clockwise, u₁ = θ̇₁, u₂ = θ̇₂)
    and gravity g."""
    d.setup(ax, TITLE, (-1.55, 2.45), (-2.2, 0.55))
    o = np.zeros(2)
    d.support(ax, (-0.3, 0.0), (0.3, 0.0))
    ax.text(-0.1, 0.2, r"pin $O$", fontsize=11, ha="right")
    one = d.hang(ax, o, 30.0, 1.1, r"$\theta_1$", arc_radius=0.38, text_radius=0.55, lw=3.0)
    two = d.hang(ax, one, 75.0, 1.1, r"$\theta_2$", arc_radius=0.45, text_radius=0.62, lw=3.0)
    d.point(ax, one, d.COLORS["tip"], r"$m_1$", offset=(-0.2, 0.0), size=18, ha="right",
          va="center")
    d.point(ax, two, d.COLORS["tip"], r"$m_2$", offset=(0.0, -0.18), size=18, ha="center",
          va="top")
    d.dimension(ax, o, one, r"$l_1$", offset=0.25)
    d.dimension(ax, one, two, r"$l_2$", offset=0.25)
    d.arrow(ax, (1.9, -0.2), (1.9, -0.9), d.INK, r"$g$", offset=(0.15, 0.35))
    d.notes(ax, -1.5, -1.75, [
        r"$u_1 = \dot\theta_1$, $u_2 = \dot\theta_2$: counter-clockwise, like the angles",
        r"the links are massless; the pins transmit a force, no moment",
    ], 0.17)
