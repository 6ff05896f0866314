"""The Whipple bicycle by sympy's KanesMethod (Moore's formulation, as sympy's own
``test_kane3.py`` builds it): an independent check of the numeric Boltzmann–Hamel equations.

Only the geometry (:func:`~companion.examples.whipple_bicycle.model.geometry`) is shared.
Kane's method works with the constrained velocities directly: the rear wheel's contact point
is at rest, every velocity follows by the two-point theorems, the front contact's velocity
components are the velocity constraints (the vertical one the rate of the configuration
constraint), and the dependent speeds are eliminated symbolically by sympy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp
import sympy.physics.mechanics as me

from companion.examples.whipple_bicycle.model import geometry
from companion.system import System


@dataclass
class BicycleKane:
    """The KanesMethod object and what maps its symbols to the System's."""

    kane: me.KanesMethod
    bodies: list
    loads: list
    q: list  # yaw, lean, pitch, steer, rear spin, front spin (dynamicsymbols)
    u_ind: list  # lean rate, steer rate, rear wheel rate
    u_dep: list  # yaw rate, pitch rate, front wheel rate
    constraints: sp.Matrix  # front contact velocity components, linear in u

    def derive(self) -> tuple[sp.Matrix, sp.Matrix]:
        """Kane's equations M u̇ = f of the independent speeds (dependent ones eliminated)."""
        self.kane.kanes_equations(self.bodies, self.loads)
        return self.kane.mass_matrix, self.kane.forcing

    def accelerations_function(self, system: System) -> Callable:
        """``f(q, u, p) -> u̇`` of (u₁, u₂, u₃) at a state of ``system`` (after
        :meth:`derive`); the dependent speeds are solved from the velocity constraints."""
        by_name = {s.name: s for s in (*system.q, *system.parameter_symbols)}
        names = ["psi", "phi", "theta", "delta", "theta_R", "theta_F"]
        plain_q = [by_name[n] for n in names]
        us = [sp.Dummy(f"u{i}") for i in range(6)]
        plain = {**dict(zip(self.q, plain_q, strict=True)),
                 **dict(zip([*self.u_ind, *self.u_dep], us, strict=True))}
        args = [*plain_q, *us, *system.parameter_symbols]
        M = me.msubs(self.kane.mass_matrix, plain)
        f = me.msubs(self.kane.forcing, plain)
        A = me.msubs(self.constraints.jacobian([*self.u_ind, *self.u_dep]), plain)
        fn = sp.lambdify(args, [M, f, A], modules="numpy", cse=True)

        def udot(q: Sequence[float], u: Sequence[float], p: Sequence[float]) -> np.ndarray:
            values = dict(zip([s.name for s in system.q], q, strict=True))
            qk = [values[n] for n in names]
            _, _, An = fn(*qk, *u, 0.0, 0.0, 0.0, *p)
            An = np.asarray(An, float)
            u_dep = np.linalg.solve(An[:, 3:], -An[:, :3] @ np.asarray(u, float))
            Mn, fn_, _ = fn(*qk, *u, *u_dep, *p)
            # KanesMethod appends the differentiated constraints: u̇ = (independent, dependent).
            return np.linalg.solve(np.asarray(Mn, float), np.asarray(fn_, float).ravel())[:3]

        return udot


def kane_model(system: System) -> BicycleKane:
    """The bicycle of ``system`` (same parameter symbols) set up for KanesMethod."""
    p = {s.name: s for s in system.parameter_symbols}
    q = me.dynamicsymbols("psi phi theta delta theta_R theta_F")
    u = me.dynamicsymbols("u_psi u_phi u_theta u_delta u_R u_F")
    yaw, lean, pitch, steer, rear_spin, front_spin = q
    contact = me.Point("K_R")
    geo = geometry(*q, p, contact)
    N = geo.N
    contact.set_vel(N, 0)
    kd = [qi.diff() - ui for qi, ui in zip(q, u, strict=True)]
    as_speeds = {qi.diff(): ui for qi, ui in zip(q, u, strict=True)}
    for frame in (geo.yaw_frame, geo.lean_frame, geo.rear_frame, geo.front_frame,
                  geo.rear_wheel, geo.front_wheel):
        frame.set_ang_vel(N, frame.ang_vel_in(N).subs(as_speeds))
    geo.rear_centre.v2pt_theory(contact, N, geo.rear_wheel)
    bodies = {b.name: b for b in geo.bodies}
    rear_centre = geo.rear_centre
    bodies["rear frame"].masscenter.v2pt_theory(rear_centre, N, geo.rear_frame)
    for point in (geo.front_centre, bodies["front frame"].masscenter):
        point.set_vel(N, rear_centre.vel(N)
                      + point.pos_from(rear_centre).dt(N).subs(as_speeds))
    geo.front_contact.v2pt_theory(geo.front_centre, N, geo.front_wheel)
    Y = geo.yaw_frame
    velocity = geo.front_contact.vel(N)
    constraints = sp.Matrix([velocity.dot(Y.x), velocity.dot(Y.y), velocity.dot(Y.z)])
    u_ind = [u[1], u[3], u[4]]
    u_dep = [u[0], u[2], u[5]]
    kane = me.KanesMethod(N, q_ind=[yaw, lean, steer, rear_spin, front_spin], q_dependent=[pitch],
                          configuration_constraints=[geo.front_contact_height],
                          u_ind=u_ind, u_dependent=u_dep, velocity_constraints=list(constraints),
                          kd_eqs=kd, constraint_solver="CRAMER")
    return BicycleKane(kane, geo.bodies, geo.gravity, q, u_ind, u_dep, constraints)
