"""Independent derivations of the registered examples with ``sympy.physics.mechanics``.

Each model is set up from the physics (frames, points, bodies, forces) with
:class:`~sympy.physics.mechanics.KanesMethod`, using the same quasi-velocities as speeds, so
its accelerations can be compared number for number with the Boltzmann–Hamel engine.  Nothing
here uses the engine, the systems' kinetic energies or their Ψ: only the symbols (by name), so
that states and parameters line up.  Used by tests and ``benchmarks/derivation_time.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp
from sympy.physics import mechanics as me

from companion.system import System


@dataclass
class KaneModel:
    """A KanesMethod formulation and the map from its dynamicsymbols to the system's Symbols."""

    kane: me.KanesMethod
    loads: list
    bodies: list
    plain: dict  # dynamicsymbol -> plain Symbol of the System (and t -> t)
    dependent: Sequence = ()  # dependent speeds, which the velocity constraints set to zero

    def derive(self) -> tuple[sp.Matrix, sp.Matrix]:
        """Kane's equations; returns (M, f) with M u̇ = f for the independent speeds."""
        self.kane.kanes_equations(self.bodies, self.loads)
        return self.kane.mass_matrix, self.kane.forcing

    def accelerations_function(self, system: System) -> Callable:
        """``f(t, q, u, p) -> u̇`` numerically, after :meth:`derive`."""
        # The velocity constraints of every model here are u_dependent = 0.
        on_motion = {ud: 0 for ud in self.dependent}
        M = me.msubs(me.msubs(self.kane.mass_matrix, on_motion), self.plain)
        f = me.msubs(me.msubs(self.kane.forcing, on_motion), self.plain)
        t = system.t if system.t is not None else sp.Dummy("t")
        args = [t, *system.q, *system.u_independent, *system.parameter_symbols]
        fn = sp.lambdify(args, [M, f], modules="numpy", cse=True)

        k = len(system.u_independent)

        def udot(t: float, q: Sequence[float], u: Sequence[float], p: Sequence[float]):
            # With constraints, KanesMethod appends the differentiated constraints as rows,
            # so the solve also yields the dependent u̇'s; keep the independent ones.
            Mn, fn_ = fn(t, *q, *u, *p)
            sol = np.linalg.solve(np.asarray(Mn, float), np.asarray(fn_, float).ravel())
            return sol[:k]

        return udot


def _symbols(system: System) -> dict[str, sp.Symbol]:
    return {s.name: s for s in (*system.q, *system.u, *system.parameter_symbols)}


def _dyn(system: System, names: Sequence[str]):
    """dynamicsymbols named like the system's coordinates/speeds, and their plain map."""
    out = [me.dynamicsymbols(n) for n in names]
    plain = {d: _symbols(system)[n] for d, n in zip(out, names, strict=True)}
    return out, plain


def _rigid_rotation(system: System, with_gravity: bool) -> KaneModel:
    """Ex 4.3 (free body with moments M) or the heavy top (pivot, gravity, damping)."""
    s = _symbols(system)
    q, plain = _dyn(system, ["psi", "theta", "phi"])
    u, plain_u = _dyn(system, ["omega_x", "omega_y", "omega_z"])
    plain.update(plain_u)
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


def knife_edge(system: System) -> KaneModel:
    """Two particles on a massless rod, particle 1 with a knife edge (velocity constraint)."""
    s = _symbols(system)
    (x, y, phi), plain = _dyn(system, ["x", "y", "phi"])
    u, plain_u = _dyn(system, ["u_1", "u_2", "u_3"])
    plain.update(plain_u)
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


def moving_carriage(system: System) -> KaneModel:
    """A particle on fixed springs; speeds = its velocity relative to a moving, turning carriage."""
    s = _symbols(system)
    (r, th), plain = _dyn(system, ["r", "theta"])
    u, plain_u = _dyn(system, ["u_1", "u_2"])
    plain.update(plain_u)
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


def rolling_disk(system: System) -> KaneModel:
    """A uniform vertical disk rolling on an incline: a rigid body with two rolling constraints."""
    s = _symbols(system)
    q, plain = _dyn(system, ["x", "y", "theta", "phi"])
    u, plain_u = _dyn(system, ["u_1", "u_2", "u_3", "u_4"])
    plain.update(plain_u)
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


#: Example name -> builder of its independent Kane model.
MODELS: dict[str, Callable[[System], KaneModel]] = {
    "euler_body": lambda system: _rigid_rotation(system, with_gravity=False),
    "heavy_top": lambda system: _rigid_rotation(system, with_gravity=True),
    "knife_edge": knife_edge,
    "moving_carriage": moving_carriage,
    "rolling_disk": rolling_disk,
}
