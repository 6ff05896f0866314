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

#: The public API: name -> module that defines it.
_PUBLIC = {
    "System": "companion.system",
    "Definition": "companion.mechanics.definition",
    "Parameter": "companion.mechanics.definition",
    "Model": "companion.model",
    "Integrator": "companion.system",
    "OdeIntegrator": "companion.system",
    "SingularConfigurationError": "companion.system",
    "Derivation": "companion.mechanics.derivation",
    "Step": "companion.mechanics.derivation",
    "Trajectory": "companion.numerics.trajectory",
    "Evaluation": "companion.model",
    "METHODS": "companion.mechanics.methods",
    "register_method": "companion.mechanics.methods",
    "max_disagreement": "companion.mechanics.agreement",
    "stability_sweep": "companion.stability",
    "compare_methods": "companion.api",
    "explore": "companion.api",
    "ConstrainedSystem": "companion.geometry.constrained",
    "ChartIntegrator": "companion.geometry.constrained",
    "MechanismSystem": "companion.geometry.planar_system",
    "QuaternionAttitude": "companion.geometry.attitude",
    "SO3Attitude": "companion.geometry.attitude",
    "Explorer": "companion.widgets.explorer",
    "TimeSeriesView": "companion.widgets.timeseries",
}

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
