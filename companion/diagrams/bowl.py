"""The practice notebook's particle in a paraboloidal bowl (ours; :func:`companion.practice.bowl`),
in the chart (r, φ) of the pull-back (7.2)."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams._surface import particle, surface

TITLE = "Particle in a paraboloidal bowl (ours): the chart (r, φ)"


def draw(ax: Axes) -> None:
    """The bowl z = k r² about Z with its lowest point O, the particle at radius r from the axis
    and azimuth φ, gravity m g and the bowl's reaction N n̂ along its normal."""
    d.setup(ax, TITLE, (-1.9, 1.9), (-1.1, 2.8))
    k, r, phi, rim = 0.5, 1.3, 80.0, 1.75
    rho = np.linspace(0.0, rim, 40)
    surface(ax, rho, k * rho**2, axis_top=2.5)
    p, radial = particle(ax, r, k * r**2, phi, (-2 * k * r, 1.0))
    ax.text(*(d.project(p - 0.5 * r * radial) + [0.0, 0.06]), r"$r$", fontsize=12,
            ha="center", va="bottom")
    ax.text(1.3, 1.95, r"$z = k r^2$", fontsize=12, ha="center", va="bottom")
    d.notes(ax, -1.85, -0.5, [
        r"$j(r, \phi) = (r\cos\phi,\ r\sin\phi,\ k r^2)$",
        r"$O$: the lowest point; $k$: the bowl's curvature; mass $m$",
        r"no friction: the reaction $N\,\hat n$ is normal to the bowl",
    ], 0.17, size=10)
