"""Scene of the knife edge seen from above, for any of its motions: the rod, the blade at
particle 1 and both paths.  Played on the parallel-parking manoeuvre, it shows the blade end
up beside where it started, facing the same way (§7.9 reconstructed: ours)."""

from __future__ import annotations

import numpy as np

from companion.examples.knife_edge.scene import PARTICLE_COLORS
from companion.numerics import Trajectory
from companion.scene.items import COLORS, Declaration, Grid, Point, Rod, blade


def scene(trajectory: Trajectory) -> Declaration:
    l = trajectory.params["l"]
    x, y, phi = trajectory["x"], trajectory["y"], trajectory["phi"]
    one = np.array([x, y])
    two = np.array([trajectory["x2"], trajectory["y2"]])
    items = [Grid(z=0.0),
             Point(two, PARTICLE_COLORS["particle 2"], radius=6.0, trail=True, label="particle 2"),
             Point(one, PARTICLE_COLORS["particle 1"], radius=6.0, trail=True,
                   label="particle 1 (knife edge)"),
             Rod(one, two, color=COLORS["link"], width=4.0),
             blade(np.vstack([one, np.zeros_like(x)]), phi, 0.35 * l)]
    moved = one[:, -1] - one[:, 0]
    across = np.array([-np.sin(phi[0]), np.cos(phi[0])])
    return Declaration(items, view="2d", aspect=0.7, title="Knife edge: where the blade goes",
                       description=f"Seen from above: particle 1 ends {np.hypot(*moved):.3g} m "
                                   f"from its start, {float(moved @ across):+.3g} m across the "
                                   f"blade's first heading, after turning by "
                                   f"{np.degrees(phi[-1] - phi[0]):.0f}° in all.")
