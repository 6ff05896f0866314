"""Drawing helpers shared by the diagrams: arrows, angle arcs with their sense, dimension
lines, points and an oblique projection for the three-dimensional examples."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes

from companion.scene.items import COLORS

INK = "#222222"
MUTED = "#8a8a8a"
FONT = 12

def setup(ax: Axes, title: str, xlim: Sequence[float], ylim: Sequence[float]) -> None:
    """Equal scales, no frame, fixed limits (arrows do not autoscale)."""
    ax.set_aspect("equal")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.axis("off")
    ax.set_title(title, fontsize=FONT)


def arrow(ax: Axes, start, end, colour: str = INK, text: str | None = None, *,
          at: float = 1.0, offset: Sequence[float] = (0.0, 0.0), lw: float = 1.8,
          ls: str = "-", size: float = FONT, ha: str = "center", va: str = "center") -> None:
    """An arrow from ``start`` to ``end``; ``text`` at ``start + at (end − start) + offset``."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    ax.annotate("", xy=end, xytext=start,
                arrowprops={"arrowstyle": "-|>", "color": colour, "lw": lw, "linestyle": ls,
                            "shrinkA": 0, "shrinkB": 0, "mutation_scale": 14})
    if text:
        where = start + at * (end - start) + np.asarray(offset, float)
        ax.text(*where, text, color=colour, fontsize=size, ha=ha, va=va)


