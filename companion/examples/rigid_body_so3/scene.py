"""The scene of Loparo & Vakalis §7.4–7.6: the free body on SO(3), as in Ex. 4.3."""

from __future__ import annotations

from companion.numerics import Trajectory
from companion.scene.items import Declaration
from companion.scene.rigid import free_body


def scene(trajectory: Trajectory) -> Declaration:
    """L&V §7.4–7.6: the free body on SO(3)."""
    return free_body(trajectory, "L&V §7.4–7.6: free rigid body on SO(3)")
