"""The bridge's frame-and-bracket figure (ours): the frames of Greenwood's two examples, the
body axes of Example 4.3 (so(3)) and the knife edge's along/turn/across frame of Example 4.4
(se(2)), each with the brackets [X_r, X_l] = Σ_j γ^j_rl X_j computed by the engine when drawn:
constant coefficients, the mark of a left-invariant frame."""

from __future__ import annotations

import numpy as np
import sympy as sp
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams._body import frame, rotation
from companion.examples.bridge.computations import hamel_gamma
from companion.geometry.distribution import structure_functions

TITLE = "Two left-invariant frames: so(3) (Ex. 4.3) and se(2) (Ex. 4.4)"

_PAIRS = ((0, 1), (1, 2), (0, 2))


def bracket_lines(gamma: list[sp.Matrix], field: str) -> list[str]:
    """``[X_r, X_l] = …`` for the pairs (1, 2), (2, 3), (1, 3), as mathtext, from
    ``gamma[j][r, l]`` (γ^j_rl)."""
    lines = []
    for r, l in _PAIRS:
        combination = sum((gamma[j][r, l] * sp.Symbol(f"{field}_{j + 1}")
                           for j in range(len(gamma))), sp.S.Zero)
        lines.append(rf"$[{field}_{r + 1}, {field}_{l + 1}] = {sp.latex(combination)}$")
    return lines


def se2_gamma() -> list[sp.Matrix]:
    """γ^j_rl of the knife edge's quasi-velocities (4.105)–(4.107): along the rod, the turn,
    across the rod (Greenwood's u₁, u₂, u₃), from ⟨ω^j, [X_r, X_l]⟩."""
    x, y, phi = sp.symbols("x y phi")
    c, s = sp.cos(phi), sp.sin(phi)
    psi = sp.Matrix([[c, s, 0], [0, 0, 1], [-s, c, 0]])
    return structure_functions(psi, [x, y, phi])


def draw(ax: Axes) -> None:
    """Left: the body axes e₁, e₂, e₃ of a box (Example 4.3) and their brackets; right: the
    dumbbell at heading φ with X₁ along, X₂ turning and X₃ across the rod, and theirs."""
    d.setup(ax, TITLE, (-1.5, 4.6), (-1.9, 1.9))
    R = rotation(35.0, 15.0, 10.0)
    frame(ax, R, 0.95, (r"$X_1$", r"$X_2$", r"$X_3$"),
          (d.COLORS["x"], d.COLORS["y"], d.COLORS["z"]), lw=2.2)
    d.point(ax, d.project(np.zeros(3)), d.INK, size=5)
    ax.text(-0.2, 1.45, r"so(3): body axes $X_r = e_r$", fontsize=11, ha="center", color=d.INK)
    d.notes(ax, -1.45, -0.75, bracket_lines(hamel_gamma(), "X"), 0.25, size=10.5)

    e, n = d.heading(25.0)
    one = np.array([2.0, -0.4])
    two = one + 1.3 * e
    ax.plot(*np.array([one, two]).T, color=d.COLORS["link"], lw=3, solid_capstyle="round")
    d.point(ax, two, d.COLORS["tip"], size=9)
    d.point(ax, one, d.COLORS["body"], size=9)
    d.arrow(ax, one, one + 0.9 * e, d.COLORS["x"], r"$X_1$ along", offset=(0.35, -0.3))
    d.arc(ax, one, 0.3, 120.0, 300.0, d.COLORS["y"], r"$X_2$ turn", text_radius=0.6)
    d.arrow(ax, one, one + 0.8 * n, d.COLORS["z"], r"$X_3$ across", offset=(-0.05, 0.15))
    d.datum(ax, one, [0.8, 0])
    ax.text(3.05, 1.45, "se(2): the knife edge's frame", fontsize=11, ha="center", color=d.INK)
    d.notes(ax, 2.0, -0.75, bracket_lines(se2_gamma(), "X"), 0.25, size=10.5)
    ax.text(1.55, -1.75, r"$\gamma^j_{rl} = \langle \omega^j, [X_r, X_l] \rangle$: constant in "
            "both frames", fontsize=10.5, ha="center", color=d.INK)
