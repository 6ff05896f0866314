"""The Whipple bicycle benchmark (Meijaard, Papadopoulos, Ruina and Schwab 2007) as a System:
eight coordinates, four rolling constraints and the configuration constraint that keeps the
front wheel on the ground, derived by the Boltzmann–Hamel equations (4.85) with numeric
elimination.

q = (x, y, ψ, φ, θ, δ, θ_R, θ_F): rear contact point, yaw, lean, pitch of the rear frame,
steer, wheel rotations.  The independent quasi-velocities are the lean rate u₁ = φ̇, the steer
rate u₂ = δ̇ and the rear wheel rate u₃ = θ̇_R (forward speed v = r_R u₃ upright); the four
slip velocities of the wheels' contact points (rolling sets them to zero) and the rate of the
front contact's height (the configuration constraint, pitch θ dependent) are the
constrained ones.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import sympy as sp
import sympy.physics.mechanics as me

from companion.examples.whipple_bicycle.model import BENCHMARK, SIGNED, geometry, parameter_symbols
from companion.mechanics.model import MechanicsModel
from companion.system import Evaluation, Parameter, System

#: Names of the coordinates, in the order of ``System.q``.
COORDINATES = ("x", "y", "psi", "phi", "theta", "delta", "theta_R", "theta_F")

#: The explorer's start: rear-wheel rate θ̇_R [rad/s] on the slider grid; v = r_R θ̇_R = 4.8 m/s,
#: inside the self-stable band.
DEFAULT_WHEEL_RATE = 16.0


def _model(p: dict[str, sp.Symbol]) -> tuple[MechanicsModel, me.Point, object]:
    """The bicycle with dynamicsymbols: rear contact at (x, y) on the ground."""
    q = me.dynamicsymbols(" ".join(COORDINATES))
    x, y, yaw, lean, pitch, steer, rear_spin, front_spin = q
    origin = me.Point("O")
    contact = me.Point("K_R")
    geo = geometry(yaw, lean, pitch, steer, rear_spin, front_spin, p, contact)
    N = geo.N
    origin.set_vel(N, 0)
    contact.set_pos(origin, x * N.x + y * N.y)
    for point in (geo.rear_centre, geo.front_centre, geo.front_contact,
                  *(b.masscenter for b in geo.bodies)):
        point.set_vel(N, point.pos_from(origin).dt(N))
    contact.set_vel(N, contact.pos_from(origin).dt(N))
    B, H = geo.rear_frame, geo.front_frame
    model = MechanicsModel(
        frame=N, q=q, bodies=geo.bodies, loads=geo.gravity,
        momentum_frames={"rear wheel": B, "rear frame": B, "front frame": H, "front wheel": H},
        frames={"N": "ground, z up", "B": "rear frame", "H": "front frame"})
    return model, origin, geo


def _same(model: MechanicsModel) -> MechanicsModel:
    """The model built once with the system (its vectors are immutable)."""
    return model


def _rolling_definitions(q, qdot, p, model, origin, geo):
    """Slip velocities of both contact points (horizontal components, yaw frame), the
    front contact's height and the potential energy, in plain symbols."""
    t = me.dynamicsymbols._t
    plain = {**{qi.diff(t): s for qi, s in zip(model.q, qdot, strict=True)},
             **dict(zip(model.q, q, strict=True))}
    Y = geo.yaw_frame
    rear_slip = geo.rear_centre.vel(model.frame) + geo.rear_wheel.ang_vel_in(model.frame).cross(
        geo.rear_contact.pos_from(geo.rear_centre))
    front_slip = geo.front_centre.vel(model.frame) + geo.front_wheel.ang_vel_in(
        model.frame).cross(geo.front_contact.pos_from(geo.front_centre))
    slips = [rear_slip.dot(Y.x), rear_slip.dot(Y.y), front_slip.dot(Y.x), front_slip.dot(Y.y)]
    height = geo.front_contact_height
    potential = sum(b.mass * p["g"] * b.masscenter.pos_from(origin).dot(model.frame.z)
                    for b in geo.bodies)
    return ([me.msubs(s, plain) for s in slips], me.msubs(height, plain),
            me.msubs(potential, plain))


def _energy(V: sp.Expr):
    """An observer of the bicycle's motions: the energy T + V, kept on the motion (rolling
    does no work, nothing dissipates).  T comes from the numeric elimination's velocity
    components, so it is an observer, not an invariant expression."""
    potential = None  # lambdified on the first motion, not when the system is built

    def observe(system: System, traj) -> None:
        nonlocal potential
        if potential is None:
            potential = sp.lambdify([*system.q, *system.parameter_symbols], V, cse=True)
        p = [traj.params[s.name] for s in system.parameter_symbols]
        qs = np.array([traj[s.name] for s in system.q])
        u = np.array([traj[s.name] for s in system.u_independent])
        T = system.compiled().kinetic_energy(traj.t, qs, u, p)
        traj.invariants["energy"] = T + np.broadcast_to(potential(*qs, *p), traj.t.shape)

    return observe


