"""The Whipple bicycle of Meijaard, Papadopoulos, Ruina and Schwab (2007): frames, points and
bodies as :mod:`sympy.physics.mechanics` objects, shared by our Boltzmann–Hamel model and the
KanesMethod check.

Four rigid bodies: rear wheel R, rear frame with rider B, front frame (fork and handlebar) H,
front wheel F, hinged at the steering axis, both knife-thin wheels rolling without slip on
level ground.  Geometry and inertia are entered exactly as the paper's benchmark table gives
them (its upright reference configuration, x forward, z down); here z points *up* and y to
the left (a half turn about x), which flips the sign of the xz products of inertia.  Sign
conventions of lean and steer do not change the eigenvalues.

Orientation of the rear frame from the ground: yaw ψ about the vertical, lean φ about the
new x, pitch θ about the new y (Moore's 3-1-2 sequence); the front frame turns by δ about the
steering axis, tilted back by λ from the vertical and crossing the ground a trail c ahead of
the front wheel's contact point.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
import sympy.physics.mechanics as me

#: The benchmark parameters (name, value, unit, meaning), Table 1 of the paper.
BENCHMARK = (
    ("w", 1.02, "m", "wheel base"),
    ("c", 0.08, "m", "trail"),
    ("lambda", float(sp.pi / 10), "rad", "steer axis tilt λ"),
    ("g", 9.81, "m/s²", "gravity"),
    ("r_R", 0.3, "m", "rear wheel radius"),
    ("m_R", 2.0, "kg", "rear wheel mass"),
    ("I_Rxx", 0.0603, "kg m²", "rear wheel diametral inertia"),
    ("I_Ryy", 0.12, "kg m²", "rear wheel axial inertia"),
    ("x_B", 0.3, "m", "rear body mass centre, forward"),
    ("z_B", -0.9, "m", "rear body mass centre, z (down) of the paper"),
    ("m_B", 85.0, "kg", "rear body mass"),
    ("I_Bxx", 9.2, "kg m²", "rear body inertia xx"),
    ("I_Byy", 11.0, "kg m²", "rear body inertia yy"),
    ("I_Bzz", 2.8, "kg m²", "rear body inertia zz"),
    ("I_Bxz", 2.4, "kg m²", "rear body product of inertia xz (paper's axes)"),
    ("x_H", 0.9, "m", "front frame mass centre, forward"),
    ("z_H", -0.7, "m", "front frame mass centre, z (down) of the paper"),
    ("m_H", 4.0, "kg", "front frame mass"),
    ("I_Hxx", 0.05892, "kg m²", "front frame inertia xx"),
    ("I_Hyy", 0.06, "kg m²", "front frame inertia yy"),
    ("I_Hzz", 0.00708, "kg m²", "front frame inertia zz"),
    ("I_Hxz", -0.00756, "kg m²", "front frame product of inertia xz (paper's axes)"),
    ("r_F", 0.35, "m", "front wheel radius"),
    ("m_F", 3.0, "kg", "front wheel mass"),
    ("I_Fxx", 0.1405, "kg m²", "front wheel diametral inertia"),
    ("I_Fyy", 0.28, "kg m²", "front wheel axial inertia"),
)

#: Parameters that may be zero or negative (the others are lengths, masses, moments > 0).
SIGNED = {"z_B", "z_H", "I_Bxz", "I_Hxz", "x_B", "x_H", "c"}


def parameter_symbols() -> dict[str, sp.Symbol]:
    """The benchmark parameters as symbols, by name (lengths, masses and moments positive)."""
    return {name: sp.Symbol(name, real=True) if name in SIGNED else sp.Symbol(name, positive=True)
            for name, *_ in BENCHMARK}


@dataclass
class BicycleGeometry:
    """The bicycle's frames, points and bodies for given coordinate functions."""

    N: me.ReferenceFrame
    yaw_frame: me.ReferenceFrame
    lean_frame: me.ReferenceFrame
    rear_frame: me.ReferenceFrame
    front_frame: me.ReferenceFrame
    rear_wheel: me.ReferenceFrame
    front_wheel: me.ReferenceFrame
    rear_contact: me.Point
    rear_centre: me.Point
    front_centre: me.Point
    front_contact: me.Point
    bodies: list[me.RigidBody]
    gravity: list[tuple[me.Point, me.Vector]]
    #: Height of the front contact point above the ground: zero on the bicycle (holonomic).
    front_contact_height: sp.Expr


def geometry(yaw, lean, pitch, steer, rear_spin, front_spin, p: dict[str, sp.Symbol],
             rear_contact: me.Point) -> BicycleGeometry:
    """Frames, points and bodies of the bicycle whose rear wheel touches the ground at
    ``rear_contact`` (its position and velocity in N are set by the caller).

    The angles may be plain symbols or ``dynamicsymbols``; all vectors follow from them.
    """
    N = me.ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", (yaw, N.z))
    L = Y.orientnew("L", "Axis", (lean, Y.x))
    B = L.orientnew("B", "Axis", (pitch, L.y))
    lam = p["lambda"]
    steer_axis = -sp.sin(lam) * B.x + sp.cos(lam) * B.z  # up along the axis, tilted back by λ
    H = B.orientnew("H", "Axis", (steer, steer_axis))
    R = B.orientnew("R", "Axis", (rear_spin, B.y))
    F = H.orientnew("F", "Axis", (front_spin, H.y))
    w, c, rR, rF = p["w"], p["c"], p["r_R"], p["r_F"]
    rear_centre = rear_contact.locatenew("P_R", rR * L.z)
    # The steering axis meets the ground (upright) at the trail c ahead of the front contact.
    axis_foot = rear_centre.locatenew("S", (w + c) * B.x - rR * B.z)
    front_centre = axis_foot.locatenew("P_F", -c * H.x + rF * H.z)
    rear_body_centre = rear_centre.locatenew("G_B", p["x_B"] * B.x + (-p["z_B"] - rR) * B.z)
    front_body_centre = axis_foot.locatenew(
        "G_H", (p["x_H"] - w - c) * H.x - p["z_H"] * H.z)
    down_in_wheel_plane = (H.y.dot(N.z) * H.y - N.z).normalize()
    front_contact = front_centre.locatenew("K_F", rF * down_in_wheel_plane)

    def body(name, centre, frame, mass, inertia):
        return me.RigidBody(name, centre, frame, mass, (inertia, centre))

    bodies = [
        body("rear wheel", rear_centre, R, p["m_R"], me.inertia(B, p["I_Rxx"], p["I_Ryy"],
                                                                p["I_Rxx"])),
        body("rear frame", rear_body_centre, B, p["m_B"],
             me.inertia(B, p["I_Bxx"], p["I_Byy"], p["I_Bzz"], 0, 0, -p["I_Bxz"])),
        body("front frame", front_body_centre, H, p["m_H"],
             me.inertia(H, p["I_Hxx"], p["I_Hyy"], p["I_Hzz"], 0, 0, -p["I_Hxz"])),
        body("front wheel", front_centre, F, p["m_F"], me.inertia(H, p["I_Fxx"], p["I_Fyy"],
                                                                 p["I_Fxx"])),
    ]
    gravity = [(b.masscenter, -b.mass * p["g"] * N.z) for b in bodies]
    height = front_contact.pos_from(rear_contact).dot(N.z)
    return BicycleGeometry(N, Y, L, B, H, R, F, rear_contact, rear_centre, front_centre,
                           front_contact, bodies, gravity, height)
