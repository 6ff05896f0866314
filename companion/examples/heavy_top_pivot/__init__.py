"""Greenwood §4.4: the heavy top about its pivot by the general dynamical equation (4.142),
reference point P at the pivot (ρ_c ≠ 0)."""

from companion.examples.record import WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="heavy_top_pivot",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        checks=part(__name__, "checks:checks"),
    ),
)
