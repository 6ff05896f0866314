"""The scene of the thrown body: the centre flies a parabola over a ground grid while the body
tumbles."""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory
from companion.scene.items import COLORS, Declaration, Grid, Point
from companion.scene.rigid import flip_story, tumbling_box


def scene(trajectory: Trajectory) -> Declaration:
    """The thrown body: the centre flies a parabola while the body tumbles; ground at z = 0."""
    centre = np.array([trajectory[c] for c in "xyz"])
    span = float(np.max(np.ptp(centre, axis=1)))
    size = max(0.2 * span, 1e-3)
    items, h_body = tumbling_box(trajectory, centre, size)
    ground = min(0.0, float(centre[2].min()) - size)
    items += [Point(centre, COLORS["path"], radius=2.5, trail=True, label="path of the centre"),
              Grid(z=ground)]
    top = float(centre[2].max())
    return Declaration(items, title="Thrown body (L&V ch. 7)", camera=(-70.0, 18.0),
                       description=f"The body's centre flies a parabola over "
                                   f"{float(np.hypot(*np.ptp(centre[:2], axis=1))):.2f} m, up to "
                                   f"z = {top:.2f} m, for {trajectory.t[-1]:.2f} s while the body "
                                   f"tumbles; {flip_story(trajectory.t, h_body)}")
