"""Scene of the knife edge seen from above, for any of its motions: the rod, the blade at
particle 1 and both paths.  Played on the parallel-parking manoeuvre, it shows the blade end
up beside where it started, facing the same way (§7.9 reconstructed: ours)."""

from __future__ import annotations

import numpy as np

from companion.examples.knife_edge.scene import dumbbell
from companion.numerics import Trajectory
from companion.scene.items import Declaration


def scene(trajectory: Trajectory) -> Declaration:
    phi = trajectory["phi"]
    items, one, _ = dumbbell(trajectory)
    moved = one[:, -1] - one[:, 0]
    across = np.array([-np.sin(phi[0]), np.cos(phi[0])])
    return Declaration(items, view="2d", aspect=0.7, title="Knife edge: where the blade goes",
                       description=f"Seen from above: particle 1 ends {np.hypot(*moved):.3g} m "
                                   f"from its start, {float(moved @ across):+.3g} m across the "
                                   f"blade's first heading, after turning by "
                                   f"{np.degrees(phi[-1] - phi[0]):.0f}° in all.")
