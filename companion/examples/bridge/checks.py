"""The bridge between the books as consistency checks (identities the companion adds)."""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from companion.checks import CONSISTENCY, Check
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
    ok = f["a_dot_curl_a"] != 0 and f["det"] != 0 and f["C3"] != sp.zeros(3, 3)
    return ok, f"a·(∇×a) = {f['a_dot_curl_a']}, det[X₁, X₂, [X₁,X₂]] = {f['det']}"


def checks(printed: Mapping[str, str]) -> list[Check]:
    return [
        Check(BOOK, "(4.100)–(4.102)/§7.4", "Hamel's γ^j_rl of Ex. 4.3 are the structure "
              "constants ε_jrl of so(3)", _structure_constants, CONSISTENCY),
        Check(BOOK, "(4.103)/§7.4", "gyroscopic term Σ_j p_j γ^j ω = −A B(ω, ω)", _gyroscopic,
              CONSISTENCY),
        Check(BOOK, "(4.104)/(7.1)", "geodesics of Ψᵀ A Ψ in Euler angles are Euler's "
              "equations", _geodesic, CONSISTENCY),
        Check(BOOK, "(4.116)/§7.3", "knife edge: a ∧ da ≠ 0, no submanifold to pull back to",
              _knife_edge, CONSISTENCY),
    ]
