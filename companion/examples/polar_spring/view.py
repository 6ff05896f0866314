"""The polar spring's explorer: the generic time-series view, with the path in the plane."""

from __future__ import annotations

from typing import Any

from companion.system import System
from companion.widgets import Explorer, TimeSeriesView


def explorer(system: System, **kwargs: Any) -> Explorer:
    """u₁, u₂ and r against time, and the path in the plane."""
    return Explorer(system, TimeSeriesView(["u_1", "u_2", "r"], path=("x", "y")), **kwargs)
