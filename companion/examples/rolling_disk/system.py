"""A vertical disk rolling without slipping down an inclined plane (two nonholonomic constraints).

Not in the books: it exercises m = 2 constraints and a generalized force.  A uniform disk
(mass m, radius R) stays vertical on a plane inclined at α; x points down the slope.
q = (x, y, θ, φ): contact point, heading from the x-axis, spin angle.  The quasi-velocities
are the heading rate, the spin rate and the two slip velocities of the contact point, which
rolling sets to zero.
"""

from __future__ import annotations

from functools import partial

import sympy as sp

from companion.mechanics.model import MechanicsModel
from companion.system import Evaluation, Parameter, System


def disk_model(m: sp.Symbol, R: sp.Symbol, g: sp.Symbol, alpha: sp.Symbol, *,
               momenta_in_heading_frame: bool = False) -> MechanicsModel:
    """The disk's geometry for the general dynamical equation (4.142): the heading frame H
    turns by θ about the plane's normal, the disk frame D by the spin φ about the axle H.y;
    the centre sits R above the contact point; gravity's component along the slope acts on it.

    ``momenta_in_heading_frame`` also asks for the alternate form (4.144)–(4.146), with p and
    H of the disk resolved in H (the ``rolling_disk_frame`` example).
    """
    import sympy.physics.mechanics as me  # slow to import: on first use

    x, y, theta, phi = me.dynamicsymbols("x y theta phi")
    N = me.ReferenceFrame("N")  # the plane: x down the slope, z along the normal
    H = N.orientnew("H", "Axis", (theta, N.z))
    D = H.orientnew("D", "Axis", (phi, H.y))
    O = me.Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", x * N.x + y * N.y)  # contact point
    G = C.locatenew("G", R * N.z)  # centre, above the contact
    central = me.inertia(D, m * R**2 / 4, m * R**2 / 2, m * R**2 / 4)
    disk = me.RigidBody("disk", G, D, m, (central, G))
    return MechanicsModel(
        frame=N, q=[x, y, theta, phi], bodies=[disk],
        loads=[(G, m * g * sp.sin(alpha) * N.x)],  # gravity's component along the slope
        momentum_frames={"disk": H} if momenta_in_heading_frame else {},
        frames={"N": "the plane's, x down the slope", "H": "heading frame, turned θ about n̂_z",
                "D": "the disk's own, turned φ about the axle"})


def build() -> System:
    x, y, theta, phi = sp.symbols("x y theta phi")
    xd, yd, thetad, phid = sp.symbols(r"\dot{x} \dot{y} \dot{\theta} \dot{\phi}")
    u1, u2, u3, u4 = sp.symbols("u_1 u_2 u_3 u_4")
    m, R, g = sp.symbols("m R g", positive=True)
    alpha = sp.Symbol("alpha")

    definitions = [
        thetad,
        phid,
        xd - R * phid * sp.cos(theta),  # slip of the contact point along x (constrained)
        yd - R * phid * sp.sin(theta),  # slip along y (constrained)
    ]
    # Unconstrained T: centre velocity (ẋ, ẏ) written with the u's, diametral and axial spins.
    vx, vy = u3 + R * u2 * sp.cos(theta), u4 + R * u2 * sp.sin(theta)
    I_diam, I_axle = m * R**2 / 4, m * R**2 / 2
    T = sp.Rational(1, 2) * (m * (vx**2 + vy**2) + I_diam * u1**2 + I_axle * u2**2)
    V = -m * g * sp.sin(alpha) * x  # gravity along the slope

    return System(
        name="rolling_disk",
        mechanics_model=partial(disk_model, m, R, g, alpha),
        title="Vertical disk rolling on an inclined plane (two rolling constraints)",
        q=[x, y, theta, phi],
        qdot=[xd, yd, thetad, phid],
        u=[u1, u2, u3, u4],
        definitions=definitions,
        T=T,
        n_constraints=2,
        Q_q=[-sp.diff(V, qi) for qi in (x, y, theta, phi)],
        parameters=[
            Parameter(m, 1.0, 0.1, 5.0, "kg", "disk mass", positive=True),
            Parameter(R, 0.5, 0.1, 2.0, "m", "disk radius", positive=True),
            Parameter(g, 9.81, 0.1, 20.0, "m/s²", "gravity", positive=True),
            Parameter(alpha, 0.1, 0.0, 0.5, "rad", "slope angle of the plane"),
        ],
        initial=[
            Parameter(x, 0.0, -2.0, 2.0, "m", "x of the contact point (down the slope)"),
            Parameter(y, 0.0, -2.0, 2.0, "m", "y of the contact point (across the slope)"),
            Parameter(theta, 1.2, -3.14, 3.14, "rad", "heading from the x-axis"),
            Parameter(phi, 0.0, -3.14, 3.14, "rad", "spin angle"),
            Parameter(u1, 0.4, -3.0, 3.0, "rad/s", "heading rate θ̇"),
            Parameter(u2, 1.0, -5.0, 5.0, "rad/s", "spin rate φ̇"),
        ],
        evaluation=Evaluation(invariants={"energy": T.subs({u3: 0, u4: 0}) + V}, t_final=10.0),
    )
