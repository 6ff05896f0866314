"""An independent Newton–Euler solution of the disk on the link, to check the pulled-back model.

Nothing here uses the contact map or the pull-back.  Each body is free in the plane with its
own world coordinates — the disk (x_D, y_D, φ_D), the link's mass centre (x_L, y_L) and angle
θ — and its Newton–Euler equations carry the interaction forces as unknowns: the pivot
reaction (R_x, R_y) on the link, the contact force N e₂ + F e₁ on the disk and its reaction on
the link.  The pin, the contact (zero gap) and, when rolling, zero slip are imposed at the
acceleration level.  At a given state the ten linear equations are solved numerically for the
six accelerations and the four forces.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np
import sympy as sp
from sympy.physics.mechanics import dynamicsymbols

from companion.geometry.planar import cross2

t = sp.Symbol("t")
xD, yD, phD, xL, yL, th = dynamicsymbols("x_D y_D phi_D x_L y_L theta_L")
Rx, Ry, Nn, Ff = sp.symbols("R_x R_y N_c F_c")
g, m, r, kappa, M, L, tau, lam = sp.symbols("g m r kappa M L tau lambda")


@cache
def _system(mode: str):
    """Linear equations A z = b in z = (ẍ_D, ÿ_D, φ̈_D, ẍ_L, ÿ_L, θ̈, R_x, R_y, N, F)."""
    e1 = sp.Matrix([sp.cos(th), sp.sin(th)])
    e2 = sp.Matrix([-sp.sin(th), sp.cos(th)])
    c = sp.Matrix([xD, yD])
    G = sp.Matrix([xL, yL])
    contact = c - r * e2                      # disk point touching the link
    link_pt = (c.dot(e1)) * e1                # link point under it (s e₁, s = c·e₁)
    f = Nn * e2 + Ff * e1                     # on the disk; −f on the link
    d2 = [sp.diff(q, t, 2) for q in (xD, yD, phD, xL, yL, th)]
    eqs = [
        m * d2[0] - f[0],
        m * d2[1] - (f[1] - m * g),
        kappa * m * r**2 * d2[2] - cross2(contact - c, f),
        M * d2[3] - (Rx - f[0]),
        M * d2[4] - (Ry - f[1] - M * g),
        M * L**2 / 12 * d2[5] - (tau + cross2(-G, sp.Matrix([Rx, Ry]))
                                 + cross2(link_pt - G, -f)),
    ]
    # The pin at O: the mass centre stays at L/2 along the link.
    pin = G - L / 2 * e1
    eqs += [sp.diff(pin[0], t, 2), sp.diff(pin[1], t, 2)]
    # Contact: zero gap c·e₂ − r (twice differentiated).
    eqs.append(sp.diff(c.dot(e2) - r, t, 2))
    if mode == "rolling":
        # Zero slip: relative velocity of the two material points along e₁, differentiated.
        omega_disk = sp.diff(phD, t)
        v_disk = sp.diff(c, t) + omega_disk * sp.Matrix([-(contact - c)[1], (contact - c)[0]])
        v_link = sp.diff(th, t) * sp.Matrix([-link_pt[1], link_pt[0]])
        eqs.append(sp.diff((v_disk - v_link).dot(e1), t))
    else:
        eqs.append(Ff - lam * Nn)  # Coulomb: F = λ N with λ = −μ_k sgn(v_slip)
    unknowns = [*d2, Rx, Ry, Nn, Ff]
    A, b = sp.linear_eq_to_matrix([sp.expand(e) for e in eqs], unknowns)
    coords = [xD, yD, phD, xL, yL, th]
    args = [*coords, *(sp.diff(q, t) for q in coords), g, m, r, kappa, M, L, tau, lam]
    return sp.lambdify(args, [A, b], modules="numpy", cse=True)


def solve(state: Mapping[str, float], params: Mapping[str, float], tau_value: float = 0.0,
          mode: str = "rolling", slip_sign: float = 0.0) -> dict[str, float]:
    """θ̈, s̈, ψ̈, N and F at a contact state by Newton–Euler for each body.

    ``state`` has theta, s, theta_dot, s_dot, psi_dot (h = 0); ``mode`` is "rolling" or
    "slipping" (then F = −μ_k sgn(v_slip) N with ``slip_sign`` = sgn(v_slip)).
    """
    th0, s0 = state["theta"], state["s"]
    thd, sd, psid = state["theta_dot"], state["s_dot"], state["psi_dot"]
    rr, LL = params["r"], params["L"]
    e1, e2 = np.array([np.cos(th0), np.sin(th0)]), np.array([-np.sin(th0), np.cos(th0)])
    c = s0 * e1 + rr * e2
    c_dot = sd * e1 + (s0 * e2 - rr * e1) * thd
    G, G_dot = LL / 2 * e1, LL / 2 * thd * e2
    X = [*c, 0.0, *G, th0]
    V = [*c_dot, psid, *G_dot, thd]
    p = [params[k] for k in ("g", "m", "r", "kappa", "M", "L")]
    lam_value = -slip_sign * params["mu_k"]
    A, b = _system(mode)(*X, *V, *p, tau_value, lam_value)
    z = np.linalg.solve(np.array(A, dtype=float), np.array(b, dtype=float).ravel())
    a_c, thdd = z[:2], z[5]
    # s = c·e₁ ⇒ s̈ = c̈·e₁ + 2 ċ·ė₁ + c·ë₁ with ė₁ = θ̇ e₂, ë₁ = θ̈ e₂ − θ̇² e₁.
    sdd = a_c @ e1 + 2 * thd * (c_dot @ e2) + c @ (thdd * e2 - thd**2 * e1)
    return {"theta_ddot": thdd, "s_ddot": sdd, "psi_ddot": z[2], "N": z[8], "F": z[9],
            "R_x": z[6], "R_y": z[7]}
