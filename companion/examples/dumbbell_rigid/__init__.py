"""Greenwood §4.4: the knife-edge dumbbell as one rigid body about the knife edge (ρ_c ≠ 0 in
(4.139)/(4.140)), and d'Alembert's principle to the general dynamical equation."""

from companion.examples.record import WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="dumbbell_rigid",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        checks=part(__name__, "checks:checks"),
    ),
)
