"""Loparo & Vakalis Examples 3–4 (§7.10–7.11, reconstructed): a disk on a pivoted link, with
the contact coordinates (θ, s, h, ψ) and the unit vectors e₁, e₂ of the companion's model."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Circle

from companion.diagrams import _draw as d

TITLE = "Disk on a pivoted link (L&V Examples 3–4, reconstructed)"


def draw(ax: Axes) -> None:
    """θ: link angle from the horizontal; s: pivot O to the contact point along the link;
    h: gap between disk and link (0 in contact); r: disk radius; ψ: the disk's absolute
    counter-clockwise angle; e₁ = (cos θ, sin θ), e₂ = (−sin θ, cos θ); c = s e₁ + (r + h) e₂."""
    d.setup(ax, TITLE, (-0.5, 3.15), (-0.75, 2.15))
    th, L, s, r, h, psi = np.radians(22.0), 2.9, 1.65, 0.42, 0.14, np.radians(55.0)
    e1, e2 = d.heading(np.degrees(th))
    o = np.zeros(2)
    contact = o + s * e1
    c = contact + (r + h) * e2
    ax.plot(*np.array([o, L * e1]).T, color=d.COLORS["link"], lw=7, solid_capstyle="round")
    d.pin(ax, o, size=10)
    ax.text(-0.32, -0.02, r"$O$", fontsize=12, ha="right", va="center")
    d.angle(ax, o, (0.9, 0), 0.5, np.degrees(th), r"$\theta$", text_radius=0.66)
    ax.add_patch(Circle(tuple(c), r, fill=False, lw=2, color="#1f77b4"))
    d.point(ax, c, d.INK, r"$c$", offset=(0.02, 0.04), size=4)
    spoke = c + r * np.array([np.cos(psi), np.sin(psi)])
    ax.plot(*np.array([c, spoke]).T, color="#1f77b4", lw=2)
    d.angle(ax, c, [r + 0.25, 0], 0.25, np.degrees(psi), r"$\psi$", text_radius=0.38)
    d.dimension(ax, c, c + r * np.array([np.cos(np.radians(125)), np.sin(np.radians(125))]),
              r"$r$", offset=0.1)
    d.dimension(ax, o, contact, r"$s$", offset=-0.5)
    near = c - r * e2
    ax.plot(*np.array([contact, near]).T, color=d.COLORS["omega"], lw=1.5)
    ax.text(*(contact + 0.5 * h * e2 + 0.12 * e1), r"$h$", fontsize=12, color=d.COLORS["omega"],
            va="center")
    d.point(ax, contact, d.INK, None, size=4)
    base = L * e1 * 0.86 + 0.1 * e2
    d.arrow(ax, base, base + 0.45 * e1, d.INK, r"$e_1$", offset=(0.05, 0.15))
    d.arrow(ax, base, base + 0.45 * e2, d.INK, r"$e_2$", offset=(-0.15, 0.05))
    d.arrow(ax, near - 0.08 * e1, near - 0.08 * e1 + 0.35 * e2, d.COLORS["normal"], None, lw=1.4)
    ax.text(*(near + 0.3 * e2 - 0.1 * e1), r"$N$", color=d.COLORS["normal"], fontsize=11,
            ha="right")
    d.arrow(ax, near, near + 0.4 * e1, d.COLORS["friction"], r"$F$", offset=(0.1, -0.1), lw=1.4)
    d.arc(ax, (0, 0), 0.22, 200, 460, d.COLORS["omega"], points=40)
    ax.text(0.05, 0.3, r"$\tau$", color=d.COLORS["omega"], fontsize=12)
    d.arrow(ax, (2.9, 1.9), (2.9, 1.35), d.INK, r"$g$", offset=(0.13, 0.3))
    d.notes(ax, -0.4, 2.1, [
        r"$e_1 = (\cos\theta, \sin\theta)$, $e_2 = (-\sin\theta, \cos\theta)$, $c ="
        r" s\,e_1 + (r + h)\,e_2$",
        r"$\psi$: the disk's absolute angle, counter-clockwise from the horizontal",
        r"in contact $h = 0$; rolling: $\dot\psi = \dot\theta - \dot s / r$",
    ], 0.17)
