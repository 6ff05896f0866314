"""Keyframes: a :class:`~companion.scene.items.Declaration` packed for the browser.

The kernel simulates once; this module picks at most :data:`MAX_FRAMES` of the trajectory's
samples and writes every moving quantity as a float32 *channel* (one row of ``width``
numbers per keyframe) into one binary buffer, described by a small JSON ``spec``:

Planar scenes draw their items in the order declared (each item's ``layer``); 3D scenes sort
by depth.  ``spec["channels"][name] = [offset, width, kind]`` — offset in floats into the buffer;
kind ``"lerp"`` (interpolated linearly), ``"quat"`` (unit quaternions, normalised linear
interpolation) or ``"step"`` (modes: the earlier keyframe's value).  Fixed quantities are
written into the spec as literal lists.  scene.js reads the same format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.scene.items import Arrow, Body, Cone, Declaration, Grid, Point, Rod

#: Keyframes of one motion at most: ~30 per second over 20 s, enough for smooth playback
#: with interpolation, and a payload far below the 250 kB budget.
MAX_FRAMES = 600
FORMAT_VERSION = 1
#: A body coloured by its mode is drawn in this grey while the mode is hidden (a prediction
#: open, scene.js): none of the modes' colours, so its colour tells nothing.
NEUTRAL_COLOR = "#b0b0b0"


@dataclass(frozen=True)
class Keyframes:
    """The spec (JSON) and the float32 buffer of one motion."""

    spec: dict
    data: bytes

    @property
    def n_frames(self) -> int:
        return int(self.spec["n_frames"])

    @property
    def payload_bytes(self) -> int:
        """Bytes sent to the browser: the buffer plus the spec as JSON."""
        import json

        return len(self.data) + len(json.dumps(self.spec, separators=(",", ":")))

    def channel(self, name: str) -> np.ndarray:
        """A channel's values, shape (n_frames, width)."""
        offset, width, _ = self.spec["channels"][name]
        values = np.frombuffer(self.data, dtype="<f4")
        return values[offset:offset + self.n_frames * width].reshape(self.n_frames, width)

    def value(self, ref: Any, frame: int) -> np.ndarray:
        """A reference (channel name or literal) at keyframe ``frame``."""
        if isinstance(ref, str):
            return self.channel(ref)[frame].astype(float)
        return np.asarray(ref, dtype=float)


def keyframe_indices(n_samples: int, max_frames: int = MAX_FRAMES) -> np.ndarray:
    """Which samples become keyframes: all of them, or ``max_frames`` spread evenly (the first
    and last always)."""
    if max_frames < 2:
        raise ValueError(f"max_frames must be at least 2, got {max_frames}")
    if n_samples <= max_frames:
        return np.arange(n_samples)
    return np.unique(np.round(np.linspace(0, n_samples - 1, max_frames)).astype(int))


class _Packer:
    """Collects channels; the same array used twice (a point and its trail) is stored once."""

    def __init__(self, n_samples: int, picks: np.ndarray):
        self.n_samples, self.picks = n_samples, picks
        self.rows: dict[str, np.ndarray] = {}  # channel → its keyframe values (n, width)
        self.channels: dict[str, list] = {}
        # id → (channel, the array itself: kept alive, so that its id stays unique)
        self._by_id: dict[int, tuple[str, Any]] = {}
        self.positions: list[np.ndarray] = []  # every position, for the bounds
        self.tips: list[np.ndarray] = []  # arrows' tips: in the bounds, not in the start's

    def ref(self, value: Any, width: int, what: str, kind: str = "lerp") -> str | list:
        if id(value) in self._by_id:
            return self._by_id[id(value)][0]
        a = np.asarray(value, dtype=float)
        a = a[:, None] if a.ndim == 1 else a
        if a.ndim != 2 or a.shape[1] not in (1, self.n_samples):
            raise ValueError(f"{what}: expected shape ({width},) or ({width}, {self.n_samples}), "
                             f"got {np.shape(value)}")
        if width == 3 and a.shape[0] == 2:  # planar (x, y): z = 0
            a = np.vstack([a, np.zeros((1, a.shape[1]))])
        if a.shape[0] != width:
            raise ValueError(f"{what}: expected {width} rows, got {a.shape[0]}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{what} is not finite along the motion")
        if a.shape[1] == 1:
            return [float(x) for x in a[:, 0]]
        name = f"c{len(self.channels)}"
        self.channels[name] = [sum(r.size for r in self.rows.values()), width, kind]
        self.rows[name] = np.ascontiguousarray(a[:, self.picks].T, dtype="<f4")
        self._by_id[id(value)] = name, value
        return name

    def point(self, value: Any, what: str) -> str | list:
        ref = self.ref(value, 3, what)
        self.positions.append(self.values(ref))
        return ref

    def values(self, ref: str | list) -> np.ndarray:
        """A reference's keyframe values, shape (n, width)."""
        if isinstance(ref, list):
            return np.asarray(ref, dtype=float)[None, :]
        return self.rows[ref].astype(float)


