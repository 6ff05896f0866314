"""The heavy top about its pivot: the general dynamical equation with ρ_c ≠ 0 against the
Boltzmann–Hamel equation (4.85) (a consistency check the companion adds: the book prints no
result for this body)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache, partial

import sympy as sp

from companion.checks import CONSISTENCY, Check
from companion.examples.heavy_top_pivot.system import build
from companion.mechanics.agreement import max_disagreement
from companion.system import System

BOOK = "Greenwood"
_system = cache(build)


def kane_agrees_with_boltzmann_hamel(system: Callable[[], System]) -> tuple[bool, str]:
    """u̇ of the general dynamical equation = u̇ of (4.85) at random states, to 1e-12."""
    worst = max_disagreement(system(), n_states=10)
    return "kane" in worst and max(worst.values()) < 1e-12, ", ".join(
        f"{m} {d:.1e}" for m, d in worst.items())


def _pivot_terms_shown() -> tuple[bool, str]:
    d = _system().derive("kane")
    shown = [st for st in d.steps if st.eq == "(4.139)/(4.140)"]
    return bool(shown), shown[0].latex() if shown else "no ρ_c step"


def _applied_forces_match() -> tuple[bool, str]:
    """Q_j = Σ (F·γ_ij + M·β_ij) (4.137) with gravity at the mass centre and the damping couple
    equals the generalized forces of the u's from the potential, Φᵀ(−∂V/∂q) − c ω."""
    s = _system()
    kane = next(st.expr for st in s.derive("kane").steps if st.symbol == "Q")
    diff = (kane - sp.Matrix(s.Q)).applyfunc(lambda e: sp.trigsimp(sp.expand(e)))
    return diff == sp.zeros(*diff.shape), f"Q (4.137) − Q of the system = {list(diff)}"


def _mass_matrix_form() -> tuple[bool, str]:
    """(4.143): the general dynamical equation is m(q) u̇ + f = Q with m the inertia
    coefficients ∂²T/∂u_i∂u_j of (4.88), here the moments about the pivot."""
    s = _system()
    kane, bh = s.derive("kane"), s.derive("boltzmann_hamel")
    diff = (kane.mass_matrix - bh.inertia).applyfunc(sp.expand)
    return diff == sp.zeros(3, 3), f"m of (4.143) − m_ij of (4.88) = {list(diff)}"


def checks(printed: Mapping[str, str]) -> list[Check]:
    return [
        Check(BOOK, "(4.142)", "heavy top about its pivot (ρ_c = h b̂_z, I about the pivot) "
              "agrees with (4.85)", partial(kane_agrees_with_boltzmann_hamel, _system),
              CONSISTENCY),
        Check(BOOK, "(4.139)/(4.140)", "heavy top: the reference point is the pivot, ρ_c and I_P "
              "shown", _pivot_terms_shown, CONSISTENCY),
        Check(BOOK, "(4.135)–(4.137)", "heavy top: Q_j = Σ(F·γ_ij + M·β_ij) with gravity at the "
              "mass centre equals Φᵀ(−∂V/∂q) − c ω", _applied_forces_match, CONSISTENCY),
        Check(BOOK, "(4.143)", "heavy top: m(q) u̇ + f = Q with m = ∂²T/∂u∂u (4.88)",
              _mass_matrix_form, CONSISTENCY),
    ]
