"""Greenwood Example 4.4 against the book: (4.105)–(4.123) and the knife-edge force by the
Boltzmann–Hamel equation (§4.3), and the same dumbbell by the methods of §4.4 (Lagrange's
multipliers, Maggi's equations, the general dynamical equation), which must reproduce the
printed equations and agree with (4.85) at random states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache, partial

import sympy as sp

from companion.checks import CONSISTENCY, RECONSTRUCTION, Check, parse_printed
from companion.examples.euler_body.checks import (
    BOOK,
    Item,
    boltzmann_hamel_checks,
    gyroscopic,
    residuals,
)
from companion.examples.euler_body.checks import system as _rigid_body
from companion.examples.knife_edge.system import build
from companion.mechanics.agreement import max_disagreement

#: The system, built once for the checks.
_system = cache(build)


ITEMS: list[Item] = [
    ("(4.105)–(4.107)→(4.110)", "Ex 4.4 Ψ, by differentiating the definitions",
     lambda d: d.Psi, "Psi"),
    ("(4.108)", "Ex 4.4 unconstrained kinetic energy T", None, "T"),
    ("(4.111)", "Ex 4.4 Φ = Ψ⁻¹", lambda d: d.Phi, "Phi"),
    ("(4.112)", "Ex 4.4 C² = 0 ((4.106) is integrable)", lambda d: d.C[1], "C2"),
    ("(4.115)", "Ex 4.4 C¹", lambda d: d.C[0], "C1"),
    ("(4.116)", "Ex 4.4 C³", lambda d: d.C[2], "C3"),
    ("(4.117)", "Ex 4.4 γ¹", lambda d: d.gamma[0], "gamma1"),
    ("(4.118)", "Ex 4.4 γ² = 0", lambda d: d.gamma[1], "gamma2"),
    ("(4.119)", "Ex 4.4 γ³", lambda d: d.gamma[2], "gamma3"),
    ("(4.120)", "Ex 4.4 momenta ∂T/∂u_j (unconstrained T)", lambda d: d.momenta, "dT/du"),
    ("(4.121)", "Ex 4.4 gyroscopic matrix with u₃ = 0", gyroscopic, "gyro"),
    ("(4.122)–(4.123)", "Ex 4.4 equations of motion", residuals, "equations"),
    ("(4.134)", "Ex 4.4 kinematics ẋ = v cosφ, ẏ = v sinφ, φ̇ = u₂",
     lambda d: d.kinematics, "kinematics"),
    ("Ex 4.4", "knife-edge force λ = m v φ̇ from the unreduced r = 3 row",
     lambda d: d.constraint_forces()[0], "lambda"),
]
#: What our copy of Example 4.4 does not print (the companion's results, listed as such).
NOT_PRINTED = {"lambda"}


def _energy_is_conserved(printed: Mapping[str, str]) -> tuple[bool, str]:
    s = _system()
    d = s.derive("boltzmann_hamel")
    E = sp.Matrix([parse_printed(printed["energy"], [*s.q, *s.u, *s.parameter_symbols])])
    rate = sp.simplify((E.jacobian(d.q) * d.kinematics + E.jacobian(d.u) * d.accelerations())[0])
    return rate == 0, "dE/dt = 0 on the derived motion" if rate == 0 else f"dE/dt = {rate}"


def checks(printed: Mapping[str, str]) -> list[Check]:
    """Every printed result of Example 4.4, one :class:`Check` each, and its energy."""
    return [*boltzmann_hamel_checks(_system, [i for i in ITEMS if i[3] not in NOT_PRINTED],
                                    printed),
            *(replace(c, kind=RECONSTRUCTION) for c in boltzmann_hamel_checks(
                _system, [i for i in ITEMS if i[3] in NOT_PRINTED], printed)),
            Check(BOOK, "Ex 4.4", "energy m v² + ½ m l² φ̇² conserved by (4.122)–(4.123)",
                  partial(_energy_is_conserved, printed), CONSISTENCY)]


# ------------------------------------------------------------------------ §4.4's methods
def _same(derived: Sequence, printed: Sequence) -> tuple[bool, str]:
    """Compare expressions one by one after renaming symbols (each derived symbol becomes the
    printed symbol of the same name) and a trig clean-up."""
    if len(derived) != len(printed):
        return False, f"{len(derived)} derived vs {len(printed)} printed equations"
    for i, (d, p) in enumerate(zip(derived, printed, strict=True)):
        names = {s.name: s for s in p.free_symbols}
        d = sp.sympify(d)
        d = d.xreplace({s: names[s.name] for s in d.free_symbols if s.name in names})
        if sp.trigsimp(sp.expand(d - p)) != 0:
            return False, f"row {i + 1}: derived {d} vs printed {p}"
    return True, ""


def _lhs_minus_rhs(derivation) -> list[sp.Expr]:
    return [e.lhs - e.rhs for e in derivation.equations]


def _agreement(system) -> tuple[bool, str]:
    """Every applicable method gives Boltzmann–Hamel's u̇ at random states, to 1e-12."""
    worst = max_disagreement(system(), n_states=20)
    detail = ", ".join(f"{m} {d:.1e}" for m, d in worst.items())
    return len(worst) >= 3 and max(worst.values()) < 1e-12, detail


def methods_checks(printed: Mapping[str, object]) -> list[Check]:
    """§4.4 on Examples 4.3 and 4.4: the printed equations by the other methods, and the
    agreement of every method with (4.85)."""

    def lagrange() -> tuple[bool, str]:
        s = _system()
        d = s.derive("lagrange_multipliers")
        ok, why = _same(_lhs_minus_rhs(d)[:3], printed["knife_lagrange"])
        if not ok:
            return ok, why
        constraint = (d.constraint_matrix * sp.Matrix(s.qdot))[0]
        return _same([constraint], [printed["knife_constraint"]])

    def multiplier() -> tuple[bool, str]:
        s = _system()
        from_lagrange = s.derive("lagrange_multipliers").step("multipliers").expr
        from_bh = s.derive("boltzmann_hamel").constraint_forces()[0]
        return _same([from_lagrange[0], from_bh], [printed["knife_lambda"]] * 2)

    def knife(method: str):
        return lambda: _same(_lhs_minus_rhs(_system().derive(method)), printed["knife_equations"])

    return [
        Check(BOOK, "§4.4, Ex. 4.4", "knife edge: Lagrange's equations with a multiplier",
              lagrange, RECONSTRUCTION),
        Check(BOOK, "§4.4, Ex. 4.4", "knife-edge force λ = m v φ̇ (multiplier = 3rd B–H row)",
              multiplier, RECONSTRUCTION),
        Check(BOOK, "(4.122)–(4.123)", "knife edge: Maggi's equations reduce to these",
              knife("maggi"), CONSISTENCY),
        Check(BOOK, "(4.133)", "knife edge: general dynamical equation gives (4.122)–(4.123)",
              knife("kane"), CONSISTENCY),
        Check(BOOK, "(4.142)/(4.104)", "rigid body: general dynamical equation gives Euler's",
              lambda: _same(_lhs_minus_rhs(_rigid_body().derive("kane")),
                            printed["euler_equations"]), CONSISTENCY),
        Check(BOOK, "§4.4, Ex. 4.4", "knife edge: Lagrange, Maggi, Kane agree with (4.85)",
              lambda: _agreement(_system), CONSISTENCY),
        Check(BOOK, "§4.4, Ex. 4.3", "rigid body: Lagrange, Maggi, Kane agree with (4.85)",
              lambda: _agreement(_rigid_body), CONSISTENCY),
    ]
