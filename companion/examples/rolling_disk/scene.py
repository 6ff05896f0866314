"""Scene of the vertical disk rolling down an inclined plane (beyond the books): the plane is
drawn flat, x pointing down the slope; the spoke shows the spin, the trail the contact path."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.numerics.rotations import quaternion_product
from companion.scene.items import COLORS, Declaration, Grid, Point, axis_quaternion, disk


def scene(trajectory: Trajectory) -> Declaration:
    R = trajectory.params["R"]
    x, y, heading, spin = (trajectory[n] for n in ("x", "y", "theta", "phi"))
    # disk normal along the heading's left (Rz(θ) Rx(−90°)), then the spin about the normal;
    # ω = φ̇ × normal rolls the disk forward, so the spin turns the spoke by −φ seen from it
    attitude = quaternion_product(quaternion_product(axis_quaternion(heading, 2),
                                                     axis_quaternion(-np.pi / 2, 0)),
                                  axis_quaternion(spin, 2))
    centre = np.array([x, y, np.full_like(x, R)])
    contact = np.array([x, y, np.zeros_like(x)])
    items = [*disk(R, centre, attitude, thickness=0.15 * R),
             Point(contact, COLORS["path"], radius=2.0, trail=True, label="contact path"),
             Grid(z=0.0)]
    distance = float(np.sum(np.hypot(np.diff(x), np.diff(y))))
    return Declaration(items, title="Disk rolling on an inclined plane (x down the slope)",
                       camera=(-120.0, 30.0),
                       description=f"The disk rolls {distance:.2f} m in {trajectory.t[-1]:.1f} s, "
                                   f"its heading turning from {np.degrees(heading[0]):.0f}° to "
                                   f"{np.degrees(heading[-1]):.0f}°; it ends "
                                   f"{x[-1] - x[0]:+.2f} m down the slope.")
