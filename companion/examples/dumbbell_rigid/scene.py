"""The rigid dumbbell moves exactly as Example 4.4's two particles: the same scene."""

from companion.examples.knife_edge.scene import scene

__all__ = ["scene"]
