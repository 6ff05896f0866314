"""Loparo & Vakalis §7.4–7.5 (Example 1) against the chapter: Euler's equations from
dω/dt = B(ω, ω) and B solved from its definition for SO(3) (printed); Lemma 7.1 as restored
(remainder O(|a|²)) with its next term, and the cross-link of Example 1 with Greenwood's
Example 4.3 (the companion's reconstructions: our copy stops inside §7.4); the sign trap, the
skewness of B and the invariants of the motion on SO(3) (consistency checks)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import sympy as sp

from companion.checks import CONSISTENCY, RECONSTRUCTION, Check, numerically_equal
from companion.examples.euler_body.checks import system as _rigid_body_4_3
from companion.examples.rigid_body_so3.system import build
from companion.geometry.lie import (
    arnold_equations,
    b_operator,
    bracket,
    dexp_inverse_coefficients,
    inertia_operator,
    inner,
    left_translation_pushforward,
)

#: The system, built once for the checks.
_body = cache(build)

BOOK = "Loparo & Vakalis"


def checks(printed: Mapping[str, Any]) -> list[Check]:
    """The chapter's §7.4–7.5 results, one :class:`Check` each, against ``printed``."""
    I, w = sp.symbols("I_1:4", positive=True), sp.symbols("w_1:4")
    A = inertia_operator(I)

    def _euler_from_b() -> tuple[bool, str]:
        d = arnold_equations(A, w)
        names = {s.name: s for s in (*I, *w)}
        book = sp.Matrix([sp.sympify(e, locals=names) for e in printed["EULER"]])
        return numerically_equal(d.accelerations(), book, [*I, *w])

    def _sign_trap() -> tuple[bool, str]:
        right = arnold_equations(A, w).accelerations()
        wrong = arnold_equations(A, w, sign=-1).accelerations()
        ok, detail = numerically_equal(wrong, -right, [*I, *w])
        return ok, ("[a,b] = −a×b (right-invariant, spatial convention) gives "
                    "ω̇ = −B(ω,ω), solved by ω(−t): " + detail)

    def _b_formula() -> tuple[bool, str]:
        a, c = sp.Matrix(sp.symbols("a_1:4")), sp.Matrix(sp.symbols("c_1:4"))
        # the table holds a matrix formula in A, a and c
        book = eval(printed["B_SO3"], {"A": A, "a": a, "c": c})
        return numerically_equal(b_operator(A)(c, a), book, [*I, *a, *c])

    def _b_skew() -> tuple[bool, str]:
        B = b_operator(A)
        a, b, c = (sp.Matrix(sp.symbols(f"{x}_1:4")) for x in "abc")
        skew = sp.Matrix([inner(A, B(c, a), b) + inner(A, B(c, b), a)])
        return numerically_equal(skew, sp.zeros(1, 1), [*I, *a, *b, *c])

    def _lemma_errors(order: int) -> dict[float, float]:
        """|L_exp(a)* ξ − (the series to ``order``)| at |a| = 2e-2, 1e-2, 5e-3, where order 1
        uses the book's factor of [a, ξ] and order 2 adds the derived (1/12)[a, [a, ξ]]."""
        rng = np.random.default_rng(7)
        xi, direction = rng.normal(size=3), rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        errors = {}
        for eps in (2e-2, 1e-2, 5e-3):
            a = eps * direction
            lemma = xi + printed["LEMMA_7_1_FACTOR"] * np.array(bracket(a, xi), dtype=float).ravel()
            if order == 2:
                c2 = float(dexp_inverse_coefficients(2)[2])
                lemma = lemma + c2 * np.cross(a, np.cross(a, xi))
            errors[eps] = float(np.linalg.norm(left_translation_pushforward(a, xi) - lemma))
        return errors

    def _lemma_7_1() -> tuple[bool, str]:
        """The error of ξ + ½[a, ξ] divided by |a|² is the same at every |a| (the remainder is
        O(|a|²), not o(|a|²)); with any other factor it shrinks only like |a|."""
        err = _lemma_errors(1)
        scaled = [e / eps**2 for eps, e in err.items()]
        ok = max(scaled) < 1.05 * min(scaled) and min(scaled) > 0
        return ok, ("err/|a|² = " + ", ".join(f"{x:.4f}" for x in scaled)
                    + f" at |a| = {', '.join(f'{eps:g}' for eps in err)}: constant, O(|a|²)")

    def _lemma_next_term() -> tuple[bool, str]:
        """With the next term (1/12)[a, [a, ξ]] (its 1/12 from the series of x/(1 − e⁻ˣ)) the
        error drops to ~1e-11 at |a| = 1e-2 and falls like |a|⁴ (16 per halving)."""

        c = dexp_inverse_coefficients(2)
        err = _lemma_errors(2)
        ratio = err[1e-2] / err[5e-3]
        ok = c[2] != 0 and err[1e-2] < 5e-11 and 12 < ratio < 20
        return ok, (f"c₂ = {c[2]}: error {err[1e-2]:.1e} at |a| = 1e-2, ratio {ratio:.1f} when "
                    "|a| halves (O(|a|⁴))")

    def _greenwood_cross_link() -> tuple[bool, str]:
        system = _rigid_body_4_3()
        arnold, bh = system.derive("arnold"), system.derive("boltzmann_hamel")
        syms = [*system.u, *system.parameter_symbols]
        ok, detail = numerically_equal(arnold.accelerations(), bh.accelerations(), syms)
        return ok, "Arnold's form vs Greenwood Ex. 4.3 (Boltzmann–Hamel): " + detail

    def _conserved() -> tuple[bool, str]:
        traj = _body().simulate()
        drifts = {k: traj.drift(k) for k in ("energy", "|Aω|", "M_s = R A ω")}
        ok = max(drifts.values()) < 1e-8 and traj.max_residual("‖RᵀR − I‖") < 1e-12
        return ok, ", ".join(f"{k} drift {v:.1e}" for k, v in drifts.items())

    return [
        Check(BOOK, "Lemma 7.1", "L_exp(a)* ξ = ξ + ½[a, ξ] + O(|a|²) in exponential coordinates "
              "(the ½ and the order restored): err/|a|² constant", _lemma_7_1, RECONSTRUCTION),
        Check(BOOK, "Lemma 7.1", "next term (1/12)[a, [a, ξ]] (ours): error ~1e-11 at |a| = 1e-2",
              _lemma_next_term, RECONSTRUCTION),
        Check(BOOK, "§7.4", "B solved from ⟨[a,b],c⟩ = ⟨B(c,a),b⟩ equals A⁻¹((Ac)×a) "
              "for SO(3)", _b_formula),
        Check(BOOK, "§7.4", "B is skew: ⟨B(c,a),b⟩ + ⟨B(c,b),a⟩ = 0", _b_skew, CONSISTENCY),
        Check(BOOK, "§7.4", "dω/dt = B(ω,ω) gives I₁ω̇₁ = (I₂ − I₃)ω₂ω₃ and cyclic",
              _euler_from_b),
        Check(BOOK, "§7.4", "sign trap: [a,b] = −a×b gives ω̇ = −B(ω,ω), solved by ω(−t)",
              _sign_trap, CONSISTENCY),
        Check(BOOK, "§7.5", "Example 1: Arnold's form = Greenwood Ex. 4.3 (cross-link)",
              _greenwood_cross_link, RECONSTRUCTION),
        Check(BOOK, "§7.4", "energy, |Aω| and M_s conserved; RᵀR = I on SO(3)", _conserved,
              CONSISTENCY),
    ]
