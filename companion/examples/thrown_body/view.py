"""Explorer of the thrown, tumbling body of Loparo §7.6: the box flies on a parabola while
it turns on SO(3) (same view as Example 1)."""

from __future__ import annotations

from typing import Any

from companion.examples.rigid_body_so3.view import RigidBodyView
from companion.system import System
from companion.widgets.explorer import Explorer

SIMULATE = {"n_points": 200, "rtol": 1e-10, "atol": 1e-11}


def explorer(system: System, **kwargs: Any) -> Explorer:
    """The thrown-body explorer (keyword arguments go to :class:`Explorer`)."""
    kwargs.setdefault("controls", ["I_xx", "I_yy", "I_zz", "omega_x", "omega_y", "omega_z",
                                   "v_x", "v_z", "g"])
    kwargs.setdefault("simulate_kwargs", SIMULATE)
    return Explorer(system, RigidBodyView(), **kwargs)
