"""Loparo & Vakalis §7.7–7.8, Example 2 (reconstructed) against its reconstruction: the
constraint map, the pulled-back metric, the equations of motion and the joint forces of the
double pendulum, derived by pull-back and compared with the formulas ``verify`` hands in."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, partial
from typing import Any

import sympy as sp

from companion.checks import RECONSTRUCTION, Check, numerically_equal
from companion.examples.double_pendulum.system import build

BOOK = "Loparo & Vakalis"

#: The system, built once for the checks.
_pendulum = cache(build)

def _parse(text: str, syms: dict) -> sp.Expr:
    return sp.sympify(text, locals=syms)


def checks(printed: Mapping[str, Any]) -> list[Check]:
    """The reconstructed Example 2, one :class:`Check` each, against ``printed``."""

    def setup():
        """The derivation, and the names the printed formulas use for its symbols (θ̈_i
        written thetaddot_i)."""
        system = _pendulum()
        d = system.derive("pull_back")
        syms = {s.name: s for s in (*system.q, *system.qdot, *system.parameter_symbols)}
        syms.update(zip(("thetaddot_1", "thetaddot_2"), d.result("qddot"), strict=True))
        return d, syms

    def compare(ours: sp.Expr, book: sp.Expr) -> tuple[bool, str]:
        diff = sp.expand(sp.expand_trig(ours - book))
        if diff == 0:
            return True, "identical after expansion"
        return numerically_equal(sp.Matrix([diff]), sp.zeros(1, 1),
                                 sorted(diff.free_symbols, key=str))

    def metric_entry(key: str, i: int, j: int):
        d, syms = setup()
        return compare(d.mass_matrix[i, j], _parse(printed["EX2_M"][key], syms))

    def map_check():
        d, syms = setup()
        ours = d.result("map")
        book = sp.Matrix([_parse(e, syms) for e in printed["EX2_MAP"]])
        ok = (ours - book).applyfunc(sp.expand) == sp.zeros(6, 1)
        return ok, "f(θ₁, θ₂) entry by entry"

    def equation(k: int):
        d, syms = setup()
        ours = (d.mass_matrix * sp.Matrix(d.result("qddot")) - d.forcing)[k]
        Ms = {key: _parse(v, syms) for key, v in printed["EX2_M"].items()}
        return compare(ours, _parse(printed["EX2_EQUATIONS"][k], {**syms, **Ms}))

    def joint_force(which: str):
        d, syms = setup()
        th = [syms["theta_1"], syms["theta_2"]]
        om = [syms["omega_1"], syms["omega_2"]]
        acc = [syms["thetaddot_1"], syms["thetaddot_2"]]
        pos = [_parse(e, syms) for e in printed["EX2_MAP"]]

        def ddot(e):  # d²e/dt² along θ(t): J θ̈ + θ̇ᵀ H θ̇
            grad = [sp.diff(e, x) for x in th]
            return sum(g * a for g, a in zip(grad, acc, strict=True)) + sum(
                sp.diff(grad[i], th[j]) * om[i] * om[j] for i in range(2) for j in range(2))

        acc_syms = {"xddot_1": ddot(pos[0]), "yddot_1": ddot(pos[1]),
                    "xddot_2": ddot(pos[3]), "yddot_2": ddot(pos[4])}
        R2 = [_parse(e, {**syms, **acc_syms}) for e in printed["EX2_R2"]]
        with_r2 = {**syms, **acc_syms, "R2x": R2[0], "R2y": R2[1]}
        book = R2 if which == "E" else [_parse(e, with_r2) for e in printed["EX2_R1"]]
        ours = d.result("joint_forces")[which]
        results = [compare(ours[i], book[i]) for i in range(2)]
        return all(r[0] for r in results), "; ".join(r[1] for r in results)

    what = "double pendulum: "
    eq = "§7.8 Ex. 2"
    rows = [
        (eq, "constraint map f(θ₁, θ₂)", map_check),
        *[(eq, f"pulled-back metric {k}", partial(metric_entry, k, i, j))
          for k, (i, j) in {"M11": (0, 0), "M12": (0, 1), "M22": (1, 1)}.items()],
        (eq, "equation of motion for θ₁", partial(equation, 0)),
        (eq, "equation of motion for θ₂", partial(equation, 1)),
        ("§7.7", "elbow force R₂ = m₂(ẍ₂, ÿ₂ + g)", partial(joint_force, "E")),
        ("§7.7", "base force R₁ = m₁(ẍ₁, ÿ₁ + g) + R₂", partial(joint_force, "O")),
    ]
    return [Check(BOOK, where, what + text, run, RECONSTRUCTION) for where, text, run in rows]
