"""Beyond the books: a uniform vertical disk rolling on an incline (two nonholonomic
constraints).

Checked against sympy's KanesMethod (:mod:`.independent`); no notebook of its own."""

from companion.examples.record import worked_example

EXAMPLES = (
    worked_example(
        __name__, "rolling_disk",
        independent="independent:kane_model",
    ),
)
