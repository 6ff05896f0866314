"""The rolling disk by the alternate form (4.144)–(4.146): ṗ and Ḣ from components in the
heading frame equal the inertia terms of (4.142), and the equations agree with (4.85)
(consistency checks the companion adds)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, partial

import sympy.physics.mechanics as me

from companion.checks import CONSISTENCY, Check
from companion.examples.heavy_top_pivot.checks import kane_agrees_with_boltzmann_hamel
from companion.examples.rolling_disk_frame.system import build

BOOK = "Greenwood"
_system = cache(build)


def _alternate_form_matches() -> tuple[bool, str]:
    d = _system().derive("kane")
    residuals = d.result("alternate_form_residuals")
    zero = bool(residuals) and all(r == me.Vector(0) for pair in residuals for r in pair)
    step = [st for st in d.steps if st.eq == "(4.144)–(4.146)"]
    return zero and bool(step), f"{len(residuals)} body, residuals {residuals}"


def checks(printed: Mapping[str, str]) -> list[Check]:
    return [
        Check(BOOK, "(4.144)–(4.146)", "rolling disk: ṗ, Ḣ from the heading frame (not fixed in "
              "the disk) equal m(v̇ + ρ̈_c) and I·ω̇ + ω×I·ω", _alternate_form_matches,
              CONSISTENCY),
        Check(BOOK, "(4.144)", "rolling disk by the alternate form agrees with (4.85)",
              partial(kane_agrees_with_boltzmann_hamel, _system), CONSISTENCY),
    ]
