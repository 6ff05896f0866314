"""Greenwood §4.4: the printed results of the Lagrange-multiplier, Maggi and general
dynamical-equation forms of Examples 4.3 and 4.4, as data for the ``knife_edge_kane``
worked example's checks (``companion/examples/knife_edge/checks.py``).

The expressions below are the book's, transcribed; the engine's derivations are compared with
them after a trigonometric clean-up (sin² + cos² = 1), never the other way round.
"""

from __future__ import annotations

import sympy as sp

x, y, phi, m, l = sp.symbols("x y phi m l")
xd, yd, phid = sp.symbols(r"\dot{x} \dot{y} \dot{\phi}")
xdd, ydd, phidd = sp.symbols(r"\ddot{x} \ddot{y} \ddot{\phi}")
lam = sp.Symbol("lambda_1")
u1, u2, u1d, u2d = sp.symbols(r"u_1 u_2 \dot{u_{1}} \dot{u_{2}}")
wx, wy, wz = sp.symbols("omega_x omega_y omega_z")
wxd, wyd, wzd = sp.symbols(r"\dot{\omega_{x}} \dot{\omega_{y}} \dot{\omega_{z}}")
Ixx, Iyy, Izz, Mx, My, Mz = sp.symbols("I_xx I_yy I_zz M_x M_y M_z")

#: Ex. 4.4 in Lagrange-multiplier form: left − right of the three equations and the constraint
#: (these and λ are not printed in our copy: verify lists them with the reconstructions).
KNIFE_LAGRANGE = [
    2 * m * xdd - m * l * phidd * sp.sin(phi) - m * l * phid**2 * sp.cos(phi) + lam * sp.sin(phi),
    2 * m * ydd + m * l * phidd * sp.cos(phi) - m * l * phid**2 * sp.sin(phi) - lam * sp.cos(phi),
    m * l**2 * phidd + m * l * (-xdd * sp.sin(phi) + ydd * sp.cos(phi)),
]
KNIFE_CONSTRAINT = -xd * sp.sin(phi) + yd * sp.cos(phi)
#: The knife-edge force on the motion: λ = m v φ̇.
KNIFE_LAMBDA = m * u1 * u2
#: (4.122)–(4.123), left sides (all Q's zero).
KNIFE_EQUATIONS = [2 * m * u1d - m * l * u2**2, m * l**2 * u2d + m * l * u1 * u2]
#: (4.104), left − right.
EULER_EQUATIONS = [
    Ixx * wxd + (Izz - Iyy) * wy * wz - Mx,
    Iyy * wyd + (Ixx - Izz) * wz * wx - My,
    Izz * wzd + (Iyy - Ixx) * wx * wy - Mz,
]


#: Printed results by worked example.
PRINTED: dict[str, dict[str, object]] = {
    "knife_edge_kane": {
        "knife_lagrange": KNIFE_LAGRANGE, "knife_constraint": KNIFE_CONSTRAINT,
        "knife_lambda": KNIFE_LAMBDA, "knife_equations": KNIFE_EQUATIONS,
        "euler_equations": EULER_EQUATIONS,
    },
}
