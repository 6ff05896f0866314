"""Beyond the books: a heavy rigid body on a fixed pivot, with viscous damping
(Euler's equations with forces).

Checked against sympy's KanesMethod (:mod:`companion.examples.euler_body.independent`, the free
body's model with gravity and damping); no notebook of its own."""

from companion.examples.record import Part, worked_example

EXAMPLES = (
    worked_example(
        __name__, "heavy_top",
        independent=Part("companion.examples.euler_body.independent", "kane_model"),
    ),
)
