"""The dumbbell as one rigid body about the knife edge against the printed (4.122)–(4.123),
and the §4.4 steps from d'Alembert's principle (companion consistency checks)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache, partial

import sympy as sp

from companion.checks import CONSISTENCY, Check, parse_printed
from companion.examples.dumbbell_rigid.system import build, dalembert_steps, rigid_model
from companion.examples.euler_body.checks import printed_form

BOOK = "Greenwood"
_system = cache(build)


def _printed_equations(printed: Mapping[str, str]) -> tuple[bool, str]:
    s = _system()
    d = s.derive("kane")
    book = parse_printed(printed["equations"], [*s.q, *s.u, *s.parameter_symbols])
    derived = sp.Matrix([e.lhs - e.rhs for e in d.equations])
    diff = (derived - book).applyfunc(lambda e: sp.trigsimp(sp.expand(e)))
    offset = any(st.eq == "(4.139)/(4.140)" for st in d.steps)
    return (diff == sp.zeros(*diff.shape) and offset,
            f"derived {'; '.join(d.book_text())}; ρ_c step shown: {offset}")


def _reference_point_is_free() -> tuple[bool, str]:
    """About the mass centre (ρ_c = 0) or about the knife edge (ρ_c = l/2 â_x, I_P by parallel
    axes): the same equations, although every intermediate term differs."""
    about_p = _system()
    symbols = build().parameter_symbols
    about_g = build().variant(mechanics_model=lambda: replace(rigid_model(*symbols),
                                                              reference_points={}))
    a, b = about_p.derive("kane"), about_g.derive("kane")
    diff = (a.accelerations() - b.accelerations()).applyfunc(sp.simplify)
    shown = [any(st.eq == "(4.139)/(4.140)" for st in d.steps) for d in (a, b)]
    return diff == sp.zeros(*diff.shape) and shown == [True, False], (
        f"u̇ about P − u̇ about G = {list(diff)}; ρ_c step shown about P, G: {shown}")


def _reaction_drops_out() -> tuple[bool, str]:
    steps = dalembert_steps(_system())
    work = next(st.expr for st in steps if st.title.startswith("The knife-edge force"))
    allowed = next(st.expr for st in steps if st.title.startswith("They satisfy"))
    ok = work == 0 and allowed == sp.zeros(*allowed.shape)
    return ok, f"R·δr₁ = {work}, a δq = {list(allowed)}"


def checks(printed: Mapping[str, str]) -> list[Check]:
    return [
        Check(BOOK, "(4.142)→(4.122)–(4.123)",
              "dumbbell as one rigid body about the knife edge (mass 2m, I_P = m l², "
              "ρ_c = l/2 along the rod)", partial(_printed_equations, printed), CONSISTENCY),
        Check(BOOK, "(4.122)–(4.123) form", "dumbbell's equations shown as printed: 2m u̇_1 − "
              "m l u_2² = 0, m l² u̇_2 + m l u_1 u_2 = 0",
              printed_form(lambda: _system().derive("kane"), printed["equations_form"]),
              CONSISTENCY),
        Check(BOOK, "(4.139)/(4.140)", "dumbbell about the knife edge (ρ_c ≠ 0) and about its "
              "mass centre give the same equations", _reference_point_is_free, CONSISTENCY),
        Check(BOOK, "(4.124, by position)–(4.132)", "d'Alembert on the knife edge: allowed δq "
              "satisfy the constraint and the knife-edge force does no virtual work",
              _reaction_drops_out, CONSISTENCY),
    ]
