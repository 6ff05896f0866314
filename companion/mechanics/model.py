"""The geometry of a system for the methods that need more than T: frames, points, particles,
rigid bodies and applied loads, as :mod:`sympy.physics.mechanics` objects.

The general dynamical equation (4.133)/(4.142) works with velocities and accelerations of
points and bodies, not T, so a system that supports it also provides a
:class:`MechanicsModel`: ``System(..., mechanics_model=build_model)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import sympy as sp
import sympy.physics.mechanics as me


@dataclass
class MechanicsModel:
    """Bodies and loads of a system, written with ``dynamicsymbols`` for the coordinates.

    Attributes
    ----------
    frame, q
        The inertial (Newtonian) frame, and the coordinates in the order of ``System.q``.
    bodies
        :class:`~sympy.physics.mechanics.Particle` and
        :class:`~sympy.physics.mechanics.RigidBody` objects placed in terms of ``q``.
    loads
        Applied loads: ``(Point, force Vector)`` and ``(ReferenceFrame, couple Vector)``.
    reference_points
        Body name → a point P_i fixed in that body (the knife edge, a pivot) about which the
        general dynamical equation is written instead of the mass centre, (4.139)–(4.142).
    frames
        Frame name → what it is (``{"N": "inertial", "A": "rod frame"}``), for the steps.
    momentum_frames
        Body name → a frame, usually not fixed in the body, in which the alternate form
        (4.144)–(4.146) writes that body's momenta before differentiating them.
    """

    frame: me.ReferenceFrame
    q: Sequence[sp.Function]
    bodies: Sequence[me.Particle | me.RigidBody]
    loads: Sequence[tuple[me.Point | me.ReferenceFrame, me.Vector]] = field(default_factory=list)
    reference_points: Mapping[str, me.Point] = field(default_factory=dict)
    frames: Mapping[str, str] = field(default_factory=dict)
    momentum_frames: Mapping[str, me.ReferenceFrame] = field(default_factory=dict)
