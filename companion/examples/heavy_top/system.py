"""A heavy rigid body on a fixed pivot, with viscous damping: Euler's equations with forces.

Not in the books: Example 4.3 with nonzero generalized forces Q.  The body turns about a
fixed pivot O on its principal z-axis, its mass centre a distance h up that axis.  The
coordinates are Greenwood's type I Euler angles q = (ψ, θ, φ) and the quasi-velocities the
body-axis angular velocities, as in Ex. 4.3.  The forces are gravity (through the potential
V = m g h cosθ cosφ, the height of the mass centre) and a damping moment −c ω.  For an
upright-ish top θ and φ stay small, far from the gimbal lock at θ = ±90°.
"""

from __future__ import annotations

import sympy as sp

from companion.examples.euler_body import system as euler_body
from companion.system import Evaluation, Parameter, System


def build() -> System:
    """Example 4.3's body (its q, its body rates, its T, about the pivot) with gravity and
    damping."""
    base = euler_body.build()
    psi, theta, phi = base.q
    wx, wy, wz = base.u
    Ixx, Iyy, Izz = base.parameter_symbols[:3]
    m, g, h = sp.symbols("m g h", positive=True)
    c = sp.Symbol("c", nonnegative=True)
    V = m * g * h * sp.cos(theta) * sp.cos(phi)
    return System(
        base.definition.replace(
            Q=[-c * w for w in (wx, wy, wz)],  # viscous damping of the body rates
            Q_q=[-sp.diff(V, qi) for qi in (psi, theta, phi)],
            parameters=[
                *[Parameter(s, 1.0, 0.2, 3.0, "kg·m²", f"moment about body {s.name[-1]} at the "
                            "pivot", positive=True) for s in (Ixx, Iyy)],
                Parameter(Izz, 0.4, 0.1, 3.0, "kg·m²", "moment about the symmetry axis z",
                          positive=True),
                Parameter(m, 1.0, 0.1, 5.0, "kg", "mass", positive=True),
                Parameter(g, 9.81, 0.0, 20.0, "m/s²",
                          "gravity (0: a top without gravity torque)"),
                Parameter(h, 0.3, 0.0, 1.0, "m", "pivot to mass centre along z (0: balanced)"),
                Parameter(c, 0.0, 0.0, 1.0, "N·m·s", "viscous damping of the rotation"),
            ],
            initial=[
                Parameter(psi, 0.0, -3.14, 3.14, "rad", "ψ₀"),
                Parameter(theta, 0.2, -1.0, 1.0, "rad", "θ₀"),
                Parameter(phi, 0.1, -1.0, 1.0, "rad", "φ₀"),
                *[Parameter(w, 0.0, -3.0, 3.0, "rad/s", f"ω_{w.name[-1]}(0)") for w in (wx, wy)],
                Parameter(wz, 20.0, -40.0, 40.0, "rad/s", "ω_z(0), spin"),
            ]),
        name="heavy_top",
        title="Heavy rigid body on a pivot with damping (Euler's equations with forces)",
        # Conserved when c = 0; with damping the energy decays.
        evaluation=Evaluation(invariants={"energy": base.T + V}, t_final=5.0),
    )
