"""Greenwood §4.4: the rolling disk with its momenta written in a frame that is not fixed in the
disk — the alternate form (4.144)–(4.146) of the general dynamical equation.

The system is the companion's ``rolling_disk`` (a vertical disk rolling on a plane inclined at
α, q = (x, y, θ, φ), speeds θ̇ and φ̇ with the two slip velocities suppressed).  Its geometry
for the general dynamical equation: the heading frame H turns by θ about the plane's normal,
the disk frame D turns further by the spin φ about the axle H.y.  p and H of the disk are
resolved in H, which does not spin with the disk, and differentiated there:
Ḣ = (dH/dt)_H + ω_H × H: (4.146) holds in any frame in which H is resolved (ours: the
frame rule of vector derivatives; our fact sheet gives no remark on it).
"""

from __future__ import annotations

from functools import partial

from companion.examples.rolling_disk import system as rolling_disk
from companion.system import System


def build() -> System:
    system = rolling_disk.build()
    m, R, g, alpha = system.parameter_symbols
    return system.variant(
        name="rolling_disk_frame",
        title="Rolling disk by the alternate form, momenta in the heading frame (§4.4)",
        mechanics_model=partial(rolling_disk.disk_model, m, R, g, alpha,
                                momenta_in_heading_frame=True))
