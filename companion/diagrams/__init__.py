"""Labelled diagrams of the worked examples: one module per example, each with ``draw(ax)``
drawing the system with its coordinates, frames, angles (with their sign) and forces.

The diagrams are the reader's figure of the system, shown without a kernel: ``python -m
tools.diagrams`` (``make figures``) saves them as
``chapters/images/diagram-<name>.png`` for the notebooks to embed.  A module added here (its
name not starting with ``_``) is picked up without editing this file.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from matplotlib.figure import Figure

from companion.widgets.frames import holding_matplotlib

__all__ = ["figure", "module", "names"]

#: Width and height of a saved diagram in inches; at 150 dpi 900 px wide.
FIGSIZE = (6.0, 4.5)


def names() -> list[str]:
    """The examples that have a diagram, in alphabetical order."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__)
                  if not info.name.startswith("_"))


def module(name: str) -> ModuleType:
    """The diagram module of example ``name``."""
    if name not in names():
        raise ValueError(f"no diagram {name!r}; there are: {', '.join(names())}")
    return importlib.import_module(f"{__name__}.{name}")


@holding_matplotlib
def figure(name: str) -> Figure:
    """A new figure (not attached to pyplot) with the diagram of example ``name`` drawn."""
    fig = Figure(figsize=FIGSIZE, layout="constrained")
    module(name).draw(fig.add_subplot())
    return fig
