"""Loparo & Vakalis §7.4–7.5 (Example 1) against the chapter: B solved from its definition,
Euler's equations from dω/dt = B(ω, ω), the sign trap, Lemma 7.1, the cross-link with
Greenwood's Example 4.3, and the invariants of the motion on SO(3)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import sympy as sp

from companion.checks import CONSISTENCY, Check, numerically_equal
from companion.examples.euler_body.checks import system as _rigid_body_4_3
from companion.examples.rigid_body_so3.system import build

#: The system, built once for the checks.
_body = cache(build)

BOOK = "Loparo & Vakalis"


def _inertia():
    I = sp.symbols("I_1:4", positive=True)
    w = sp.symbols("w_1:4")
    return I, w


def checks(printed: Mapping[str, Any]) -> list[Check]:
    """The chapter's §7.4–7.5 results, one :class:`Check` each, against ``printed``."""

    def _euler_from_b() -> tuple[bool, str]:
        from companion.geometry.lie import arnold_equations, inertia_operator

        I, w = _inertia()
        d = arnold_equations(inertia_operator(I), w)
        names = {s.name: s for s in (*I, *w)}
        book = sp.Matrix([sp.sympify(e, locals=names) for e in printed["EULER"]])
        return numerically_equal(d.accelerations(), book, [*I, *w])

    def _sign_trap() -> tuple[bool, str]:
        from companion.geometry.lie import arnold_equations, inertia_operator

        I, w = _inertia()
        A = inertia_operator(I)
        right = arnold_equations(A, w).accelerations()
        wrong = arnold_equations(A, w, sign=-1).accelerations()
        ok, detail = numerically_equal(wrong, -right, [*I, *w])
        return ok, "[a,b] = −a×b gives ω̇ → −ω̇ (time reversal): " + detail

    def _b_formula() -> tuple[bool, str]:
        from companion.geometry.lie import b_operator, inertia_operator

        I, _ = _inertia()
        A = inertia_operator(I)
        a, c = sp.Matrix(sp.symbols("a_1:4")), sp.Matrix(sp.symbols("c_1:4"))
        # the table holds a matrix formula in A, a and c
        book = eval(printed["B_SO3"], {"A": A, "a": a, "c": c})
        return numerically_equal(b_operator(A)(c, a), book, [*I, *a, *c])

    def _b_skew() -> tuple[bool, str]:
        from companion.geometry.lie import b_operator, inertia_operator, inner

        I, _ = _inertia()
        A = inertia_operator(I)
        B = b_operator(A)
        a, b, c = (sp.Matrix(sp.symbols(f"{x}_1:4")) for x in "abc")
        skew = sp.Matrix([inner(A, B(c, a), b) + inner(A, B(c, b), a)])
        return numerically_equal(skew, sp.zeros(1, 1), [*I, *a, *b, *c])

    def _lemma_7_1() -> tuple[bool, str]:
        """d/dt log(exp(a) exp(tξ)) at t = 0 against ξ + ½[a, ξ]: the error must shrink like |a|²
        (with any other factor it shrinks only like |a|)."""
        from scipy.spatial.transform import Rotation

        from companion.geometry.lie import bracket, exp_so3

        rng = np.random.default_rng(7)
        xi, direction = rng.normal(size=3), rng.normal(size=3)
        h = 1e-6

        def error(eps: float) -> float:
            a = eps * direction
            ends = [Rotation.from_matrix(exp_so3(a) @ exp_so3(s * xi)).as_rotvec() for s in (-h, h)]
            pushed = (ends[1] - ends[0]) / (2 * h)
            lemma = xi + printed["LEMMA_7_1_FACTOR"] * np.array(bracket(a, xi), dtype=float).ravel()
            return float(np.linalg.norm(pushed - lemma))

        e1, e2 = error(1e-2), error(5e-3)
        return 3.5 < e1 / e2 < 4.5, (f"error {e1:.1e} → {e2:.1e} when |a| halves "
                                     "(ratio ≈ 4: the remainder is O(|a|²))")

    def _greenwood_cross_link() -> tuple[bool, str]:
        import companion.geometry.lie  # noqa: F401 - registers the "arnold" method
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
        Check(BOOK, "Lemma 7.1", "L_exp(a)* ξ = ξ + ½[a, ξ] + o(a²) in exponential coordinates",
              _lemma_7_1),
        Check(BOOK, "§7.4", "B solved from ⟨[a,b],c⟩ = ⟨B(c,a),b⟩ equals A⁻¹((Ac)×a)",
              _b_formula),
        Check(BOOK, "§7.4", "B is skew: ⟨B(c,a),b⟩ + ⟨B(c,b),a⟩ = 0", _b_skew, CONSISTENCY),
        Check(BOOK, "§7.4", "dω/dt = B(ω,ω) gives I₁ω̇₁ = (I₂ − I₃)ω₂ω₃ and cyclic",
              _euler_from_b),
        Check(BOOK, "§7.4", "sign trap: [a,b] = −a×b gives the time-reversed equations",
              _sign_trap, CONSISTENCY),
        Check(BOOK, "§7.5", "Example 1: Arnold's form = Greenwood Ex. 4.3 (cross-link)",
              _greenwood_cross_link, CONSISTENCY),
        Check(BOOK, "§7.4", "energy, |Aω| and M_s conserved; RᵀR = I on SO(3)", _conserved,
              CONSISTENCY),
    ]
