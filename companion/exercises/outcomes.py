"""Helpers for exercises whose right option the engine decides: a derivation's or a
simulation's outcome selects the option (an outcome no option covers is an error, never a
silent default)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np
import sympy as sp


def pick(outcomes: Mapping[Hashable, int], outcome: Hashable) -> int:
    """The option index that the engine's ``outcome`` selects."""
    if outcome not in outcomes:
        raise ValueError(f"the engine's outcome {outcome!r} matches no option")
    return outcomes[outcome]


def decided_by(outcome: Callable[[Any], Hashable],
               outcomes: Mapping[Hashable, int]) -> Callable[[Any], int]:
    """A choice's ``right``: the option that ``outcome(system)`` selects (:func:`pick`)."""
    return lambda system: pick(outcomes, outcome(system))


def is_zero(matrix: sp.MatrixBase) -> bool:
    """Whether every entry simplifies to zero."""
    return all(sp.simplify(e) == 0 for e in matrix)


def sign_changes(values: np.ndarray) -> np.ndarray:
    """Indices where a sampled series changes sign."""
    signs = np.sign(values)
    return np.nonzero(signs[1:] * signs[:-1] < 0)[0] + 1
