"""Loparo & Vakalis §7.2–7.3 (our worked instance): a particle on a sphere."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Particle on a sphere: chart (θ, φ) and normal reaction (L&V §7.3)"


def draw(ax: Axes) -> None:
    """Sphere of radius R, the particle in the chart x = (θ, φ), θ from the upward vertical,
    gravity m g downward and the sphere's reaction along the outward normal n̂."""
    d.setup(ax, TITLE, (-1.55, 1.75), (-1.45, 1.55))
    R, theta, phi = 1.0, np.radians(50.0), np.radians(55.0)
    t = np.linspace(0, 2 * np.pi, 200)
    ax.plot(*np.array([np.cos(t), np.sin(t)]) * R, color=d.MUTED, lw=1.2)  # outline
    ax.plot(*d.project(R * np.array([np.cos(t), np.sin(t), 0 * t])), color=d.MUTED, lw=0.9,
            ls="--")  # equator
    for axis, name in zip(np.eye(3), (r"$x$", r"$y$", r"$z$"), strict=True):
        d.arrow3(ax, np.zeros(3), axis * 1.45, d.INK, name, offset=d.project(axis) * 0.12, lw=1.2)
    n = np.array([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta)])
    p = R * n
    foot = np.array([np.cos(phi), np.sin(phi), 0.0])
    ax.plot(*d.project(np.array([np.zeros(3), p]).T), color=d.INK, lw=1)
    ax.plot(*d.project(np.array([np.zeros(3), R * foot]).T), color=d.INK, lw=0.8, ls=":")
    ax.text(*(d.project(0.45 * p) + [0.05, -0.03]), r"$R$", fontsize=12, ha="left", va="top")
    d.arc3(ax, np.zeros(3), [0, 0, 1], foot, 0.45, np.degrees(theta), d.INK, r"$\theta$",
         text_at=1.35)
    d.arc3(ax, np.zeros(3), [1, 0, 0], [0, 1, 0], 0.5, np.degrees(phi), d.INK, r"$\phi$",
         text_at=1.3)
    meridian = np.array([np.sin(s) * foot + np.cos(s) * np.array([0, 0, 1])
                         for s in np.linspace(0, np.pi, 60)]).T * R
    ax.plot(*d.project(meridian), color=d.MUTED, lw=0.8)
    ax.plot(*d.project(p), "o", color=d.COLORS["tip"], ms=11, zorder=5)
    d.arrow3(ax, p, p + 0.55 * n, d.COLORS["reaction"], r"$N\,\hat n$ (reaction)",
             offset=(0.05, 0.12), lw=2.2)
    d.arrow3(ax, p, p - np.array([0, 0, 0.6]), d.INK, r"$m g$", offset=(0.2, 0.05), lw=2.0)
    d.notes(ax, -1.5, -1.05, [
        r"chart $x = (\theta, \phi)$: $\theta$ from the upward vertical, $\phi$ about $z$",
        r"the reaction is normal to the sphere: it lies in the null space of $J^{T}$",
        r"singular chart at the poles $\theta = 0, \pi$",
    ], 0.12)
