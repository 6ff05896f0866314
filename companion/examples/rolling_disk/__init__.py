"""Beyond the books: a uniform vertical disk rolling on an incline (two nonholonomic
constraints).

Checked against sympy's KanesMethod (:mod:`.independent`); no notebook of its own."""

from companion.examples.record import WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="rolling_disk",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        independent=part(__name__, "independent:kane_model"),
    ),
)
