"""The geometry of a system for the methods that need more than T: frames, points, particles,
rigid bodies and applied loads, as :mod:`sympy.physics.mechanics` objects.

The Boltzmann–Hamel, Lagrange and Maggi derivations only need the kinetic energy and the
quasi-velocity definitions of a :class:`~companion.system.System`.  The general dynamical
equation (4.133)/(4.142) works with velocities and accelerations of points and bodies
instead, so a system that supports it also provides a :class:`MechanicsModel` (optional data
on the System: ``System(..., mechanics_model=build_model)``).
"""

from __future__ import annotations

from collections.abc import Sequence
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
        A rigid body's reference point is its mass centre (ρ_c = 0 in (4.142)).
    loads
        Applied loads: ``(Point, force Vector)`` and ``(ReferenceFrame, couple Vector)``.
    """

    frame: me.ReferenceFrame
    q: Sequence[sp.Function]
    bodies: Sequence[me.Particle | me.RigidBody]
    loads: Sequence[tuple[me.Point | me.ReferenceFrame, me.Vector]] = field(default_factory=list)
