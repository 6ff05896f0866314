"""The disk–link's link-torque controller: the link torque τ as a function of the state.

τ = τ₀ + K_θ(θ_ref − θ) − D_θ θ̇ + c_g (M L/2 + m s) g cos θ with θ_ref = k_p (s − s_ref) + k_d ṡ:
τ = 0, a constant torque, or a PD loop on the link angle (with a fraction c_g of the static
gravity torque compensated) that tilts the link to bring the disk to s_ref.  The loop makes
the example a *ball-and-beam-like underactuated system* (ours): one motor at the pivot, two
coordinates (θ, s), the disk steered only through the link's tilt, as the ball on the beam of
control textbooks (an inner loop on θ, an outer one turning the disk's position error into a
tilt); :mod:`.robotics` linearizes it about the held disk.  With
``simulate(..., link_held=True)`` the link is instead held fixed at θ₀ (θ̈ = 0) and the torque
that takes is reported as the series ``tau``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sympy as sp

from companion.system import Parameter

tau0, K_theta, D_theta, k_p, k_d, s_ref, c_g = sp.symbols(
    "tau_0 K_theta D_theta k_p k_d s_ref c_g")

#: The controller's gains and target, as parameters of the system.
CONTROLLER_PARAMETERS = [
    Parameter(tau0, 0.0, -30.0, 30.0, "N·m", "constant link torque τ₀"),
    Parameter(K_theta, 0.0, 0.0, 400.0, "N·m/rad", "link-angle stiffness of the PD loop"),
    Parameter(D_theta, 0.0, 0.0, 60.0, "N·m·s/rad", "link-angle damping of the PD loop"),
    Parameter(k_p, 0.0, 0.0, 3.0, "rad/m", "tilt per metre of position error"),
    Parameter(k_d, 0.0, 0.0, 3.0, "rad·s/m", "tilt per m/s of disk speed"),
    Parameter(s_ref, 0.5, 0.0, 2.0, "m", "target disk position along the link"),
    Parameter(c_g, 0.0, 0.0, 1.0, "", "fraction of the static gravity torque compensated"),
]


#: The gains of the "ball and beam" preset that holds the disk at s_ref (gravity compensated).
HOLDING_GAINS = {"K_theta": 40.0, "D_theta": 10.0, "k_p": 0.6, "k_d": 0.3, "c_g": 1.0}


def link_torque(x: Sequence, pv: Mapping[str, Any], cos: Callable = math.cos) -> Any:
    """τ at the state x = (θ, s, h, ψ, θ̇, ṡ, …) for parameter values ``pv``; with symbols
    for x and ``pv`` and ``cos=sympy.cos``, its expression (printed as C by :mod:`.compiled`)."""
    theta_ref = pv["k_p"] * (x[1] - pv["s_ref"]) + pv["k_d"] * x[5]
    gravity = (pv["M"] * pv["L"] / 2 + pv["m"] * x[1]) * pv["g"] * cos(x[0])
    return (pv["tau_0"] + pv["K_theta"] * (theta_ref - x[0]) - pv["D_theta"] * x[4]
            + pv["c_g"] * gravity)

