"""Plain words for a motion: the text description every scene carries (alt text, caption)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def at(t: float) -> str:
    """A time as the scenes print it: ``t = 1.20 s``."""
    return f"t = {t:.2f} s"


def list_times(times: Sequence[float], limit: int = 4) -> str:
    """``t = 1.00 s, 2.00 s and 3.00 s`` (the first ``limit``, then how many more)."""
    shown = [f"{t:.2f} s" for t in times[:limit]]
    more = len(times) - limit
    if more > 0:
        shown.append(f"{more} more time{'s' if more > 1 else ''}")
    return f"t = {_in_words(shown)}"


def sign_changes(t: np.ndarray, values: np.ndarray) -> list[float]:
    """Times (interpolated) where ``values`` changes sign."""
    s = np.sign(values)
    idx = np.flatnonzero(s[1:] * s[:-1] < 0)
    return [float(t[i] - values[i] * (t[i + 1] - t[i]) / (values[i + 1] - values[i]))
            for i in idx]


def mode_story(segments: Sequence[tuple[float, float, str]], phrases: Mapping[str, str],
               subject: str) -> str:
    """``the disk slips forward from t = 0.00 s, rolls at t = 0.17 s, …`` from mode segments
    (t_start, t_end, label); ``phrases`` turn labels into verbs."""
    parts = []
    for k, (start, _, label) in enumerate(segments):
        verb = phrases.get(label, label)
        parts.append(f"{verb} from {at(start)}" if k == 0 else f"{verb} at {at(start)}")
    return f"{subject} {_in_words(parts)}" if parts else ""


def _in_words(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
