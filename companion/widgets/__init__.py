"""Widgets shared by every chapter: the derivation :class:`Stepper`, the :class:`Explorer`
(sliders → simulate → one figure updated in place) with its :class:`View` base class, the
:class:`PlayControl` for animations, the :class:`Panel` that keeps a notebook's own
arrangement readable without widgets, and the lecture style switch.

Submodules are imported on first use, so ``import companion.widgets`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "Stepper": "companion.widgets.stepper",
    "Explorer": "companion.widgets.explorer",
    "View": "companion.widgets.explorer",
    "Panel": "companion.widgets.panel",
    "PlayControl": "companion.widgets.play",
    "use_lecture_style": "companion.widgets.style",
    "TimeSeriesView": "companion.widgets.timeseries",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'companion.widgets' has no attribute {name!r}")
