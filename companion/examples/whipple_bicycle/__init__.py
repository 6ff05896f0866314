"""The Whipple bicycle benchmark (Meijaard, Papadopoulos, Ruina & Schwab 2007): a research-size
system derived by the Boltzmann–Hamel equations with numeric elimination."""

from companion.examples.record import Notebook, worked_example

EXAMPLES = (
    worked_example(
        __name__, "whipple_bicycle",
        notebook=Notebook(
            path="greenwood-04/whipple-bicycle.ipynb",
            title="The Whipple bicycle benchmark",
            source="Meijaard et al. 2007, by the Boltzmann–Hamel equations of §4.3",
            summary="Derive a four-body bicycle with rolling and a configuration constraint, "
                    "find its self-stable speeds and watch a lean disturbance die out or grow.",
            order=(4, 9)),
        checks="checks:checks",
        explorer="view:explorer",
    ),
)
