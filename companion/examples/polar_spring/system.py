"""A particle on a spring in the plane, in polar coordinates with the quasi-velocities
u₁ = ṙ and u₂ = r θ̇ (the preset of the Boltzmann–Hamel notebook).

T = m (u₁² + u₂²)/2 in the quasi-velocities; the spring's force −k r acts on u₁ alone, since
u₂ is the speed across the radius.
"""

from __future__ import annotations

import sympy as sp

from companion.system import Evaluation, Parameter, System


def build() -> System:
    r, theta = sp.symbols("r theta")
    r_dot, theta_dot = sp.symbols(r"\dot{r} \dot{\theta}")
    u1, u2 = sp.symbols("u_1 u_2")
    m, k = sp.symbols("m k")
    T = m / 2 * (u1**2 + u2**2)
    return System(
        name="polar_spring", title="Particle on a spring, in polar quasi-velocities",
        q=[r, theta], qdot=[r_dot, theta_dot],
        u=[u1, u2], definitions=[r_dot, r * theta_dot], T=T, Q=[-k * r, 0],
        parameters=[Parameter(m, 1.0, 0.2, 5.0, "kg", "mass", positive=True),
                    Parameter(k, 1.0, 0.2, 5.0, "N/m", "spring stiffness", positive=True)],
        initial=[Parameter(r, 1.0, 0.2, 3.0, "m", "r(0)", positive=True),
                 Parameter(theta, 0.0, -3.14, 3.14, "rad", "θ(0)"),
                 Parameter(u1, 0.0, -2.0, 2.0, "m/s", "u₁(0) = ṙ(0)"),
                 Parameter(u2, 0.6, -2.0, 2.0, "m/s", "u₂(0) = r θ̇(0)")],
        evaluation=Evaluation(invariants={"energy": T + k * r**2 / 2},
                              series={"x": r * sp.cos(theta), "y": r * sp.sin(theta)},
                              t_final=20.0),
    )
