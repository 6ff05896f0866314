"""The practice notebook's pendulum on a cart (ours; :func:`companion.practice.cart_pendulum`):
a cart of mass M on a level track, a bob of mass m on a massless rod hinged to it."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Circle, Rectangle

from companion.diagrams import _draw as d

TITLE = "Pendulum on a cart (ours)"


def draw(ax: Axes) -> None:
    """The cart at (x, 0) measured from O, u₁ = ẋ along the track, the rod of length L at θ
    (counter-clockwise, u₂ = θ̇) from the downward vertical, the bob m and gravity g."""
    d.setup(ax, TITLE, (-0.4, 4.4), (-2.3, 1.2))
    cart = np.array([1.6, 0.0])
    d.support(ax, (-0.3, 0.55), (4.2, 0.55))
    ax.add_patch(Rectangle(cart - [0.55, 0.0], 1.1, 0.39, facecolor="#cfe0f1",
                           edgecolor=d.COLORS["body"], lw=1.5))
    for dx in (-0.32, 0.32):
        ax.add_patch(Circle(cart + [dx, 0.47], 0.08, facecolor="white", edgecolor=d.INK))
    ax.text(*(cart + [-0.28, 0.2]), r"cart $M$", fontsize=11, ha="center", va="center")
    bob = d.hang(ax, cart, 35.0, 1.6, r"$\theta$", arc_radius=0.45, text_radius=0.62,
               lw=3.0)
    d.point(ax, bob, d.COLORS["tip"], r"bob $m$", offset=(0.16, -0.05), size=14, va="top")
    d.dimension(ax, cart, bob, r"$L$", offset=0.25)
    d.point(ax, (0.0, 0.55), d.INK, r"$O$", offset=(-0.1, 0.05), ha="right", size=5)
    d.dimension(ax, (0.0, 0.55), (cart[0], 0.55), r"$x$", offset=0.3)
    ax.text(4.2, 0.75, "level track", fontsize=10, ha="right", va="bottom")
    d.arrow(ax, cart + [0.55, 0.2], cart + [1.3, 0.2], d.COLORS["omega"], r"$u_1 = \dot x$",
          offset=(0.1, 0.0), ha="left")
    d.arrow(ax, (3.9, -0.5), (3.9, -1.2), d.INK, r"$g$", offset=(0.15, 0.35))
    d.notes(ax, -0.3, -1.7, [
        r"$u_2 = \dot\theta$, counter-clockwise like $\theta$",
        r"cart at $(x, 0)$, bob at $(x + L\sin\theta,\ -L\cos\theta)$",
        r"the rod is massless; no friction on the track",
    ], 0.2, size=10)
