"""Derivation methods: each turns a system's definition into a :class:`Derivation`."""

from companion.mechanics.boltzmann_hamel import BoltzmannHamelResult, boltzmann_hamel
from companion.mechanics.derivation import Derivation, Step

__all__ = ["BoltzmannHamelResult", "Derivation", "Step", "boltzmann_hamel"]
