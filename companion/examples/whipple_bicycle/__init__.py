"""The Whipple bicycle benchmark (Meijaard, Papadopoulos, Ruina & Schwab 2007): a research-size
system derived by the Boltzmann–Hamel equations with numeric elimination."""

from companion.examples.record import WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="whipple_bicycle",
        system=part(__name__, "system:build"),
        checks=part(__name__, "checks:checks"),
        scene=part(__name__, "scene:scene"),
        reconstruction=True,
    ),
)
