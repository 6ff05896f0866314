"""Numerics: compiled equations of motion, integration, trajectories with invariants."""

from companion.numerics.compile import (
    CompiledEOM,
    NonFiniteMotionError,
    SingularConfigurationError,
)
from companion.numerics.trajectory import Trajectory

__all__ = ["CompiledEOM", "NonFiniteMotionError", "SingularConfigurationError", "Trajectory"]
