"""A box and its body axes in the oblique view, shared by the rigid-body diagrams."""

from __future__ import annotations

import itertools

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams._draw import COLORS, MUTED, arrow3, project
from companion.geometry.lie import rotation_from_euler_angles


def rotation(psi: float, theta: float, phi: float) -> np.ndarray:
    """Body → space for type I Euler angles in degrees: ψ about Z, θ about y′, φ about x
    (:func:`~companion.geometry.lie.rotation_from_euler_angles`)."""
    return rotation_from_euler_angles(*np.radians([psi, theta, phi]))


def box(ax: Axes, R: np.ndarray, half: tuple[float, float, float], at=(0.0, 0.0, 0.0)
        ) -> None:
    """The edges of a box with half sizes ``half`` turned by R, about the point ``at``."""
    corners = {c: np.asarray(at, float) + R @ (np.array(c) * half)
               for c in itertools.product((-1, 1), repeat=3)}
    for a, b in itertools.combinations(corners, 2):
        if sum(x != y for x, y in zip(a, b, strict=True)) == 1:
            ax.plot(*project(np.array([corners[a], corners[b]]).T), color=COLORS["body"],
                    lw=1.3, alpha=0.8)


def frame(ax: Axes, R: np.ndarray, length: float, names: tuple[str, str, str],
          colours: tuple[str, str, str] | None = None, lw: float = 1.8,
          at=(0.0, 0.0, 0.0)) -> None:
    """Three axes R e_k of the given length from the point ``at`` (the origin by default),
    labelled at their tips."""
    colours = colours or (MUTED, MUTED, MUTED)
    origin = np.asarray(at, float)
    for k in range(3):
        tip = origin + R[:, k] * length
        arrow3(ax, origin, tip, colours[k], names[k],
              offset=project(R[:, k]) * 0.14 / max(np.linalg.norm(project(R[:, k])), 0.2),
              lw=lw)


#: Body axes in the body's colour: red and green are ω's and the angular momentum's.
AXIS_COLOURS = (COLORS["body"],) * 3
