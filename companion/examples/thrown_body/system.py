"""Loparo & Vakalis §7.6: a rigid body free in space — translation added to rotation.

A box thrown under gravity: the mass centre obeys m p̈ = F in the inertial frame (Newton's law
(7.1) for the flat metric m·I₃, derived with the same toolkit), the rotation obeys Arnold's
form A ω̇ = Aω × ω + M in body axes, and the orientation is carried on SO(3) as in
:mod:`companion.examples.rigid_body_so3`.  Gravity exerts no moment about the mass centre,
so the body tumbles freely (intermediate-axis flips included) while its centre traces a
parabola.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import sympy as sp

from companion.examples.euler_body import system as euler_body
from companion.geometry.attitude import SO3Attitude
from companion.geometry.metric import covariant_equations
from companion.mechanics.derivation import Derivation
from companion.numerics import Trajectory
from companion.numerics.compile import lambdify_scalar
from companion.numerics.integrate import integrate
from companion.system import Evaluation, Parameter, Setup, System


@dataclass(frozen=True, eq=False)
class Translation:
    """The mass centre: position p, velocity v, mass m and a constant force F (§7.6)."""

    position: list[sp.Symbol]
    velocity: list[sp.Symbol]
    mass: sp.Symbol
    force: sp.Matrix

    def newton(self) -> Derivation:
        """m p̈ = F: Newton's law (7.1) for the flat metric m·I₃."""
        return covariant_equations(self.mass * sp.eye(3), self.position, self.velocity,
                                   self.force, method="newton")

    def newton_euler(self, system: System) -> Derivation:
        """The method ``"newton_euler"`` (§7.6): m p̈ = F with A ω̇ = Aω × ω + M."""
        trans, rot = self.newton(), system.derive("arnold")
        return Derivation(
            method="newton_euler", q=self.position, u=[*self.velocity, *rot.u],
            mass_matrix=sp.diag(trans.mass_matrix, rot.mass_matrix),
            forcing=sp.Matrix([*trans.forcing, *rot.forcing]),
            kinematics=sp.Matrix(self.velocity), equations=trans.equations + rot.equations,
            steps=[replace(st, key=f"translation_{st.key}") for st in trans.steps] + rot.steps,
            explicit_rates=rot.explicit_rates,
            extra={**rot.extra, "acceleration": trans.accelerations()},
        )

    @cached_property
    def invariants(self):
        """Translational energy ½ vᵀ(m I)v − F·p (F is constant) and horizontal momentum,
        as functions of (p, v, parameters) — built for the parameters on first use."""
        v, sigma = sp.Matrix(self.velocity), self.mass * sp.eye(3)
        return {
            "translational energy": (v.T * sigma * v)[0] / 2 - (self.force.T * sp.Matrix(
                self.position))[0],
            "horizontal momentum": list(sigma * v)[:2],
        }


@dataclass(frozen=True)
class TranslationAndAttitude(SO3Attitude):
    """The thrown body's two stacked integrations: the rotation as in :class:`SO3Attitude`
    (ω from the rotational equations, R on SO(3)), then the mass centre from m p̈ = F
    (DOP853).  State (p, v, ω)."""

    translation: Translation | None = None

    def state_names(self, system: System) -> list[str]:
        own = [s.name for s in (*self.translation.position, *self.translation.velocity)]
        return own + super().state_names(system)

    def initial_names(self, system: System) -> list[str]:
        return super().initial_names(system) + self.state_names(system)[:6]

    def integrate(self, system: System, setup: Setup) -> Trajectory:
        tr = self.translation
        rotation = self.rotation_run(system, setup)
        self.attitude_series(system, rotation)
        args = [*tr.position, *tr.velocity, *system.parameter_symbols]
        # m p̈ = F is the same whichever method gives the rotation
        acc = lambdify_scalar(args, list(tr.newton().accelerations()))
        p, t = setup.p, setup.t
        x0 = [setup.initial[s.name] for s in (*tr.position, *tr.velocity)]
        sol = integrate(lambda _, x: np.array([*x[3:], *acc(*x, *p)]), x0, t,
                        solver="dop853", rtol=setup.rtol, atol=setup.atol)
        traj = Trajectory(t=t, states=np.vstack([sol.y, rotation.states]),
                          names=system.state_names(), params=setup.params,
                          residuals=rotation.residuals, series=rotation.series,
                          rotations=rotation.rotations)
        setup.guards.evaluate(traj)
        self.spatial_series(system, traj, rotation.states)
        trans = {k: np.asarray(sp.lambdify(args, e, modules="numpy")(*sol.y, *p), dtype=float)
                 for k, e in tr.invariants.items()}
        traj.invariants["total energy"] = (traj.invariants["rotational energy"]
                                           + trans["translational energy"])
        traj.invariants["horizontal momentum"] = np.broadcast_to(
            trans["horizontal momentum"].reshape(2, -1), (2, len(t))).copy()
        return traj


def build() -> System:
    base = euler_body.build()
    x, y, z = sp.symbols("x y z")
    vx, vy, vz = sp.symbols("v_x v_y v_z")
    m, g = sp.symbols("m g", positive=True)
    inertia = [Parameter(pp.symbol, d, 0.2, 3.0, pp.unit, pp.description, positive=True)
               for pp, d in zip(base.parameters[:3], (0.4, 1.0, 1.3), strict=True)]
    translation = Translation([x, y, z], [vx, vy, vz], m, sp.Matrix([0, 0, -m * g]))
    return System(
        base.definition.replace(
            parameters=[*inertia, *base.parameters[3:],
                        Parameter(m, 1.0, 0.1, 5.0, "kg", "mass", positive=True),
                        Parameter(g, 9.81, 0.0, 20.0, "m/s²", "gravity")],
            initial=[*base.initial[:3],
                     *[Parameter(w, d, -10.0, 10.0, "rad/s", f"ω_{w.name[-1]}(0)")
                       for w, d in zip(base.u, (0.2, 8.0, 0.2), strict=True)],
                     *[Parameter(s, 0.0, -5.0, 5.0, "m", f"{s.name}₀") for s in (x, y, z)],
                     *[Parameter(v, d, -10.0, 10.0, "m/s", f"{v.name}(0)")
                       for v, d in zip((vx, vy, vz), (2.0, 0.0, 8.0), strict=True)]]),
        name="thrown_body",
        title="A tumbling thrown body: translation and rotation (Loparo §7.6, reconstructed)",
        evaluation=Evaluation(invariants={"rotational energy": base.T,
                                          "|Aω|": base.invariants["|H|"]},
                              t_final=1.6, n_points=400),
        method="newton_euler", methods={"newton_euler": translation.newton_euler},
        integrator=TranslationAndAttitude(translation=translation),
    )