def heading(angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """The unit vectors along the heading ``angle_deg`` (counter-clockwise from x) and across
    it (a quarter turn further)."""
    t = np.radians(angle_deg)
    e = np.array([np.cos(t), np.sin(t)])
    return e, np.array([-e[1], e[0]])


def arc(ax: Axes, centre, radius: float, start_deg: float, end_deg: float,
        colour: str = INK, text: str | None = None, *, text_radius: float | None = None,
        points: int = 48) -> None:
    """An angle from ``start_deg`` to ``end_deg`` (counter-clockwise when end > start), the
    arrowhead at the end: the angle's positive sense."""
    t = np.radians(np.linspace(start_deg, end_deg, points))
    centre = np.asarray(centre, float)
    mid = np.radians(0.5 * (start_deg + end_deg))
    rr = text_radius if text_radius is not None else 1.3 * radius
    _sweep(ax, centre[:, None] + radius * np.array([np.cos(t), np.sin(t)]), colour, text,
           centre + rr * np.array([np.cos(mid), np.sin(mid)]))


def _sweep(ax: Axes, pts: np.ndarray, colour: str, text: str | None, where) -> None:
    """The curve through ``pts`` (2, N) with an arrowhead at its end; ``text`` at ``where``."""
    ax.plot(*pts[:, :-3], color=colour, lw=1.4)
    arrow(ax, pts[:, -4], pts[:, -1], colour, lw=1.4)
    if text:
        ax.text(*where, text, color=colour, fontsize=FONT, ha="center", va="center")


def dimension(ax: Axes, a, b, text: str, *, offset: float = 0.15, size: float = FONT) -> None:
    """A dimension line between ``a`` and ``b``, shifted ``offset`` to the left of a → b."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = (b - a) / np.linalg.norm(b - a)
    n = np.array([-d[1], d[0]]) * offset
    ax.annotate("", xy=b + n, xytext=a + n,
                arrowprops={"arrowstyle": "<|-|>", "color": MUTED, "lw": 1.0,
                            "shrinkA": 0, "shrinkB": 0, "mutation_scale": 10})
    for p in (a, b):
        ax.plot(*np.array([p, p + 1.15 * n]).T, color=MUTED, lw=0.8)
    ax.text(*(0.5 * (a + b) + n + 0.13 * n / np.linalg.norm(n)), text,
            color=INK, fontsize=size, ha="center", va="center")


def point(ax: Axes, p, colour: str = INK, text: str | None = None, *,
          offset: Sequence[float] = (0.12, 0.12), size: float = 8.0, marker: str = "o",
          ha: str = "left", va: str = "bottom", fontsize: float = FONT) -> None:
    """A dot with a label beside it."""
    ax.plot(*np.asarray(p, float), marker, color=colour, ms=size, zorder=5)
    if text:
        ax.text(*(np.asarray(p, float) + np.asarray(offset, float)), text, color=INK,
                fontsize=fontsize, ha=ha, va=va)


def datum(ax: Axes, p, d) -> None:
    """A dashed line from ``p`` along ``d``: the zero of an angle."""
    p = np.asarray(p, float)
    ax.plot(*np.array([p, p + np.asarray(d, float)]).T, ls="--", color=MUTED, lw=1)


def angle(ax: Axes, at, zero, radius: float, sweep_deg: float, text: str, *,
          text_radius: float) -> None:
    """An angle of ``sweep_deg`` at ``at`` from its zero, the dashed line along ``zero``."""
    datum(ax, at, zero)
    start = np.degrees(np.arctan2(zero[1], zero[0]))
    arc(ax, at, radius, start, start + sweep_deg, INK, text, text_radius=text_radius)


def pin(ax: Axes, p, size: float = 9.0) -> None:
    """A pin joint: an open circle over the links it joins."""
    ax.plot(*np.asarray(p, float), "o", mfc="white", mec=INK, ms=size, zorder=6)


def support(ax: Axes, left, right) -> None:
    """A fixed support from ``left`` to ``right``: a heavy line, shaded above it."""
    (x0, y), (x1, _) = left, right
    ax.plot([x0, x1], [y, y], color=INK, lw=3)
    ax.fill_between([x0, x1], [y, y], [y + 0.12] * 2, color=MUTED, alpha=0.35, lw=0)


def hang(ax: Axes, pivot, angle_deg: float, length: float, text: str, *, arc_radius: float,
         text_radius: float, lw: float = 6.0) -> np.ndarray:
    """A link of ``length`` hanging from the pin at ``pivot``, ``angle_deg`` from the downward
    vertical (counter-clockwise positive): the link, the dashed vertical, the angle's arc
    labelled ``text`` and the pin.  Returns the link's far end."""
    pivot = np.asarray(pivot, float)
    t = np.radians(angle_deg)
    end = pivot + length * np.array([np.sin(t), -np.cos(t)])
    ax.plot(*np.array([pivot, end]).T, color=COLORS["link"], lw=lw, solid_capstyle="round",
            alpha=0.85)
    angle(ax, pivot, (0.0, -1.25 * text_radius), arc_radius, angle_deg, text,
          text_radius=text_radius)
    pin(ax, pivot)
    return end


def notes(ax: Axes, x: float, y: float, lines: Sequence[str], step: float, *,
          size: float = 9.5, colours: Sequence[str] | None = None) -> None:
    """Lines of explanation, top-left aligned at (x, y), ``step`` apart downwards."""
    for k, text in enumerate(lines):
        ax.text(x, y - step * k, text, fontsize=size, va="top",
                color=colours[k] if colours else INK)


def spring(ax: Axes, a, b, *, coils: int = 7, width: float = 0.08) -> None:
    """A zigzag spring from ``a`` to ``b``."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    n = np.array([-d[1], d[0]]) / np.linalg.norm(d) * width
    s = np.linspace(0.15, 0.85, 2 * coils + 1)
    zig = [a, a + 0.15 * d] + [a + si * d + (n if k % 2 else -n) for k, si in enumerate(s[1:-1])]
    zig += [a + 0.85 * d, b]
    ax.plot(*np.array(zig).T, color=MUTED, lw=1.2)


def project(points) -> np.ndarray:
    """Oblique view of 3-D points (shape (3,) or (3, N)) onto the page, from 30° azimuth and
    20° elevation: X towards the reader's lower left, Y to the right, Z up."""
    a, e = np.radians(30.0), np.radians(20.0)
    x, y, z = np.asarray(points, float)
    return np.array([-np.sin(a) * x + np.cos(a) * y,
                     np.cos(e) * z - np.sin(e) * (np.cos(a) * x + np.sin(a) * y)])


def arrow3(ax: Axes, start, end, *args, **kwargs) -> None:
    """:func:`arrow` between the 3-D points ``start`` and ``end``, projected."""
    arrow(ax, project(start), project(end), *args, **kwargs)


def arc3(ax: Axes, centre, u, v, radius: float, angle_deg: float, colour: str = INK,
         text: str | None = None, *, text_at: float = 1.35) -> None:
    """A 3-D angle of ``angle_deg`` in the plane of the unit vectors ``u`` → ``v`` (positive
    from u towards v), projected, with its arrowhead at the end."""
    t = np.radians(np.linspace(0.0, angle_deg, 40))
    c, u, v = (np.asarray(w, float)[:, None] for w in (centre, u, v))
    mid = np.radians(angle_deg / 2)
    _sweep(ax, project(c + radius * (np.cos(t) * u + np.sin(t) * v)), colour, text,
           project(c[:, 0] + text_at * radius * (np.cos(mid) * u[:, 0] + np.sin(mid) * v[:, 0])))
