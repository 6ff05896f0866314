"""A scene for any system from the points it declares: a reader's own System gets one.

A point is declared through the system's ``series``: ``x``, ``y`` (and ``z``) for one point,
or ``x_<name>``, ``y_<name>`` (``z_<name>``) for several.  Each point is drawn with its trail,
and consecutive points (in the order declared) whose distance never changes are joined by a
rod (the outline of a body they belong to); without a z
the scene is planar.  When the mechanism is small beside its path (a robot on a long drive),
the view follows the points' centroid, as the knife edge's scene follows its rod, so the
mechanism fills the scene instead of shrinking to overlapping dots.
"""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np

from companion.numerics import Trajectory
from companion.scene.items import COLORS, Declaration, Grid, Point, Rod, _column

#: One colour per point, Okabe–Ito's (told apart under colour-vision deficiencies: tests/
#: test_colours.py).
_PALETTE = ("#E69F00", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#56B4E9")

#: Follow the mechanism when its path spans more than this many times its own size.
FOLLOW_ABOVE = 4.0
#: The followed view shows this many mechanism sizes on each side of its centroid.
FOLLOW_REACH = 2.5


def declared_points(trajectory: Trajectory) -> dict[str, np.ndarray]:
    """Point name → positions (2 or 3, N) found among the trajectory's series, else the one
    point of its coordinates ``x``, ``y`` (and ``z``) when it has them (a system of one's own
    that declares no series: a robot at (x, y))."""
    found = _points_in(trajectory, trajectory.series)
    return found or _points_in(trajectory, [n for n in trajectory.names if n in ("x", "y", "z")])


def _points_in(trajectory: Trajectory, names) -> dict[str, np.ndarray]:
    """Point name → positions for each ``x<suffix>``, ``y<suffix>`` (``z<suffix>``) pair among
    ``names``."""
    found: dict[str, np.ndarray] = {}
    for key in names:
        m = re.fullmatch(r"x(_.+)?", key)
        suffix = (m[1] or "") if m else None
        if suffix is not None and f"y{suffix}" in names:
            found[suffix[1:] or "point"] = np.array(
                [trajectory[f"{c}{suffix}"] for c in "xyz" if f"{c}{suffix}" in names])
    return found


def points_declaration(trajectory: Trajectory, title: str = "",
                       extra: list | None = None) -> Declaration:
    """Every declared point with its trail, plus ``extra`` items; refuses a system without
    points, naming the series it would need."""
    points = declared_points(trajectory)
    if not points:
        raise ValueError("no points to draw: the system has no coordinates x, y (and z) and "
                         "declares no points; declare positions as series, e.g. "
                         "System(..., evaluation=Evaluation(series={'x': x, 'y': y})) (and 'z') or "
                         "{'x_<name>': …, 'y_<name>': …} for several points")
    planar = all(p.shape[0] == 2 for p in points.values())
    items: list = [Grid(z=0.0), *(extra or [])]
    positions = [_column(p) for p in points.values()]  # planar points at z = 0
    # the outline of what moves as one body first, so the dots sit on it
    items += [Rod(a, b, color=COLORS["link"], width=4.0)
              for a, b in pairwise(positions) if rigidly_joined(a, b)]
    for k, (name, p) in enumerate(points.items()):
        items.append(Point(p, _PALETTE[k % len(_PALETTE)], radius=5.0, trail=True, label=name))
    lengths = ", ".join(
        f"{name} travels {float(np.sum(np.linalg.norm(np.diff(p, axis=1), axis=0))):.2f} m"
        for name, p in points.items())
    return Declaration(items, view="2d" if planar else "3d", title=title,
                       follow=follow_mechanism(positions),
                       description=f"Over {trajectory.t[-1]:.1f} s {lengths}.")


def rigidly_joined(a: np.ndarray, b: np.ndarray, tolerance: float = 1e-6) -> bool:
    """Whether points ``a`` and ``b`` (each (3, N)) keep one distance, to ``tolerance`` of it,
    over the whole motion: two points of one body (a robot's wheel centres), not a particle
    and its carriage."""
    distance = np.linalg.norm(a - b, axis=0)
    return bool(distance.max() > 0 and np.ptp(distance) <= tolerance * distance.max())


def follow_mechanism(positions: list[np.ndarray]) -> tuple[np.ndarray, float] | None:
    """``(centroid over time, reach)`` for :class:`Declaration`'s ``follow`` when the points
    (each (3, N)) span a path more than :data:`FOLLOW_ABOVE` times the mechanism's size, else
    None (the whole motion in view).  The size is the largest distance of a point from the
    centroid at any instant (a single point has none: it is never followed)."""
    stacked = np.array(positions)  # (points, 3, N)
    centroid = stacked.mean(axis=0)
    size = float(np.max(np.linalg.norm(stacked - centroid, axis=1)))
    path = float(np.max(np.ptp(centroid, axis=1)))
    if len(positions) < 2 or not size > 0 or path <= FOLLOW_ABOVE * size:
        return None
    return centroid, FOLLOW_REACH * size
