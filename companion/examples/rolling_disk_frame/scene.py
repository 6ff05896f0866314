"""The rolling disk in its heading frame moves as the rolling disk: the same scene."""

from companion.examples.rolling_disk.scene import scene

__all__ = ["scene"]
