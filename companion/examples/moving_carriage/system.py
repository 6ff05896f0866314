"""A particle on springs watched from a moving, turning carriage (rheonomic quasi-velocities).

Not in the books: it exercises the rheonomic terms of Boltzmann–Hamel.  The particle moves in
a horizontal plane, held by two springs fixed in the inertial frame (stiffness k_x along x,
k_y along y).  Its position is given by inertial polar coordinates q = (r, θ).  An observer
rides a carriage that oscillates along x as b(t) = A sin νt while its axes turn at the rate Ω;
the quasi-velocities are the particle's inertial velocity less the carriage's, resolved along
the carriage's turning axes (not the velocity an observer on the carriage measures, which
would also subtract Ω × the position from the carriage's origin).  So u = Ψ(q, t) q̇ + Ψ_t(t)
with Ψ depending on time, Ψ_t ≠ 0 and nonzero rheonomic coefficients γ^j_r (4.84).
"""

from __future__ import annotations

import sympy as sp

from companion.system import Evaluation, Parameter, System


def build() -> System:
    r, theta = sp.symbols("r theta")
    rd, thetad = sp.symbols(r"\dot{r} \dot{\theta}")
    u1, u2 = sp.symbols("u_1 u_2")
    t = sp.Symbol("t")
    m, kx, ky = sp.symbols("m k_x k_y", positive=True)
    Omega = sp.Symbol("Omega")

    A, nu = sp.symbols("A nu")
    b_dot = sp.diff(A * sp.sin(nu * t), t)  # carriage velocity along x
    # Inertial velocity less the carriage's, in inertial axes, then along the turning axes.
    position = sp.Matrix([r * sp.cos(theta), r * sp.sin(theta)])
    v_rel = position.jacobian([r, theta]) * sp.Matrix([rd, thetad]) - sp.Matrix([b_dot, 0])
    turn = sp.Matrix([[sp.cos(Omega * t), sp.sin(Omega * t)],
                      [-sp.sin(Omega * t), sp.cos(Omega * t)]])
    definitions = list(turn * v_rel)
    # Inertial velocity = carriage velocity + the u's turned back to inertial axes.
    v = turn.T * sp.Matrix([u1, u2]) + sp.Matrix([b_dot, 0])
    T = sp.Rational(1, 2) * m * (v[0] ** 2 + v[1] ** 2)
    V = sp.Rational(1, 2) * (kx * (r * sp.cos(theta)) ** 2 + ky * (r * sp.sin(theta)) ** 2)

    return System(
        name="moving_carriage",
        title="Particle on springs seen from a moving, turning carriage (rheonomic)",
        q=[r, theta],
        qdot=[rd, thetad],
        u=[u1, u2],
        definitions=definitions,
        T=T,
        Q_q=[-sp.diff(V, r), -sp.diff(V, theta)],
        t=t,
        parameters=[
            Parameter(m, 1.0, 0.1, 5.0, "kg", "particle mass", positive=True),
            *[Parameter(k, d, 0.1, 10.0, "N/m", f"spring stiffness along inertial {k.name[-1]}",
                        positive=True) for k, d in ((kx, 2.0), (ky, 5.0))],
            Parameter(Omega, 0.7, -3.0, 3.0, "rad/s", "turning rate of the carriage's axes"),
            Parameter(A, 0.3, 0.0, 1.0, "m", "amplitude of the carriage's oscillation"),
            Parameter(nu, 2.0, 0.0, 5.0, "rad/s", "angular frequency of the carriage"),
        ],
        initial=[
            Parameter(r, 1.0, 0.2, 2.0, "m", "r₀, distance from the origin"),
            Parameter(theta, 0.3, -3.14, 3.14, "rad", "θ₀, inertial polar angle"),
            Parameter(u1, 0.0, -2.0, 2.0, "m/s", "velocity less the carriage's, along its x-axis"),
            Parameter(u2, 0.5, -2.0, 2.0, "m/s", "velocity less the carriage's, along its y-axis"),
        ],
        evaluation=Evaluation(invariants={"energy": T + V},
                              series={"x": r * sp.cos(theta), "y": r * sp.sin(theta)},
                              t_final=10.0),
    )
