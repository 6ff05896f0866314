"""Three systems to start the workbench from, each written the ten-line way (:func:`define`).

None of them is a worked example of the books: they are classic nonholonomic systems beyond
Greenwood §4.3–4.4, each showing something the methods must get right: the sleigh's spin dies
out while it drifts to a straight line (energy conserved, not the heading); the turntable's
rolling constraint is affine in the rates, the ball's centre circling at (2/7) Ω; the
snakeboard has two constraints on five coordinates.
"""

from __future__ import annotations

import sympy as sp

from companion.system import System
from companion.workbench.define import coordinates, define


def chaplygin_sleigh() -> System:
    """The Chaplygin sleigh: blade at P = (x, y) along the heading θ, mass centre C a distance
    a ahead of it on the blade's line; no velocity across the blade at P."""
    (x, y, theta), (xd, yd, thd) = coordinates("x y theta")
    m, I, a = sp.symbols("m I a", positive=True)
    c, s = sp.cos(theta), sp.sin(theta)
    return define(
        "chaplygin_sleigh", title="Chaplygin sleigh", q=[x, y, theta],
        speeds=[xd * c + yd * s, thd],  # u₁ along the blade, u₂ = θ̇
        constraints=[-xd * s + yd * c],  # no velocity across the blade at P
        T=m / 2 * ((xd - a * s * thd) ** 2 + (yd + a * c * thd) ** 2) + I / 2 * thd**2,
        points={"P": (x, y), "C": (x + a * c, y + a * s)},
        parameters={a: (0.3, 0.05, 1.0, "m"), m: (1.0, 0.2, 5.0, "kg"),
                    I: (0.05, 0.01, 0.5, "kg·m²")},
        initial={x: (0.0, -1.0, 1.0, "m"), y: (0.0, -1.0, 1.0, "m"),
                 theta: (0.0, -1.0, 1.0, "rad"),
                 "u_1": (0.5, -2.0, 2.0, "m/s"), "u_2": (2.0, -5.0, 5.0, "rad/s")},
        t_final=10.0,
    ).build()


def ball_on_turntable() -> System:
    """A uniform ball (mass m, radius r, I = 2/5 m r²) rolling without slipping on a table
    that turns at the constant rate Ω about the vertical through the origin.

    Its orientation never enters (T and the contact condition use only ω), so the angles
    α_x, α_y, α_z, with α̇ = ω in the fixed axes, stand in for it.  Rolling: the ball's
    contact point moves with the table, ṙ_C + ω × (−r e_z) = Ω e_z × r_C.
    """
    (x, y, ax, ay, az), (xd, yd, wx, wy, wz) = coordinates("x y alpha_x alpha_y alpha_z")
    m, r = sp.symbols("m r", positive=True)
    Omega, R, t = sp.symbols("Omega R t")
    return define(
        "ball_on_turntable", title="Ball on a spinning turntable", q=[x, y, ax, ay, az],
        speeds=[xd, yd, wz],  # the centre's velocity and the spin about the vertical
        constraints=[xd - r * wy + Omega * y, yd + r * wx - Omega * x],  # rolling on the table
        T=m / 2 * (xd**2 + yd**2) + m * r**2 / 5 * (wx**2 + wy**2 + wz**2), t=t,
        points={"C": (x, y), "mark": (R * sp.cos(Omega * t), R * sp.sin(Omega * t))},
        parameters={Omega: (1.0, -3.0, 3.0, "rad/s"), m: (1.0, 0.2, 5.0, "kg"),
                    r: (0.1, 0.02, 0.3, "m"), R: (1.0, 0.1, 2.0, "m")},
        initial={x: (0.5, -1.0, 1.0, "m"), y: (0.0, -1.0, 1.0, "m"),
                 ax: (0.0, -1.0, 1.0, "rad"), ay: (0.0, -1.0, 1.0, "rad"),
                 az: (0.0, -1.0, 1.0, "rad"), "u_1": (0.3, -1.0, 1.0, "m/s"),
                 "u_3": (1.0, -5.0, 5.0, "rad/s")},
        invariants={"speed": sp.sqrt(xd**2 + yd**2), "spin": wz}, t_final=30.0,
    ).build()


def snakeboard() -> System:
    """The snakeboard: a board of half-length l with centre (x, y) and heading θ, a rotor
    at its centre turned by ψ, and wheel axles at both ends steered by φ and −φ; neither
    axle slides sideways.  Torsional springs k_φ, k_ψ pull the steering and the rotor back.

    The two axle conditions, −sin(θ ± φ) ẋ_axle + cos(θ ± φ) ẏ_axle = 0, are given added
    and subtracted: the centre does not slide sideways, and the board turns at
    θ̇ = v tan φ / l.  The same constraints, in a better basis: typed per axle, with the
    angle sums as they stand, the methods derive too, but Boltzmann–Hamel takes about 4 s
    against 0.5 s and Maggi's forcing is eight times longer.  (The §4.4 study's snakeboard,
    :func:`companion.examples.families.snakeboard`, keeps the per-axle form on purpose: it
    measures how the methods cope with angle sums.)
    """
    (x, y, theta, psi, phi), (xd, yd, thd, psid, phid) = coordinates("x y theta psi phi")
    m, J, J_r, J_w, l, k_phi, k_psi = sp.symbols("m J J_r J_w l k_phi k_psi", positive=True)
    c, s, cf, sf = sp.cos(theta), sp.sin(theta), sp.cos(phi), sp.sin(phi)
    forward = xd * c + yd * s  # the centre's velocity along the board
    return define(
        "snakeboard", title="Snakeboard", q=[x, y, theta, psi, phi],
        speeds=[forward, psid, phid],  # forward speed, rotor and steering rates
        constraints=[-xd * s + yd * c,  # the axle conditions added: no sideways sliding
                     l * cf * thd - sf * forward],  # subtracted: turning at v tan φ / l
        T=(m / 2 * (xd**2 + yd**2) + J / 2 * thd**2 + J_r / 2 * (thd + psid) ** 2
           + J_w / 2 * ((thd + phid) ** 2 + (thd - phid) ** 2)),
        V=k_phi * phi**2 / 2 + k_psi * psi**2 / 2,
        points={"board": (x, y), "front": (x + l * c, y + l * s),
                "back": (x - l * c, y - l * s)},
        parameters={l: (0.3, 0.1, 1.0, "m"), m: (1.0, 0.2, 5.0, "kg"),
                    J: (0.1, 0.02, 0.5, "kg·m²"), J_r: (0.05, 0.01, 0.5, "kg·m²"),
                    J_w: (0.01, 0.002, 0.1, "kg·m²"), k_phi: (1.0, 0.1, 5.0, "N·m/rad"),
                    k_psi: (1.0, 0.1, 5.0, "N·m/rad")},
        initial={x: (0.0, -1.0, 1.0, "m"), y: (0.0, -1.0, 1.0, "m"),
                 theta: (0.0, -1.0, 1.0, "rad"), psi: (0.0, -1.0, 1.0, "rad"),
                 phi: (0.3, -1.0, 1.0, "rad"), "u_1": (1.0, -2.0, 2.0, "m/s"),
                 "u_2": (2.0, -5.0, 5.0, "rad/s")},
        t_final=10.0,
    ).build()


#: The presets by name.
PRESETS = {"chaplygin_sleigh": chaplygin_sleigh, "ball_on_turntable": ball_on_turntable,
           "snakeboard": snakeboard}

__all__ = ["PRESETS", "ball_on_turntable", "chaplygin_sleigh", "snakeboard"]
