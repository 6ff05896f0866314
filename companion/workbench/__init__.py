"""The workbench: define a system in about ten lines and see every method on it.

    from companion.workbench import coordinates, define, presets, workbench
    (x, y, theta), (xd, yd, thd) = coordinates("x y theta")
    skate = define("skate", q=[x, y, theta], speeds=[...], constraints=[...], T=..., ...)
    workbench(skate)                       # or workbench(presets.snakeboard())

:mod:`~companion.workbench.define` turns the short definition into a
:class:`~companion.system.System`; :mod:`~companion.workbench.bench` lays out the methods and
their agreement, the stepper, the explorer, the scene and the cost table;
:mod:`~companion.workbench.presets` holds three systems to start from.
"""

from __future__ import annotations

from companion.workbench import presets
from companion.workbench.bench import Workbench, workbench
from companion.workbench.define import DefinitionError, Draft, coordinates, define

__all__ = ["DefinitionError", "Draft", "Workbench", "coordinates", "define", "presets",
           "workbench"]
