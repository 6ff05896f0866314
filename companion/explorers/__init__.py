"""Ready explorers of the worked examples: a :class:`~companion.widgets.View` per example and
a function building the :class:`~companion.widgets.Explorer` from the registry's system.

:data:`EXPLORERS` lists every ready explorer by name, so benchmarks and tests reach all of
them through one table; modules are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

#: explorer name -> "module:factory"
EXPLORERS: dict[str, str] = {
    "euler_body": "companion.explorers.euler_body:explorer",
    "knife_edge": "companion.explorers.knife_edge:explorer",
    "sphere_particle": "companion.explorers.sphere_particle:explorer",
    "rigid_body_so3": "companion.explorers.rigid_body_so3:explorer",
    "thrown_body": "companion.explorers.thrown_body:explorer",
    "double_pendulum": "companion.explorers.double_pendulum:explorer",
    "disk_link_rolling": "companion.explorers.disk_link:rolling_explorer",
    "disk_link_friction": "companion.explorers.disk_link:friction_explorer",
}


def build(name: str, **kwargs: Any):
    """The ready explorer called ``name`` (keyword arguments go to its factory)."""
    if name not in EXPLORERS:
        raise ValueError(f"unknown explorer {name!r}; known: {', '.join(EXPLORERS)}")
    module, factory = EXPLORERS[name].split(":")
    return getattr(importlib.import_module(module), factory)(**kwargs)
