"""The scene of the heavy top on its pivot (beyond the books): a disk on a stem along the body
z axis, the trail of its mass centre and its weight."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.scene.items import (
    COLORS,
    Arrow,
    Body,
    Declaration,
    Grid,
    Point,
    Rod,
    cylinder_mesh,
    rotate,
)
from companion.scene.rigid import euler_quaternions


def scene(trajectory: Trajectory) -> Declaration:
    """The heavy top on its pivot: a disk on a stem along the body z axis, centre trail."""
    p = trajectory.params
    h = p["h"] if p["h"] > 0 else 1.0
    q = euler_quaternions(trajectory["psi"], trajectory["theta"], trajectory["phi"])
    centre = rotate(q, (0.0, 0.0, h))
    radius = 0.6 * h
    items = [Body(cylinder_mesh(radius, 0.25 * h), centre, q),
             Rod((0.0, 0.0, 0.0), centre, color=COLORS["link"], width=5.0),
             Point(centre, COLORS["tip"], radius=3.0, trail=True, label="mass centre"),
             Point((0.0, 0.0, 0.0), "#000000", radius=4.0),
             Arrow(centre, (0.0, 0.0, -0.5 * h), "#555555", label="m g"),
             Grid(z=0.0, extent=(-1.5 * h, 1.5 * h, -1.5 * h, 1.5 * h))]
    axis = rotate(q, (0.0, 0.0, 1.0))
    tilt = np.degrees(np.arccos(np.clip(axis[2], -1, 1)))
    precession = np.degrees(np.ptp(np.unwrap(np.arctan2(axis[1], axis[0]))))
    return Declaration(items, title="Heavy top on a pivot (beyond the books)", camera=(-60, 15),
                       description=f"The top leans between {tilt.min():.1f}° and "
                                   f"{tilt.max():.1f}° from the vertical while its axis precesses "
                                   f"about it by {precession:.0f}° in "
                                   f"{trajectory.t[-1]:.1f} s.")
