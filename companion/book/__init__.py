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
from typing import Any


def printed(name: str) -> Mapping[str, Any]:
    """The printed results of worked example ``name``: the ``PRINTED`` entry of the one module
    that has it (empty when the book prints none)."""
    found = [table[name] for info in pkgutil.iter_modules(__path__)
             if name in (table := importlib.import_module(f"{__name__}.{info.name}").PRINTED)]
    if len(found) > 1:
        raise RuntimeError(f"two book modules print results for {name!r}")
    return found[0] if found else {}
