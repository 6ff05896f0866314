"""The record a worked-example slice exports, and the lazy references it is made of.

A slice is one package ``companion/examples/<name>/``: ``system.py`` (the definition),
``view.py`` (its explorer), ``exercises.py``, ``checks.py`` (how the engine's results are
compared with the printed ones, which :mod:`companion.book` holds) and, where there is one,
``independent.py`` (a model by another method).  Its ``__init__.py`` exports ``EXAMPLES``, a
tuple of :class:`WorkedExample` (each made by :func:`worked_example`); :mod:`companion.examples`
collects them into the one list that ``verify``, the explorers, the exercises, the benchmarks,
the tests and the chapter index read.

Every part is a :class:`Part`, imported only when called, so that reading the list costs
nothing: a notebook that opens one example imports one slice.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Part:
    """``module:attribute`` of a slice (e.g. ``"companion.examples.knife_edge.view"`` and
    ``"explorer"``), imported on first call and then called."""

    module: str
    attribute: str

    def resolve(self) -> Callable[..., Any]:
        """The callable itself (imports its module)."""
        return getattr(importlib.import_module(self.module), self.attribute)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)


@dataclass(frozen=True)
class Notebook:
    """A chapter notebook as the index and the README list it: ``path`` relative to
    ``chapters/`` (``"greenwood-04/knife-edge.ipynb"``), the link text ``title`` (``"The knife
    edge (Example 4.4)"``), ``source``, where the book treats it (``"Greenwood §4.3, Example
    4.4"``), ``summary``, one sentence on what the reader does there, and ``order``, the place
    in the book for sorting (``(4, 3, 4)`` for Example 4.4 of §4.3)."""

    path: str
    title: str
    source: str
    summary: str
    order: tuple[int, ...]

    @property
    def book(self) -> str:
        """``"greenwood"`` or ``"loparo"``, from the chapter folder; ``"companion"`` for a
        notebook at the top of ``chapters/`` (the workbench), which follows no one book."""
        return next((b for b in ("greenwood", "loparo") if self.path.startswith(b)), "companion")


@dataclass(frozen=True)
class WorkedExample:
    """One worked example: its system and everything built on it, under a ``name``
    (``examples.get(name)``) unique over the list.

    Parameters
    ----------
    system
        Builds a fresh :class:`~companion.system.System`.  Two records may share a system
        (the knife edge of Example 4.4 and the same dumbbell by Kane's form in §4.4).
    notebook
        The chapter notebook that teaches it; ``None`` for systems beyond the books, which
        serve tests and comparisons.
    explorer
        ``explorer(system, **kwargs) -> Explorer``.
    exercises
        ``(title, builder)`` where ``builder() -> list[Exercise]``; with ``variants``,
        ``builder(system)`` poses the same exercises on a variant's system.
    variants
        ``variants() -> list[Variant]``: the variants of the system an assignment draws
        from, one per student (:mod:`companion.exercises.variant`).
    checks
        ``checks(printed) -> list[Check]``: compares the engine's results with ``printed``,
        the book's results for this example from :mod:`companion.book`.
    independent
        ``independent(system) -> KaneModel``: the same system by sympy's KanesMethod.
    scene
        ``scene(trajectory) -> Declaration``: what the scene of a motion draws
        (:mod:`companion.scene`).
    reconstruction
        True when the example is our reconstruction with the chapter's method (Loparo
        §7.5 onward is missing from our copy of the chapter), not the book's own.
    citations
        The book's own numbers of this example's derivation steps, by method and step key
        (applied as ``system.variant(citations=…)``); records sharing a system give the same
        ones.
    """

    name: str
    system: Part
    notebook: Notebook | None = None
    explorer: Part | None = None
    exercises: tuple[str, Part] | None = None
    checks: Part | None = None
    independent: Part | None = None
    scene: Part | None = None
    reconstruction: bool = False
    variants: Part | None = None
    citations: Mapping[str, Mapping[str, str]] | None = field(default=None, hash=False)


def worked_example(package: str, name: str, *, system: str | Part = "system:build",
                   scene: str | Part = "scene:scene", explorer: str | Part | None = None,
                   exercises: tuple[str, str | Part] | None = None,
                   checks: str | Part | None = None, independent: str | Part | None = None,
                   variants: str | Part | None = None, **fields: Any) -> WorkedExample:
    """The record of a worked example of the slice ``package``, its parts named
    ``"module:attribute"`` in that slice (``"view:explorer"``: the slice's ``view.explorer``,
    resolved lazily); by default the system is ``system:build`` and the scene ``scene:scene``.
    ``package`` is ``__name__`` of the slice's ``__init__.py``; ``exercises`` is ``(title,
    "module:attribute")``; ``fields`` are the other fields of :class:`WorkedExample`.
    """
    def of(target: str | Part | None) -> Part | None:
        if not isinstance(target, str):
            return target
        module, _, attribute = target.partition(":")
        if not attribute:
            raise ValueError(f"a part is 'module:attribute', got {target!r}")
        return Part(f"{package}.{module}", attribute)

    return WorkedExample(name=name, system=of(system), scene=of(scene), explorer=of(explorer),
                         exercises=exercises and (exercises[0], of(exercises[1])),
                         checks=of(checks), independent=of(independent),
                         variants=of(variants), **fields)

