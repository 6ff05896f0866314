"""A particle on a surface of revolution about Z in the oblique view, shared by the pull-back
diagrams (the cone and the bowl): the surface, its axes, the particle's circle of latitude with
the azimuth φ, gravity and the surface's normal reaction."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams._draw import COLORS, INK, MUTED, arc3, arrow3, point, project

#: The azimuth of the page's horizontal: a meridian in this direction is drawn in the page.
_ACROSS = np.radians(30.0 + 90.0)


def surface(ax: Axes, rho: np.ndarray, z: np.ndarray, *, axis_top: float) -> None:
    """The surface swept by the profile (ρ, z), ρ ≥ 0 rising to its rim from O: the rim, its
    outline in the page and two faint meridians, with O and the axes X, Y at it and Z up to
    ``axis_top``."""
    t = np.linspace(0.0, 2 * np.pi, 120)
    ax.plot(*project([rho[-1] * np.cos(t), rho[-1] * np.sin(t), z[-1] + 0 * t]),
            color=COLORS["body"], lw=1.5)
    for azimuth, lw in ((_ACROSS, 1.5), (_ACROSS + np.pi, 1.5), (0.3, 0.7), (-0.9, 0.7)):
        ax.plot(*project([rho * np.cos(azimuth), rho * np.sin(azimuth), z]),
                color=COLORS["body"], lw=lw)
    for axis, name, length, offset in ((0, r"$X$", 0.8, (-0.1, -0.05)),
                                       (1, r"$Y$", 0.8, (0.12, 0.0)),
                                       (2, r"$Z$", axis_top, (0.12, -0.1))):
        arrow3(ax, np.zeros(3), np.eye(3)[axis] * length, MUTED, name, offset=offset, lw=1.2)
    point(ax, project(np.zeros(3)), INK, r"$O$", offset=(0.0, -0.15), ha="center", va="top")


def particle(ax: Axes, radius: float, height: float, phi_deg: float,
             normal: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The particle at ``radius`` from the axis and ``height``, azimuth ``phi_deg`` from X:
    its dashed circle of latitude, the angle φ about Z on it, the particle, m g and the
    reaction N n̂ along ``normal`` (its components along the radial and Z, into the surface's
    inside).  Returns its position and the radial unit vector."""
    phi = np.radians(phi_deg)
    centre = np.array([0.0, 0.0, height])
    radial = np.array([np.cos(phi), np.sin(phi), 0.0])
    p = centre + radius * radial
    t = np.linspace(0.0, 2 * np.pi, 120)
    ax.plot(*project([radius * np.cos(t), radius * np.sin(t), height + 0 * t]), color=MUTED,
            lw=0.9, ls="--")
    for end in (centre + [radius, 0, 0], p):
        ax.plot(*project(np.array([centre, end]).T), color=MUTED, lw=0.9)
    arc3(ax, centre, [1, 0, 0], [0, 1, 0], 0.8 * radius, phi_deg, INK, r"$\phi$", text_at=1.22)
    ax.plot(*project(p), "o", color=COLORS["tip"], ms=11, zorder=5)
    n = normal[0] * radial + normal[1] * np.array([0.0, 0.0, 1.0])
    n /= np.linalg.norm(n)
    arrow3(ax, p, p + 0.6 * n, COLORS["reaction"], r"$N\,\hat n$", offset=(0.08, 0.05),
           ha="left", lw=2.0)
    arrow3(ax, p, p - [0.0, 0.0, 0.6], INK, r"$m g$", offset=(0.12, 0.08), ha="left", lw=2.0)
    return p, radial
