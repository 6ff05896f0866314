"""The general dynamical equation (4.133)/(4.142), Kane's form, with sympy.physics.mechanics.

For particles with velocities v_i = Σ_j γ_ij u_j + γ_it (4.125) and rigid bodies whose mass
centres and frames move with v_i and ω_i = Σ_j β_ij u_j + β_it (4.135)–(4.136),

    Σ_i [m_i v̇_i · γ_ij + (I_i · ω̇_i + ω_i × I_i · ω_i) · β_ij] = Q_j      (j = 1..n−m)

with Q_j = Σ_i (F_i · γ_ij + M_i · β_ij) (4.137); the left side is −Q*_j, the generalized
inertia force (4.130).  The reference point of each rigid body is its mass centre, so ρ_ci = 0
in (4.142).  Only the n − m independent u's appear: the constraints are built into the
velocities through q̇ = Φ u + Φ_t (4.134), so no constraint force and no unconstrained
kinetic energy is ever needed.

Name clash: γ_ij here are *vectors* (partial velocities) and β_ij partial angular
velocities; they have nothing to do with the Hamel coefficients γ^j_rl of §4.3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from companion.mechanics.boltzmann_hamel import dot_symbol
from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.lagrange import kinematics_of
from companion.mechanics.methods import Definition, register_method
from companion.mechanics.quasi_velocities import tidy

if TYPE_CHECKING:
    import sympy.physics.mechanics as me

    from companion.mechanics.model import MechanicsModel


class _Symbols:
    """The dictionary between the model's dynamicsymbols and the system's plain Symbols."""

    def __init__(self, system: Definition, model: MechanicsModel):
        import sympy.physics.mechanics as me  # slow to import: on first use
        self.t = me.dynamicsymbols._t
        self.q = list(model.q)
        if len(self.q) != len(system.q):
            raise ValueError(f"the mechanics model of {system.name} has {len(self.q)} "
                             f"coordinates, the system {len(system.q)}")
        u_plain = system.u_independent
        self.u = [me.dynamicsymbols(s.name) for s in u_plain]
        self.udot = [sp.Symbol(r"\dot{" + sp.latex(s) + "}") for s in u_plain]
        to_dyn = {**dict(zip(system.q, self.q, strict=True)),
                  **dict(zip(u_plain, self.u, strict=True))}
        if system.t is not None:
            to_dyn[system.t] = self.t
        phi, phi_t = kinematics_of(system)
        k = len(u_plain)
        qdot = (phi[:, :k] * sp.Matrix(u_plain) + phi_t).xreplace(to_dyn)
        #: q̇ → Φ u + Φ_t, in dynamicsymbols (4.134)
        self.kinematics = {qi.diff(self.t): e for qi, e in zip(self.q, qdot, strict=True)}
        plain = {**{v: k_ for k_, v in to_dyn.items()},
                 **{ui.diff(self.t): s for ui, s in zip(self.u, self.udot, strict=True)}}
        if system.t is None:
            plain.pop(self.t, None)
        self._plain = plain
        self.system = system

    def on_motion(self, vec: me.Vector) -> me.Vector:
        """Replace q̇ by the kinematical equations and tidy each measure number."""
        return vec.subs(self.kinematics).applyfunc(tidy)

    def plain(self, obj):
        """Any expression or vector with dynamicsymbols → the system's plain Symbols."""
        import sympy.physics.mechanics as me  # slow to import: on first use
        if isinstance(obj, me.Vector):
            return obj.applyfunc(lambda e: e.xreplace(self._plain))
        return sp.sympify(obj).xreplace(self._plain)


def _kinematic_quantities(model: MechanicsModel, sym: _Symbols):
    """Velocity, angular velocity and inertia data per body, on the motion."""
    import sympy.physics.mechanics as me  # slow to import: on first use
    N = model.frame
    out = []
    for body in model.bodies:
        if isinstance(body, me.RigidBody):
            v = sym.on_motion(body.masscenter.vel(N))
            w = sym.on_motion(body.frame.ang_vel_in(N))
            out.append((body, v, w))
        elif isinstance(body, me.Particle):
            out.append((body, sym.on_motion(body.point.vel(N)), None))
        else:
            raise ValueError(f"bodies must be Particle or RigidBody objects, got {body!r}")
    return out


