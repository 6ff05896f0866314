"""Scene of the benchmark bicycle: both wheels as rings, the rear frame and the fork as rods,
the contact points with their tracks on the ground."""

from __future__ import annotations

from functools import cache

import numpy as np

from companion.examples.whipple_bicycle.system import build, drawing_points
from companion.numerics import Trajectory
from companion.scene.items import COLORS, Declaration, Grid, Point, Rod

#: Segments of each wheel's rim.
RIM_SEGMENTS = 12
#: The drawn points that are positions (the others are unit vectors).
POSITIONS = ("rear contact", "rear centre", "front centre", "front contact", "head",
             "rear body")


@cache
def _geometry():
    system = build()
    return system, drawing_points(system)


def _rim(centre, forward, up, radius, color):
    angle = np.linspace(0, 2 * np.pi, RIM_SEGMENTS + 1)
    ring = [centre + radius * (np.cos(a) * forward + np.sin(a) * up) for a in angle]
    return [Rod(a, b, color=color, width=3.0) for a, b in zip(ring[:-1], ring[1:], strict=True)]


def scene(trajectory: Trajectory) -> Declaration:
    system, points = _geometry()
    q = [trajectory[s.name] for s in system.q]
    p = [trajectory.params[s.name] for s in system.parameter_symbols]
    # Seen from a camera riding along: every point relative to the rear contact point, so
    # that lean and steer, not the distance travelled, fill the view.
    at = points(q, p)
    rider = at["rear contact"] * np.array([[1.0], [1.0], [0.0]])
    at = {name: value - rider if name in POSITIONS else value for name, value in at.items()}
    rR, rF = trajectory.params["r_R"], trajectory.params["r_F"]
    items = [
        Grid(z=0.0),
        _rim(at["rear centre"], at["rear x"], at["rear z"], rR, COLORS["body"]),
        _rim(at["front centre"], at["front x"], at["front z"], rF, COLORS["body"]),
        Rod(at["rear centre"], at["rear body"], color=COLORS["link"]),
        Rod(at["rear body"], at["head"], color=COLORS["link"]),
        Rod(at["head"], at["front centre"], color=COLORS["reaction"]),
        Point(at["rear contact"], COLORS["tip"], label="rear contact"),
        Point(at["front contact"], COLORS["omega"], trail=True, trail_seconds=2.0,
              label="front contact (track relative to the rear one)"),
        Point(at["rear body"], COLORS["H"], radius=6.0, label="rear frame mass centre"),
    ]
    lean = np.degrees(trajectory["phi"])
    speed = trajectory["u_3"][0] * rR
    return Declaration(
        items, view="3d", title="Whipple bicycle (Meijaard et al. 2007)",
        camera=(-120.0, 20.0),
        description=f"Seen riding along with the rear contact point, the bicycle rolls "
                    f"at about {speed:.1f} m/s; its lean goes from {lean[0]:.1f}° to "
                    f"{lean[-1]:.1f}° in {trajectory.t[-1]:.0f} s (largest "
                    f"{np.max(np.abs(lean)):.1f}°) while the front wheel steers.")
