"""Numerics: compiled equations of motion, integration, trajectories with invariants."""

from companion.numerics.compile import (
    CompiledEOM,
    NonFiniteMotionError,
    SingularConfigurationError,
)
from companion.numerics.elimination import EliminationEOM
from companion.numerics.trajectory import Trajectory

__all__ = ["CompiledEOM", "EliminationEOM", "NonFiniteMotionError", "SingularConfigurationError",
           "Trajectory"]
