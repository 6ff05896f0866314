"""Greenwood §4.4: the heavy top written about its pivot — the general dynamical equation
(4.142) for one rigid body whose reference point P (the fixed pivot) is not its mass centre.

The system is the companion's ``heavy_top`` given the geometry the general dynamical equation
needs.  With P at the pivot v_P = 0, so only the (I_P·ω̇ + ω × I_P·ω)·β terms and the ρ_c
shares of the loads remain; gravity acts at the mass centre.
"""

from __future__ import annotations

from functools import partial

import sympy.physics.mechanics as me

from companion.examples.heavy_top import system as heavy_top
from companion.mechanics.model import MechanicsModel
from companion.system import System


def pivot_model(moments, m, g, h, c) -> MechanicsModel:
    """The top as a sympy RigidBody with the pivot O as reference point."""
    psi, theta, phi = me.dynamicsymbols("psi theta phi")
    omega = me.dynamicsymbols("omega_x omega_y omega_z")
    N = me.ReferenceFrame("N")
    B = N.orientnew("B", "Body", (psi, theta, phi), "ZYX")
    O = me.Point("O")
    O.set_vel(N, 0)
    G = O.locatenew("G", h * B.z)
    Ixx, Iyy, Izz = moments
    # The moments are given about the pivot; the body needs its central inertia.
    central = me.inertia(B, Ixx - m * h**2, Iyy - m * h**2, Izz)
    body = me.RigidBody("top", G, B, m, (central, G))
    damping = -c * (omega[0] * B.x + omega[1] * B.y + omega[2] * B.z)
    return MechanicsModel(frame=N, q=[psi, theta, phi], bodies=[body],
                          loads=[(G, -m * g * N.z), (B, damping)],
                          reference_points={"top": O},
                          frames={"N": "inertial, n̂_z up", "B": "body, principal axes at O"})


def build() -> System:
    system = heavy_top.build()
    Ixx, Iyy, Izz, m, g, h, c = system.parameter_symbols
    return system.variant(
        name="heavy_top_pivot",
        title="Heavy top about its pivot by the general dynamical equation (§4.4)",
        mechanics_model=partial(pivot_model, (Ixx, Iyy, Izz), m, g, h, c))
