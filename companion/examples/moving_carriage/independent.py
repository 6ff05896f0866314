"""The moving carriage by sympy's KanesMethod, from frames, points and bodies only:
an independent check of the engine."""

from __future__ import annotations

import sympy as sp
from sympy.physics import mechanics as me

from companion.examples.independent import KaneModel, dynamic_symbols, symbols_by_name
from companion.system import System


def kane_model(system: System) -> KaneModel:
    """A particle on fixed springs; speeds = its inertial velocity less a moving carriage's, along
    the carriage's turning axes."""
    s = symbols_by_name(system)
    (r, th), u, plain = dynamic_symbols(system, ["r", "theta"], ["u_1", "u_2"])
    t = me.dynamicsymbols._t
    plain[t] = system.t
    N = me.ReferenceFrame("N")
    F = N.orientnew("F", "Axis", [s["Omega"] * t, N.z])  # the carriage's turning axes
    O = me.Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", r * sp.cos(th) * N.x + r * sp.sin(th) * N.y)
    carriage = (s["A"] * sp.sin(s["nu"] * t) * N.x).dt(N)
    v_rel = P.pos_from(O).dt(N) - carriage
    kd = [u[0] - v_rel.dot(F.x), u[1] - v_rel.dot(F.y)]
    P.set_vel(N, P.pos_from(O).dt(N))
    pos = P.pos_from(O)
    spring = -s["k_x"] * pos.dot(N.x) * N.x - s["k_y"] * pos.dot(N.y) * N.y
    kane = me.KanesMethod(N, q_ind=[r, th], u_ind=u, kd_eqs=kd)
    return KaneModel(kane, [(P, spring)], [me.Particle("p", P, s["m"])], plain)
