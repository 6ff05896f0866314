"""What a scene draws: bodies, rods, points with trails, arrows, cones and a ground grid.

A slice declares its scene as a function of a :class:`~companion.numerics.Trajectory`
returning a :class:`Declaration`; every quantity that moves is given along the trajectory's
samples (shape ``(width, N)``), every fixed one as a plain tuple (shape ``(width,)``).
Positions are in metres, world z up; planar scenes (``view="2d"``) give (x, y) and are seen
from above.  :mod:`companion.scene.keyframes` turns a declaration into keyframes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.numerics import rotations
from companion.numerics.rotations import axis_quaternion

#: Colours shared by the scenes and the explorers' curves of the same bodies: Okabe–Ito's (the
#: explorers' cycle, :data:`companion.widgets.style.PROJECTOR_COLOURS`) and greys, so that the
#: ones drawn together (ω and H, N and F, the body axes, the body under them) stay told apart
#: under colour-vision deficiencies (tests/test_colours.py); every arrow also has its label.
COLORS = {"body": "#9ec3e6", "omega": "#D55E00", "H": "#0072B2", "path": "#7f7f7f",
          "normal": "#000000", "friction": "#009E73", "reaction": "#CC79A7", "link": "#404040",
          "x": "#E69F00", "y": "#009E73", "z": "#CC79A7", "tip": "#E69F00"}


@dataclass(frozen=True)
class Mesh:
    """Vertices in the body frame, shape (V, 3), and faces (vertex indices, counter-clockwise
    seen from outside)."""

    vertices: np.ndarray
    faces: tuple[tuple[int, ...], ...]


def box_mesh(size: Sequence[float]) -> Mesh:
    """A box of edge lengths (a, b, c) along the body x, y, z axes, centred."""
    half = np.asarray(size, dtype=float) / 2
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    faces = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))
    return Mesh(corners * half, faces)


def cylinder_mesh(radius: float, thickness: float, sides: int = 32) -> Mesh:
    """A disk of ``radius`` and ``thickness`` about the body z axis, centred."""
    angle = np.linspace(0, 2 * np.pi, sides, endpoint=False)
    ring = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    top = np.column_stack([ring, np.full(sides, thickness / 2)])
    bottom = np.column_stack([ring, np.full(sides, -thickness / 2)])
    faces = [tuple(range(sides)), tuple(range(2 * sides - 1, sides - 1, -1))]
    faces += [(k + sides, (k + 1) % sides + sides, (k + 1) % sides, k) for k in range(sides)]
    return Mesh(np.vstack([top, bottom]), tuple(faces))


def sphere_mesh(radius: float, rings: int = 9, segments: int = 18) -> Mesh:
    """A UV sphere of ``radius``."""
    lat = np.linspace(0, np.pi, rings + 1)[1:-1]
    lon = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    verts = [[0, 0, radius]]
    verts += [[radius * np.sin(a) * np.cos(b), radius * np.sin(a) * np.sin(b), radius * np.cos(a)]
              for a in lat for b in lon]
    verts.append([0, 0, -radius])
    south = len(verts) - 1

    def at(ring: int, seg: int) -> int:
        return 1 + ring * segments + seg % segments

    faces = [(0, at(0, s), at(0, s + 1)) for s in range(segments)]
    faces += [(at(r, s), at(r + 1, s), at(r + 1, s + 1), at(r, s + 1))
              for r in range(len(lat) - 1) for s in range(segments)]
    faces += [(at(len(lat) - 1, s), south, at(len(lat) - 1, s + 1)) for s in range(segments)]
    return Mesh(np.array(verts, dtype=float), tuple(faces))


@dataclass(frozen=True)
class Modes:
    """A discrete mode along the motion: ``index`` (N,) into ``names`` and ``colors``."""

    index: np.ndarray
    names: Sequence[str]
    colors: Sequence[str]


@dataclass(frozen=True)
class Body:
    """A rigid mesh at ``position`` (3,)/(3, N) with ``attitude``, a unit quaternion
    (w, x, y, z) of shape (4,)/(4, N) rotating body axes into world axes (None: fixed).  With
    ``modes`` it takes its mode's colour (a grey while a prediction hides the mode)."""

    mesh: Mesh
    position: Any = (0.0, 0.0, 0.0)
    attitude: Any = None
    color: str = COLORS["body"]
    opacity: float = 1.0
    edges: bool = True
    modes: Modes | None = None
    face_colors: Sequence[str] | None = None


@dataclass(frozen=True)
class Rod:
    """A thick straight line from ``a`` to ``b`` (a link, an axle), ``width`` in pixels."""

    a: Any
    b: Any
    color: str = COLORS["link"]
    width: float = 6.0


@dataclass(frozen=True)
class Point:
    """A dot at ``position``; with ``trail`` the path it has travelled is drawn behind it
    (``trail_seconds`` keeps only the last seconds)."""

    position: Any
    color: str = COLORS["tip"]
    radius: float = 4.0
    trail: bool = False
    trail_seconds: float | None = None
    label: str = ""


@dataclass(frozen=True)
class Arrow:
    """A vector drawn from ``origin``; ``vector`` is already in metres of the scene."""

    origin: Any
    vector: Any
    color: str
    label: str = ""
    width: float = 2.5


@dataclass(frozen=True)
class Cone:
    """A planar cone (wedge) of half-angle ``half_angle`` about ``axis`` from ``apex``: the
    friction cone around a contact normal."""

    apex: Any
    axis: Any
    half_angle: float
    color: str = COLORS["friction"]
    label: str = ""


