"""The bridge's system: Greenwood's Example 4.3 (type I Euler angles, body-axis angular
velocities as quasi-velocities), the rigid body both books treat, under the bridge's name."""

from __future__ import annotations

from companion.examples.euler_body.system import build as build_euler_body
from companion.system import System


def build() -> System:
    system = build_euler_body()
    return system.variant(
        name="bridge",
        title="Example 4.3 read in both books: Hamel's γ, so(3) and geodesics")
