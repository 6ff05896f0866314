"""The free rigid body of Example 4.3 (and, with gravity, the heavy top) by sympy's KanesMethod,
set up from frames and bodies only: an independent check of the Boltzmann–Hamel engine."""

from __future__ import annotations

import sympy as sp
from sympy.physics import mechanics as me

from companion.examples.independent import KaneModel, dynamic_symbols, symbols_by_name
from companion.system import System


def kane_model(system: System) -> KaneModel:
    """Ex 4.3's free body with moments M about its principal axes, or, for a system with the
    heavy top's mass centre a distance h up the body z axis, that top on its pivot with gravity
    and damping."""
    s = symbols_by_name(system)
    with_gravity = "h" in s
    q, u, plain = dynamic_symbols(system, ["psi", "theta", "phi"],
                                  ["omega_x", "omega_y", "omega_z"])
    N = me.ReferenceFrame("N")
    B = N.orientnew("B", "Body", q, "ZYX")  # yaw ψ, pitch θ, roll φ (type I Euler angles)
    w = B.ang_vel_in(N)
    kd = [u[0] - w.dot(B.x), u[1] - w.dot(B.y), u[2] - w.dot(B.z)]
    B.set_ang_vel(N, u[0] * B.x + u[1] * B.y + u[2] * B.z)
    O = me.Point("O")
    O.set_vel(N, 0)
    I = me.inertia(B, s["I_xx"], s["I_yy"], s["I_zz"])
    if with_gravity:
        G = O.locatenew("G", s["h"] * B.z)
        G.v2pt_theory(O, N, B)
        # Inertia given about the pivot; express it about G for RigidBody.
        I_G = I - s["m"] * s["h"] ** 2 * (B.x | B.x) - s["m"] * s["h"] ** 2 * (B.y | B.y)
        body = me.RigidBody("B", G, B, s["m"], (I_G, G))
        wvec = u[0] * B.x + u[1] * B.y + u[2] * B.z
        loads = [(G, -s["m"] * s["g"] * N.z), (B, -s["c"] * wvec)]
    else:
        body = me.RigidBody("B", O, B, sp.Symbol("mass"), (I, O))
        loads = [(B, s["M_x"] * B.x + s["M_y"] * B.y + s["M_z"] * B.z)]
    kane = me.KanesMethod(N, q_ind=q, u_ind=u, kd_eqs=kd)
    return KaneModel(kane, loads, [body], plain)
