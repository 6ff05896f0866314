"""What a reproduced result is, and the comparisons the slices' checks share.

A worked example's ``checks.py`` returns :class:`Check` objects from ``checks(printed)``:
``printed`` is the book's data for that example, handed over by ``verify`` (which alone, with
the tests, reads :mod:`companion.book`), so no slice ever imports a printed result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp

from companion.mechanics.presentation import expr_text

#: A result the book prints, matched against the printed form.
PRINTED = "printed"
#: A check the companion adds: agreement of methods, an invariant, an identity.
CONSISTENCY = "consistency"
#: A result of the companion's own reconstruction (an example or a lemma our copy of the book
#: does not print): checked for self-consistency, never counted as a printed result.
RECONSTRUCTION = "reconstruction"
#: Every kind, in the order ``verify`` lists them.
KINDS = (PRINTED, RECONSTRUCTION, CONSISTENCY)


@dataclass(frozen=True)
class Check:
    """One reproduced result.

    ``run`` returns ``(matched, detail)``; an exception inside it counts as a mismatch.
    ``kind`` is one of :data:`KINDS`; ``verify`` counts each kind apart.
    """

    book: str
    eq: str
    what: str
    run: Callable[[], tuple[bool, str]]
    kind: str = PRINTED

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")


def entrywise_equal(derived, printed) -> tuple[bool, str]:
    """Entrywise ``simplify(derived − printed) == 0``; the detail names the entries that differ."""
    a = derived if isinstance(derived, sp.MatrixBase) else sp.Matrix([derived])
    b = printed if isinstance(printed, sp.MatrixBase) else sp.Matrix([printed])
    if a.shape != b.shape:
        return False, f"shape {a.shape} derived, {b.shape} in the book"
    bad = []
    for idx in range(len(a)):
        diff = sp.expand(a[idx] - b[idx])
        if diff != 0 and sp.simplify(diff) != 0:
            where = f"[{idx // a.cols},{idx % a.cols}]" if a.cols > 1 else f"[{idx}]"
            bad.append(f"{where}: derived {expr_text(a[idx])}, book {expr_text(b[idx])}")
    if bad:
        return False, "; ".join(bad)
    return True, f"{len(a)} entr{'y' if len(a) == 1 else 'ies'} agree"


def numerically_equal(a: sp.Matrix, b: sp.Matrix, symbols: Sequence[sp.Symbol]
                      ) -> tuple[bool, str]:
    """``a == b`` to 1e-10 at 20 random values in [0.3, 2] of every symbol (seeded)."""
    f = sp.lambdify(list(symbols), list(a - b), modules="numpy")
    rng = np.random.default_rng(7)
    worst = max(float(np.max(np.abs(f(*rng.uniform(0.3, 2.0, len(symbols)))))) for _ in range(20))
    return worst < 1e-10, f"max difference {worst:.1e} at 20 random states"


def parse_printed(text: str, symbols: Sequence[sp.Symbol]):
    """A printed result typed as text in the book's notation, as sympy (a list becomes a
    Matrix).  Names are the given symbols' (with their assumptions), ``<name>_dot`` for the
    time derivative of a speed, and ``sin``, ``cos``, ``tan``, ``sec``."""
    from companion.mechanics.boltzmann_hamel import dot_symbol

    names: dict[str, sp.Basic] = {s.name: s for s in symbols}
    names.update({f"{s.name}_dot": dot_symbol(s) for s in symbols})
    names.update({"sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sec": sp.sec})
    value = sp.parse_expr(text, local_dict=names)
    return sp.Matrix(value) if isinstance(value, (list, tuple)) else value
