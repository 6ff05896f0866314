"""The heavy top by sympy's KanesMethod (pivot, gravity, damping): an independent check."""

from __future__ import annotations

from companion.examples.euler_body.independent import rigid_rotation
from companion.examples.independent import KaneModel
from companion.system import System


def kane_model(system: System) -> KaneModel:
    """The free body of Example 4.3 on a pivot, with gravity and damping."""
    return rigid_rotation(system, with_gravity=True)
