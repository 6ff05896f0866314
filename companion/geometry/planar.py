"""Planar multibody systems the way of Loparo & Vakalis §7.3 and §7.7.

Every body is first an independent unit, free in SE(2) with pose (x, y, θ) of its mass
centre and the ambient metric diag(m, m, J) (J central).  The bodies' spaces multiply into
the product space with metric G (block diagonal).  Joints and contacts are *constraints*: the
map f from the reduced coordinates q to every body's pose.  The reduced model is Newton's
law (7.2) for the pulled-back metric Jᵀ G J and the pulled-back force Jᵀ F, J = ∂f/∂q.

The forces the joints transmit lie in the null space of Jᵀ and drop out of the reduced
model.  They come back (§7.7) by putting the reduced accelerations into each body's own
Newton–Euler equations, from the outermost bodies of the tree inwards:

    R_k = m_b (a_b − g) − F_b + Σ_{joints j carried by b} R_j,

R_k being the force of joint k on its child body b.  The rotational equation of every body
about its mass centre is then an independent check of the whole construction.

A joint here is anything that transmits a force through one point, known as a function of q
(a pin, or a point contact with or without rolling), plus an optional applied torque; the
bodies and joints must form a tree (open chains, branches), with ground as the root.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from graphlib import CycleError, TopologicalSorter

import sympy as sp

from companion.geometry.metric import (
    covariant_equations,
    jacobian,
    products_to_sums,
    pull_back_form,
    pull_back_metric,
)
from companion.mechanics import inputs
from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.methods import Definition, register_method
from companion.mechanics.quasi_velocities import dot_symbol

#: The name standing for the fixed ground in :meth:`Mechanism.add_joint`.
GROUND = "ground"


def cross2(r: Sequence, F: Sequence) -> sp.Expr:
    """The planar moment r × F = r_x F_y − r_y F_x."""
    return r[0] * F[1] - r[1] * F[0]


@dataclass(frozen=True)
class Body:
    """A rigid body in the plane: mass, central inertia and its pose (x, y, θ) in q."""

    name: str
    mass: sp.Expr
    inertia: sp.Expr
    pose: tuple[sp.Expr, sp.Expr, sp.Expr]

    @property
    def centre(self) -> sp.Matrix:
        return sp.Matrix(self.pose[:2])


@dataclass(frozen=True)
class Joint:
    """A point where ``parent`` acts on ``child`` with a force R (and −R back on the parent).

    ``point`` is the world position of the point in q; ``torque`` an applied torque of the
    parent on the child (−torque on the parent), e.g. a motor at a pin.
    """

    name: str
    parent: str
    child: str
    point: tuple[sp.Expr, sp.Expr]
    torque: sp.Expr = sp.S.Zero


@dataclass(frozen=True)
class Load:
    """An external force (F_x, F_y) through ``point`` (default the mass centre) plus a torque."""

    body: str
    force: tuple[sp.Expr, sp.Expr]
    point: tuple[sp.Expr, sp.Expr] | None
    torque: sp.Expr


class Mechanism:
    """Planar bodies, the joints that constrain them, and the loads on them: ``q`` the reduced
    coordinates, ``qdot`` the symbols of their rates (the speeds of the derived equations,
    u = q̇), ``g`` the gravitational acceleration along −y (``None``: no gravity).

    Examples
    --------
    A simple pendulum, point mass m on a massless rod of length l::

        th, w, m, l, g = sp.symbols("theta omega m l g")
        mech = Mechanism([th], [w], g=g)
        mech.add_body("bob", m, 0, (l * sp.sin(th), -l * sp.cos(th), th))
        mech.add_joint("O", GROUND, "bob", (0, 0))
        mech.derive()
    """

    def __init__(self, q: Sequence[sp.Symbol], qdot: Sequence[sp.Symbol], *,
                 g: sp.Expr | None = None):
        self.q = inputs.symbols_list(q, "q")
        self.qdot = inputs.symbols_list(qdot, "qdot")
        if len(self.q) != len(self.qdot):
            raise ValueError(f"{len(self.q)} coordinates but {len(self.qdot)} rates")
        self.qddot = [dot_symbol(s, "ddot") for s in self.q]
        self.g = None if g is None else inputs.sympify_entry(g, "g")
        self.bodies: dict[str, Body] = {}
        self.joints: dict[str, Joint] = {}
        self.loads: list[Load] = []

    # ------------------------------------------------------------------ building
    def _point(self, value, what: str) -> tuple[sp.Expr, sp.Expr]:
        try:
            x, y = value
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{what} must be a pair (x, y), got {value!r}") from exc
        return inputs.sympify_entry(x, f"{what} x"), inputs.sympify_entry(y, f"{what} y")

    def _check_coordinates(self, exprs, what: str) -> None:
        own = set(self.q) | set(self.qdot) | set(self.qddot)
        for e in exprs:
            bad = e.free_symbols & (own - set(self.q))
            if bad:
                raise ValueError(f"{what} may depend on the coordinates only, not on "
                                 f"{sorted(map(str, bad))}")

    def add_body(self, name: str, mass, inertia, pose: Sequence) -> Body:
        """A body with mass, central inertia and pose (x, y, θ) of its mass centre in q."""
        if name in self.bodies or name == GROUND:
            raise ValueError(f"there is already a body called {name!r}")
        if len(pose) != 3:
            raise ValueError(f"the pose of {name!r} must be (x, y, θ), got {len(pose)} entries")
        pose = tuple(inputs.sympify_entry(e, f"pose of {name!r}") for e in pose)
        self._check_coordinates(pose, f"the pose of {name!r}")
        mass = inputs.sympify_entry(mass, f"mass of {name!r}")
        inertia = inputs.sympify_entry(inertia, f"inertia of {name!r}")
        if mass.is_nonpositive or inertia.is_negative:
            raise ValueError(f"body {name!r} needs a positive mass and a non-negative central "
                             f"inertia, got m = {mass}, J = {inertia}")
        body = Body(name, mass, inertia, pose)
        self.bodies[name] = body
        self.__dict__.pop("_tree", None)
        return body

    def add_joint(self, name: str, parent: str, child: str, point: Sequence,
                  torque=0) -> Joint:
        """A joint (or contact) through which ``parent`` (a body or GROUND) acts on ``child``."""
        if name in self.joints:
            raise ValueError(f"there is already a joint called {name!r}")
        for who in (parent, child):
            if who != GROUND and who not in self.bodies:
                raise ValueError(f"joint {name!r}: unknown body {who!r}; add the body first")
        if child == GROUND or child == parent:
            raise ValueError(f"joint {name!r}: the child must be a body other than the parent")
        if any(j.child == child for j in self.joints.values()):
            raise ValueError(f"body {child!r} already has a joint to its parent: only trees "
                             "(open chains) are supported, since with closed loops Newton–Euler "
                             "alone cannot determine the joint forces")
        point = self._point(point, f"point of joint {name!r}")
        self._check_coordinates(point, f"the point of joint {name!r}")
        joint = Joint(name, parent, child, point, inputs.sympify_entry(torque, "torque"))
        self.joints[name] = joint
        self.__dict__.pop("_tree", None)
        return joint

    def add_load(self, body: str, force: Sequence = (0, 0), point: Sequence | None = None,
                 torque=0) -> Load:
        """An external force through ``point`` (default the mass centre) and a torque."""
        if body not in self.bodies:
            raise ValueError(f"unknown body {body!r}")
        load = Load(body, self._point(force, "force"),
                    None if point is None else self._point(point, "load point"),
                    inputs.sympify_entry(torque, "torque"))
        self.loads.append(load)
        return load

    # ------------------------------------------------------------------ geometry
    def _require_bodies(self) -> list[Body]:
        if not self.bodies:
            raise ValueError("the mechanism has no bodies")
        return list(self.bodies.values())

    def constraint_map(self) -> sp.Matrix:
        """f(q): every body's (x, y, θ), stacked: the injection into the product of SE(2)'s."""
        return sp.Matrix([e for b in self._require_bodies() for e in b.pose])

    def ambient_metric(self) -> sp.Matrix:
        """G = diag(m₁, m₁, J₁, m₂, m₂, J₂, …): the product metric of the free bodies."""
        return sp.diag(*[e for b in self._require_bodies() for e in (b.mass, b.mass, b.inertia)])

    def _external(self, body: Body) -> tuple[sp.Matrix, sp.Expr]:
        """Gravity, loads and joint torques on a body: (force, torque about its centre)."""
        force = sp.Matrix([0, 0 if self.g is None else -body.mass * self.g])
        torque = sp.S.Zero
        for load in self.loads:
            if load.body == body.name:
                F = sp.Matrix(load.force)
                force += F
                torque += load.torque
                if load.point is not None:
                    torque += cross2(sp.Matrix(load.point) - body.centre, F)
        for j in self.joints.values():
            torque += j.torque * ((j.child == body.name) - (j.parent == body.name))
        return force, torque

    def ambient_force(self) -> sp.Matrix:
        """The applied (non-constraint) 1-form on the product space: gravity, loads, torques."""
        rows = []
        for b in self._require_bodies():
            force, torque = self._external(b)
            rows += [force[0], force[1], torque]
        return sp.Matrix(rows)

    @cached_property
    def _tree(self) -> list[Body]:
        """Bodies ordered outermost first (every body before its parent)."""
        carried = {b: [j.child for j in self.joints.values() if j.parent == b]
                   for b in self.bodies}
        try:
            return [self.bodies[b] for b in TopologicalSorter(carried).static_order()]
        except CycleError:
            raise ValueError("the joints form a closed loop: only trees are supported") from None

    def jacobian(self) -> sp.Matrix:
        """J = ∂f/∂q."""
        return jacobian(self.constraint_map(), self.q)

    def ambient_accelerations(self) -> sp.Matrix:
        """(ẍ, ÿ, θ̈) of every body: J q̈ + (∂(J q̇)/∂q) q̇, in q, q̇ and the q̈ symbols."""
        J = self.jacobian()
        v = J * sp.Matrix(self.qdot)
        return J * sp.Matrix(self.qddot) + v.jacobian(self.q) * sp.Matrix(self.qdot)

    # ------------------------------------------------------------------ §7.7
    def joint_forces(self) -> dict[str, sp.Matrix]:
        """Force (R_x, R_y) of every joint on its child, from the bodies' Newton laws (§7.7).

        Expressions in q, q̇ and the q̈ symbols (:attr:`qddot`); with the reduced
        accelerations put in they are the forces the joints must transmit.
        """
        acc = self.ambient_accelerations()
        index = {name: i for i, name in enumerate(self.bodies)}
        R: dict[str, sp.Matrix] = {}
        for body in self._tree:
            parent = [j for j in self.joints.values() if j.child == body.name]
            if not parent:
                continue
            i = 3 * index[body.name]
            force, _ = self._external(body)
            carried = sum((R[j.name] for j in self.joints.values() if j.parent == body.name),
                          sp.zeros(2, 1))
            R[parent[0].name] = body.mass * sp.Matrix(acc[i:i + 2]) - force + carried
        return {name: R[name] for name in self.joints}

    def newton_euler_residuals(self, forces: Mapping[str, sp.Matrix] | None = None
                               ) -> dict[str, sp.Expr]:
        """Each body's own Newton–Euler equations, left minus right, with the joint forces.

        Keys ``"<body>: x"``, ``"<body>: y"``, ``"<body>: θ"``; the θ-rows (rotation about the
        mass centre) are the independent check of the recovered joint forces.
        """
        forces = self.joint_forces() if forces is None else forces
        acc = self.ambient_accelerations()
        out = {}
        for i, body in enumerate(self._require_bodies()):
            force, torque = self._external(body)
            c = body.centre
            for j in self.joints.values():
                sign = (j.child == body.name) - (j.parent == body.name)
                if sign:
                    R = sign * forces[j.name]
                    force += R
                    torque += cross2(sp.Matrix(j.point) - c, R)
            a = acc[3 * i:3 * i + 3]
            lhs = [body.mass * a[0], body.mass * a[1], body.inertia * a[2]]
            for axis, left, right in zip("xyθ", lhs, [force[0], force[1], torque], strict=True):
                out[f"{body.name}: {axis}"] = left - right
        return out

    # ------------------------------------------------------------------ the reduced model
    def derive(self, method: str = "pull_back") -> Derivation:
        """The reduced equations by pull-back (7.2), with the joint forces of §7.7 as extras.

        ``extra`` holds ``map`` f, ``jacobian`` J, ``ambient_metric`` G, ``ambient_force`` F,
        ``joint_forces`` (in q, q̇, q̈) and ``qddot`` (the q̈ symbols they use).
        """
        f = self.constraint_map()
        J = self.jacobian()
        G = self.ambient_metric()
        F = self.ambient_force()
        M = pull_back_metric(G, J, simplify=products_to_sums)
        Ft = pull_back_form(F, J)
        core = covariant_equations(M, self.q, self.qdot, Ft, method=method, kind="first",
                                   pulled_back=True)
        R = self.joint_forces()
        steps = [
            Step("The constraint map f: q ↦ every body's (x, y, θ)", f, None,
                 "Each body is free in SE(2); the joints say where all of them are, given q.",
                 "f(q)", key="embedding"),
            Step("Its Jacobian J = ∂f/∂q", J, "(7.2)",
                 "J carries reduced velocities to the bodies' velocities: ḟ = J q̇.", "J",
                 key="jacobian"),
            Step("Ambient metric G of the free bodies", G, None,
                 "Kinetic energy of independent bodies: ½ Σ (m(ẋ² + ẏ²) + J θ̇²).", "G",
                 key="ambient_metric"),
            Step("Pulled-back metric σ̃ = f*G = Jᵀ G J", M, "(7.2)",
                 "The kinetic energy measured on the constraint manifold (the mass matrix M).",
                 r"\tilde\sigma", key="metric"),
            Step("Applied forces on the free bodies", F, None,
                 "Gravity, loads and joint torques as a 1-form on the product space.", "F",
                 key="ambient_force"),
            Step("Pulled-back force F̃ = f*F = Jᵀ F", Ft, "(7.2)",
                 "Only the part of F that does work along the allowed motions survives.",
                 r"\tilde F", key="forces"),
            *core.steps,
            Step("Joint forces from each body's Newton law", list(R.values()),
                 "§7.7 (reconstructed)",
                 "Outermost body first: what its mass times acceleration needs from its joint.",
                 ", ".join(rf"R_{{\mathrm{{{k}}}}}" for k in R), key="joint_forces"),
        ]
        return Derivation(
            method=method, q=core.q, u=core.u, mass_matrix=M, forcing=core.forcing,
            kinematics=core.kinematics, equations=core.equations, steps=steps,
            extra={**core.extra, "map": f, "jacobian": J, "ambient_metric": G,
                   "ambient_force": F, "joint_forces": R, "qddot": list(self.qddot)},
        )

    def kinetic_energy(self) -> sp.Expr:
        """T = ½ Σ (m(ẋ² + ẏ²) + J θ̇²), the bodies' velocities from ḟ = J q̇."""
        v = self.jacobian() * sp.Matrix(self.qdot)
        G = self.ambient_metric()
        return sp.expand((v.T * G * v)[0] / 2)

    def potential_energy(self) -> sp.Expr:
        """Gravitational potential Σ m g y (zero without gravity)."""
        if self.g is None:
            return sp.S.Zero
        return sum((b.mass * self.g * b.pose[1] for b in self._require_bodies()), sp.S.Zero)


@register_method("pull_back", "pull-back (§7.7)")
def pull_back(system: Definition) -> Derivation:
    """The pull-back derivation (7.2) of a system whose ``geometry`` is a planar
    :class:`Mechanism`."""
    mechanism = getattr(system, "geometry", None)
    if not isinstance(mechanism, Mechanism):
        raise NotImplementedError(
            "this system is not defined as a planar mechanism, so it has no pull-back")
    derivation = mechanism.derive("pull_back")
    # The mechanism's own forces (gravity, loads) are what the pull-back reads: a system
    # whose forces differ (a damper added to Q or Q_q) would move differently by it.
    own = derivation.step("forces").expr
    if any(sp.expand(a - sp.sympify(b)) != 0 for a, b in zip(own, system.Q or [0] * len(own),
                                                           strict=True)):
        raise NotImplementedError(
            "the pull-back reads the forces of the system's mechanism (gravity, loads), "
            f"F̃ = Jᵀ F = {list(own)}, and the system's own forces Q = {list(system.Q or [])} "
            "differ: give those forces to the mechanism too, or use another method")
    return derivation
