"""A particle on springs, with quasi-velocities measured in a rotating frame (rheonomic).

Not in the books: it exercises the rheonomic terms of Boltzmann–Hamel.  The particle moves in
a horizontal plane, held by two springs fixed in the inertial frame (stiffness k_x along x,
k_y along y).  Its position is given by inertial polar coordinates q = (r, θ), but the
quasi-velocities are the Cartesian components of its velocity *relative to* a frame turning
at the constant rate Ω, so u = Ψ(q, t) q̇ + Ψ_t(q, t) with Ψ_t ≠ 0 and γ^j_r ≠ 0 (4.84).
"""

from __future__ import annotations

import sympy as sp

from companion.mechanics.quasi_velocities import generalized_forces
from companion.system import Parameter, System


def build() -> System:
    r, theta = sp.symbols("r theta")
    rd, thetad = sp.symbols(r"\dot{r} \dot{\theta}")
    u1, u2 = sp.symbols("u_1 u_2")
    t = sp.Symbol("t")
    m, kx, ky = sp.symbols("m k_x k_y", positive=True)
    Omega = sp.Symbol("Omega")

    alpha = theta - Omega * t  # angle of the particle seen from the rotating frame
    xi, eta = r * sp.cos(alpha), r * sp.sin(alpha)  # its rotating-frame coordinates
    # u = d/dt (ξ, η): velocity relative to the rotating frame, in that frame's axes.
    definitions = [sp.diff(xi, r) * rd + sp.diff(xi, theta) * thetad + sp.diff(xi, t),
                   sp.diff(eta, r) * rd + sp.diff(eta, theta) * thetad + sp.diff(eta, t)]
    # Inertial velocity in rotating axes = relative velocity + Ω ẑ × ρ.
    T = sp.Rational(1, 2) * m * ((u1 - Omega * eta) ** 2 + (u2 + Omega * xi) ** 2)
    V = sp.Rational(1, 2) * (kx * (r * sp.cos(theta)) ** 2 + ky * (r * sp.sin(theta)) ** 2)

    system = System(
        name="rotating_frame",
        title="Particle on springs seen from a rotating frame (rheonomic quasi-velocities)",
        source="beyond the books: rheonomic Ψ(q, t), Ψ_t ≠ 0",
        q=[r, theta],
        qdot=[rd, thetad],
        u=[u1, u2],
        definitions=definitions,
        T=T,
        t=t,
        parameters=[
            Parameter(m, 1.0, 0.1, 5.0, "kg", "particle mass", positive=True),
            Parameter(kx, 2.0, 0.1, 10.0, "N/m", "spring stiffness along inertial x",
                      positive=True),
            Parameter(ky, 5.0, 0.1, 10.0, "N/m", "spring stiffness along inertial y",
                      positive=True),
            Parameter(Omega, 0.7, -3.0, 3.0, "rad/s", "rotation rate of the observing frame"),
        ],
        initial=[
            Parameter(r, 1.0, 0.2, 2.0, "m", "r₀, distance from the origin"),
            Parameter(theta, 0.3, -3.14, 3.14, "rad", "θ₀, inertial polar angle"),
            Parameter(u1, 0.0, -2.0, 2.0, "m/s", "relative velocity along the rotating x-axis"),
            Parameter(u2, 0.5, -2.0, 2.0, "m/s", "relative velocity along the rotating y-axis"),
        ],
        invariants={"energy": T + V},
        series={"xi": xi, "eta": eta, "x": r * sp.cos(theta), "y": r * sp.sin(theta)},
        t_final=10.0,
    )
    system.Q = generalized_forces([-sp.diff(V, r), -sp.diff(V, theta)], system.psi[0])
    return system
