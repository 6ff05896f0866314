"""The rheonomic example of the Boltzmann–Hamel notebook (ours, not in the books): a particle
on two springs, watched from a carriage that oscillates along x and turns."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from companion.diagrams import _draw as d

TITLE = "Particle on springs, seen from a moving carriage (ours)"


def draw(ax: Axes) -> None:
    """Inertial polar coordinates (r, θ) of the particle; springs k_x, k_y fixed in the
    inertial frame; the carriage at b(t) = A sin νt along x, its axes turned by Ωt; the
    quasi-velocities u₁, u₂: the particle's inertial velocity less the carriage's, along the
    carriage's turning axes."""
    d.setup(ax, TITLE, (-2.0, 2.6), (-1.3, 2.2))
    theta, r = np.radians(40.0), 1.55
    p = r * np.array([np.cos(theta), np.sin(theta)])
    d.arrow(ax, (-1.7, 0), (2.4, 0), d.INK, r"$x$", offset=(0.1, -0.12))
    d.arrow(ax, (0, -1.0), (0, 2.05), d.INK, r"$y$", offset=(-0.12, 0.05))
    ax.text(-0.1, -0.1, r"$O$", ha="right", va="top", fontsize=12)
    ax.plot(*np.array([(0, 0), p]).T, color=d.MUTED, lw=1.2)
    ax.text(*(0.5 * p + [-0.12, 0.1]), r"$r$", fontsize=12, ha="right")
    d.arc(ax, (0, 0), 0.45, 0.0, np.degrees(theta), d.INK, r"$\theta$", text_radius=0.62)
    ax.plot([-1.55, -1.55], [p[1] - 0.2, p[1] + 0.2], color=d.INK, lw=3)
    d.spring(ax, (-1.55, p[1]), p)
    ax.text(-0.9, p[1] + 0.15, r"$k_x$", fontsize=12, ha="center")
    ax.plot([p[0] - 0.2, p[0] + 0.2], [-0.9, -0.9], color=d.INK, lw=3)
    d.spring(ax, (p[0], -0.9), p)
    ax.text(p[0] + 0.15, -0.45, r"$k_y$", fontsize=12)
    d.point(ax, p, d.COLORS["tip"], r"$m$", offset=(0.1, 0.1), size=11)
    b, turn = -1.05, np.radians(25.0)
    corner = np.array([b - 0.45, -0.75])
    ax.add_patch(Rectangle(tuple(corner), 0.9, 0.35, fill=False, lw=1.5, ec=d.COLORS["H"]))
    centre = np.array([b, -0.57])
    d1, d2 = d.heading(np.degrees(turn))
    d.arrow(ax, centre, centre + 0.6 * d1, d.COLORS["H"], r"$e_1'$", offset=(0.1, 0.1))
    d.arrow(ax, centre, centre + 0.55 * d2, d.COLORS["H"], r"$e_2'$", offset=(-0.1, 0.1))
    ax.plot(*np.array([centre, centre + [0.75, 0]]).T, ls="--", color=d.COLORS["H"], lw=1)
    d.arc(ax, centre, 0.45, 0.0, np.degrees(turn), d.COLORS["H"], None)
    ax.text(*(centre + [0.85, 0.05]), r"$\Omega t$", color=d.COLORS["H"], fontsize=12,
            va="center")
    d.arrow(ax, (0, -0.95), (b, -0.95), d.COLORS["H"], lw=1.2)
    ax.text(b / 2, -1.02, r"$b(t) = A\sin\nu t$", fontsize=11, ha="center", va="top",
            color=d.COLORS["H"])
    d.arrow(ax, p, p + 0.6 * d1, d.COLORS["omega"], r"$u_1$", offset=(0.12, -0.05))
    d.arrow(ax, p, p + 0.5 * d2, d.COLORS["omega"], r"$u_2$", offset=(-0.05, 0.12))
    d.notes(ax, 0.25, 2.15, [
        r"$u_1, u_2$: velocity less the carriage's, along $e_1', e_2'$",
        r"$u = \Psi(q, t)\,\dot q + \Psi_t(t)$ with $q = (r, \theta)$: rheonomic",
    ], 0.2)
