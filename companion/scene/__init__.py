"""Scenes: the mechanism of each worked example, in 2D or 3D, played in the browser.

A slice declares what to draw (:mod:`companion.scene.items`) as a function of a trajectory,
in ``companion/examples/<name>/scene.py``; :mod:`companion.scene.keyframes` packs it;
:class:`Scene` plays it.  ``examples.scene(name, explorer)`` gives a worked example's explorer
its scene; :func:`scene_for` gives one to the explorer of a reader's own system.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.numerics import Trajectory
from companion.scene.chain import chain_scene
from companion.scene.items import Declaration
from companion.scene.points import points_declaration
from companion.scene.widget import SCENE_CLASS, Scene


def generic_scene(trajectory: Trajectory) -> Callable[[Trajectory], Declaration]:
    """The scene function of a system that declares none: a chain's when the trajectory
    carries pins (``joint <name>``: the n-link chains), else that of its declared points."""
    joints = any(k.startswith("joint ") for k in trajectory.series)
    return chain_scene if joints else points_declaration


def scene_for(explorer, declare: Callable[[Trajectory], Declaration] | None = None,
              **kwargs) -> Scene:
    """A scene following ``explorer``: a slider change replaces the motion, the explorer's
    time cursor follows playback and its scrubber moves the scene.  ``declare`` defaults to
    :func:`generic_scene` (a reader's own system).  ``RuntimeError`` for a closed explorer."""
    if getattr(explorer, "closed", False):
        raise RuntimeError(f"this explorer of {explorer.system.name} was closed (a newer one "
                           "replaced it, or close() was called): build a new one with "
                           "explore(...) and give that to scene_for")
    trajectory = explorer.trajectory
    if trajectory is None:
        raise ValueError(f"the explorer of {explorer.system.name} has no motion to show "
                         f"({explorer.error}): change its values until it simulates")
    declare = generic_scene(trajectory) if declare is None else declare
    return Scene(declare, trajectory, **kwargs).follow(explorer)


__all__ = ["Declaration", "Scene", "SCENE_CLASS", "generic_scene", "scene_for"]