def build(declaration: Declaration, t: np.ndarray) -> Keyframes:
    """Pack ``declaration`` (arrays along the sample times ``t``) into keyframes."""
    t = np.asarray(t, dtype=float)
    if t.ndim != 1 or len(t) < 2 or not np.all(np.diff(t) >= 0):
        raise ValueError("a scene needs at least two sample times in increasing order")
    picks = keyframe_indices(len(t))
    pack = _Packer(len(t), picks)
    spec: dict[str, Any] = {
        "version": FORMAT_VERSION, "view": declaration.view, "title": declaration.title,
        "description": declaration.description, "camera": list(declaration.camera),
        "aspect": declaration.aspect, "n_frames": int(len(picks)),
        "time": pack.ref(t[None, :], 1, "time"),
        "meshes": [], "rods": [], "points": [], "trails": [], "arrows": [], "cones": [],
        "grids": [], "legend": [list(x) for x in declaration.legend],
    }
    if declaration.follow is not None:
        point, reach = declaration.follow
        spec["follow"] = {"point": pack.ref(point, 3, "followed point"), "reach": float(reach)}
    extra_reach = 0.0
    grids: list[Grid] = []
    for k, item in enumerate(declaration.items):
        what = f"{type(item).__name__} #{k}"
        if isinstance(item, Body):
            mesh = {"vertices": np.round(item.mesh.vertices, 5).tolist(),
                    "faces": [list(f) for f in item.mesh.faces],
                    "color": item.color if item.modes is None else NEUTRAL_COLOR,
                    "position": pack.point(item.position, what + " position"),
                    "attitude": None if item.attitude is None
                    else pack.ref(item.attitude, 4, what + " attitude", "quat"),
                    "opacity": item.opacity, "edges": item.edges}
            if item.modes is not None:
                mesh["mode"] = pack.ref(np.asarray(item.modes.index, float)[None, :], 1,
                                        what + " modes", "step")
                mesh["palette"] = list(item.modes.colors)
            if item.face_colors is not None:
                mesh["face_colors"] = list(item.face_colors)
            extra_reach = max(extra_reach, float(np.max(np.linalg.norm(item.mesh.vertices,
                                                                        axis=1))))
            mesh["layer"] = k
            spec["meshes"].append(mesh)
        elif isinstance(item, Rod):
            spec["rods"].append({"a": pack.point(item.a, what + " end a"),
                                 "b": pack.point(item.b, what + " end b"),
                                 "color": item.color, "width": item.width, "layer": k})
        elif isinstance(item, Point):
            ref = pack.point(item.position, what)
            spec["points"].append({"point": ref, "color": item.color, "radius": item.radius,
                                   "layer": k})
            if item.trail and isinstance(ref, str):
                keep = None if item.trail_seconds is None else int(np.ceil(
                    item.trail_seconds / max(np.mean(np.diff(t[picks])), 1e-12)))
                spec["trails"].append({"point": ref, "color": item.color, "keep": keep})
        elif isinstance(item, Arrow):
            origin = pack.point(item.origin, what + " origin")
            vector = pack.ref(item.vector, 3, what + " vector")
            pack.tips.append(pack.values(origin) + pack.values(vector))
            spec["arrows"].append({"origin": origin, "vector": vector, "color": item.color,
                                   "label": item.label, "width": item.width})
        elif isinstance(item, Cone):
            spec["cones"].append({"apex": pack.point(item.apex, what + " apex"),
                                  "axis": pack.ref(item.axis, 3, what + " axis"),
                                  "half_angle": float(item.half_angle), "color": item.color,
                                  "layer": k})
        elif isinstance(item, Grid):
            grids.append(item)
        else:
            raise TypeError(f"a scene cannot draw {type(item).__name__} (item {k})")
    if declaration.hud is not None:
        spec["hud"] = {"mode": pack.ref(np.asarray(declaration.hud.index, float)[None, :], 1,
                                        "hud modes", "step"),
                       "names": list(declaration.hud.names)}
    spec["channels"] = pack.channels
    lo, hi = _bounds(pack.positions + pack.tips, extra_reach)
    for grid in grids:
        segments, lo, hi = _grid_segments(grid, lo, hi)
        spec["grids"].append({"segments": segments})
    # what a scene frames while a prediction is open (scene.js): the bodies at the start only
    start = _bounds([p[:1] for p in pack.positions], extra_reach)
    for key, (low, high) in (("bounds", (lo, hi)), ("start_bounds", start)):
        if declaration.view == "2d":
            low[2] = high[2] = 0.0
        spec[key] = [low.tolist(), high.tolist()]
    return Keyframes(spec, np.concatenate([r.ravel() for r in pack.rows.values()]).tobytes())


def _bounds(positions: list[np.ndarray], reach: float) -> tuple[np.ndarray, np.ndarray]:
    if not positions:
        return np.full(3, -1.0), np.full(3, 1.0)
    every = np.vstack(positions)
    lo, hi = every.min(axis=0) - reach, every.max(axis=0) + reach
    pad = np.maximum(0.04 * np.max(hi - lo), 1e-3)
    return lo - pad, hi + pad


def _nice_step(span: float) -> float:
    """A 1-2-5 grid step giving about eight cells over ``span``."""
    raw = max(span, 1e-9) / 8
    power = 10 ** np.floor(np.log10(raw))
    return float(power * min(m for m in (1, 2, 5, 10) if m * power >= raw))


def _grid_segments(grid: Grid, lo: np.ndarray, hi: np.ndarray):
    """Line segments of a ground grid, and the bounds grown to hold it."""
    if grid.extent is None:
        step = grid.step or _nice_step(max(hi[0] - lo[0], hi[1] - lo[1]))
        x0, x1 = np.floor(lo[0] / step) * step, np.ceil(hi[0] / step) * step
        y0, y1 = np.floor(lo[1] / step) * step, np.ceil(hi[1] / step) * step
    else:
        x0, x1, y0, y1 = grid.extent
        step = grid.step or _nice_step(max(x1 - x0, y1 - y0))
    z = float(grid.z)
    xs = np.arange(x0, x1 + step / 2, step)
    ys = np.arange(y0, y1 + step / 2, step)
    segments = [[[float(x), float(y0), z], [float(x), float(y1), z]] for x in xs]
    segments += [[[float(x0), float(y), z], [float(x1), float(y), z]] for y in ys]
    lo = np.minimum(lo, [x0, y0, z])
    hi = np.maximum(hi, [x1, y1, z])
    return segments, lo, hi
