"""Greenwood §4.4: the printed results of the Lagrange-multiplier, Maggi and general
dynamical-equation forms of Examples 4.3 and 4.4, as data, with ``checks()`` for verify.

The expressions below are the book's, transcribed; the engine's derivations are compared with
them after a trigonometric clean-up (sin² + cos² = 1), never the other way round.
"""

from __future__ import annotations

import sympy as sp

from companion.verify import Check

BOOK = "Greenwood"

x, y, phi, m, l = sp.symbols("x y phi m l")
xd, yd, phid = sp.symbols(r"\dot{x} \dot{y} \dot{\phi}")
xdd, ydd, phidd = sp.symbols(r"\ddot{x} \ddot{y} \ddot{\phi}")
lam = sp.Symbol("lambda_1")
u1, u2, u1d, u2d = sp.symbols(r"u_1 u_2 \dot{u_{1}} \dot{u_{2}}")
wx, wy, wz = sp.symbols("omega_x omega_y omega_z")
wxd, wyd, wzd = sp.symbols(r"\dot{\omega_{x}} \dot{\omega_{y}} \dot{\omega_{z}}")
Ixx, Iyy, Izz, Mx, My, Mz = sp.symbols("I_xx I_yy I_zz M_x M_y M_z")

#: Ex. 4.4 in Lagrange-multiplier form: left − right of the three equations and the constraint.
KNIFE_LAGRANGE = [
    2 * m * xdd - m * l * phidd * sp.sin(phi) - m * l * phid**2 * sp.cos(phi) + lam * sp.sin(phi),
    2 * m * ydd + m * l * phidd * sp.cos(phi) - m * l * phid**2 * sp.sin(phi) - lam * sp.cos(phi),
    m * l**2 * phidd + m * l * (-xdd * sp.sin(phi) + ydd * sp.cos(phi)),
]
KNIFE_CONSTRAINT = -xd * sp.sin(phi) + yd * sp.cos(phi)
#: The knife-edge force on the motion: λ = m v φ̇.
KNIFE_LAMBDA = m * u1 * u2
#: (4.122)–(4.123), left sides (all Q's zero).
KNIFE_EQUATIONS = [2 * m * u1d - m * l * u2**2, m * l**2 * u2d + m * l * u1 * u2]
#: (4.104), left − right.
EULER_EQUATIONS = [
    Ixx * wxd + (Izz - Iyy) * wy * wz - Mx,
    Iyy * wyd + (Ixx - Izz) * wz * wx - My,
    Izz * wzd + (Iyy - Ixx) * wx * wy - Mz,
]


def _by_name(expr: sp.Expr, reference: sp.Expr) -> sp.Expr:
    """``expr`` with its symbols replaced by the reference's symbols of the same name."""
    names = {s.name: s for s in reference.free_symbols}
    return expr.xreplace({s: names[s.name] for s in expr.free_symbols if s.name in names})


def _same(derived: list, printed: list, *, up_to_sign: bool = False) -> tuple[bool, str]:
    """Compare expressions one by one after renaming symbols and a trig clean-up."""
    if len(derived) != len(printed):
        return False, f"{len(derived)} derived vs {len(printed)} printed equations"
    for i, (d, p) in enumerate(zip(derived, printed, strict=True)):
        d = _by_name(sp.sympify(d), p)
        diffs = [sp.trigsimp(sp.expand(d - p))]
        if up_to_sign:
            diffs.append(sp.trigsimp(sp.expand(d + p)))
        if all(e != 0 for e in diffs):
            return False, f"row {i + 1}: derived {d} vs printed {p}"
    return True, ""


def _lhs_minus_rhs(derivation) -> list[sp.Expr]:
    return [e.lhs - e.rhs for e in derivation.equations]


def _system(name: str):
    from companion import examples

    return examples.get(name)


def _check_knife_lagrange() -> tuple[bool, str]:
    d = _system("knife_edge").derive("lagrange_multipliers")
    rows = _lhs_minus_rhs(d)
    ok, why = _same(rows[:3], KNIFE_LAGRANGE)
    if not ok:
        return ok, why
    constraint = (d.constraint_matrix * sp.Matrix(_system("knife_edge").qdot))[0]
    return _same([constraint], [KNIFE_CONSTRAINT])


def _check_knife_lambda() -> tuple[bool, str]:
    system = _system("knife_edge")
    from_lagrange = system.derive("lagrange_multipliers").step("multipliers").expr[0]
    from_bh = system.derive("boltzmann_hamel").constraint_forces()[0]
    return _same([from_lagrange, from_bh], [KNIFE_LAMBDA, KNIFE_LAMBDA])


def _check_knife(method: str) -> tuple[bool, str]:
    return _same(_lhs_minus_rhs(_system("knife_edge").derive(method)), KNIFE_EQUATIONS)


def _check_euler_kane() -> tuple[bool, str]:
    return _same(_lhs_minus_rhs(_system("euler_body").derive("kane")), EULER_EQUATIONS)


def _check_agreement(name: str) -> tuple[bool, str]:
    """Every applicable method gives Boltzmann–Hamel's u̇ at random states, to 1e-12."""
    from companion.mechanics.agreement import max_disagreement

    worst = max_disagreement(_system(name), n_states=20)
    detail = ", ".join(f"{m} {d:.1e}" for m, d in worst.items())
    return len(worst) >= 3 and max(worst.values()) < 1e-12, detail


def checks() -> list[Check]:
    """The §4.4 results the companion reproduces."""
    return [
        Check(BOOK, "§4.4, Ex. 4.4", "knife edge: Lagrange's equations with a multiplier",
              _check_knife_lagrange),
        Check(BOOK, "§4.4, Ex. 4.4", "knife-edge force λ = m v φ̇ (multiplier = 3rd B–H row)",
              _check_knife_lambda),
        Check(BOOK, "(4.122)–(4.123)", "knife edge: Maggi's equations reduce to these",
              lambda: _check_knife("maggi")),
        Check(BOOK, "(4.133)", "knife edge: general dynamical equation gives (4.122)–(4.123)",
              lambda: _check_knife("kane")),
        Check(BOOK, "(4.142)/(4.104)", "rigid body: general dynamical equation gives Euler's",
              _check_euler_kane),
        Check(BOOK, "§4.4, Ex. 4.4", "knife edge: Lagrange, Maggi, Kane agree with (4.85)",
              lambda: _check_agreement("knife_edge")),
        Check(BOOK, "§4.4, Ex. 4.3", "rigid body: Lagrange, Maggi, Kane agree with (4.85)",
              lambda: _check_agreement("euler_body")),
    ]
