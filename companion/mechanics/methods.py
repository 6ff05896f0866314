"""The registry of derivation methods and what a method may read of a system.

A *method* (Boltzmann–Hamel, Lagrange with multipliers, Maggi, Kane, Arnold, the geometric
pull-back…) is a function ``definition -> Derivation``: it reads the frozen
:class:`~companion.mechanics.definition.Definition` and its own inputs beside it
(:class:`Given`), and refuses a system it does not apply to with ``NotImplementedError``
saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.mechanics.definition import Definition
from companion.mechanics.derivation import Derivation

#: What each method's own input is (none is a field of the definition: a definition with
#: other forces keeps Kane's bodies only when they are given again).
INPUTS = {"mechanics_model": "the function building the bodies and loads Kane's method reads "
                             "(:class:`~companion.mechanics.model.MechanicsModel`), or None",
          "geometry": "what the geometric methods read (a planar mechanism for \"pull_back\", "
                      "a constraint embedding for \"geometric\"), or None"}


@dataclass(frozen=True, eq=False)
class Given:
    """A definition as a registered method receives it: the definition's attributes read
    through, and the methods' own inputs (:data:`INPUTS`) beside them, None when not given.
    It equals and hashes as its definition, so what is cached of the physics (Φ = Ψ⁻¹ of
    :func:`~companion.mechanics.definition.kinematics_of`) is computed once for both."""

    definition: Definition
    mechanics_model: Callable[[], Any] | None = None
    geometry: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "definition":  # copy and pickle look these up
            raise AttributeError(name)
        return getattr(self.definition, name)

    def __eq__(self, other: object) -> bool:
        return getattr(other, "definition", other) is self.definition

    def __hash__(self) -> int:
        return hash(self.definition)


#: A registered derivation method: a system's definition (with the method's inputs,
#: :class:`Given`) in, its derivation out (a system's own methods, ``System(methods=…)``,
#: get the whole system instead).
Method = Callable[[Given], Derivation]

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


__all__ = ["INPUTS", "METHODS", "METHOD_TITLES", "Definition", "Derivable", "Given", "Method",
           "applicable", "method_title", "register_method"]
