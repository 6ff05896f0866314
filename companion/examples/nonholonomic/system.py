"""The nonholonomic notebook's system: Greenwood's Example 4.4, the knife-edge dumbbell, under
this slice's name (the same definition as the knife_edge slice's, built afresh)."""

from __future__ import annotations

from companion.examples.knife_edge.system import build as build_knife_edge
from companion.system import System


def build() -> System:
    system = build_knife_edge()
    return system.variant(
        name="nonholonomic",
        title="The knife edge as a distribution on SE(2) (Example 4.4, §7.9 reconstructed)")
