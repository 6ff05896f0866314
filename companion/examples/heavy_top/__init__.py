"""Beyond the books: a heavy rigid body on a fixed pivot, with viscous damping
(Euler's equations with forces).

Checked against sympy's KanesMethod (:mod:`.independent`); no notebook of its own."""

from companion.examples.record import WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="heavy_top",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        independent=part(__name__, "independent:kane_model"),
    ),
)
