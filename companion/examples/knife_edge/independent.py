"""The knife edge by sympy's KanesMethod, from frames, points and bodies only:
an independent check of the engine."""

from __future__ import annotations

import sympy as sp
from sympy.physics import mechanics as me

from companion.examples.independent import KaneModel, dynamic_symbols, symbols_by_name
from companion.system import System


def kane_model(system: System) -> KaneModel:
    """Two particles on a massless rod, particle 1 with a knife edge (velocity constraint)."""
    s = symbols_by_name(system)
    (x, y, phi), u, plain = dynamic_symbols(system, ["x", "y", "phi"], ["u_1", "u_2", "u_3"])
    xd, yd, phid = (sp.diff(v, me.dynamicsymbols._t) for v in (x, y, phi))
    N = me.ReferenceFrame("N")
    kd = [u[0] - (xd * sp.cos(phi) + yd * sp.sin(phi)), u[1] - phid,
          u[2] - (-xd * sp.sin(phi) + yd * sp.cos(phi))]
    O = me.Point("O")
    O.set_vel(N, 0)
    P1 = O.locatenew("P1", x * N.x + y * N.y)
    P2 = P1.locatenew("P2", s["l"] * (sp.cos(phi) * N.x + sp.sin(phi) * N.y))
    P1.set_vel(N, P1.pos_from(O).dt(N))
    P2.set_vel(N, P2.pos_from(O).dt(N))
    bodies = [me.Particle("p1", P1, s["m"]), me.Particle("p2", P2, s["m"])]
    kane = me.KanesMethod(N, q_ind=[x, y, phi], u_ind=u[:2], u_dependent=u[2:], kd_eqs=kd,
                          velocity_constraints=[u[2]])
    return KaneModel(kane, [], bodies, plain, u[2:])
