"""Greenwood Example 4.3: the free rigid body, with body-axis angular velocities as
quasi-velocities (Euler's equations from the Boltzmann–Hamel equation)."""

from companion.examples.record import Notebook, WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="euler_body",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        notebook=Notebook(
            path="greenwood-04/euler-rigid-body.ipynb",
            title="A free rigid body (Example 4.3)",
            source="Greenwood §4.3, Example 4.3",
            summary="Derive Euler's equations from body-axis angular velocities as "
            "quasi-velocities, then spin the body and check which quantities its motion keeps.",
            order=(4, 3, 3),
        ),
        explorer=part(__name__, "view:explorer"),
        exercises=("Exercises: Euler's equations from Boltzmann–Hamel",
                   part(__name__, "exercises:euler_body")),
        checks=part(__name__, "checks:checks"),
        independent=part(__name__, "independent:kane_model"),
    ),
)
