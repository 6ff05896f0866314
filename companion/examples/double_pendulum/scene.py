"""The scene of the double pendulum (L&V §7.8): links, pins, pin forces and the tip's trail,
as for every planar chain (:func:`companion.scene.chain.chain_scene`)."""

from companion.scene.chain import chain_scene as scene

__all__ = ["scene"]
