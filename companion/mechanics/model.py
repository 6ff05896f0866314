"""The geometry of a system for the methods that need more than T: frames, points, particles,
rigid bodies and applied loads, as :mod:`sympy.physics.mechanics` objects.

The Boltzmann–Hamel, Lagrange and Maggi derivations only need the kinetic energy and the
quasi-velocity definitions of a :class:`~companion.system.System`.  The general dynamical
equation (4.133)/(4.142) works with velocities and accelerations of points and bodies
instead, so a system that supports it also provides a :class:`MechanicsModel` (optional data
on the System: ``System(..., mechanics_model=build_model)``).
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
    frame
        The inertial (Newtonian) reference frame.
    q
        The generalized coordinates as ``dynamicsymbols``, in the same order as ``System.q``.
    bodies
        :class:`~sympy.physics.mechanics.Particle` and
        :class:`~sympy.physics.mechanics.RigidBody` objects whose points and frames are
        positioned and oriented in terms of ``q`` (velocities follow by differentiation).
        A rigid body's reference point P_i is its mass centre unless ``reference_points``
        names another one.
    loads
        Applied loads: ``(Point, force Vector)`` and ``(ReferenceFrame, couple Vector)``.
    reference_points
        Body name → a point P_i fixed in that body (the knife edge, a pivot): the general
        dynamical equation is then written about P_i, with ρ_ci from P_i to the mass centre
        and the inertia dyadic about P_i, (4.139)–(4.142).
    frames
        Frame name → what it is (``{"N": "inertial", "A": "rod frame"}``): the steps name the
        frame in which every vector's components are given.
    momentum_frames
        Body name → a frame, usually not fixed in the body, in which the alternate form
        (4.144)–(4.146) writes that body's momentum p_i and angular momentum H_i before
        differentiating them: Ḣ = (dH/dt)_F + ω_F × H.
    """

    frame: me.ReferenceFrame
    q: Sequence[sp.Function]
    bodies: Sequence[me.Particle | me.RigidBody]
    loads: Sequence[tuple[me.Point | me.ReferenceFrame, me.Vector]] = field(default_factory=list)
    reference_points: Mapping[str, me.Point] = field(default_factory=dict)
    frames: Mapping[str, str] = field(default_factory=dict)
    momentum_frames: Mapping[str, me.ReferenceFrame] = field(default_factory=dict)