def build() -> System:
    """The benchmark bicycle; cheap to call (the equations are derived on first use)."""
    p = parameter_symbols()
    q = sp.symbols(" ".join(COORDINATES))
    qdot = [sp.Symbol(rf"\dot{{{sp.latex(s)}}}") for s in q]
    u = sp.symbols("u_1 u_2 u_3")
    slip_symbols = sp.symbols("s_1:5")
    model, origin, geo = _model(p)
    slips, height, V = _rolling_definitions(q, qdot, p, model, origin, geo)
    phi, delta, theta_R = q[3], q[5], q[6]
    definitions = [qdot[3], qdot[5], qdot[6], *slips]
    parameters = [Parameter(p[name], value, *sorted((0.5 * value, 1.5 * value)), unit, meaning,
                            positive=name not in SIGNED)
                  for name, value, unit, meaning in BENCHMARK]
    initial = [
        Parameter(q[0], 0.0, -5.0, 5.0, "m", "x of the rear contact point"),
        Parameter(q[1], 0.0, -5.0, 5.0, "m", "y of the rear contact point"),
        Parameter(q[2], 0.0, -3.14, 3.14, "rad", "yaw ψ"),
        Parameter(phi, 0.05, -0.3, 0.3, "rad", "lean φ"),
        Parameter(q[4], 0.0, -0.2, 0.2, "rad", "pitch θ (solved from the constraint)"),
        Parameter(delta, 0.0, -0.3, 0.3, "rad", "steer δ"),
        Parameter(theta_R, 0.0, -3.14, 3.14, "rad", "rear wheel angle θ_R"),
        Parameter(q[7], 0.0, -3.14, 3.14, "rad", "front wheel angle θ_F"),
        Parameter(u[0], 0.0, -1.0, 1.0, "rad/s", "lean rate φ̇"),
        Parameter(u[1], 0.0, -1.0, 1.0, "rad/s", "steer rate δ̇"),
        Parameter(u[2], DEFAULT_WHEEL_RATE, 0.0, 40.0, "rad/s",
                  "rear wheel rate θ̇_R (forward speed v = r_R θ̇_R)"),
    ]
    return System(
        name="whipple_bicycle",
        title="The Whipple bicycle benchmark (Meijaard et al. 2007)",
        q=q, qdot=qdot, u=[*u, *slip_symbols], definitions=definitions,
        n_constraints=4, holonomic=[height], dependent=[q[4]],
        Q_q=[-V.diff(s) for s in q],
        parameters=parameters, initial=initial,
        mechanics_model=partial(_same, model),
        elimination="numeric",
        evaluation=Evaluation(observers=[_energy(V)], t_final=5.0, n_points=251))


def drawing_points(system: System):
    """``f(q, p) -> dict`` of positions (3,) in N of the points a scene draws, and of the
    wheels' in-plane unit vectors (forward, up), from the same geometry as the equations."""
    p = {s.name: s for s in system.parameter_symbols}
    model, origin, geo = _model(p)
    plain = dict(zip(model.q, system.q, strict=True))
    N, B, H = geo.N, geo.rear_frame, geo.front_frame
    head = geo.front_centre.locatenew("head", 0.3 * (sp.cos(p["lambda"]) * B.z
                                                     - sp.sin(p["lambda"]) * B.x))
    vectors = {
        "rear contact": geo.rear_contact.pos_from(origin),
        "rear centre": geo.rear_centre.pos_from(origin),
        "front centre": geo.front_centre.pos_from(origin),
        "front contact": geo.front_contact.pos_from(origin),
        "head": head.pos_from(origin),
        "rear body": geo.bodies[1].masscenter.pos_from(origin),
        "rear x": B.x, "rear z": B.z, "front x": H.x, "front z": H.z,
    }
    flat = [e for v in vectors.values() for e in me.msubs(v.to_matrix(N), plain)]
    fn = sp.lambdify([*system.q, *system.parameter_symbols], flat, modules="numpy", cse=True)

    def positions(q, params) -> dict[str, np.ndarray]:
        values = np.broadcast_arrays(*(np.asarray(c, float) for c in fn(*q, *params)))
        return {name: np.array(values[3 * i: 3 * i + 3]) for i, name in enumerate(vectors)}

    return positions
