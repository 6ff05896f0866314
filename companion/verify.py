"""``python -m companion verify``: every book result the companion reproduces, one line each.

The book's printed results live only in :mod:`companion.book` (one module per text).  Each
module exposes ``checks()``, a list of :class:`Check`; a check derives the result with the
engine and compares it with the printed one.  Nothing here knows any answer.
"""

from __future__ import annotations

import importlib
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass

#: Modules of :mod:`companion.book` whose ``checks()`` make up the verify table.
BOOK_MODULES: tuple[str, ...] = (
    "companion.book.greenwood",
    "companion.book.greenwood_44",
    "companion.book.loparo",
    "companion.book.loparo_examples",
    "companion.book.loparo_contact",
)


@dataclass(frozen=True)
class Check:
    """One reproduced book result.

    ``run`` returns ``(matched, detail)``; an exception inside it counts as a mismatch.
    """

    book: str
    eq: str
    what: str
    run: Callable[[], tuple[bool, str]]


@dataclass(frozen=True)
class Outcome:
    check: Check
    matched: bool
    detail: str
    seconds: float


def all_checks(modules: Iterable[str] | None = None) -> list[Check]:
    """Collect the checks of the book modules (default :data:`BOOK_MODULES`), in table order."""
    checks: list[Check] = []
    for name in BOOK_MODULES if modules is None else modules:
        checks.extend(importlib.import_module(name).checks())
    return checks


def run_checks(checks: Iterable[Check]) -> list[Outcome]:
    """Run the checks; a check that raises is reported as a mismatch with its error."""
    outcomes = []
    for check in checks:
        start = time.perf_counter()
        try:
            matched, detail = check.run()
        except Exception as exc:  # a crash is a failed reproduction, reported, not raised
            matched = False
            detail = f"error: {exc!r} " + traceback.format_exc(limit=2).splitlines()[-1]
        outcomes.append(Outcome(check, bool(matched), detail, time.perf_counter() - start))
    return outcomes


def format_table(outcomes: list[Outcome]) -> str:
    """One line per check: book, equation number, what, status."""
    if not outcomes:
        return "No book results are registered yet."
    wb = max(len(o.check.book) for o in outcomes)
    we = max(len(o.check.eq) for o in outcomes)
    lines = []
    for o in outcomes:
        status = "matched" if o.matched else "MISMATCH"
        line = f"{o.check.book:<{wb}}  {o.check.eq:<{we}}  {status:<8}  {o.check.what}"
        if not o.matched and o.detail:
            line += f"  [{o.detail}]"
        lines.append(line)
    n_bad = sum(not o.matched for o in outcomes)
    lines.append(f"{len(outcomes) - n_bad} of {len(outcomes)} book results matched.")
    return "\n".join(lines)
