"""The rolling disk by sympy's KanesMethod, from frames, points and bodies only:
an independent check of the engine."""

from __future__ import annotations

import sympy as sp
from sympy.physics import mechanics as me

from companion.examples.independent import KaneModel, dynamic_symbols, symbols_by_name
from companion.system import System


def kane_model(system: System) -> KaneModel:
    """A uniform vertical disk rolling on an incline: a rigid body with two rolling constraints."""
    s = symbols_by_name(system)
    q, u, plain = dynamic_symbols(system, ["x", "y", "theta", "phi"],
                                  ["u_1", "u_2", "u_3", "u_4"])
    x, y, th, ph = q
    m, R = s["m"], s["R"]
    N = me.ReferenceFrame("N")  # x down the slope, z normal to the plane
    A = N.orientnew("A", "Axis", [th, N.z])  # heading frame, A.y along the axle
    D = A.orientnew("D", "Axis", [ph, A.y])
    O = me.Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", x * N.x + y * N.y + R * N.z)  # disk centre above the contact point
    C.set_vel(N, C.pos_from(O).dt(N))
    contact = C.locatenew("K", -R * N.z)
    contact.v2pt_theory(C, N, D)
    slip = contact.vel(N)
    kd = [u[0] - th.diff(), u[1] - ph.diff(),
          u[2] - slip.dot(N.x), u[3] - slip.dot(N.y)]
    I = me.inertia(A, m * R**2 / 4, m * R**2 / 2, m * R**2 / 4)
    disk = me.RigidBody("disk", C, D, m, (I, C))
    gravity = (C, m * s["g"] * sp.sin(s["alpha"]) * N.x)  # component along the slope
    kane = me.KanesMethod(N, q_ind=q, u_ind=u[:2], u_dependent=u[2:], kd_eqs=kd,
                          velocity_constraints=u[2:])
    return KaneModel(kane, [gravity], [disk], plain, u[2:])