@register_method("kane")
def from_system(system: Definition) -> Derivation:
    """The general dynamical equation (4.142) for a :class:`System` with a mechanics model.

    Raises
    ------
    NotImplementedError
        When the system provides no ``mechanics_model``: the method works with velocities
        of points and bodies, which T alone does not give.
    """
    import sympy.physics.mechanics as me  # slow to import: on first use
    if getattr(system, "mechanics_model", None) is None:
        raise NotImplementedError(
            f"the general dynamical equation needs the geometry of {system.name!r} (points, "
            "bodies, frames, loads): give the System a mechanics_model"
        )
    model = system.mechanics_model()
    sym = _Symbols(system, model)
    N, u = model.frame, sym.u
    k = len(u)
    steps: list[Step] = [Step(
        "Kinematical equations q̇ = Φ u + Φ_t",
        [sp.Eq(dot_symbol(qi), sym.plain(e)) for qi, e in
         zip(system.q, sym.kinematics.values(), strict=True)], "(4.134)",
        "Only the independent u's appear; the constraints are built in here once and for all.",
        None, key="kinematical_equations")]
    bodies = _kinematic_quantities(model, sym)
    steps.append(Step("Velocities v_i (mass centres and particles) on the motion",
                      [sym.plain(v) for _, v, _ in bodies], "(4.125)/(4.135)",
                      "Differentiate each position in the inertial frame, then replace q̇ by "
                      "the kinematical equations.", None, key="velocities"))
    gam = [me.partial_velocity([v], u, N)[0] for _, v, _ in bodies]
    steps.append(Step("Velocity coefficients γ_ij = ∂v_i/∂u_j", [[sym.plain(g) for g in row]
                                                               for row in gam], "(4.125)",
                      "Partial velocities: vectors, not the Hamel symbols γ^j_rl of §4.3 "
                      "(same letter, different object).", None, key="velocity_coefficients"))
    drift = [sym.on_motion(v - sum((gi * ui for gi, ui in zip(g, u, strict=True)),
                                   me.Vector(0)))
             for (_, v, _), g in zip(bodies, gam, strict=True)]
    if any(d != me.Vector(0) for d in drift):
        steps.append(Step("Rheonomic terms γ_it = v_i − Σ_j γ_ij u_j",
                          [sym.plain(d) for d in drift], "(4.125)",
                          "The part of each velocity present even when every u is zero "
                          "(explicit time dependence).", None, key="rheonomic_terms"))
    rigid = [(b, w) for b, _, w in bodies if w is not None]
    if rigid:
        steps.append(Step("Angular velocities ω_i on the motion",
                          [sym.plain(w) for _, w in rigid], "(4.136)",
                          "Angular velocity of each rigid body's frame in the inertial frame.",
                          None, key="angular_velocities"))
    beta = {id(b): me.partial_velocity([w], u, N)[0] for b, w in rigid}
    if rigid:
        steps.append(Step("Angular-velocity coefficients β_ij = ∂ω_i/∂u_j",
                          [[sym.plain(x) for x in beta[id(b)]] for b, _ in rigid], "(4.136)",
                          "Partial angular velocities: how each u turns each body.", None,
                          key="angular_velocity_coefficients"))

    Q = [sp.S.Zero] * k
    for where, load in model.loads:
        if isinstance(where, me.ReferenceFrame):
            coeffs = me.partial_velocity([sym.on_motion(where.ang_vel_in(N))], u, N)[0]
        else:
            coeffs = me.partial_velocity([sym.on_motion(where.vel(N))], u, N)[0]
        Q = [Q[j] + tidy(load.dot(coeffs[j])) for j in range(k)]
    Q = [sp.expand(sym.plain(e)) for e in Q]
    steps.append(Step("Generalized applied forces Q_j = Σ (F_i·γ_ij + M_i·β_ij)", sp.Matrix(Q),
                      "(4.129)/(4.137)", "Only working loads contribute: a constraint force is "
                      "perpendicular to every γ_ij.", "Q", key="applied_forces"))

    lhs = [sp.S.Zero] * k
    accelerations = []
    for (body, v, w), g in zip(bodies, gam, strict=True):
        a = sym.on_motion(v.dt(N))
        accelerations.append(sym.plain(a))
        # Each body's share is tidied on its own (small), never the whole equation.
        lhs = [lhs[j] + tidy(body.mass * a.dot(g[j])) for j in range(k)]
        if w is not None:
            alpha = sym.on_motion(w.dt(N))
            inertia = body.central_inertia
            torque = inertia.dot(alpha) + w.cross(inertia.dot(w))
            lhs = [lhs[j] + tidy(torque.dot(beta[id(body)][j])) for j in range(k)]
    steps.append(Step("Accelerations v̇_i", accelerations, "(4.139)",
                      "Differentiated in the inertial frame; the u̇'s appear linearly.", None,
                      key="accelerations"))
    lhs = sp.Matrix([sp.expand(sym.plain(e)) for e in lhs])
    steps.append(Step("Generalized inertia forces Q*_j = −Σ [m v̇·γ_ij + (I·ω̇ + ω×I·ω)·β_ij]",
                      -lhs, "(4.130)/(4.140)", "The inertia forces projected on the same "
                      "velocity coefficients as the applied loads.", "Q^*", key="inertia_forces"))
    udot = sp.Matrix(sym.udot)
    mass = lhs.jacobian(sym.udot).applyfunc(sp.expand)
    forcing = (sp.Matrix(Q) - (lhs - mass * udot)).applyfunc(sp.expand)
    equations = [sp.Eq(lhs[j], Q[j]) for j in range(k)]
    steps.append(Step("General dynamical equation Σ m v̇·γ_ij + … = Q_j", equations,
                      "(4.133)/(4.142)", f"{k} first-order equations in the independent u's: "
                      "Q_j + Q*_j = 0 (4.132), of the form m(q,t) u̇ + f = Q (4.143).", None,
                      key="equations"))
    kinematics = sp.Matrix([sym.plain(e) for e in sym.kinematics.values()])
    if system.t is None and sym.t in set().union(mass.free_symbols, forcing.free_symbols):
        raise ValueError(f"the mechanics model of {system.name} depends on time but the "
                         "system declares no time symbol")
    return Derivation(
        method="kane", q=list(system.q), u=list(system.u_independent), mass_matrix=mass,
        forcing=forcing, kinematics=kinematics.applyfunc(sp.expand), equations=equations,
        steps=steps, t=system.t,
        needs_unconstrained_T=False,
        extra={"velocity_coefficients": gam, "angular_velocity_coefficients": beta},
    )
