"""Building blocks of rigid-body scenes (Greenwood Ex. 4.3, Loparo & Vakalis §7.4–7.6, the
thrown body, the heavy top): the tumbling box with its principal axes, ω and H.

The box has the proportions of a uniform box with the body's principal moments, so the axis
of largest inertia is its shortest edge; ω and H (labelled arrows) are drawn from its centre.
H stays fixed in space while the body tumbles about it: the tennis-racket flip is the box
turning over while H stands still.
"""

from __future__ import annotations

import numpy as np

from companion.numerics import Trajectory, rotations
from companion.numerics.rotations import quaternion_from_euler_angles as euler_quaternions
from companion.scene.describe import list_times, sign_changes
from companion.scene.items import (
    COLORS,
    Arrow,
    Declaration,
    box,
    quaternion_from_matrices,
)

#: The principal moments and the body rates, as the rigid bodies' systems name them.
INERTIA = ("I_xx", "I_yy", "I_zz")
OMEGA = ("omega_x", "omega_y", "omega_z")


def box_proportions(I: np.ndarray) -> np.ndarray:
    """Edge lengths (largest 1) of the uniform box with principal moments I:
    a² ∝ I_y + I_z − I_x."""
    squares = np.maximum(np.sum(I) - 2 * np.asarray(I, dtype=float), 1e-6 * np.sum(I))
    edges = np.sqrt(squares)
    return np.maximum(edges / edges.max(), 0.2)  # a plate keeps some thickness to be seen


def body_attitude(trajectory: Trajectory) -> np.ndarray:
    """Quaternions (4, N) from body to space axes, whichever way the system carries them."""
    if "q_w" in trajectory.names:
        return np.array([trajectory[f"q_{c}"] for c in "wxyz"])
    if "e_x" in trajectory.series:
        return quaternion_from_matrices(np.stack([trajectory[f"e_{c}"] for c in "xyz"], axis=1))
    return euler_quaternions(trajectory["psi"], trajectory["theta"], trajectory["phi"])


def tumbling_box(trajectory: Trajectory, centre, size: float) -> tuple[list, np.ndarray]:
    """The box, its principal axes, ω and H (space axes), and H/|H| in body axes."""
    I = np.array([trajectory.params[n] for n in INERTIA])
    omega_body = np.array([trajectory[n] for n in OMEGA])
    q = body_attitude(trajectory)
    h_body = I[:, None] * omega_body
    items = box(tuple(size * box_proportions(I)), centre, q)
    for colour, label, body in (("omega", "ω", omega_body), ("H", "H", h_body)):
        vector = rotations.rotate(q, body)  # in space axes
        reach = 0.85 * size / max(np.max(np.linalg.norm(vector, axis=0)), 1e-12)
        items.append(Arrow(centre, vector * reach, COLORS[colour], label=label, width=3.0))
    return items, h_body / np.linalg.norm(h_body, axis=0)


def flip_story(t: np.ndarray, h_body: np.ndarray) -> str:
    """Where H, seen from the body, crosses to the other side of the axis it started near."""
    k = int(np.argmax(np.abs(h_body[:, 0])))
    flips = sign_changes(t, h_body[k])
    axis = "xyz"[k]
    if not flips:
        return (f"H stays on one side of the body {axis} axis: the body wobbles about it "
                "without turning over.")
    return (f"the body turns over about H (the tennis-racket flip: H, fixed in space, crosses "
            f"from one end of the body {axis} axis to the other) at {list_times(flips)}.")


def free_body(trajectory: Trajectory, title: str) -> Declaration:
    """The torque-free body: the box tumbling about the fixed H."""
    items, h_body = tumbling_box(trajectory, (0.0, 0.0, 0.0), 1.0)
    # framed on the box and its arrows (reach 0.85), not on the cube every attitude sweeps:
    # half the view's width is 0.95 box lengths
    return Declaration(items, title=title, camera=(-55.0, 20.0), aspect=0.7,
                       follow=(np.zeros(3), 0.95),
                       description=f"A box with the body's principal moments tumbles freely "
                                   f"for {trajectory.t[-1]:.0f} s; the arrow ω moves while H "
                                   f"stays fixed; {flip_story(trajectory.t, h_body)}")
