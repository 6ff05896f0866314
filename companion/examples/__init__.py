"""Registry of worked examples: one :class:`~companion.system.System` per example, by name.

Notebooks, widgets, tests, benchmarks and ``verify`` all get their systems from here, so
there is exactly one definition of each example.  Systems are built on first use.
"""

from __future__ import annotations

import importlib
from functools import cache

from companion.system import System

#: name -> module defining ``build() -> System``
_MODULES: dict[str, str] = {
    "euler_body": "companion.examples.euler_body",
    "knife_edge": "companion.examples.knife_edge",
    "sphere_particle": "companion.examples.sphere_particle",
    "rigid_body_so3": "companion.examples.rigid_body_so3",
    "thrown_body": "companion.examples.thrown_body",
    "double_pendulum": "companion.examples.double_pendulum",
    "disk_link_rolling": "companion.examples.disk_link_rolling",
    "disk_link_friction": "companion.examples.disk_link_friction",
    "moving_carriage": "companion.examples.moving_carriage",
    "rolling_disk": "companion.examples.rolling_disk",
    "heavy_top": "companion.examples.heavy_top",
}


def names() -> list[str]:
    """Names of every registered worked example."""
    return list(_MODULES)


def build(name: str) -> System:
    """A fresh, unshared system of a worked example (benchmarks time derivations on these)."""
    if name not in _MODULES:
        raise ValueError(f"unknown example {name!r}; known: {', '.join(_MODULES)}")
    return importlib.import_module(_MODULES[name]).build()


@cache
def get(name: str) -> System:
    """The system of a worked example (built once, then shared)."""
    return build(name)
