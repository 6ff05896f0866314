"""The heavy top written about its pivot moves as the heavy top: the same scene."""

from companion.examples.heavy_top.scene import scene

__all__ = ["scene"]
