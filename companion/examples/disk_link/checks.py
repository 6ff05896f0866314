"""Loparo & Vakalis §7.9–7.11, Examples 3 and 4 (reconstructed) against the reconstruction's
formulas, which ``verify`` hands in: the rolling metric and equations, and the closed-form
cases of a held link (rolling, the rolling threshold, slipping, the end of slipping); and the
rolling model in a robotics handbook's form with its ball-and-beam loop linearized (ours,
:mod:`.robotics`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache, partial

import numpy as np
import sympy as sp

from companion.checks import RECONSTRUCTION, Check
from companion.examples.disk_link import contact as ct
from companion.examples.disk_link import robotics as rb
from companion.examples.disk_link.model import build_friction, build_rolling

BOOK = "Loparo & Vakalis"
_UNIFORM = 0.5  # κ = I_D/(m r²) of a uniform disk
TOL = 1e-9

#: The systems, built once for the checks.
_rolling, _friction = cache(build_rolling), cache(build_friction)


def _held_params(**kw):
    return {"g": 9.81, "m": 1.3, "r": 0.12, "kappa": _UNIFORM, "M": 2.0, "L": 2.0, **kw}


def _check_metric(printed: Mapping[str, Callable]) -> tuple[bool, str]:
    derived = ct.mode_model("rolling").metric
    book = printed["rolling_metric"](ct.m, ct.r, ct.kappa, ct.M, ct.L, ct.s)
    diff = (derived - book).applyfunc(sp.simplify)
    return diff == sp.zeros(2, 2), f"derived − book = {diff.tolist()}"


def _check_equations(printed: Mapping[str, Callable]) -> tuple[bool, str]:
    roll = _rolling()
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(10):
        p = {"g": 9.81, "m": rng.uniform(0.2, 3), "r": rng.uniform(0.03, 0.3),
             "kappa": _UNIFORM, "M": rng.uniform(0.5, 5), "L": rng.uniform(0.5, 2),
             "mu_s": 1.0, "mu_k": 0.5, "tau_0": rng.uniform(-5, 5)}
        st = {"theta": rng.uniform(-1, 1), "s": rng.uniform(0, p["L"]),
              "theta_dot": rng.uniform(-2, 2), "s_dot": rng.uniform(-2, 2)}
        got = roll.at_state(st, p)
        motion = (st["theta"], st["s"], st["theta_dot"], st["s_dot"])
        thdd, sdd = printed["rolling_accelerations"](p, *motion, p["tau_0"])
        n, f = printed["rolling_contact_forces"](p, *motion, thdd)
        for a, b in ((got["theta_ddot"], thdd), (got["s_ddot"], sdd), (got["N"], n),
                     (got["F"], f)):
            worst = max(worst, abs(a - b) / max(1.0, abs(b)))
    return worst < 1e-12, f"largest relative difference {worst:.2e} at 10 random states"


def _check_rolling_fixed(printed: Mapping[str, Callable]) -> tuple[bool, str]:
    roll = _rolling()
    theta = 0.3
    p = _held_params(mu_s=1.0, mu_k=0.5)
    tr = roll.simulate(1.0, p, {"theta": theta, "s": 1.5, "theta_dot": 0.0, "s_dot": 0.0},
                       link_held=True)
    a = printed["fixed_link_rolling_sdd"](p["g"], theta)
    err = max(np.max(np.abs(tr["s_ddot"] - a)),
              np.max(np.abs(tr["s"] - (1.5 + a * tr.t**2 / 2))))
    return err < TOL, f"max |s̈ − closed form|, |s − closed form| = {err:.2e}"


def _check_sliding_fixed(printed: Mapping[str, Callable]) -> tuple[bool, str]:
    fric = _friction()
    theta, mu_k = 0.8, 0.2  # tan θ > 3 μ_k: it slips all the way
    p = _held_params(mu_s=0.25, mu_k=mu_k)
    tr = fric.simulate(0.5, p, {"theta": theta, "s": 1.8, "theta_dot": 0.0, "s_dot": -0.5,
                                "psi_dot": 0.0}, link_held=True)
    a = printed["fixed_link_sliding_sdd"](p["g"], theta, mu_k)
    slipping = tr["mode"] == 2  # slipping backward (down the link)
    err = max(np.max(np.abs(tr["s_ddot"][slipping] - a)),
              np.max(np.abs(tr["s"] - (1.8 - 0.5 * tr.t + a * tr.t**2 / 2))))
    ok = bool(slipping.all()) and err < TOL
    return ok, f"slips throughout: {bool(slipping.all())}; max error {err:.2e}"


def _check_stop_slipping(printed: Mapping[str, Callable]) -> tuple[bool, str]:
    fric = _friction()
    theta, mu_k, v0 = 0.3, 0.2, 1.5
    p = _held_params(mu_s=0.4, mu_k=mu_k)
    tr = fric.simulate(0.6, p, {"theta": theta, "s": 0.2, "theta_dot": 0.0, "s_dot": v0,
                                "psi_dot": 0.0}, link_held=True)
    stops = [sw.t for sw in tr.switches if sw.target == "rolling"]
    t_star = printed["stop_slipping_time"](p["g"], theta, mu_k, v0)
    if not stops:
        return False, "the disk never stopped slipping"
    err = abs(stops[0] - t_star)
    return err < TOL, f"t* = {stops[0]:.12f} s, closed form {t_star:.12f} s, error {err:.1e}"


def _check_threshold(printed: Mapping[str, Callable]) -> tuple[bool, str]:
    ratio = ct.fixed_link_friction_ratio().subs(ct.kappa, sp.Rational(1, 2))
    mu = sp.Symbol("mu_s", positive=True)
    tan_star = sp.solve(sp.Eq(ratio.rewrite(sp.tan), mu), sp.tan(ct.theta))
    book = printed["fixed_link_tan_threshold"](mu)
    ok = sp.simplify(tan_star[0] - book) == 0
    return ok, f"derived tan θ* = {tan_star[0]}, book {book}"


def _check_robotics_form() -> tuple[bool, str]:
    r = rb.rolling_robotics_form()
    ok = (r["skew_check"] == sp.zeros(2, 2) and r["C"] != sp.zeros(2, 2)
          and r["tau"] == sp.Matrix([ct.tau, 0]))
    return ok, (f"Ṁ − 2C = {r['M_dot_minus_2C'].tolist()} (skew); right side "
                f"{list(r['tau'])} = B τ, B = (1, 0)ᵀ: one motor, two coordinates")


def _check_held_disk() -> tuple[bool, str]:
    system = _rolling()
    pv = system.parameter_values({"s_ref": 0.6})
    worst, growing = 0.0, {}
    for feedback in (True, False):
        derived = rb.linearize(pv, feedback)
        simulated = rb.linearize_simulated(system, pv, feedback)
        worst = max(worst, rb.equilibrium_residual(pv, feedback),
                    float(np.max(np.abs(derived.A - simulated.A))))
        growing[feedback] = derived.eigenvalues().real
    stiffness = rb.rolling_robotics_form()["g"].jacobian([ct.theta, ct.s]).subs(ct.theta, 0)
    saddle = sp.factor(stiffness.det())  # < 0 for every m, g: one real λ > 0 without feedback
    ok = (worst < 1e-8 and growing[True].max() < 0 and int(np.sum(growing[False] > 1e-9)) == 1
          and bool((-saddle).is_positive))
    return ok, (f"max Re λ with feedback {growing[True].max():+.3f}, without "
                f"{growing[False].max():+.3f}; det ∂g/∂q = {saddle}; symbolic A − simulated "
                f"loop's and |ẋ| at the held disk ≤ {worst:.1e}")


def rolling_checks(printed: Mapping[str, Callable]) -> list[Check]:
    """Example 3 (rolling), one :class:`Check` each."""
    return [
        Check(BOOK, "§7.10", "rolling metric M = [[J_O + m s² + r²k, −rk], [−rk, k]]",
              partial(_check_metric, printed), RECONSTRUCTION),
        Check(BOOK, "§7.10", "rolling θ̈, s̈, N and F = (m/3)(g sinθ − sθ̇²)",
              partial(_check_equations, printed), RECONSTRUCTION),
        Check(BOOK, "§7.10", "held link: uniform disk rolls with s̈ = −(2/3) g sinθ",
              partial(_check_rolling_fixed, printed), RECONSTRUCTION),
        Check(BOOK, "§7.10", "held link: rolls without slipping iff tanθ ≤ 3μ_s",
              partial(_check_threshold, printed), RECONSTRUCTION),
        Check(BOOK, "(7.2)", "rolling disk–link as M q̈ + C q̇ + g = B τ, B = (1, 0)ᵀ "
              "(ball and beam), Ṁ − 2C skew", _check_robotics_form, RECONSTRUCTION),
        Check(BOOK, "(7.2)", "ball-and-beam loop about the held disk: stable with "
              "feedback, a saddle without", _check_held_disk, RECONSTRUCTION),
    ]


def friction_checks(printed: Mapping[str, Callable]) -> list[Check]:
    """Example 4 (Coulomb friction), one :class:`Check` each."""
    return [
        Check(BOOK, "§7.11", "held link: slipping down, s̈ = −g(sinθ − μ_k cosθ)",
              partial(_check_sliding_fixed, printed), RECONSTRUCTION),
        Check(BOOK, "§7.11", "launched up without spin: stops slipping at "
              "t* = v₀/(g(sinθ + 3μ_k cosθ))", partial(_check_stop_slipping, printed),
              RECONSTRUCTION),
    ]
