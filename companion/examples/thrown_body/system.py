"""Loparo & Vakalis §7.6: a rigid body free in space — translation added to rotation.

A box thrown under gravity: the mass centre obeys m p̈ = F in the inertial frame (Newton's law
(7.1) for the flat metric m·I₃, derived with the same toolkit), the rotation obeys Arnold's
form A ω̇ = Aω × ω + M in body axes, and the orientation is carried on SO(3) as in
:mod:`companion.examples.rigid_body_so3`.  Gravity exerts no moment about the mass centre,
so the body tumbles freely (intermediate-axis flips included) while its centre traces a
parabola.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

from companion.examples.euler_body import system as euler_body
from companion.examples.rigid_body_so3.system import RigidBodySO3
from companion.geometry.metric import covariant_equations
from companion.mechanics.derivation import Derivation
from companion.numerics import SingularConfigurationError, Trajectory
from companion.numerics.compile import lambdify_scalar
from companion.system import Parameter, System


class ThrownBody(RigidBodySO3):
    """Rotation on SO(3) plus the translation of the mass centre under a constant force."""

    def __init__(self, *, position: Sequence[sp.Symbol], velocity: Sequence[sp.Symbol],
                 mass: sp.Symbol, force: Sequence[sp.Expr], **kwargs):
        super().__init__(**kwargs)
        self.position, self.velocity = list(position), list(velocity)
        self.mass, self.force = mass, sp.Matrix(list(force))
        # Translational energy ½ vᵀ(m I)v − F·p (F is constant) and horizontal momentum.
        v, sigma = sp.Matrix(self.velocity), mass * sp.eye(3)
        translational = {
            "translational energy": (v.T * sigma * v)[0] / 2 - (self.force.T * sp.Matrix(
                self.position))[0],
            "horizontal momentum": list(sigma * v)[:2],
        }
        args = [*self.position, *self.velocity, *self.parameter_symbols]
        self._translational = {k: sp.lambdify(args, e, modules="numpy")
                               for k, e in translational.items()}

    def derive(self, method: str = "newton_euler") -> Derivation:
        """``"newton_euler"`` (§7.6): m p̈ = F with A ω̇ = Aω × ω + M; other methods give the
        rotational part only."""
        if method != "newton_euler":
            return super().derive(method)
        if method not in self._derivations:
            trans = covariant_equations(self.mass * sp.eye(3), self.position, self.velocity,
                                        self.force, method="newton")
            rot = super().derive("arnold")
            self._derivations[method] = Derivation(
                method=method, q=self.position, u=[*self.velocity, *rot.u],
                mass_matrix=sp.diag(trans.mass_matrix, rot.mass_matrix),
                forcing=sp.Matrix([*trans.forcing, *rot.forcing]),
                kinematics=sp.Matrix(self.velocity), equations=trans.equations + rot.equations,
                steps=trans.steps + rot.steps,
                extra={**rot.extra, "acceleration": trans.accelerations()},
            )
        return self._derivations[method]

    def simulate(self, t_final: float | None = None, params: Mapping[str, Any] | None = None,
                 initial: Mapping[str, Any] | None = None, *, n_points: int = 400,
                 rtol: float = 1e-12, atol: float = 1e-12, method: str = "newton_euler"
                 ) -> Trajectory:
        """Rotation as in :class:`RigidBodySO3`; the mass centre integrated from m p̈ = F."""
        d = self.derive(method)
        traj = super().simulate(t_final, params, initial, n_points=n_points, rtol=rtol,
                                atol=atol, method=method)
        iv = self.initial_values(initial)
        p = [traj.params[s.name] for s in self.parameter_symbols]
        if not hasattr(self, "_acceleration"):
            args = [*self.position, *self.velocity, *self.parameter_symbols]
            self._acceleration = lambdify_scalar(args, list(d.extra["acceleration"]))
        acc = self._acceleration
        x0 = [iv[s.name] for s in (*self.position, *self.velocity)]
        sol = solve_ivp(lambda t, x: np.array([*x[3:], *acc(*x, *p)]), (0.0, traj.t[-1]), x0,
                        method="DOP853", t_eval=traj.t, rtol=rtol, atol=atol)
        if sol.status < 0:
            raise SingularConfigurationError(f"integration failed: {sol.message}")
        traj.states = np.vstack([sol.y, traj.states])
        traj.names = [s.name for s in (*self.position, *self.velocity)] + traj.names
        trans = {k: np.asarray(fn(*sol.y, *p), dtype=float)
                 for k, fn in self._translational.items()}
        traj.invariants["total energy"] = (traj.invariants["rotational energy"]
                                           + trans["translational energy"])
        traj.invariants["horizontal momentum"] = np.broadcast_to(
            trans["horizontal momentum"].reshape(2, -1), (2, len(traj.t))).copy()
        return traj


def build() -> System:
    base = euler_body.build()
    x, y, z = sp.symbols("x y z")
    vx, vy, vz = sp.symbols("v_x v_y v_z")
    m, g = sp.symbols("m g", positive=True)
    inertia = [Parameter(pp.symbol, d, 0.2, 3.0, pp.unit, pp.description, positive=True)
               for pp, d in zip(base.parameters[:3], (0.4, 1.0, 1.3), strict=True)]
    return ThrownBody(
        name="thrown_body",
        title="A tumbling thrown body: translation and rotation (Loparo §7.6)",
        source="Loparo & Vakalis §7.6 (worked with the chapter's method)",
        q=base.q, qdot=base.qdot, u=base.u, definitions=base.definitions, T=base.T,
        Q=base.Q,
        parameters=[*inertia, *base.parameters[3:],
                    Parameter(m, 1.0, 0.1, 5.0, "kg", "mass", positive=True),
                    Parameter(g, 9.81, 0.0, 20.0, "m/s²", "gravity")],
        initial=[*base.initial[:3],
                 Parameter(base.u[0], 0.2, -10.0, 10.0, "rad/s", "ω_x(0)"),
                 Parameter(base.u[1], 8.0, -10.0, 10.0, "rad/s", "ω_y(0)"),
                 Parameter(base.u[2], 0.2, -10.0, 10.0, "rad/s", "ω_z(0)"),
                 Parameter(x, 0.0, -5.0, 5.0, "m", "x₀"),
                 Parameter(y, 0.0, -5.0, 5.0, "m", "y₀"),
                 Parameter(z, 0.0, -5.0, 5.0, "m", "z₀"),
                 Parameter(vx, 2.0, -10.0, 10.0, "m/s", "v_x(0)"),
                 Parameter(vy, 0.0, -10.0, 10.0, "m/s", "v_y(0)"),
                 Parameter(vz, 8.0, -10.0, 10.0, "m/s", "v_z(0)")],
        invariants={"rotational energy": base.T, "|Aω|": base.invariant_exprs["|H|"]},
        position=[x, y, z], velocity=[vx, vy, vz], mass=m, force=[0, 0, -m * g],
        t_final=1.6, reconstruction=True,
    )
