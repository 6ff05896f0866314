"""The books' printed results, used only by tests and ``python -m companion verify``.

One module per text (or part of a text), each pure data: a ``PRINTED`` mapping from a worked
example's name to the results the book prints for it.  ``verify`` hands each example's entries
to the example's own ``checks(printed)``; no other part of the package imports these tables
(a test enforces it).  A new module here is picked up without editing this file.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from typing import Any


@cache
def printed_results() -> dict[str, Mapping[str, Any]]:
    """Every module's ``PRINTED``, merged: worked example name → its printed results."""
    table: dict[str, Mapping[str, Any]] = {}
    for info in pkgutil.iter_modules(__path__):
        for name, entries in importlib.import_module(f"{__name__}.{info.name}").PRINTED.items():
            if name in table:
                raise RuntimeError(f"two book modules print results for {name!r}")
            table[name] = entries
    return table


def printed(name: str) -> Mapping[str, Any]:
    """The printed results of worked example ``name`` (empty when the book prints none)."""
    return printed_results().get(name, {})
