"""Scene declarations of the worked examples, by example name.

Each entry names a function ``Trajectory -> Declaration``.  (These move into the slices,
``companion/examples/<name>/scene.py``, once the layout change lands.)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from companion.numerics import Trajectory
from companion.scene.items import Declaration

#: example name -> "module:function"
DECLARATIONS: dict[str, str] = {
    "euler_body": "companion.scene.declarations.rigid_body:euler_body",
    "rigid_body_so3": "companion.scene.declarations.rigid_body:rigid_body_so3",
    "thrown_body": "companion.scene.declarations.rigid_body:thrown_body",
    "heavy_top": "companion.scene.declarations.rigid_body:heavy_top",
    "rolling_disk": "companion.scene.declarations.rolling_disk:rolling_disk",
    "sphere_particle": "companion.scene.declarations.sphere_particle:sphere_particle",
    "knife_edge": "companion.scene.declarations.knife_edge:knife_edge",
    "double_pendulum": "companion.scene.declarations.chain:chain",
    "disk_link_rolling": "companion.scene.declarations.disk_link:disk_link",
    "disk_link_friction": "companion.scene.declarations.disk_link:disk_link",
    "moving_carriage": "companion.scene.declarations.moving_carriage:moving_carriage",
}


def declaration(name: str) -> Callable[[Trajectory], Declaration] | None:
    """The scene function of example ``name``, or None when it declares none."""
    target = DECLARATIONS.get(name)
    if target is None:
        return None
    module, function = target.split(":")
    return getattr(importlib.import_module(module), function)
