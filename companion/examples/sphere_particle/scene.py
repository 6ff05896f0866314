"""Scene of the particle on a sphere (L&V §7.3, covariant derivative): the sphere, the path
and the sphere's reaction on the particle."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.scene.describe import at
from companion.scene.items import COLORS, Arrow, Body, Declaration, Point, sphere_mesh


def scene(trajectory: Trajectory) -> Declaration:
    R = trajectory.params["R"]
    p = np.array([trajectory[f"p_{c}"] for c in "xyz"])
    reaction = np.array([trajectory[f"reaction_{i}"] for i in range(3)])
    scale = 0.6 * R / max(float(np.max(np.linalg.norm(reaction, axis=0))), 1e-12)
    items = [Body(sphere_mesh(R, 12, 24), color="#c8d4e3", opacity=0.35, edges=False),
             Point(p, COLORS["tip"], radius=5.0, trail=True, label="particle path"),
             Arrow(p, reaction * scale, COLORS["reaction"], label="reaction")]
    normal = trajectory["reaction normal"]
    low = int(np.argmin(p[2]))
    return Declaration(items, title="Particle on a sphere (L&V §7.3)", camera=(-50.0, 20.0),
                       description=f"The particle circles the sphere of radius {R:.2g} m between "
                                   f"heights z = {p[2].min():.2f} m and {p[2].max():.2f} m, "
                                   f"lowest at {at(trajectory.t[low])}; the reaction stays "
                                   f"normal to the sphere, of magnitude between "
                                   f"{np.abs(normal).min():.2f} N and "
                                   f"{np.abs(normal).max():.2f} N.")
