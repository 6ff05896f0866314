"""Greenwood Example 4.3: the free rigid body, with body-axis angular velocities as
quasi-velocities (Euler's equations from the Boltzmann–Hamel equation)."""

from companion.examples.record import Notebook, worked_example

#: Example 4.3's own equation numbers, by Boltzmann–Hamel step (the stepper shows these, not the
#: general (4.81)–(4.92)); the matrices C^j are defined without a number just before (4.95).
CITATIONS = {"boltzmann_hamel": {
    "psi": "(4.89)→(4.90)", "phi": "(4.91)", "c_matrices": "(4.97)–(4.99)",
    "gamma": "(4.95)–(4.96)→(4.100)–(4.102)", "kinetic_energy": "(4.93)", "momenta": "(4.94)",
    "gyroscopic": "(4.103)", "equations": "(4.104)",
}}

EXAMPLES = (
    worked_example(
        __name__, "euler_body", citations=CITATIONS,
        notebook=Notebook(
            path="greenwood-04/euler-rigid-body.ipynb",
            title="A free rigid body (Example 4.3)",
            source="Greenwood §4.3, Example 4.3",
            summary="Derive Euler's equations from body-axis angular velocities as "
            "quasi-velocities, then spin the body and check which quantities its motion keeps.",
            order=(4, 3, 3),
        ),
        explorer="view:explorer",
        exercises=("Exercises: Euler's equations from Boltzmann–Hamel", "exercises:euler_body"),
        checks="checks:checks",
        independent="independent:kane_model",
    ),
)
