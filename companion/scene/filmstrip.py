"""The static fallback of a scene: a filmstrip of a few keyframes drawn with matplotlib.

Shown where no widget front end runs (nbconvert without widget state, a plain HTML viewer,
a screen reader gets the alt text).  It reads the same keyframes as scene.js and draws them
the same way: an orthographic camera, faces sorted back to front, arrows on top.
"""

from __future__ import annotations

from functools import partial
from itertools import product

import numpy as np
from matplotlib.colors import to_rgb
from scipy.spatial.transform import Rotation

from companion.scene.keyframes import Keyframes, keyframe_indices
from companion.widgets.frames import figure_png, holding_matplotlib

LIGHT = np.array([0.35, 0.65, 0.7]) / np.linalg.norm([0.35, 0.65, 0.7])


def camera_axes(spec: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Screen right, screen up and the direction toward the viewer (world axes)."""
    if spec["view"] == "2d":
        return tuple(np.eye(3))
    az, el = np.radians(spec["camera"])
    toward = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
    right = np.array([-np.sin(az), np.cos(az), 0.0])
    return right, np.cross(toward, right), toward


def _corners(bounds) -> np.ndarray:
    """The eight corners (8, 3) of the box ``bounds`` = (low corner, high corner)."""
    return np.array(list(product(*zip(*bounds, strict=True))), dtype=float)


def draw_frame(ax, keyframes: Keyframes, frame: int, *, neutral: bool = False) -> None:
    """Draw keyframe ``frame`` on a matplotlib axes (screen coordinates in metres);
    ``neutral`` (a prediction open): only the bodies, in their own colours, framed by the
    start, as scene.js draws them then."""
    spec = keyframes.spec
    right, up, toward = camera_axes(spec)
    basis = np.array([right, up])

    def screen(*points):
        """The screen coordinates of ``points``, shape (2, len(points))."""
        return basis @ np.transpose(points)

    for grid in [] if neutral else spec["grids"]:
        for a, b in grid["segments"]:
            ax.plot(*screen(a, b), color="#d0d0d0", lw=0.6, zorder=0)
    for trail in [] if neutral else spec["trails"]:
        path = keyframes.channel(trail["point"])[: frame + 1] @ basis.T
        ax.plot(path[:, 0], path[:, 1], color=trail["color"], lw=1.0, zorder=1)
    prims = []  # (depth, order, draw at a zorder); order: declaration order (layer), then face
    for mesh in spec["meshes"]:
        pos = keyframes.value(mesh["position"], frame)
        verts = np.array(mesh["vertices"], dtype=float)
        if mesh["attitude"] is not None:  # (w, x, y, z); scipy takes w last
            q = keyframes.value(mesh["attitude"], frame)
            verts = Rotation.from_quat(q[[1, 2, 3, 0]]).apply(verts)
        verts += pos
        color = mesh["color"]
        if "mode" in mesh and not neutral:
            color = mesh["palette"][int(round(keyframes.value(mesh["mode"], frame)[0]))]
        for k, face in enumerate(mesh["faces"]):
            w = verts[list(face)]
            n = np.cross(w[1] - w[0], w[2] - w[0])
            n /= np.linalg.norm(n) or 1.0
            if spec["view"] == "3d" and mesh["opacity"] >= 1 and n @ toward <= 1e-6:
                continue
            rgb = np.array(to_rgb(mesh.get("face_colors", [color] * (k + 1))[k]))
            lit = 1.0 if spec["view"] == "2d" else 0.42 + 0.58 * abs(n @ (
                LIGHT @ np.array([right, up, toward])))
            xy = w @ basis.T
            prims.append((float(np.mean(w @ toward)), mesh["layer"] * 10_000 + k, partial(
                ax.fill, xy[:, 0], xy[:, 1], color=np.clip(rgb * lit, 0, 1),
                alpha=mesh["opacity"], lw=0.3)))
    for rod in spec["rods"]:
        a, b = keyframes.value(rod["a"], frame), keyframes.value(rod["b"], frame)
        prims.append((float((a + b) @ toward / 2), rod["layer"] * 10_000, partial(
            ax.plot, *screen(a, b), color=rod["color"], lw=rod["width"] / 2,
            solid_capstyle="round")))
    for point in spec["points"]:
        p = keyframes.value(point["point"], frame)
        prims.append((float(p @ toward) + 1e-3, point["layer"] * 10_000, partial(
            ax.plot, *screen(p), "o", color=point["color"], ms=point["radius"])))
    prims.sort(key=(lambda x: (x[0], x[1])) if spec["view"] == "3d" else (lambda x: x[1]))
    for z, (_, _, draw) in enumerate(prims, start=2):
        draw(zorder=z)
    top = len(prims) + 3
    for arrow in [] if neutral else spec["arrows"]:
        o = keyframes.value(arrow["origin"], frame)
        v = keyframes.value(arrow["vector"], frame)
        if np.linalg.norm(v) < 1e-9:
            continue
        s, e = screen(o, o + v).T
        ax.annotate("", xy=e, xytext=s, zorder=top,
                    arrowprops={"arrowstyle": "-|>", "color": arrow["color"], "lw": 1.4})
    t = keyframes.channel(spec["time"])[frame, 0]
    ax.set_title(f"t = {t:.2f} s", fontsize=9)
    if spec.get("follow"):  # as scene.js: the followed point centred, its reach around it
        centre, reach = screen(keyframes.value(spec["follow"]["point"], frame))[:, 0], \
            spec["follow"]["reach"]
        ax.set_xlim(centre[0] - reach, centre[0] + reach)
        ax.set_ylim(centre[1] - reach, centre[1] + reach)
    else:
        corners = _corners(spec["start_bounds" if neutral else "bounds"]) @ basis.T
        ax.set_xlim(corners[:, 0].min(), corners[:, 0].max())
        ax.set_ylim(corners[:, 1].min(), corners[:, 1].max())
    ax.set_aspect("equal")
    ax.set_axis_off()


@holding_matplotlib
def filmstrip_png(keyframes: Keyframes, n_frames: int = 4, *, height: float = 2.4,
                  neutral: bool = False) -> bytes:
    """PNG bytes of ``n_frames`` keyframes spread over the motion, side by side; ``neutral``
    (a prediction open): the start alone, drawn neutral (:func:`draw_frame`)."""
    from matplotlib.figure import Figure

    frames = [0] if neutral else keyframe_indices(keyframes.n_frames, n_frames)
    right, up, _ = camera_axes(keyframes.spec)
    corners = _corners(keyframes.spec["start_bounds" if neutral else "bounds"])
    width = (1.0 if keyframes.spec.get("follow")  # a followed reach is square
             else np.ptp(corners @ right) / max(np.ptp(corners @ up), 1e-9))
    fig = Figure(figsize=(len(frames) * height * float(np.clip(width, 0.6, 2.0)), height))
    for k, frame in enumerate(frames):
        draw_frame(fig.add_subplot(1, len(frames), k + 1), keyframes, int(frame),
                   neutral=neutral)
    fig.tight_layout(pad=0.3)
    return figure_png(fig, dpi=72, bbox_inches="tight", pad_inches=0.05)
