"""Loparo & Vakalis §7.9–7.11, Examples 3–4 (reconstructed): the results our reconstruction
states for the disk on a pivoted link, and closed-form cases it must reproduce.

Our copy of the chapter stops in §7.4, so these are *reconstructions* with the chapter's
method, not the handbook's printed numbers; every check says so.  The formulas below are the
reference table only: the package derives its models from the contact map and never imports
this module (``companion/examples/disk_link/checks.py`` receives them from ``verify``).
"""

from __future__ import annotations

import math

import sympy as sp


def rolling_metric(m, r, kappa, M, L, s):
    """M = [[J_O + m s² + r² k, −r k], [−r k, k]], k = m + I_D/r², J_O = M L²/3."""
    k = m * (1 + kappa)
    J_O = M * L**2 / 3
    return sp.Matrix([[J_O + m * s**2 + r**2 * k, -r * k], [-r * k, k]])


def rolling_accelerations(p, theta, s, thd, sd, tau=0.0):
    """θ̈ and s̈ of the rolling model (§7.10, reconstruction)."""
    m, r, g = p["m"], p["r"], p["g"]
    k = m * (1 + p["kappa"])
    J_O, d = p["M"] * p["L"] ** 2 / 3, p["L"] / 2
    thdd = (tau - (p["M"] * d + m * s) * g * math.cos(theta) - 2 * m * s * sd * thd
            + m * r * s * thd**2) / (J_O + m * s**2)
    sdd = r * thdd + (m * s * thd**2 - m * g * math.sin(theta)) / k
    return thdd, sdd


def rolling_contact_forces(p, theta, s, thd, sd, thdd):
    """N and, for a uniform disk, F = (m/3)(g sinθ − s θ̇²) (§7.10, reconstruction)."""
    m, r, g = p["m"], p["r"], p["g"]
    normal = m * (s * thdd + 2 * sd * thd - r * thd**2) + m * g * math.cos(theta)
    return normal, m / 3 * (g * math.sin(theta) - s * thd**2)


def fixed_link_rolling_sdd(g, theta):
    """Uniform disk rolling on a held link: s̈ = −(2/3) g sin θ."""
    return -2 / 3 * g * math.sin(theta)


def fixed_link_sliding_sdd(g, theta, mu_k):
    """Disk slipping down a held link: s̈ = −g (sin θ − μ_k cos θ)."""
    return -g * (math.sin(theta) - mu_k * math.cos(theta))


def stop_slipping_time(g, theta, mu_k, v0):
    """Uniform disk launched up a held link at v₀ without spin: t* = v₀/(g(sinθ + 3μ_k cosθ))."""
    return v0 / (g * (math.sin(theta) + 3 * mu_k * math.cos(theta)))


def fixed_link_tan_threshold(mu_s):
    """A uniform disk rolls on a held link iff tan θ ≤ 3 μ_s."""
    return 3 * mu_s


_ROLLING = (rolling_metric, rolling_accelerations, rolling_contact_forces,
            fixed_link_rolling_sdd, fixed_link_tan_threshold)
_FRICTION = (fixed_link_sliding_sdd, stop_slipping_time)
#: Printed (reconstructed) results by worked example.
PRINTED: dict[str, dict[str, object]] = {
    "disk_link_rolling": {f.__name__: f for f in _ROLLING},
    "disk_link_friction": {f.__name__: f for f in _FRICTION},
}
