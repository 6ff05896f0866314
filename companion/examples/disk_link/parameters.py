"""The disk–link's parameters: one list, whose order is the order of ``p`` everywhere.

The models' parameters (``Setup.p``, :meth:`~.model.DiskLink.parameter_vector`), the modes'
Python numerics (:mod:`.modes`, lambdified with :data:`SYMBOLS`) and the C code
(:mod:`.compiled`, indexing ``p`` by it) all follow :data:`PARAMETERS`, so that the one ``p``
the model validated is passed on unchanged.
"""

from __future__ import annotations

import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.controller import CONTROLLER_PARAMETERS
from companion.system import Parameter

mu_s, mu_k = sp.symbols("mu_s mu_k", nonnegative=True)

#: Every parameter of the disk–link, in the order of ``p``: the contact model's, the friction
#: coefficients, the controller's.
PARAMETERS = [
    Parameter(ct.g, 9.81, 1.0, 20.0, "m/s²", "gravity", positive=True),
    Parameter(ct.m, 1.0, 0.1, 5.0, "kg", "disk mass", positive=True),
    Parameter(ct.r, 0.1, 0.02, 0.3, "m", "disk radius", positive=True),
    Parameter(ct.kappa, 0.5, 0.1, 1.0, "", "I_D/(m r²): ½ uniform disk, 1 ring", positive=True),
    Parameter(ct.M, 3.0, 0.1, 10.0, "kg", "link mass (uniform link)", positive=True),
    Parameter(ct.L, 1.0, 0.3, 2.0, "m", "link length", positive=True),
    Parameter(mu_s, 0.5, 0.0, 1.5, "", "static friction coefficient", nonnegative=True),
    Parameter(mu_k, 0.3, 0.0, 1.5, "", "kinetic friction coefficient (≤ μ_s)",
              nonnegative=True),
    *CONTROLLER_PARAMETERS,
]
#: Their Symbols, in the order of ``p``.
SYMBOLS = [p.symbol for p in PARAMETERS]
#: The Symbols by name (the values by name of :func:`.controller.link_torque`'s symbolic form).
BY_NAME = {s.name: s for s in SYMBOLS}


__all__ = ["BY_NAME", "PARAMETERS", "SYMBOLS", "mu_k", "mu_s"]
