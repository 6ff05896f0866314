"""A student's own system: one variant of a worked example's system, drawn from a seed.

An exercise set whose slice declares variants (``WorkedExample.variants``) hands each student
the set on a variant of the book's system — unequal masses, another constraint direction, an
offset contact point, another quasi-velocity choice — so that the engine derives a key of
their own (:mod:`companion.exercises.assignment`).  A :class:`Variant` holds no text about
the system beyond the variant's own choices: what a student reads about their system is
derived from its definition (:func:`describe`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import sympy as sp

from companion.system import System


@dataclass(frozen=True)
class Variant:
    """One variant of a worked example's system.

    Parameters
    ----------
    key
        Short identifier, unique among the example's variants (written to the keys file).
    choices
        What each choice sets, with its value (shown to the student), e.g. ``{"the blade's
        angle to the rod": pi/6}``.
    system
        Builds the variant's system (cached by the slice: one derivation per variant).
    book
        Whether this is the book's own system (its answers are printed): never drawn.
    """

    key: str
    choices: Mapping[str, object]
    system: Callable[[], System] = field(repr=False, compare=False)
    book: bool = False


def draw_variant(variants: Sequence[Variant], set_name: str, seed: str) -> Variant:
    """The student's variant: one of ``variants`` other than the book's own system, drawn with
    the student id ``seed`` (the same seed, the same variant; independent of the draw of
    their numbers)."""
    drawn = [v for v in variants if not v.book]
    if not drawn:
        raise ValueError(f"{set_name!r} declares no variants to draw from (other than the "
                         "book's own system)")
    return seeded(set_name, "variant", seed).choice(drawn)


def seeded(*parts: str) -> random.Random:
    """A random generator seeded with ``parts`` joined by ``:`` (the same parts, the same
    draws: a student's variant, numbers and order of options)."""
    return random.Random(hashlib.sha256(":".join(parts).encode()).hexdigest())


def describe(variant: Variant | None, system: System,
             numbers: Mapping[sp.Symbol, sp.Basic]) -> str:
    """Markdown telling a student their own system, derived from its definition: the
    variant's choices, each parameter with its meaning and the student's number, the
    quasi-velocities (the constrained ones marked) and the unconstrained kinetic energy."""
    definition = system.definition
    lines = []
    if variant is not None:
        lines.append("**Your system**: " + "; ".join(
            f"{what}: " + (f"${sp.latex(value)}$" if isinstance(value, sp.Basic) else str(value))
            for what, value in variant.choices.items()) + ".\n")
    lines.append("**Your numbers**: " + ", ".join(
        f"${sp.latex(p.symbol)} = {sp.latex(numbers[p.symbol])}$"
        + (f" {p.unit}" if p.unit else "") + (f" ({p.description})" if p.description else "")
        for p in definition.parameters if p.symbol in numbers)
        + ". Use them in every answer in place of these names.\n")
    free = len(definition.u) - definition.n_constraints
    for k, (u, expr) in enumerate(zip(definition.u, definition.definitions, strict=True)):
        note = " (held at zero by the constraint)" if k >= free else ""
        lines.append(f"- ${sp.latex(u)} = {sp.latex(expr)}${note}")
    lines.append(f"- unconstrained kinetic energy $T = {sp.latex(definition.T)}$")
    return "\n".join(lines)


__all__ = ["Variant", "describe", "draw_variant", "seeded"]
