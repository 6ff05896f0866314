"""Scene of the planar pendulum chains of L&V §7.7–7.8 (the double pendulum and n links):
links between the pins, the pin forces, and the trail of the tip, seen in the vertical plane."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.scene.describe import list_times, sign_changes
from companion.scene.items import COLORS, Arrow, Declaration, Point, Rod

#: Seconds of the tip's path kept behind it (a chaotic path of 20 s would fill the scene).
TRAIL_SECONDS = 4.0


def chain_scene(trajectory: Trajectory) -> Declaration:
    """Any chain whose trajectory carries its pins (``joint <name>``), its angles θ_i and
    lengths l_i; the pin forces ``R <name>`` are drawn where the system provides them."""
    pins = [k.removeprefix("joint ") for k in trajectory.series if k.startswith("joint ")]
    n = len(pins)
    if n == 0:
        raise ValueError("a chain scene needs the pin positions 'joint <name>' in the trajectory")
    angle = trajectory[f"theta_{n}"]
    last = trajectory[f"joint {pins[-1]}"]
    tip = last + trajectory.params[f"l_{n}"] * np.array([np.sin(angle), -np.cos(angle)])
    ends = [trajectory[f"joint {p}"] for p in pins] + [tip]
    reach = sum(trajectory.params[f"l_{i}"] for i in range(1, n + 1))
    forces = [trajectory[f"R {p}"] for p in pins if f"R {p}" in trajectory.series]
    peak = max((float(np.max(np.linalg.norm(f, axis=0))) for f in forces), default=1.0)
    items: list = [Point(tip, COLORS["tip"], radius=3.0, trail=True,
                         trail_seconds=TRAIL_SECONDS, label="tip")]
    items += [Rod(a, b, color=COLORS["link"], width=7.0)
              for a, b in zip(ends[:-1], ends[1:], strict=True)]
    items += [Point(e, "#000000", radius=4.5) for e in ends[:-1]]
    items += [Arrow(trajectory[f"joint {p}"], trajectory[f"R {p}"] * 0.35 * reach / peak,
                    COLORS["reaction"], label="pin force" if k == 0 else "")
              for k, p in enumerate(pins) if f"R {p}" in trajectory.series]
    over = sign_changes(trajectory.t, np.cos(trajectory[f"theta_{n}"] / 2))
    story = (f"the outer link goes over the top at {list_times(over)}" if over
             else "the outer link never goes over the top")
    return Declaration(items, view="2d", aspect=0.75,
                       title=f"{n}-link pendulum (L&V §7.7–7.8)",
                       description=f"The {n} links swing in the vertical plane for "
                                   f"{trajectory.t[-1]:.0f} s; {story}; the largest pin force is "
                                   f"{peak:.3g} N.")
