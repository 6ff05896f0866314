"""Loparo & Vakalis §7.9–7.11, Examples 3–4 (reconstructed): the results our reconstruction
states for the disk on a pivoted link, and closed-form cases it must reproduce.

Our copy of the chapter stops in §7.4, so these are *reconstructions* with the chapter's
method, not the handbook's printed numbers; every check says so.  The formulas below are the
reference table only: the package derives its models from the contact map and never imports
this module.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from companion.verify import Check

BOOK = "Loparo & Vakalis"
UNIFORM = 0.5  # κ = I_D/(m r²) of a uniform disk
TOL = 1e-9


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


# ----------------------------------------------------------------------------- checks
def _systems():
    from companion import examples

    return examples.get("disk_link_rolling"), examples.get("disk_link_friction")


def _held_params(**kw):
    base = {"g": 9.81, "m": 1.3, "r": 0.12, "kappa": UNIFORM, "M": 2.0, "L": 2.0}
    base.update(kw)
    return base


def _check_metric():
    from companion.examples.disk_link import contact as ct

    derived = ct.mode_model("rolling").metric
    printed = rolling_metric(ct.m, ct.r, ct.kappa, ct.M, ct.L, ct.s)
    diff = (derived - printed).applyfunc(sp.simplify)
    return diff == sp.zeros(2, 2), f"derived − printed = {diff.tolist()}"


def _check_equations():
    roll, _ = _systems()
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(10):
        p = {"g": 9.81, "m": rng.uniform(0.2, 3), "r": rng.uniform(0.03, 0.3),
             "kappa": UNIFORM, "M": rng.uniform(0.5, 5), "L": rng.uniform(0.5, 2),
             "mu_s": 1.0, "mu_k": 0.5, "tau_0": rng.uniform(-5, 5)}
        st = {"theta": rng.uniform(-1, 1), "s": rng.uniform(0, p["L"]),
              "theta_dot": rng.uniform(-2, 2), "s_dot": rng.uniform(-2, 2)}
        got = roll.at_state(st, p)
        thdd, sdd = rolling_accelerations(p, st["theta"], st["s"], st["theta_dot"],
                                          st["s_dot"], p["tau_0"])
        n, f = rolling_contact_forces(p, st["theta"], st["s"], st["theta_dot"], st["s_dot"],
                                      thdd)
        for a, b in ((got["theta_ddot"], thdd), (got["s_ddot"], sdd), (got["N"], n),
                     (got["F"], f)):
            worst = max(worst, abs(a - b) / max(1.0, abs(b)))
    return worst < 1e-12, f"largest relative difference {worst:.2e} at 10 random states"


def _check_rolling_fixed():
    roll, _ = _systems()
    theta = 0.3
    p = _held_params(mu_s=1.0, mu_k=0.5)
    tr = roll.simulate(1.0, p, {"theta": theta, "s": 1.5, "theta_dot": 0.0, "s_dot": 0.0},
                       link_held=True)
    a = fixed_link_rolling_sdd(p["g"], theta)
    err = max(np.max(np.abs(tr["s_ddot"] - a)),
              np.max(np.abs(tr["s"] - (1.5 + a * tr.t**2 / 2))))
    return err < TOL, f"max |s̈ − closed form|, |s − closed form| = {err:.2e}"


def _check_sliding_fixed():
    _, fric = _systems()
    theta, mu_k = 0.8, 0.2  # tan θ > 3 μ_k: it slips all the way
    p = _held_params(mu_s=0.25, mu_k=mu_k)
    tr = fric.simulate(0.5, p, {"theta": theta, "s": 1.8, "theta_dot": 0.0, "s_dot": -0.5,
                                "psi_dot": 0.0}, link_held=True)
    a = fixed_link_sliding_sdd(p["g"], theta, mu_k)
    slipping = tr["mode"] == 2  # slipping backward (down the link)
    err = max(np.max(np.abs(tr["s_ddot"][slipping] - a)),
              np.max(np.abs(tr["s"] - (1.8 - 0.5 * tr.t + a * tr.t**2 / 2))))
    ok = bool(slipping.all()) and err < TOL
    return ok, f"slips throughout: {bool(slipping.all())}; max error {err:.2e}"


def _check_stop_slipping():
    _, fric = _systems()
    theta, mu_k, v0 = 0.3, 0.2, 1.5
    p = _held_params(mu_s=0.4, mu_k=mu_k)
    tr = fric.simulate(0.6, p, {"theta": theta, "s": 0.2, "theta_dot": 0.0, "s_dot": v0,
                                "psi_dot": 0.0}, link_held=True)
    stops = [sw.t for sw in tr.switches if sw.target == "rolling"]
    t_star = stop_slipping_time(p["g"], theta, mu_k, v0)
    if not stops:
        return False, "the disk never stopped slipping"
    err = abs(stops[0] - t_star)
    return err < TOL, f"t* = {stops[0]:.12f} s, closed form {t_star:.12f} s, error {err:.1e}"


def _check_threshold():
    from companion.examples.disk_link import contact as ct

    ratio = ct.fixed_link_friction_ratio().subs(ct.kappa, sp.Rational(1, 2))
    mu = sp.Symbol("mu_s", positive=True)
    tan_star = sp.solve(sp.Eq(ratio.rewrite(sp.tan), mu), sp.tan(ct.theta))
    if not tan_star:
        tan_star = [sp.tan(sp.solve(sp.Eq(ratio, mu), ct.theta)[0])]
    printed = fixed_link_tan_threshold(mu)
    ok = sp.simplify(tan_star[0] - printed) == 0
    return ok, f"derived tan θ* = {tan_star[0]}, printed {printed}"


def checks() -> list[Check]:
    rec = " (reconstruction)"
    return [
        Check(BOOK, "§7.10", "rolling metric M = [[J_O + m s² + r²k, −rk], [−rk, k]]" + rec,
              _check_metric),
        Check(BOOK, "§7.10", "rolling θ̈, s̈, N and F = (m/3)(g sinθ − sθ̇²)" + rec,
              _check_equations),
        Check(BOOK, "§7.10", "held link: uniform disk rolls with s̈ = −(2/3) g sinθ" + rec,
              _check_rolling_fixed),
        Check(BOOK, "§7.10", "held link: rolls without slipping iff tanθ ≤ 3μ_s" + rec,
              _check_threshold),
        Check(BOOK, "§7.11", "held link: slipping down, s̈ = −g(sinθ − μ_k cosθ)" + rec,
              _check_sliding_fixed),
        Check(BOOK, "§7.11", "launched up without spin: stops slipping at "
              "t* = v₀/(g(sinθ + 3μ_k cosθ))" + rec, _check_stop_slipping),
    ]
