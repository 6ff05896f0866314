"""Scenes: the mechanism of each worked example, in 2D or 3D, played in the browser.

A slice declares what to draw (:mod:`companion.scene.items`) as a function of a trajectory;
:mod:`companion.scene.keyframes` packs it; :class:`Scene` plays it.  :func:`scene_for`
gives an explorer its scene, coupled both ways.
"""

from __future__ import annotations

from companion.numerics import Trajectory
from companion.scene.declarations import declaration
from companion.scene.items import Declaration
from companion.scene.points import points_scene
from companion.scene.widget import SCENE_CLASS, Scene


def declare_for(system_name: str, trajectory: Trajectory):
    """The scene function of a system: its example's, else a chain's (pins in the
    trajectory), else the generic scene of its declared points."""
    declared = declaration(system_name)
    if declared is not None:
        return declared
    if any(k.startswith("joint ") for k in trajectory.series):
        return declaration("double_pendulum")
    return points_scene


def scene_of(system, trajectory: Trajectory | None = None, **kwargs) -> Scene:
    """A scene of ``system`` (simulated with its defaults unless ``trajectory`` is given)."""
    trajectory = system.simulate() if trajectory is None else trajectory
    return Scene(declare_for(system.name, trajectory), trajectory, **kwargs)


def scene_for(explorer, **kwargs) -> Scene:
    """The scene of an explorer's system, following the explorer: a slider change replaces
    the motion, the explorer's time cursor follows playback and its scrubber moves the scene."""
    return scene_of(explorer.system, explorer.trajectory, **kwargs).follow(explorer)


__all__ = ["Declaration", "Scene", "SCENE_CLASS", "declare_for", "scene_for", "scene_of"]
