"""The scene of the Boltzmann–Hamel notebook's particle on a spring, seen from above: the
spring from the fixed centre to the particle, and the particle's path."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.scene.items import Declaration, Point, Rod
from companion.scene.points import points_declaration


def scene(trajectory: Trajectory) -> Declaration:
    particle = np.array([trajectory["x"], trajectory["y"]])
    spring = [Rod((0.0, 0.0), particle, color="#8c8c8c", width=2.5),
              Point((0.0, 0.0), "#000000", radius=4.0)]
    declaration = points_declaration(trajectory, "Particle on a spring (Greenwood §4.3)",
                                     spring)
    r = np.hypot(*particle)
    declaration.description += (f" The spring stretches between r = {r.min():.2f} m and "
                                f"{r.max():.2f} m.")
    return declaration
