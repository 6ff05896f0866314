"""A scene for any system from the points it declares: a reader's own System gets one.

A point is declared through the system's ``series``: ``x``, ``y`` (and ``z``) for one point,
or ``x_<name>``, ``y_<name>`` (``z_<name>``) for several.  Each point is drawn with its trail;
without a z the scene is planar.
"""

from __future__ import annotations

import re

import numpy as np

from companion.numerics import Trajectory
from companion.scene.items import Declaration, Grid, Point

#: One colour per point, Okabe–Ito's (told apart under colour-vision deficiencies: tests/
#: test_colours.py).
_PALETTE = ("#E69F00", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#56B4E9")


def declared_points(trajectory: Trajectory) -> dict[str, np.ndarray]:
    """Point name → positions (2 or 3, N) found among the trajectory's series."""
    found: dict[str, np.ndarray] = {}
    for key in trajectory.series:
        m = re.fullmatch(r"x(?:_(.+))?", key)
        if m is None:
            continue
        suffix = "" if m[1] is None else f"_{m[1]}"
        if f"y{suffix}" not in trajectory.series:
            continue
        rows = [trajectory[f"x{suffix}"], trajectory[f"y{suffix}"]]
        if f"z{suffix}" in trajectory.series:
            rows.append(trajectory[f"z{suffix}"])
        found[m[1] or "point"] = np.array(rows)
    return found


def points_declaration(trajectory: Trajectory, title: str = "",
                       extra: list | None = None) -> Declaration:
    """Every declared point with its trail, plus ``extra`` items; refuses a system without
    points, naming the series it would need."""
    points = declared_points(trajectory)
    if not points:
        raise ValueError("no points to draw: declare positions as series 'x', 'y' (and 'z') "
                         "or 'x_<name>', 'y_<name>' in the System")
    planar = all(p.shape[0] == 2 for p in points.values())
    items: list = [Grid(z=0.0), *(extra or [])]
    for k, (name, p) in enumerate(points.items()):
        items.append(Point(p, _PALETTE[k % len(_PALETTE)], radius=5.0, trail=True, label=name))
    lengths = ", ".join(
        f"{name} travels {float(np.sum(np.linalg.norm(np.diff(p, axis=1), axis=0))):.2f} m"
        for name, p in points.items())
    return Declaration(items, view="2d" if planar else "3d", title=title,
                       description=f"Over {trajectory.t[-1]:.1f} s {lengths}.")


def points_scene(trajectory: Trajectory) -> Declaration:
    """The generic scene (the scene function of systems that declare none)."""
    return points_declaration(trajectory)
