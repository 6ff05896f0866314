"""The bridge notebook's system is Example 4.3's free body: its scene is that body's."""

from companion.examples.euler_body.scene import scene

__all__ = ["scene"]
