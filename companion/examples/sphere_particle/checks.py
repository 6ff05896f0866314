"""Loparo & Vakalis §7.2–7.3 against the chapter, on the particle on a sphere: force-free
motion is a geodesic (7.1), the pulled-back metric is the mass matrix (7.2), and the reaction
lies in the null space of Jᵀ (§7.3)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import sympy as sp

from companion.checks import CONSISTENCY, Check, numerically_equal
from companion.examples.sphere_particle.system import build

#: The system, built once for the checks.
_sphere = cache(build)

BOOK = "Loparo & Vakalis"


def checks(printed: Mapping[str, Any]) -> list[Check]:
    """The chapter's §7.2–7.3 results on the sphere, one :class:`Check` each."""

    def _sphere_lagrange_metric() -> tuple[bool, str]:
        """Mass matrix of sympy's LagrangesMethod for the sphere particle, built from rotating
        frames (no coordinate map, no Jacobian), against the pulled-back metric."""
        from sympy.physics import mechanics as me

        system = _sphere()
        theta, phi = me.dynamicsymbols("theta phi")
        m, R, g = sp.symbols("m R g", positive=True)
        N = me.ReferenceFrame("N")
        A = N.orientnew("A", "Axis", [phi, N.z])
        B = A.orientnew("B", "Axis", [theta, A.y])
        O = me.Point("O")
        O.set_vel(N, 0)
        P = O.locatenew("P", R * B.z)
        P.v2pt_theory(O, N, B)
        particle = me.Particle("p", P, m)
        particle.potential_energy = m * g * P.pos_from(O).dot(N.z)
        L = me.Lagrangian(N, particle)
        lm = me.LagrangesMethod(L, [theta, phi])
        lm.form_lagranges_equations()
        th, ph = system.q
        plain = {theta: th, phi: ph}
        M_lagrange = lm.mass_matrix.subs(plain)
        return numerically_equal(M_lagrange, system.induced_metric, [th, ph, m, R])

    def _reaction_null_space() -> tuple[bool, str]:
        from companion.geometry.metric import reaction_in_null_space

        system = _sphere()
        R = system.derive("geometric").result("reaction")
        ok = reaction_in_null_space(system.J, R)
        return ok, f"{printed['NULL_SPACE']} simplifies to 0 for the sphere particle under gravity"

    def _geodesic_great_circle() -> tuple[bool, str]:
        traj = _sphere().simulate(params={"g": 0.0})
        off = float(np.max(np.abs(traj["off great-circle plane"])))
        return off < 1e-7, f"force-free path leaves its great-circle plane by ≤ {off:.1e} m"

    return [
        Check(BOOK, "(7.1)", "force-free motion is a geodesic: great circles on the sphere "
              "(on our example)", _geodesic_great_circle,
              CONSISTENCY),
        Check(BOOK, "(7.2)", "pulled-back metric JᵀσJ = mass matrix of sympy's Lagrange "
              "(sphere particle)", _sphere_lagrange_metric, CONSISTENCY),
        Check(BOOK, "§7.3", "reaction force lies in the null space of Jᵀ", _reaction_null_space),
    ]
