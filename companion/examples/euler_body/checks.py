"""Greenwood Example 4.3 against the book: (4.89)–(4.104), each derived by the engine and
compared entry by entry with the printed matrix or equation that ``verify`` hands in."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial

import sympy as sp

from companion.checks import PRINTED, Check, entrywise_equal, parse_printed
from companion.examples.euler_body.system import build
from companion.mechanics.boltzmann_hamel import BoltzmannHamelResult
from companion.mechanics.derivation import Derivation
from companion.mechanics.presentation import printed_form_matches
from companion.system import System

BOOK = "Greenwood"

#: An item of the table: (eq, what, derived-object getter (None: the system's T), printed key).
Item = tuple[str, str, Callable[[BoltzmannHamelResult], object] | None, str]


def gyroscopic(d: BoltzmannHamelResult) -> sp.Matrix:
    """The matrix Σ_j (∂T/∂u_j) γ^j as the derivation shows it (its gyroscopic-matrix step)."""
    return d.step("gyroscopic").expr


def residuals(d: BoltzmannHamelResult) -> sp.Matrix:
    """The dynamical equations as ``M u̇ − f`` (left side minus right side)."""
    udot = sp.Matrix(d.udot[: len(d.u)])
    return d.mass_matrix * udot - d.forcing


def _compare(system: Callable[[], System], getter, printed: Mapping[str, str], key: str
             ) -> tuple[bool, str]:
    """The engine's object (``getter`` of the derivation; None: T) against ``printed[key]``."""
    s = system()
    book = parse_printed(printed[key], [*s.q, *s.u, *s.parameter_symbols])
    return entrywise_equal(s.T if getter is None else getter(s.derive("boltzmann_hamel")), book)


def boltzmann_hamel_checks(system: Callable[[], System], items: Sequence[Item],
                           printed: Mapping[str, str]) -> list[Check]:
    """One check per item: the engine's object against the printed text ``printed[key]``."""
    return [Check(BOOK, eq, what, partial(_compare, system, getter, printed, key), PRINTED)
            for eq, what, getter, key in items]


#: The system, built once for the checks (the §4.4 checks of the knife-edge slice use it too).
system = cache(build)


ITEMS: list[Item] = [
    ("(4.89)→(4.90)", "Ex 4.3 Ψ, by differentiating the definitions of ω", lambda d: d.Psi, "Psi"),
    ("(4.91)", "Ex 4.3 Φ = Ψ⁻¹", lambda d: d.Phi, "Phi"),
    ("(4.91)", "Ex 4.3 kinematical equations: ∂q̇/∂ω of q̇ = Φ ω is Φ",
     lambda d: d.kinematics.jacobian(d.u), "Phi"),
    ("(4.93)", "Ex 4.3 kinetic energy T", None, "T"),
    ("(4.94)", "Ex 4.3 momenta ∂T/∂ω", lambda d: d.momenta, "dT/du"),
    ("(4.97)", "Ex 4.3 C¹", lambda d: d.C[0], "C1"),
    ("(4.98)", "Ex 4.3 C²", lambda d: d.C[1], "C2"),
    ("(4.99)", "Ex 4.3 C³", lambda d: d.C[2], "C3"),
    ("(4.100)", "Ex 4.3 γ¹", lambda d: d.gamma[0], "gamma1"),
    ("(4.101)", "Ex 4.3 γ²", lambda d: d.gamma[1], "gamma2"),
    ("(4.102)", "Ex 4.3 γ³", lambda d: d.gamma[2], "gamma3"),
    ("(4.103)", "Ex 4.3 gyroscopic matrix Σ_j (∂T/∂u_j) γ^j", gyroscopic, "gyro"),
    ("(4.104)", "Ex 4.3 Euler's equations", residuals, "equations"),
]


def printed_form(derive: Callable[[], Derivation], lines: Sequence[str]
                 ) -> Callable[[], tuple[bool, str]]:
    """A check that the derived equations, shown in the books' form, are the printed ones
    term for term (see :func:`~companion.mechanics.presentation.printed_form_matches`)."""
    return lambda: printed_form_matches(derive().book_text(), lines)


def checks(printed: Mapping[str, str]) -> list[Check]:
    """Every printed result of Example 4.3, one :class:`Check` each."""
    return [*boltzmann_hamel_checks(system, ITEMS, printed),
            Check(BOOK, "(4.104) form", "Ex 4.3 Euler's equations shown as printed: I_xx ω̇_x + "
                  "(I_zz − I_yy) ω_y ω_z = M_x, …",
                  printed_form(lambda: system().derive("boltzmann_hamel"),
                               printed["equations_form"]), PRINTED)]
