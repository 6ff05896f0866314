"""Advanced Dynamics Companion.

An interactive companion to Greenwood, *Advanced Dynamics* §4.3–4.4, and Loparo & Vakalis,
"The Dynamics of Systems of Interacting Rigid Bodies".  Every worked example is *derived*
here with sympy from its definition (see :mod:`companion.examples`), simulated with scipy and
shown with ipywidgets/ipympl (see :mod:`companion.widgets`).

Importing the package is kept light: heavy modules are imported by the modules that need them,
and the public API below is imported on first use (module ``__getattr__``)::

    from companion import System, Parameter
    system = System(name="spring", q=[x], T=m * xd**2 / 2, Q_q=[-k * x], ...)
    system.applicable_methods(); system.derive("maggi"); system.simulate()
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

#: The public API, by the module that defines it.
_MODULES = {
    "companion.system": ("System", "Integrator", "OdeIntegrator", "SingularConfigurationError"),
    "companion.mechanics.definition": ("Definition", "Parameter"),
    "companion.model": ("Model", "Evaluation"),
    "companion.mechanics.derivation": ("Derivation", "Step"),
    "companion.numerics.trajectory": ("Trajectory",),
    "companion.mechanics.methods": ("METHODS", "register_method"),
    "companion.mechanics.agreement": ("max_disagreement",),
    "companion.stability": ("stability_sweep",),
    "companion.api": ("compare_methods", "explore"),
    "companion.geometry.constrained": ("ConstrainedSystem", "ChartIntegrator"),
    "companion.geometry.planar_system": ("MechanismSystem",),
    "companion.geometry.attitude": ("QuaternionAttitude", "SO3Attitude"),
    "companion.widgets.explorer": ("Explorer",),
    "companion.widgets.timeseries": ("TimeSeriesView",),
}
#: name -> module that defines it.
_PUBLIC = {name: module for module, names in _MODULES.items() for name in names}

__all__ = ["__version__", *_PUBLIC]


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        if name == "METHODS":  # the registry is filled when the system layer is imported
            importlib.import_module("companion.system")
        return getattr(importlib.import_module(_PUBLIC[name]), name)
    if name == "examples":  # ``companion.examples.get(...)`` after ``import companion``
        return importlib.import_module("companion.examples")
    raise AttributeError(f"module 'companion' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
