"""Greenwood §4.4: the rolling disk with its momenta written in a frame that is not fixed in the
disk — the alternate form (4.144)–(4.146) of the general dynamical equation.

The system is the companion's ``rolling_disk`` (a vertical disk rolling on a plane inclined at
α, q = (x, y, θ, φ), speeds θ̇ and φ̇ with the two slip velocities suppressed).  Its geometry
for the general dynamical equation: the heading frame H turns by θ about the plane's normal,
the disk frame D turns further by the spin φ about the axle H.y.  p and H of the disk are
resolved in H, which does not spin with the disk, and differentiated there:
Ḣ = (dH/dt)_H + ω_H × H — the remark after (4.146): any convenient frame will do.
"""

from __future__ import annotations

from functools import partial

import sympy as sp
import sympy.physics.mechanics as me

from companion.examples.rolling_disk import system as rolling_disk
from companion.mechanics.model import MechanicsModel
from companion.system import System


def disk_model(m, R, g, alpha) -> MechanicsModel:
    x, y, theta, phi = me.dynamicsymbols("x y theta phi")
    N = me.ReferenceFrame("N")  # the plane: x down the slope, z along the normal
    H = N.orientnew("H", "Axis", (theta, N.z))
    D = H.orientnew("D", "Axis", (phi, H.y))
    O = me.Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", x * N.x + y * N.y)  # contact point
    G = C.locatenew("G", R * N.z)  # centre, above the contact
    central = me.inertia(D, m * R**2 / 4, m * R**2 / 2, m * R**2 / 4)
    disk = me.RigidBody("disk", G, D, m, (central, G))
    return MechanicsModel(
        frame=N, q=[x, y, theta, phi], bodies=[disk],
        loads=[(G, m * g * sp.sin(alpha) * N.x)],  # gravity's component along the slope
        momentum_frames={"disk": H},
        frames={"N": "the plane's, x down the slope", "H": "heading frame, turned θ about n̂_z",
                "D": "the disk's own, turned φ about the axle"})


def build() -> System:
    system = rolling_disk.build()
    system.name = "rolling_disk_frame"
    system.title = "Rolling disk by the alternate form, momenta in the heading frame (§4.4)"
    system.source = "Greenwood §4.4, (4.144)–(4.146) and the remark after them"
    m, R, g, alpha = system.parameter_symbols
    system.mechanics_model = partial(disk_model, m, R, g, alpha)
    return system
