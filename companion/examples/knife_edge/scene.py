"""Scene of Greenwood's Example 4.4, the knife-edge dumbbell, seen from above: the rod, the
blade at particle 1, both paths and the constraint force; the view follows the rod's middle
(:data:`REACH` rod lengths around it), so the dumbbell fills its scene on a long path."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.scene.items import COLORS, Arrow, Declaration, Grid, Point, Rod, blade

#: One colour per body, in the scene and in the explorer beside it: particle 1 (on the knife
#: edge) blue, particle 2 orange; the blade force λ in the reaction colour.
PARTICLE_COLORS = {"particle 1": "#0072B2", "particle 2": "#D55E00"}  # Okabe–Ito
FORCE_COLOR = COLORS["reaction"]

#: Rod lengths shown on each side of the rod's middle.
REACH = 1.25


def dumbbell(trajectory: Trajectory) -> tuple[list, np.ndarray, np.ndarray]:
    """The ground, both particles with their paths, the rod and the blade at particle 1; and
    the particles' positions (2 × N each)."""
    x, y, phi = trajectory["x"], trajectory["y"], trajectory["phi"]
    one = np.array([x, y])
    two = np.array([trajectory["x2"], trajectory["y2"]])
    return [Grid(z=0.0),
            Point(two, PARTICLE_COLORS["particle 2"], radius=6.0, trail=True, label="particle 2"),
            Point(one, PARTICLE_COLORS["particle 1"], radius=6.0, trail=True,
                  label="particle 1 (knife edge)"),
            Rod(one, two, color=COLORS["link"], width=4.0),
            blade(np.vstack([one, np.zeros_like(x)]), phi, 0.35 * trajectory.params["l"])
            ], one, two


def scene(trajectory: Trajectory) -> Declaration:
    l, phi, lam = trajectory.params["l"], trajectory["phi"], trajectory["lambda"]
    items, one, two = dumbbell(trajectory)
    across = np.array([-np.sin(phi), np.cos(phi)])
    scale = 0.5 * l / max(float(np.max(np.abs(lam))), 1e-12)
    items.append(Arrow(one, across * lam * scale, FORCE_COLOR, label="λ (blade force)"))
    turned = np.degrees(phi[-1] - phi[0])
    travelled = [float(np.sum(np.linalg.norm(np.diff(p, axis=1), axis=0))) for p in (one, two)]
    return Declaration(items, view="2d", aspect=0.7, title="Greenwood Ex. 4.4: knife-edge dumbbell",
                       follow=((one + two) / 2, REACH * l),
                       description=f"Seen from above, the dumbbell turns by {turned:.0f}° in "
                                   f"{trajectory.t[-1]:.0f} s; particle 1, on the knife edge, "
                                   f"moves only along the rod ({travelled[0]:.2f} m) while "
                                   f"particle 2 swings around it ({travelled[1]:.2f} m).")
