"""The workbench's ball on a spinning turntable (ours, not in the books;
:func:`companion.workbench.presets.ball_on_turntable`): a uniform ball rolling on a table that
turns at Ω about the vertical through O, seen from above."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Circle

from companion.diagrams import _draw as d

TITLE = "Ball on a spinning turntable (ours), seen from above"


def draw(ax: Axes) -> None:
    """The table's rim and its spin Ω about O; the ball's centre (x, y), its velocity, the
    table's velocity Ω × r_C under it, and the mark at radius R turning with the table."""
    d.setup(ax, TITLE, (-2.3, 2.5), (-2.2, 2.6))
    t = np.linspace(0, 2 * np.pi, 120)
    ax.plot(1.9 * np.cos(t), 1.9 * np.sin(t), color=d.MUTED, lw=1.2)
    d.arrow(ax, (-2.1, 0), (2.3, 0), d.INK, r"$x$", offset=(0.1, -0.15))
    d.arrow(ax, (0, -2.1), (0, 2.2), d.INK, r"$y$", offset=(-0.15, 0.05))
    d.arc(ax, (0, 0), 0.4, 20.0, 300.0, d.COLORS["H"], r"$\Omega$", text_radius=0.6)
    d.point(ax, (0, 0), d.INK, r"$O$", offset=(-0.12, -0.12), ha="right", va="top")
    C = np.array([0.9, 0.7])
    ax.add_patch(Circle(C, 0.28, facecolor="#cfe0f1", edgecolor=d.COLORS["body"], lw=1.5))
    d.point(ax, C, d.COLORS["body"], r"centre $(x, y)$; $m$, $r$", offset=(0.32, 0.05),
          fontsize=11)
    d.arrow(ax, C, C + 0.75 * np.array([-C[1], C[0]]) / np.linalg.norm(C), d.COLORS["H"],
          r"$\Omega \times r_C$", offset=(-0.1, 0.15), ha="right")
    d.arrow(ax, C, C + [0.6, -0.35], d.COLORS["omega"], r"$(\dot x, \dot y)$", offset=(0.1, -0.1),
          ha="left")
    mark = 1.4 * np.array([np.cos(3.7), np.sin(3.7)])
    d.point(ax, mark, d.COLORS["tip"], r"mark at $R$, turning with the table",
          offset=(0.0, -0.2), fontsize=10, marker="s", va="top")
    d.notes(ax, -2.25, -1.95, [
        r"rolling: $\dot r_C + \omega \times (-r\,\hat z) = \Omega\,\hat z \times r_C$",
    ], 0.2, size=10)
