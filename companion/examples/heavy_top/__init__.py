"""Beyond the books: a heavy rigid body on a fixed pivot, with viscous damping
(Euler's equations with forces).

Checked against sympy's KanesMethod (:mod:`.independent`); no notebook of its own."""

from companion.examples.record import worked_example

EXAMPLES = (
    worked_example(
        __name__, "heavy_top",
        independent="independent:kane_model",
    ),
)
