"""Explorer of the thrown, tumbling body of Loparo §7.6: the box flies on a parabola while
it turns on SO(3) (same view as Example 1)."""

from __future__ import annotations

from typing import Any

from companion.examples.rigid_body_so3.view import RigidBodyView
from companion.system import System
from companion.widgets.explorer import Explorer, Preset

SIMULATE = {"n_points": 200, "rtol": 1e-10, "atol": 1e-11}

#: One-click starts for a lecture, with what to predict.
PRESETS = {
    "flip in flight": Preset(
        "thrown spinning about the middle axis", {"omega_x": 0.2, "omega_y": 8.0, "omega_z": 0.2},
        "Thrown spinning about its middle axis: how many times does it flip before landing?"),
    "no gravity": Preset(
        "no gravity", {"g": 0.0},
        "Without gravity: what path does the centre take, and does the spin change?"),
}


def explorer(system: System, **kwargs: Any) -> Explorer:
    """The thrown-body explorer (keyword arguments go to :class:`Explorer`)."""
    controls = ["I_xx", "I_yy", "I_zz", "omega_x", "omega_y", "omega_z", "v_x", "v_z", "g"]
    return Explorer(system, RigidBodyView(), **{"controls": controls, "simulate_kwargs": SIMULATE,
                                                "presets": PRESETS, **kwargs})
