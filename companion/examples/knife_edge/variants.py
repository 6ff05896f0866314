"""Variants of the knife-edge dumbbell for per-student assignments (ours, not the book's).

Example 4.4's blade sits at particle 1, along the rod, and both particles weigh m.  A variant
turns the blade by an angle β from the rod, moves it a distance a along the rod from
particle 1, or gives particle 2 a mass m₂ of its own.  The quasi-velocities follow the blade:
u₁ and u₃ are the velocity of the blade's contact point along and across the blade (u₃ = 0
is the constraint), u₂ = φ̇; the kinetic energy is the particles' own, in q̇ (the
definition converts it to the u's by (4.81)).  With β = 0, a = 0 and equal masses this is the
book's system.
"""

from __future__ import annotations

import itertools
from functools import cache

import sympy as sp

from companion.exercises.variant import Variant
from companion.system import Parameter, System

#: The blade's angle to the rod, its distance from particle 1 (a fraction of l), and whether
#: the masses differ: every combination is a variant.
ANGLES = (sp.Integer(0), sp.pi / 6, sp.pi / 4, sp.pi / 3)
OFFSETS = (sp.Integer(0), sp.Rational(1, 4))
UNEQUAL = (False, True)


@cache
def system(angle: sp.Expr, offset: sp.Rational, unequal: bool) -> System:
    """The dumbbell with the blade turned ``angle`` from the rod at ``offset`` l from
    particle 1, particle 2 of mass m₂ when ``unequal`` (built once per variant)."""
    from companion.examples.knife_edge.system import build

    book = build().definition
    phi, (xd, yd, phid) = book.q[2], book.qdot
    m, l = book.parameter_symbols
    a = offset * l
    along, across = sp.cos(phi + angle), sp.sin(phi + angle)
    # the blade's contact point moves with (ẋ − a φ̇ sin φ, ẏ + a φ̇ cos φ)
    definitions = [xd * along + yd * across + a * phid * sp.sin(angle), phid,
                   -xd * across + yd * along + a * phid * sp.cos(angle)]
    parameters = list(book.parameters)
    m2 = m
    if unequal:
        m2 = sp.Symbol("m_2", positive=True)
        parameters = [Parameter(m, 1.0, 0.1, 5.0, "kg", "mass of particle 1", positive=True),
                      Parameter(m2, 2.0, 0.1, 5.0, "kg", "mass of particle 2", positive=True),
                      parameters[1]]
    half = sp.Rational(1, 2)
    T = (half * m * (xd**2 + yd**2)
         + half * m2 * ((xd - l * sp.sin(phi) * phid) ** 2 + (yd + l * sp.cos(phi) * phid) ** 2))
    definition = book.replace(
        name="knife_edge_variant", title="Knife-edge dumbbell, a variant (ours)",
        definitions=definitions, T_qdot=T, parameters=parameters, mechanics_model=None,
        citations={}, reconstruction=True)
    return System(definition, observables=build().observables, t_final=10.0)


def variants() -> list[Variant]:
    """Every variant (the book's system among them), each described by its choices."""
    l = sp.Symbol("l", positive=True)
    found = []
    for (i, angle), (j, offset), unequal in itertools.product(
            enumerate(ANGLES), enumerate(OFFSETS), UNEQUAL):
        choices = {"the knife edge's angle to the rod, β": angle,
                   "its distance from particle 1 along the rod": offset * l,
                   "the masses": ("m at particle 1, m₂ at particle 2" if unequal
                                  else "m each")}
        found.append(Variant(key=f"angle{i}-offset{j}-{'unequal' if unequal else 'equal'}",
                             choices=choices,
                             system=lambda a=angle, o=offset, u=unequal: system(a, o, u)))
    return found
