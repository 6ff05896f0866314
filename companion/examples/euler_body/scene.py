"""The scenes of Greenwood Ex. 4.3 and of L&V §7.4–7.6 (the same body on SO(3)): the
torque-free body as a shaded box with its principal axes, ω and H; the tennis-racket flip is
the box turning over while H stands still."""

from __future__ import annotations

from companion.numerics import Trajectory
from companion.scene.items import Declaration
from companion.scene.rigid import free_body


def scene(trajectory: Trajectory) -> Declaration:
    """Greenwood Ex. 4.3: the torque-free body."""
    return free_body(trajectory, "Greenwood Ex. 4.3: torque-free rigid body")


def so3_scene(trajectory: Trajectory) -> Declaration:
    """L&V §7.4–7.6: the free body on SO(3)."""
    return free_body(trajectory, "L&V §7.4–7.6: free rigid body on SO(3)")
