"""Loparo & Vakalis §7.8, Example 2 (reconstructed): the double pendulum in the plane.

Two links, each first a free body in SE(2), tied by pins at the base O and the elbow E,
with optional joint torques τ₁ (ground on link 1) and τ₂ (link 1 on link 2).  Our copy of
the chapter stops in §7.4, so this is a worked instance of the chapter's method, not the
handbook's own example.  Built by the general chain builder with n = 2.
"""

from __future__ import annotations

from companion.examples.double_pendulum.chain import chain
from companion.geometry.planar_system import MechanismSystem


def build() -> MechanismSystem:
    return chain(2, torques=True, name="double_pendulum",
                 title="Double pendulum in the plane (Loparo & Vakalis §7.8, reconstructed)")
