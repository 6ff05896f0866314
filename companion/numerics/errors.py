"""Why a motion cannot be computed: the errors of the numerical layer.

In a module of their own so that every numerics module can raise them without importing
another (:mod:`companion.numerics.compile` builds the C right-hand side of
:mod:`companion.numerics.c_rhs`, which raises them too).
"""

from __future__ import annotations


class SingularConfigurationError(ValueError):
    """The equations cannot be evaluated here: the coordinates or the mass matrix are singular.

    ``hint`` (appended to the message) is advice for when the configuration is the cause;
    :attr:`cause` is the message without it, for when a parameter value is blamed instead.
    """

    def __init__(self, cause: str, hint: str = ""):
        super().__init__(cause + hint)
        self.cause = cause


class NonFiniteMotionError(ValueError):
    """The dynamical equations give non-finite numbers (floating-point overflow), although the
    coordinates are regular: parameter values too large for the generated code."""


class StepLimitError(ValueError):
    """The integrator took its most steps without reaching the next sample: a time span too
    long for the samples asked (or a motion too fast for them), unless the motion stalls near
    a singular configuration, which the model judges from ``reached``: the samples computed
    before the failure, ``(t, states)`` with one column per sample (None when unknown)."""

    def __init__(self, message: str, reached: tuple | None = None):
        super().__init__(message)
        self.reached = reached


__all__ = ["NonFiniteMotionError", "SingularConfigurationError", "StepLimitError"]
