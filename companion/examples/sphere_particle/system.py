"""A particle on a sphere under gravity: Newton's law in a constrained space (Loparo §7.2–7.3).

Our own worked instance of the chapter's method.  The sphere of radius R is the image of
spherical coordinates x = (θ, φ) (θ from the upward vertical); the ambient space is IR³ with
σ = m·I₃ and gravity F = (0, 0, −m g).  The induced metric, the reduced equations, their
Christoffel symbols and the reaction of the sphere are all derived (see
:class:`~companion.geometry.constrained.ConstrainedSystem`).  With g = 0 the motion is a
geodesic, a great circle.  The chart is singular at the poles θ = 0, π.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from companion.geometry.constrained import ConstrainedSystem
from companion.model import Observable
from companion.numerics import Trajectory
from companion.system import Evaluation, Parameter

#: Sent sideways above the equator (the defaults): the explorer's "sent sideways" preset, on
#: which the height prediction is posed (an explorer opened on it hides the answer until played).
SENT_SIDEWAYS = {"theta": 1.2, r"\dot{\theta}": 0.0, r"\dot{\phi}": 3.0}


def normal_reaction_and_great_circle(system: ConstrainedSystem, traj: Trajectory) -> None:
    """Observer: the normal reaction of the sphere and the great-circle test."""
    pos = np.array([traj[f"p_{c}"] for c in "xyz"])
    R = np.array([traj[f"reaction_{i}"] for i in range(3)])
    traj.series["reaction normal"] = np.einsum("in,in->n", R, pos) / traj.params["R"]
    # Distance from the plane through the centre spanned by p(0) and v(0): zero on a
    # great circle (the geodesics when g = 0).
    p = [traj.params[s.name] for s in system.parameter_symbols]
    n = len(system.q)
    v0 = system.jacobian_at(traj.states[:n, 0], p) @ traj.states[n:, 0]
    normal = np.cross(pos[:, 0], v0)
    size = np.linalg.norm(normal)
    traj.series["off great-circle plane"] = (
        normal @ pos / size if size > 0 else np.zeros_like(traj.t))


def normal_reaction(system: ConstrainedSystem) -> tuple[sp.Expr, sp.Matrix]:
    """The derived reaction R split along the outward normal n̂ = j(x)/R, simplified.

    The constraint is two-sided (a bead on a spherical wire frame, or a spherical pendulum's
    rod): the reaction may push or pull, so the normal component can take either sign.

    Returns
    -------
    normal, tangential
        R·n̂, simplified by trigsimp (one scalar, so cheap), and R − (R·n̂) n̂, which simplifies
        to zero: the reaction has no tangential part.
    """
    reaction = system.derive("geometric").result("reaction")
    mass, radius = (next(s for s in system.parameter_symbols if s.name == name)
                    for name in ("m", "R"))
    n_hat = system.embedding / radius
    normal = sp.trigsimp(sp.expand((reaction.T * n_hat)[0]))
    tangential = (reaction - normal * n_hat).applyfunc(lambda e: sp.trigsimp(sp.expand(e)))
    return sp.collect(sp.expand(normal), mass * radius, sp.factor), tangential


def energy(system: ConstrainedSystem) -> sp.Expr:
    """T − F·j(x): gravity is uniform, so its potential is −F·j(x)."""
    return system.T - (system.ambient_force.T * system.embedding)[0]


def azimuthal_momentum(system: ConstrainedSystem) -> sp.Expr:
    """L_z, the momentum conjugate to the azimuth φ (cyclic)."""
    return sp.diff(system.T, system.qdot[1])


def reaction(system: ConstrainedSystem) -> sp.Matrix:
    """The sphere's reaction on the particle, from the geometric derivation (entries 0–2)."""
    return system.derive("geometric").result("reaction")


def always(system: ConstrainedSystem) -> bool:
    """Conserved on every motion of the sphere particle (a uniform field, φ cyclic)."""
    return True


def build() -> ConstrainedSystem:
    theta, phi = sp.symbols("theta phi")
    thetad, phid = sp.symbols(r"\dot{\theta} \dot{\phi}")
    m, R, g = sp.symbols("m R g", positive=True)
    embedding = [R * sp.sin(theta) * sp.cos(phi), R * sp.sin(theta) * sp.sin(phi),
                 R * sp.cos(theta)]
    # The same angles about the horizontal y-axis: a second chart, regular at the poles of
    # the first.  Inverses use atan2 (well conditioned everywhere).
    X, Y, Z = sp.symbols("X Y Z")
    second = {
        "embedding": [R * sp.sin(theta) * sp.sin(phi), R * sp.cos(theta),
                      R * sp.sin(theta) * sp.cos(phi)],
        "inverse": [sp.atan2(sp.sqrt(X**2 + Z**2), Y), sp.atan2(X, Z)],
    }
    return ConstrainedSystem(
        name="sphere_particle",
        title="A particle on a sphere under gravity (Loparo §7.2–7.3, our example)",
        x=[theta, phi],
        xdot=[thetad, phid],
        embedding=embedding,
        ambient_metric=m * sp.eye(3),
        ambient_force=[0, 0, -m * g],
        ambient=[X, Y, Z],
        inverse=[sp.atan2(sp.sqrt(X**2 + Y**2), Z), sp.atan2(Y, X)],
        second_chart=second,
        parameters=[
            Parameter(m, 1.0, 0.1, 5.0, "kg", "particle mass", positive=True),
            Parameter(R, 1.0, 0.2, 3.0, "m", "sphere radius", positive=True),
            Parameter(g, 9.81, 0.0, 20.0, "m/s²", "gravity (0: geodesics)"),
        ],
        initial=[
            Parameter(theta, 1.2, 0.05, 3.09, "rad", "θ₀, angle from the upward vertical"),
            Parameter(phi, 0.0, -3.14, 3.14, "rad", "φ₀, azimuth"),
            Parameter(thetad, 0.0, -3.0, 3.0, "rad/s", "θ̇₀"),
            Parameter(phid, 3.0, -6.0, 6.0, "rad/s", "φ̇₀"),
        ],
        evaluation=Evaluation(
            t_final=5.0, observers=[normal_reaction_and_great_circle],
            # Derived from the system's own derivation and force when it first moves, never
            # stored in the definition.
            observables={"energy": Observable(energy, conserved=always),
                         "L_z": Observable(azimuthal_momentum, conserved=always),
                         "reaction": Observable(reaction)}),
    )
