"""Loparo & Vakalis §7.8 onward: the reconstructed worked examples (Examples 2–4).

Our copy of the chapter stops inside §7.4, so these "printed" results are the reconstruction
recorded in the project's fact sheet (worked instances of the chapter's method), and every
check says "(reconstruction)".  Each check builds the example with the package's builders and
compares with the formulas below.

Other examples add their checks by appending a factory (a function returning a list of
:class:`~companion.verify.Check`) to :data:`CHECK_FACTORIES`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy as sp

from companion.verify import Check

BOOK = "Loparo & Vakalis"

# ----------------------------------------------------------------- Example 2 (§7.8)
_EX2_NAMES = ("theta_1 theta_2 omega_1 omega_2 m_1 m_2 J_1 J_2 a_1 a_2 l_1 g tau_1 tau_2 "
              "thetaddot_1 thetaddot_2")

#: The constraint map f: (θ₁, θ₂) → (x₁, y₁, θ₁, x₂, y₂, θ₂).
EX2_MAP = ["a_1*sin(theta_1)", "-a_1*cos(theta_1)", "theta_1",
           "l_1*sin(theta_1) + a_2*sin(theta_2)", "-l_1*cos(theta_1) - a_2*cos(theta_2)",
           "theta_2"]
#: Pulled-back metric entries.
EX2_M = {"M11": "J_1 + m_1*a_1**2 + m_2*l_1**2",
         "M12": "m_2*l_1*a_2*cos(theta_1 - theta_2)",
         "M22": "J_2 + m_2*a_2**2"}
#: Equations of motion as left − right (θ̈ written thetaddot_i).
EX2_EQUATIONS = [
    "M11*thetaddot_1 + M12*thetaddot_2 + m_2*l_1*a_2*sin(theta_1 - theta_2)*omega_2**2"
    " + (m_1*a_1 + m_2*l_1)*g*sin(theta_1) - (tau_1 - tau_2)",
    "M12*thetaddot_1 + M22*thetaddot_2 - m_2*l_1*a_2*sin(theta_1 - theta_2)*omega_1**2"
    " + m_2*a_2*g*sin(theta_2) - tau_2",
]
#: Joint forces: elbow force on link 2, base force on link 1 (accelerations of the centres).
EX2_R2 = ["m_2*xddot_2", "m_2*(yddot_2 + g)"]
EX2_R1 = ["m_1*xddot_1 + R2x", "m_1*(yddot_1 + g) + R2y"]


def _ex2_symbols() -> dict[str, sp.Symbol]:
    syms = {s.name: s for s in sp.symbols(_EX2_NAMES)}
    syms.update({n: sp.Symbol(n, positive=True)
                 for n in ("m_1", "m_2", "a_1", "a_2", "l_1", "g")})
    syms.update({n: sp.Symbol(n, nonnegative=True) for n in ("J_1", "J_2")})
    return syms


def _parse(text: str, syms: dict) -> sp.Expr:
    return sp.sympify(text, locals=syms)


def _vanishes(expr: sp.Expr, symbols: list[sp.Symbol], trials: int = 5) -> tuple[bool, str]:
    """Zero at random values of every symbol (to 1e-12, relative to the terms' size)."""
    rng = np.random.default_rng(7)
    fn = sp.lambdify(symbols, expr, modules="math")
    worst = 0.0
    for _ in range(trials):
        worst = max(worst, abs(fn(*rng.uniform(0.3, 2.0, len(symbols)))))
    return worst < 1e-12, f"max |difference| {worst:.1e} at {trials} random points"


def _ex2_checks() -> list[Check]:
    def setup():
        from companion import examples

        system = examples.get("double_pendulum")
        d = system.derive("pull_back")
        syms = _ex2_symbols()
        rename = {s: syms[s.name] for s in d.mass_matrix.free_symbols | d.forcing.free_symbols
                  if s.name in syms}
        rename.update(dict(zip(d.result("qddot"), (syms["thetaddot_1"], syms["thetaddot_2"]),
                               strict=True)))
        return d, syms, rename

    def compare(ours: sp.Expr, printed: sp.Expr) -> tuple[bool, str]:
        diff = sp.expand(sp.expand_trig(ours - printed))
        if diff == 0:
            return True, "identical after expansion"
        return _vanishes(diff, sorted(diff.free_symbols, key=str))

    def metric_entry(key: str, i: int, j: int):
        def run():
            d, syms, rename = setup()
            return compare(d.mass_matrix[i, j].xreplace(rename), _parse(EX2_M[key], syms))
        return run

    def map_check():
        d, syms, rename = setup()
        ours = d.result("map").xreplace(rename)
        printed = sp.Matrix([_parse(e, syms) for e in EX2_MAP])
        ok = (ours - printed).applyfunc(sp.expand) == sp.zeros(6, 1)
        return ok, "f(θ₁, θ₂) entry by entry"

    def equation(k: int):
        def run():
            d, syms, rename = setup()
            qdd = sp.Matrix(d.result("qddot"))
            ours = (d.mass_matrix * qdd - d.forcing)[k].xreplace(rename)
            Ms = {key: _parse(v, syms) for key, v in EX2_M.items()}
            printed = _parse(EX2_EQUATIONS[k], {**syms, **Ms})
            return compare(ours, printed)
        return run

    def joint_force(which: str):
        def run():
            d, syms, rename = setup()
            th = [syms["theta_1"], syms["theta_2"]]
            om = [syms["omega_1"], syms["omega_2"]]
            acc = [syms["thetaddot_1"], syms["thetaddot_2"]]
            pos = [_parse(e, syms) for e in EX2_MAP]

            def ddot(e):  # d²e/dt² along θ(t): J θ̈ + θ̇ᵀ H θ̇
                grad = [sp.diff(e, x) for x in th]
                return sum(g * a for g, a in zip(grad, acc, strict=True)) + sum(
                    sp.diff(grad[i], th[j]) * om[i] * om[j] for i in range(2) for j in range(2))

            acc_syms = {"xddot_1": ddot(pos[0]), "yddot_1": ddot(pos[1]),
                        "xddot_2": ddot(pos[3]), "yddot_2": ddot(pos[4])}
            R2 = [_parse(e, {**syms, **acc_syms}) for e in EX2_R2]
            printed = R2 if which == "E" else [
                _parse(e, {**syms, **acc_syms, "R2x": R2[0], "R2y": R2[1]}) for e in EX2_R1]
            ours = d.result("joint_forces")[which].xreplace(rename)
            results = [compare(ours[i], printed[i]) for i in range(2)]
            return all(r[0] for r in results), "; ".join(r[1] for r in results)
        return run

    what = "(reconstruction) double pendulum: "
    eq = "§7.8 Ex. 2"
    return [
        Check(BOOK, eq, what + "constraint map f(θ₁, θ₂)", map_check),
        *[Check(BOOK, eq, what + f"pulled-back metric {k}", metric_entry(k, i, j))
          for k, (i, j) in {"M11": (0, 0), "M12": (0, 1), "M22": (1, 1)}.items()],
        Check(BOOK, eq, what + "equation of motion for θ₁", equation(0)),
        Check(BOOK, eq, what + "equation of motion for θ₂", equation(1)),
        Check(BOOK, "§7.7", what + "elbow force R₂ = m₂(ẍ₂, ÿ₂ + g)", joint_force("E")),
        Check(BOOK, "§7.7", what + "base force R₁ = m₁(ẍ₁, ÿ₁ + g) + R₂", joint_force("O")),
    ]


#: Functions returning checks, one per example; append yours to extend the table.
CHECK_FACTORIES: list[Callable[[], list[Check]]] = [_ex2_checks]


def checks() -> list[Check]:
    """Every reconstructed-example check, in table order."""
    return [c for factory in CHECK_FACTORIES for c in factory()]
