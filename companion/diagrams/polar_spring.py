"""The first system of the Boltzmann–Hamel notebook (ours, not in the books): a particle on a
spring to the origin, in polar quasi-velocities."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Particle in polar quasi-velocities (ours)"


def draw(ax: Axes) -> None:
    """Polar coordinates q = (r, θ), θ counter-clockwise from x; the unit vectors e_r, e_θ at
    the particle; u₁ = ṙ along e_r and u₂ = r θ̇ along e_θ; the force (F_r, F_θ) and the
    spring k pulling the particle towards the origin (F_r = −k r)."""
    d.setup(ax, TITLE, (-0.6, 2.9), (-0.45, 2.75))
    theta, r = np.radians(35.0), 1.75
    e_r, e_t = d.heading(np.degrees(theta))
    p = r * e_r
    d.arrow(ax, (-0.4, 0), (2.7, 0), d.INK, r"$x$", offset=(0.1, -0.12))
    d.arrow(ax, (0, -0.3), (0, 1.75), d.INK, r"$y$", offset=(-0.12, 0.05))
    ax.text(-0.08, -0.08, r"$O$", ha="right", va="top", fontsize=12)
    d.spring(ax, (0, 0), p, coils=8, width=0.06)
    ax.text(*(0.5 * p + 0.16 * e_t), r"$r$,  spring $k$", fontsize=12, ha="right",
            rotation=np.degrees(theta), rotation_mode="anchor")
    d.arc(ax, (0, 0), 0.45, 0.0, np.degrees(theta), d.INK, r"$\theta$", text_radius=0.62)
    d.datum(ax, p, 0.5 * e_r)
    d.arrow(ax, p, p + 0.55 * e_r, d.COLORS["omega"], r"$u_1 = \dot r$ along $e_r$",
          offset=(0.05, -0.2), ha="left")
    d.arrow(ax, p, p + 0.55 * e_t, d.COLORS["omega"], r"$u_2 = r\,\dot{\theta}$ along $e_\theta$",
          offset=(0.08, 0.12), ha="left")
    d.arrow(ax, p, p - 0.45 * e_r, d.COLORS["H"], r"$F_r = -k\,r$", offset=(0.05, -0.2),
          ha="left")
    d.point(ax, p, d.COLORS["tip"], r"$m$", offset=(0.1, -0.05), size=11, va="top")
    d.notes(ax, 0.25, 2.65, [
        r"$q = (r, \theta)$; $\theta$ counter-clockwise from $x$",
        r"force $(F_r, F_\theta)$ along $(e_r, e_\theta)$: $Q_q = (F_r,\ r F_\theta)$",
        r"$T = \frac{1}{2} m (u_1^2 + u_2^2)$; $u_2$ is the rate of no coordinate",
    ], 0.2, size=10)
