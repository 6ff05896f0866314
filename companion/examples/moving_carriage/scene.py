"""Scene of the particle on springs watched from the moving, turning carriage (beyond the
books): the carriage (oscillating along x by A sin νt, turning at Ω) with its axes, and the
particle's inertial path."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.scene.items import COLORS, Arrow, Body, Point, box_mesh, quaternion_about_z
from companion.scene.points import points_declaration


def scene(trajectory: Trajectory):
    p, t = trajectory.params, trajectory.t
    centre = np.array([p["A"] * np.sin(p["nu"] * t), np.zeros_like(t), np.zeros_like(t)])
    turn = p["Omega"] * t
    size = 0.25 * max(float(np.max(np.hypot(trajectory["x"], trajectory["y"]))), 0.1)
    axes = [Arrow(centre, np.array([np.cos(turn + a), np.sin(turn + a), 0 * t]) * 1.5 * size,
                  COLORS[c], label=f"carriage {c}") for c, a in (("x", 0.0), ("y", np.pi / 2))]
    carriage = Body(box_mesh((2 * size, 1.2 * size, 0.1 * size)), centre,
                    quaternion_about_z(turn), color="#d9d9d9")
    declaration = points_declaration(trajectory, "Particle watched from a moving carriage",
                                     [carriage, *axes])
    declaration.items.insert(0, Point(centre, "#999999", radius=2.0))
    declaration.description += (f" The carriage oscillates by ±{p['A']:.2g} m along x and "
                                f"turns at {p['Omega']:.2g} rad/s.")
    return declaration
