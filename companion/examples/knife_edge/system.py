"""Greenwood Example 4.4: the knife-edge dumbbell (Fig. 4.1).

Two particles of mass m on a massless rod of length l move on a horizontal plane; particle 1
carries a knife edge aligned with the rod, so it cannot move across the rod.

The book's system stays the book's: a system of one's own on it is a variant with another
definition, e.g. with a drag c and a wind W along y (``tests/test_knife_edge_extended.py``)::

    book = examples.get("knife_edge")
    mine = book.variant(Q=[-c * u1, 0], Q_q=[0, 2 * W, W * l * cos(phi)],
                        parameters=[*book.parameters, Parameter(c, …), Parameter(W, …)])

Every method moves it (Kane's through the book's mechanics model, a part the variant keeps,
whose loads are the system's forces), and its blade force λ and energy are derived from its
own equations.
"""

from __future__ import annotations

from functools import partial

import sympy as sp
import sympy.physics.mechanics as me

from companion.mechanics.model import MechanicsModel
from companion.model import CONSTRAINT_FORCES, KINETIC_ENERGY
from companion.system import Evaluation, Parameter, System

#: A launch turning fast while moving slowly: the explorer's "tight turn" preset, on which the
#: turning predictions are posed (an explorer opened on it hides their answer until played).
TIGHT_TURN = {"u_1": 0.5, "u_2": 4.0}
#: The frames the general dynamical equation's vectors are resolved in.
FRAMES = {"N": "inertial", "A": "the rod's frame, turned by φ about n̂_z"}


def rod_frames() -> tuple[list, me.ReferenceFrame, me.ReferenceFrame, me.Point]:
    """(x, y, φ) as dynamicsymbols, the inertial frame N, the rod's frame A turned by φ about
    n̂_z, and the fixed origin O."""
    x, y, phi = me.dynamicsymbols("x y phi")
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    return [x, y, phi], N, N.orientnew("A", "Axis", (phi, N.z)), O


def mechanics_model(m: sp.Symbol, l: sp.Symbol, drive: sp.Expr = 0) -> MechanicsModel:
    """The dumbbell's geometry for the general dynamical equation: two particles on the plane.

    Particle 1 at (x, y); the rod frame A is turned by φ about the vertical; particle 2 sits
    a distance l along the rod.  The book's example has no applied loads (the plane is
    horizontal); ``drive`` is an optional force on particle 1 along the rod.
    """
    (x, y, phi), N, A, O = rod_frames()
    P1 = O.locatenew("P_1", x * N.x + y * N.y)
    P2 = P1.locatenew("P_2", l * A.x)
    particles = [me.Particle("particle_1", P1, m), me.Particle("particle_2", P2, m)]
    loads = [(P1, drive * A.x)] if drive != 0 else []
    return MechanicsModel(frame=N, q=[x, y, phi], bodies=particles, loads=loads,
                          frames=FRAMES)


def plain_symbols(system: System) -> dict:
    """The mechanics model's dynamicsymbols → the system's plain symbols."""
    return {me.dynamicsymbols(s.name): s for s in [*system.q, *system.u]}


def velocity_coefficients(system: System, kane) -> list[list[sp.Matrix]]:
    """γ_ij of the general dynamical equation ``kane`` (particle i, speed j) as columns of
    inertial components in ``system``'s plain symbols.

    Particle 1 sits at x N.x + y N.y, so its first coefficient is measured in the inertial
    frame N; every coefficient is expressed in that frame.
    """
    gam = kane.result("velocity_coefficients")
    frame = gam[0][0].args[0][1]
    return [[g.to_matrix(frame).xreplace(plain_symbols(system)) for g in row] for row in gam]


def build() -> System:
    x, y, phi = sp.symbols("x y phi")
    xd, yd, phid = sp.symbols(r"\dot{x} \dot{y} \dot{\phi}")
    u1, u2, u3 = sp.symbols("u_1 u_2 u_3")
    m, l = sp.symbols("m l", positive=True)

    # (4.105)-(4.107): forward speed, turning rate, sideways speed of particle 1 (constrained).
    definitions = [
        xd * sp.cos(phi) + yd * sp.sin(phi),
        phid,
        -xd * sp.sin(phi) + yd * sp.cos(phi),
    ]
    # Unconstrained T (4.108), assembled from the particles' velocities in the rod frame:
    # particle 1 moves with (u1, u3), particle 2 with (u1, u3 + l u2).
    half = sp.Rational(1, 2)
    T = half * m * (u1**2 + u3**2) + half * m * (u1**2 + (u3 + l * u2) ** 2)

    return System(
        name="knife_edge",
        title="Knife-edge dumbbell (Greenwood Example 4.4)",
        q=[x, y, phi],
        qdot=[xd, yd, phid],
        u=[u1, u2, u3],
        definitions=definitions,
        T=T,
        n_constraints=1,
        parameters=[
            Parameter(m, 1.0, 0.1, 5.0, "kg", "mass of each particle", positive=True),
            Parameter(l, 1.0, 0.2, 3.0, "m", "rod length", positive=True),
        ],
        initial=[
            Parameter(x, 0.0, -2.0, 2.0, "m", "x of particle 1"),
            Parameter(y, 0.0, -2.0, 2.0, "m", "y of particle 1"),
            Parameter(phi, 0.0, -3.14, 3.14, "rad", "rod angle from the x-axis"),
            Parameter(u1, 0.5, -2.0, 2.0, "m/s", "v₀, forward speed of particle 1"),
            Parameter(u2, 1.5, -4.0, 4.0, "rad/s", "φ̇₀, turning rate"),
        ],
        evaluation=Evaluation(
            series={"x2": x + l * sp.cos(phi), "y2": y + l * sp.sin(phi)},
            # derived from the system's own equations, never typed in (a changed definition's
            # from its own): λ from the suppressed third row of (4.85), m u₁u₂ by (4.123), and
            # the energy (4.108), conserved while no force acts
            observables={"lambda": CONSTRAINT_FORCES, "energy": KINETIC_ENERGY},
            t_final=10.0),
        mechanics_model=partial(mechanics_model, m, l),
    )
