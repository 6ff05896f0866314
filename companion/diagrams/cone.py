"""The practice notebook's particle on the inside of a cone (ours; :func:`companion.practice.cone`),
in the chart (s, φ) of the pull-back (7.2)."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams._surface import particle, surface

TITLE = "Particle on a cone (ours): the chart (s, φ)"


def draw(ax: Axes) -> None:
    """The vertex O (down), the half-angle α from Z, the generator through the particle with s
    along it from O, φ about Z, gravity m g and the cone's reaction N n̂ along its normal."""
    d.setup(ax, TITLE, (-1.9, 1.9), (-1.1, 2.75))
    alpha, phi, s = np.radians(30.0), 50.0, 1.9
    rho = np.array([0.0, 2.4]) * np.sin(alpha)
    surface(ax, rho, rho / np.tan(alpha), axis_top=2.75)
    p, radial = particle(ax, s * np.sin(alpha), s * np.cos(alpha), phi,
                         (-np.cos(alpha), np.sin(alpha)))
    ax.plot(*d.project(np.array([np.zeros(3), p]).T), color=d.INK, lw=1.2)
    ax.text(*(d.project(0.72 * p) + [-0.05, 0.0]), r"$s$", fontsize=12, ha="right")
    d.arc3(ax, np.zeros(3), [0, 0, 1], radial, 0.55, np.degrees(alpha), d.INK, r"$\alpha$",
         text_at=1.35)
    d.notes(ax, -1.85, -0.5, [
        r"$j(s, \phi) = (s\sin\alpha\cos\phi,\ s\sin\alpha\sin\phi,\ s\cos\alpha)$",
        r"$O$: the vertex; $\alpha$: the half-angle; mass $m$",
        r"no friction: the reaction $N\,\hat n$ is normal to the cone",
    ], 0.17, size=10)
