"""The workbench's snakeboard (ours, not in the books;
:func:`companion.workbench.presets.snakeboard`), seen from above."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d

TITLE = "Snakeboard (ours), seen from above"


def draw(ax: Axes) -> None:
    """The board of half-length l with its centre (x, y) and heading θ, the rotor at the centre
    turned by ψ, wheel axles at both ends, the front steered by φ and the back by −φ, each
    unable to slide along its own axis."""
    d.setup(ax, TITLE, (-0.4, 4.6), (-0.5, 3.1))
    theta, phi, psi = np.radians(15.0), np.radians(25.0), np.radians(50.0)
    e = np.array([np.cos(theta), np.sin(theta)])
    centre = np.array([2.1, 1.1])
    front, back = centre + 1.4 * e, centre - 1.4 * e
    d.arrow(ax, (0, 0), (4.4, 0), d.INK, r"$x$", offset=(0.1, -0.12))
    d.arrow(ax, (0, 0), (0, 2.5), d.INK, r"$y$", offset=(-0.15, 0.05))
    ax.plot(*np.array([back, front]).T, color=d.COLORS["link"], lw=4, solid_capstyle="round")
    for at, steer, name in ((front, phi, r"$+\phi$"), (back, -phi, r"$-\phi$")):
        axle = np.array([np.cos(theta + steer + np.pi / 2), np.sin(theta + steer + np.pi / 2)])
        ax.plot(*np.array([at - 0.35 * axle, at + 0.35 * axle]).T, color="#333333", lw=5,
                alpha=0.6)
        ax.text(*(at + 0.5 * axle), f"axle {name}", fontsize=10, ha="center")
    rotor = np.array([np.cos(theta + psi), np.sin(theta + psi)])
    ax.plot(*np.array([centre - 0.45 * rotor, centre + 0.45 * rotor]).T, color=d.COLORS["tip"],
            lw=3)
    ax.text(*(centre + 0.6 * rotor), r"rotor, $\psi$", fontsize=10, color=d.COLORS["tip"])
    d.point(ax, centre, d.INK, r"$(x, y)$", offset=(-0.15, 0.15), ha="right", fontsize=11)
    d.angle(ax, centre, [1.0, 0], 0.8, 15.0, r"$\theta$", text_radius=1.0)
    d.dimension(ax, centre, front, r"$l$", offset=-0.35)
    d.notes(ax, 0.0, 3.0, [
        r"no axle slides along itself: $-\sin(\theta \pm \phi)\,\dot x_{axle}"
        r" + \cos(\theta \pm \phi)\,\dot y_{axle} = 0$",
        r"springs $k_\phi$, $k_\psi$ pull the steering and the rotor back",
    ], 0.24, size=10)
