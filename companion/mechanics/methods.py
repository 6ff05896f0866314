"""The registry of derivation methods and what a method may read of a system.

A *method* is how the equations of motion are formed from a system's definition
(Boltzmann–Hamel, Lagrange with multipliers, Maggi, Kane, Arnold, the geometric pull-back…):
a function ``definition -> Derivation``.  It reads only the frozen
:class:`~companion.mechanics.definition.Definition` (a :class:`companion.system.System`
passes its own) and refuses a system it does not apply to with ``NotImplementedError``
saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from companion.mechanics.definition import Definition
from companion.mechanics.derivation import Derivation

#: A registered derivation method: a system's definition in, its derivation out (a
#: system's own methods, ``System(methods=…)``, get the whole system instead).
Method = Callable[[Definition], Derivation]

#: Derivation methods by name, in the order they were registered.
METHODS: dict[str, Method] = {}

#: Each method's name as the books name it, for what a reader sees (selectors, tables,
#: stepper titles); the keys stay the names code uses.
METHOD_TITLES: dict[str, str] = {"newton_euler": "Newton–Euler"}


def register_method(name: str, title: str) -> Callable[[Method], Method]:
    """Decorator registering a derivation method under ``name``, shown to readers as
    ``title`` (e.g. ``"Boltzmann–Hamel (4.85)"``)."""

    def deco(fn: Method) -> Method:
        METHODS[name] = fn
        METHOD_TITLES[name] = title
        return fn

    return deco


def method_title(name: str) -> str:
    """The book's name of method ``name`` (a system's own method without a registered title
    shows its name in words: ``"rolling_contact"`` → ``"rolling contact"``)."""
    return METHOD_TITLES.get(name, name.replace("_", " "))


class Derivable(Protocol):
    """What the mechanics layer's numeric helpers use of a :class:`companion.system.System`
    (which it never imports): its definition, and its derivations compiled for numbers."""

    definition: Definition
    methods: list[str]

    def derive(self, method: str | None = None) -> Derivation: ...

    def compiled(self, method: str | None = None) -> Any: ...

    def parameter_vector(self, params: Mapping[Any, Any] | None = None) -> list[float]: ...


def applicable(system: Derivable, names: Sequence[str] | None = None) -> list[str]:
    """The methods (of ``names``, default all) that apply to ``system``: each is tried once
    through ``system.derive`` (cached there) and dropped when it raises
    ``NotImplementedError``."""
    out = []
    for name in (list(METHODS) if names is None else names):
        try:
            system.derive(name)
        except NotImplementedError:
            continue
        out.append(name)
    return out


__all__ = ["METHODS", "METHOD_TITLES", "Definition", "Derivable", "Method", "applicable",
           "method_title", "register_method"]
