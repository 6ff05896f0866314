"""``python -m companion verify``: every book result the companion reproduces, one line each.

The checks live in the worked examples' slices (``companion/examples/<name>/checks.py``); the
books' printed results live only in :mod:`companion.book`.  This module joins the two: each
example's ``checks(printed)`` receives that example's printed entries.  Nothing here knows any
answer.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass

from companion.checks import CONSISTENCY, KINDS, PRINTED, RECONSTRUCTION, Check

__all__ = ["Check", "Outcome", "all_checks", "format_table", "run_checks"]


@dataclass(frozen=True)
class Outcome:
    check: Check
    matched: bool
    detail: str
    seconds: float


def all_checks(names: Iterable[str] | None = None) -> list[Check]:
    """The checks of the worked examples called ``names`` (default: all), in book order."""
    from companion import book, examples

    wanted = None if names is None else set(names)
    unknown = set() if wanted is None else wanted - set(examples.names())
    if unknown:
        raise ValueError(f"unknown example(s) {sorted(unknown)}; known: {examples.names()}")
    checks: list[Check] = []
    for record in examples.worked_examples():
        if record.checks is not None and (wanted is None or record.name in wanted):
            checks.extend(record.checks(book.printed(record.name)))
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


_GROUPS = {
    PRINTED: ("Results the books print", "printed results"),
    RECONSTRUCTION: ("Reconstructions: the companion's own results where our copy of a book "
                     "prints none (its formulas, checked for self-consistency)",
                     "reconstructions"),
    CONSISTENCY: ("Checks the companion adds (agreement of methods, invariants, identities)",
                  "consistency checks"),
}


def format_table(outcomes: list[Outcome]) -> str:
    """One line per check (book, equation number, status, what), in three groups counted
    apart: printed results, then the companion's reconstructions, then its consistency
    checks; the last line gives each group's count."""
    if not outcomes:
        return "No book results are registered yet."
    wb = max(len(o.check.book) for o in outcomes)
    we = max(len(o.check.eq) for o in outcomes)
    lines: list[str] = []
    totals = []
    for kind in KINDS:
        group = [o for o in outcomes if o.check.kind == kind]
        if not group:
            continue
        heading, noun = _GROUPS[kind]
        lines.append(f"{heading}:")
        for o in group:
            status = "matched" if o.matched else "MISMATCH"
            line = f"  {o.check.book:<{wb}}  {o.check.eq:<{we}}  {status:<8}  {o.check.what}"
            if not o.matched and o.detail:
                line += f"  [{o.detail}]"
            lines.append(line)
        good = sum(o.matched for o in group)
        totals.append(f"{good} of {len(group)} {noun} matched")
    lines.append("; ".join(totals) + ".")
    return "\n".join(lines)
