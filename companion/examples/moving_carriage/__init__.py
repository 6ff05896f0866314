"""Beyond the books: a particle on springs in a moving, turning carriage
(rheonomic: Ψ(q, t), Ψ_t ≠ 0).

Checked against sympy's KanesMethod (:mod:`.independent`); no notebook of its own."""

from companion.examples.record import WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="moving_carriage",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        independent=part(__name__, "independent:kane_model"),
    ),
)
