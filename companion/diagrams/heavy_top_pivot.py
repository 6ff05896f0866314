"""Greenwood §4.4's heavy top written about its pivot (the companion's ``heavy_top_pivot``):
the reference point P is the fixed pivot O, not the mass centre G a distance h up the body
z-axis; type I Euler angles (ψ about Z, θ about y′, φ about x) and body-axis ω as speeds."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams._body import frame, rotation

TITLE = "Heavy top about its pivot (Greenwood §4.4, Eq. (4.142))"


def draw(ax: Axes) -> None:
    """The space axes X, Y, Z at the pivot O = P, the body axes x, y, z, the mass centre G at
    h along z, gravity m g at G, ω and the damping couple −c ω."""
    d.setup(ax, TITLE, (-1.8, 2.0), (-1.0, 2.3))
    R = rotation(-60.0, 30.0, 0.0)
    frame(ax, np.eye(3), 1.0, (r"$X$", r"$Y$", r"$Z$"))
    frame(ax, R, 1.6, (r"$x$", r"$y$", r"$z$"), (d.COLORS["body"],) * 3, lw=2.2)
    h = 1.1
    G = R @ np.array([0.0, 0.0, h])
    # the top: a cone from the pivot to a disk around G
    rim = np.array([G + 0.45 * (np.cos(a) * R[:, 0] + np.sin(a) * R[:, 1])
                    for a in np.linspace(0, 2 * np.pi, 60)]).T
    ax.plot(*d.project(rim), color=d.COLORS["body"], lw=1.4)
    for a in (0.0, np.pi):
        edge = G + 0.45 * (np.cos(a) * R[:, 0] + np.sin(a) * R[:, 1])
        ax.plot(*d.project(np.array([np.zeros(3), edge]).T), color=d.COLORS["body"], lw=1.0)
    d.point(ax, d.project(np.zeros(3)), d.INK, r"$O = P$ (pivot, $v_P = 0$)", offset=(0.1, -0.25),
          va="top", fontsize=11)
    d.point(ax, d.project(G), d.COLORS["tip"], r"$G$", offset=(0.1, 0.05), fontsize=11)
    ax.text(*d.project(0.5 * G + 0.12 * R[:, 0]), r"$h$", fontsize=11, color=d.MUTED)
    d.arrow3(ax, G, G - np.array([0, 0, 0.7]), d.INK, r"$m g$", offset=(-0.12, 0.0), ha="right")
    d.arrow3(ax, np.zeros(3), np.array([0.0, 0.6, 0.9]), d.COLORS["omega"], r"$\omega$",
             offset=(0.08, 0.05), ha="left")
    d.notes(ax, -1.55, 2.15, [
        r"$\psi$ about $Z$, $\theta$ about $y'$, $\phi$ about $x$ (type I)",
        r"$I_{xx}, I_{yy}, I_{zz}$ about the pivot; $\rho_c = h\,\hat z$",
        r"loads: $m g$ at $G$ and the couple $-c\,\omega$",
    ], 0.2, size=10)
