"""Greenwood §4.4: the heavy top about its pivot by the general dynamical equation (4.142),
reference point P at the pivot (ρ_c ≠ 0)."""

from companion.examples.record import Part, worked_example

EXAMPLES = (
    worked_example(
        __name__, "heavy_top_pivot",
        # moves as the heavy top: the same scene
        scene=Part("companion.examples.heavy_top.scene", "scene"),
        checks="checks:checks",
    ),
)
