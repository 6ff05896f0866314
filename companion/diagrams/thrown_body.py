"""Loparo & Vakalis §7.6 (reconstructed, the companion's ``thrown_body``): a box thrown in
gravity.  Its mass centre p moves in the inertial frame on a parabola, m p̈ = m g; its
attitude R turns on SO(3) by Euler's equations in body axes, with no torque about the mass
centre."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams._body import AXIS_COLOURS, box, frame, rotation

TITLE = "A thrown body: p on a parabola, R on SO(3) (L&V §7.6, reconstructed)"
#: Launch velocity (Y, Z) and gravity of the sketch, in the diagram's units.
V0, G = np.array([1.5, 2.7]), 2.4


def _centre(t: float) -> np.ndarray:
    """The mass centre at time t: p = v₀ t + ½ g t², in the plane X = 0."""
    return np.array([0.0, V0[0] * t, V0[1] * t - 0.5 * G * t**2])


def draw(ax: Axes) -> None:
    """The inertial frame X, Y, Z at the launch point O; the parabola of the mass centre; the
    box at three instants, turned differently; at the middle one p, its body axes e₁, e₂, e₃,
    ω and the weight m g; the launch velocity v₀."""
    d.setup(ax, TITLE, (-0.9, 3.3), (-1.35, 1.9))
    frame(ax, np.eye(3), 0.55, (r"$X$", r"$Y$", r"$Z$"))
    d.point(ax, d.project(np.zeros(3)), d.INK, r"$O$", offset=(-0.08, -0.12), ha="right", va="top")
    flight = np.array([_centre(t) for t in np.linspace(0.0, 1.95, 60)]).T
    ax.plot(*d.project(flight), ls="--", color=d.COLORS["path"], lw=1.3)
    ax.text(*d.project(_centre(1.9)) + np.array([0.1, 0.0]), "parabola of\nthe mass centre",
            color=d.MUTED, fontsize=9.5, ha="left")
    d.arrow3(ax, np.zeros(3), np.array([0.0, *V0]) * 0.3, d.INK, r"$v_0$", offset=(-0.1, 0.06),
             ha="right")
    poses = {0.35: rotation(-20.0, 10.0, 15.0), 1.0: rotation(-35.0, -20.0, 60.0),
             1.65: rotation(-120.0, 40.0, 150.0)}
    for t, R in poses.items():
        box(ax, R, (0.26, 0.16, 0.1), at=_centre(t))
    middle, R = _centre(1.0), poses[1.0]
    frame(ax, R, 0.5, (r"$e_1$", r"$e_2$", r"$e_3$"), AXIS_COLOURS, lw=2.0, at=middle)
    d.arrow3(ax, np.zeros(3), middle, d.MUTED, r"$p$", at=0.7, offset=(0.08, -0.1), lw=1.2)
    d.arrow3(ax, middle, middle + R @ np.array([0.35, 0.1, 0.25]), d.COLORS["omega"],
             r"$\omega$", offset=(0.06, 0.07), lw=2.2)
    d.arrow3(ax, middle, middle - np.array([0.0, 0.0, 0.6]), d.INK, r"$m g$", offset=(0.1, 0.0),
             ha="left")
    d.notes(ax, -0.85, -0.75, [
        r"$m\ddot p = m g$ in the inertial frame $X, Y, Z$",
        r"$A\dot\omega = A\omega\times\omega + \tau$ in body axes $e_1, e_2, e_3$",
        r"$\tau = 0$: gravity has no moment about the mass centre",
        r"$R \in SO(3)$ carries the attitude: $e_k = R\,E_k$",
    ], 0.14, size=9.5)
