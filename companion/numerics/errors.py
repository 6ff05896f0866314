"""Why a motion cannot be computed: the errors of the numerical layer.

In a module of their own so that every numerics module can raise them without importing
another (:mod:`companion.numerics.compile` builds the C right-hand side of
:mod:`companion.numerics.c_rhs`, which raises them too).
"""

from __future__ import annotations


class SingularConfigurationError(ValueError):
    """The equations cannot be evaluated here: the coordinates or the mass matrix are singular."""


class NonFiniteMotionError(ValueError):
    """The dynamical equations give non-finite numbers (floating-point overflow), although the
    coordinates are regular: parameter values too large for the generated code."""


__all__ = ["NonFiniteMotionError", "SingularConfigurationError"]