@dataclass(frozen=True)
class Grid:
    """Ground grid in the plane z = ``z``; the extent is fitted to the motion when None."""

    z: float = 0.0
    extent: tuple[float, float, float, float] | None = None
    step: float | None = None


@dataclass
class Declaration:
    """Everything a scene draws, as returned by a slice's scene function.

    Attributes
    ----------
    items
        Bodies, rods, points, arrows, cones, grids (nested lists are flattened).
    view
        ``"3d"`` (orbit with the mouse) or ``"2d"`` (the x–y plane seen from above).
    title
        A short caption drawn in the scene.
    description
        The motion in plain words (alt text and caption).
    camera
        Azimuth and elevation in degrees (3D).
    hud
        A mode named in the heads-up line next to the time.
    aspect
        Height / width of the canvas.
    follow
        ``(point, reach)``: the camera keeps ``point`` (a position over time) at the centre
        and shows ``reach`` around it, so a small mechanism on a long path fills its scene
        (the grid and the trails move past it); default: the whole motion in view.
    """

    items: list
    view: str = "3d"
    title: str = ""
    description: str = ""
    camera: tuple[float, float] = (-60.0, 25.0)
    hud: Modes | None = None
    aspect: float = 0.6
    legend: list[tuple[str, str]] = field(default_factory=list)
    follow: tuple[Any, float] | None = None

    def __post_init__(self) -> None:
        if self.view not in ("2d", "3d"):
            raise ValueError(f"view must be '2d' or '3d', got {self.view!r}")
        if self.follow is not None and not float(self.follow[1]) > 0:
            raise ValueError(f"follow's reach must be a positive length, got {self.follow[1]!r}")
        self.items = _flat(self.items)
        if not self.legend:
            self.legend = [(i.color, i.label) for i in self.items
                           if isinstance(i, (Arrow, Point, Cone)) and i.label]


def _flat(items: list | tuple) -> list:
    """``items`` in order, nested lists and tuples flattened."""
    return [x for i in items for x in (_flat(i) if isinstance(i, (list, tuple)) else [i])]


# ------------------------------------------------------------------ ready-made bodies
def quaternion_from_matrices(R: np.ndarray) -> np.ndarray:
    """Unit quaternions (w, x, y, z), shape (4, N), of rotation matrices R, shape (3, 3, N) —
    e.g. the body axes e_x, e_y, e_z as columns; signs made continuous along the motion."""
    from scipy.spatial.transform import Rotation

    R = np.asarray(R, dtype=float)
    m = np.moveaxis(R[:, :, None] if R.ndim == 2 else R, -1, 0)
    q = Rotation.from_matrix(m).as_quat()[:, [3, 0, 1, 2]]  # scipy puts w last
    flips = np.concatenate([[1.0], np.sign(np.sum(q[1:] * q[:-1], axis=1) + 1e-300)])
    return (q * np.cumprod(flips)[:, None]).T


def quaternion_about_z(angle: Any) -> np.ndarray:
    """Quaternions (4, N) of turns by ``angle`` about the world z axis."""
    return axis_quaternion(angle, 2)


def rotate(q: np.ndarray, v: Sequence[float]) -> np.ndarray:
    """Body vector ``v`` (3,) in world axes along quaternions ``q`` (4, N): shape (3, N)."""
    q = np.asarray(q, dtype=float).reshape(4, -1)
    return rotations.rotate(q, np.repeat(np.asarray(v, dtype=float)[:, None], q.shape[1], 1))


def box(size: Sequence[float], position: Any, attitude: Any) -> list:
    """A shaded box and its principal axes (x orange, y green, z purple) drawn from its centre
    to beyond its faces."""
    reach = 0.35 * max(size)
    return [Body(box_mesh(size), position, attitude)] + [
        Arrow(position, rotate(attitude, np.eye(3)[k] * (size[k] / 2 + reach)), COLORS[axis],
              label=f"body {axis}", width=1.8) for k, axis in enumerate("xyz")]


def disk(radius: float, position: Any, attitude: Any, *, thickness: float | None = None,
         modes: Modes | None = None) -> list:
    """A disk about its body z axis with a spoke along its body x axis, so that it is seen
    turning."""
    thickness = 0.12 * radius if thickness is None else thickness
    rim = rotate(attitude, (radius, 0.0, thickness / 2 + 1e-3 * radius)) + _column(position)
    front = rotate(attitude, (0.0, 0.0, thickness / 2 + 1e-3 * radius)) + _column(position)
    return [Body(cylinder_mesh(radius, thickness), position, attitude, edges=False, modes=modes),
            Rod(front, rim, color="#ffffff", width=3.0)]


def blade(position: Any, heading: Any, length: float) -> Body:
    """A knife edge: a thin plate along ``heading`` (angle about z, rad) at ``position``."""
    return Body(box_mesh((length, 0.08 * length, 0.3 * length)), position,
                quaternion_about_z(heading), color="#333333")


def _column(value: Any) -> np.ndarray:
    """A position as shape (3, 1) or (3, N); planar (x, y) gets z = 0."""
    a = np.asarray(value, dtype=float)
    a = a[:, None] if a.ndim == 1 else a
    return np.vstack([a, np.zeros((1, a.shape[1]))]) if a.shape[0] == 2 else a
