"""Greenwood Example 4.3: a rigid body in type I Euler angles (ψ, θ, φ) and body-axis ω."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams._body import AXIS_COLOURS, box, frame, rotation

TITLE = "Rigid body with body axes and Euler angles (Greenwood Ex. 4.3)"
ANGLES = (60.0, 20.0, 30.0)


def draw(ax: Axes) -> None:
    """Space axes X, Y, Z and principal body axes x, y, z at the mass centre; ψ about Z, θ about
    the new y (y′), φ about the body x; ω = (ω_x, ω_y, ω_z) along the body axes."""
    d.setup(ax, TITLE, (-1.5, 1.75), (-1.5, 1.45))
    psi, theta, phi = ANGLES
    R = rotation(psi, theta, phi)
    box(ax, R, (0.55, 0.35, 0.22))
    frame(ax, np.eye(3), 1.25, (r"$X$", r"$Y$", r"$Z$"))
    frame(ax, R, 1.05, (r"$x$", r"$y$", r"$z$"), AXIS_COLOURS, lw=2.2)
    Z = np.array([0.0, 0.0, 1.0])
    x1, y1 = rotation(psi, 0, 0)[:, :2].T  # x′ after ψ; y′, the axis of θ
    d.arc3(ax, np.zeros(3), [1, 0, 0], [0, 1, 0], 0.55, psi, d.INK, r"$\psi$")
    d.arc3(ax, np.zeros(3), x1, -Z, 0.8, theta, d.INK, r"$\theta$", text_at=1.2)
    ax.plot(*d.project(np.array([np.zeros(3), 0.9 * x1]).T), ls="--", color=d.INK, lw=0.8)
    ax.plot(*d.project(np.array([np.zeros(3), 0.9 * y1]).T), ls="--", color=d.INK, lw=0.8)
    ax.text(*d.project(0.98 * y1), r"$y'$", fontsize=11, ha="left", va="bottom")
    y2, z2 = rotation(psi, theta, 0)[:, 1:].T
    d.arc3(ax, np.zeros(3), y2, z2, 0.42, phi, d.INK, r"$\phi$", text_at=1.5)
    w = R @ np.array([0.45, 0.55, 0.75])
    d.arrow3(ax, np.zeros(3), w, d.COLORS["omega"], r"$\omega$", offset=(0.08, 0.1), lw=2.4)
    d.notes(ax, -1.45, -1.1, [
        r"$q = (\psi, \theta, \phi)$: $\psi$ about $Z$, $\theta$ about $y'$, $\phi$ about"
        r" $x$ (type I)",
        r"$u = (\omega_x, \omega_y, \omega_z)$: $\omega$ along the body axes $x, y, z$",
        r"principal axes at the mass centre; moments $M_x, M_y, M_z$ about them",
    ], 0.13)
