"""The bridge between the books as consistency checks (identities the companion adds)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import sympy as sp

from companion.checks import CONSISTENCY, RECONSTRUCTION, Check
from companion.examples.bridge import computations as c

BOOK = "Greenwood × Loparo"


def _structure_constants() -> tuple[bool, str]:
    gamma, consts, eps = c.hamel_gamma(), c.structure_constants(), c.levi_civita()
    ok = all(g == k == e for g, k, e in zip(gamma, consts, eps, strict=True))
    return ok, "γ^j_rl of (4.100)–(4.102) = c^j_rl of [·,·] on so(3) = ε_jrl"


def _gyroscopic() -> tuple[bool, str]:
    _, _, diff = c.gyroscopic_vs_b()
    return diff == sp.zeros(3, 1), f"Σ_j p_j γ^j ω + A B(ω, ω) = {list(diff)}"


def _geodesic() -> tuple[bool, str]:
    err, wrong = c.geodesic_vs_euler(), c.geodesic_vs_euler(sign=-1)
    return err < 1e-10 < wrong, f"relative difference {err:.1e} (wrong bracket: {wrong:.1e})"


def _knife_edge() -> tuple[bool, str]:
    f = c.knife_edge_frobenius()
    ok = f["a_dot_curl_a"] != 0 and f["det"] != 0
    return ok, f"a·(∇×a) = {f['a_dot_curl_a']}, det[X₁, X₂, [X₁,X₂]] = {f['det']}"


def _identity(name: str) -> tuple[bool, str]:
    frame, engine = c.structure_function_identity(name)
    diff = [(a - b).applyfunc(sp.simplify) for a, b in zip(frame, engine, strict=True)]
    ok = all(d == sp.zeros(*d.shape) for d in diff)
    return ok, f"⟨ω^j, [X_r, X_l]⟩ − (ΦᵀC^jΦ)_rl = 0 for all j, r, l: {ok}"


def _gamma_test() -> tuple[bool, str]:
    g = c.knife_edge_gamma_test()
    counter = c.c_is_not_the_test()
    x_ydot, rescaled = counter["x_ydot"], counter["rescaled"]
    ok = (g["gamma3_12"] == -1 and x_ydot["C3"] != sp.zeros(3, 3)
          and x_ydot["block"] == sp.zeros(2, 2) and rescaled["C3"] != g["C3"]
          and rescaled["block"] != sp.zeros(2, 2))
    return ok, (f"γ³₁₂ = {g['gamma3_12']}; u₃ = x ẏ: C³ ≠ 0, γ-block {x_ydot['block'].tolist()}; "
                f"u₃ · eˣ: C³ changes, γ-block {rescaled['block'].tolist()}")


def _left_invariant_frame() -> tuple[bool, str]:
    k = c.knife_edge_frame()
    q = set(k["q"])
    constant = all(not (g.free_symbols & q) for g in k["brackets"])
    invariant = all(v == sp.zeros(3, 1) for v in k["pushforward"])
    fixed = sp.simplify(k["fixed_axes"][2][0, 1] + sp.sec(k["q"][2]))
    named = [k["brackets"][2][0, 1], k["brackets"][0][1, 2], k["brackets"][0][0, 2],
             k["brackets"][2][0, 2]]
    ok = constant and invariant and fixed == 0 and named == [-1, -1, 0, 0]
    return ok, (f"[X₁,X₂] = {named[0]}·X₃, [X₂,X₃] = {named[1]}·X₁, [X₁,X₃] = 0, constant: "
                f"{constant}; dL_h X = X∘L_h: {invariant}; fixed axes γ³₁₂ + sec φ = {fixed}")


def _kane_is_pull_back() -> tuple[bool, str]:
    k = c.kane_vs_pull_back()
    ok = k["difference"] == sp.zeros(2, 1) and k["coefficients"] == k["J"]
    return ok, "γ_ij, β_ij = columns of J; (4.142) − (7.2) = " + str(list(k["difference"]))


def _bracket_sign() -> tuple[bool, str]:
    s, eps = c.bracket_sign_on_so3(), c.levi_civita()
    ok = s["body"] == eps and s["spatial"] == [-e for e in eps]
    return ok, "body (left-invariant) frame: γ = ε_jrl; spatial (right-invariant): γ = −ε_jrl"


def _robotics_form() -> tuple[bool, str]:
    r = c.robotics_form()
    taus = {s for s in r["M"].free_symbols | r["tau"].free_symbols if s.name.startswith("tau")}
    ok = (r["skew_check"] == sp.zeros(2, 2) and r["C"] != sp.zeros(2, 2)
          and r["tau"].free_symbols <= taus)
    return ok, f"Ṁ − 2C = {r['M_dot_minus_2C'].tolist()} (skew); τ = {list(r['tau'])}"


def checks(printed: Mapping[str, str]) -> list[Check]:
    return [
        Check(BOOK, "(4.100)–(4.102)/§7.4", "Hamel's γ^j_rl of Ex. 4.3 are the structure "
              "constants ε_jrl of so(3)", _structure_constants, CONSISTENCY),
        Check(BOOK, "(4.103)/§7.4", "gyroscopic term Σ_j p_j γ^j ω = −A B(ω, ω)", _gyroscopic,
              CONSISTENCY),
        Check(BOOK, "(4.104)/(7.1)", "geodesics of Ψᵀ A Ψ in Euler angles are Euler's "
              "equations", _geodesic, CONSISTENCY),
        Check(BOOK, "(4.107)/§7.3", "knife edge: a ∧ da ≠ 0 (Frobenius), no submanifold to "
              "pull back to", _knife_edge, CONSISTENCY),
        Check(BOOK, "(4.100)–(4.102)", "Ex 4.3: γ^j_rl = ⟨ω^j, [X_r, X_l]⟩ (frame of Φ)",
              partial(_identity, "euler_body"), RECONSTRUCTION),
        Check(BOOK, "(4.117)–(4.119)", "Ex 4.4: γ^j_rl = ⟨ω^j, [X_r, X_l]⟩ (frame of Φ)",
              partial(_identity, "knife_edge"), RECONSTRUCTION),
        Check(BOOK, "(4.105)–(4.107)", "Ex 4.4: the frame of Φ is left-invariant on SE(2), "
              "[X₁,X₂] = −X₃, [X₂,X₃] = −X₁, [X₁,X₃] = 0 (ours); fixed axes u₁ = ẋ give "
              "γ³₁₂ = −sec φ", _left_invariant_frame, RECONSTRUCTION),
        Check(BOOK, "(4.119)/§7.3", "γ-test: knife edge γ³₁₂ = −1; C³ ≠ 0 is not the test "
              "(u₃ = x ẏ, u₃ rescaled)", _gamma_test, RECONSTRUCTION),
        Check(BOOK, "(4.133)/(7.2)", "double pendulum: velocity coefficients = columns of J, "
              "(4.142) is (7.2)", _kane_is_pull_back, RECONSTRUCTION),
        Check(BOOK, "(4.100)–(4.102)/§7.4", "SO(3): body frame γ = ε, spatial frame γ = −ε "
              "(the bracket's sign)", _bracket_sign, RECONSTRUCTION),
        Check(BOOK, "(7.2)", "double pendulum as M q̈ + C q̇ + g = τ with Ṁ − 2C skew",
              _robotics_form, RECONSTRUCTION),
    ]
