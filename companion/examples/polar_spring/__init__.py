"""Greenwood §4.3, Eq. (4.85) on a system of the reader's own: a particle on a spring in polar
quasi-velocities (u₁ = ṙ, u₂ = r θ̇), the preset of the Boltzmann–Hamel notebook."""

from companion.examples.record import Notebook, worked_example

EXAMPLES = (
    worked_example(
        __name__, "polar_spring",
        notebook=Notebook(
            path="greenwood-04/boltzmann-hamel.ipynb",
            title="The Boltzmann–Hamel equation",
            source="Greenwood §4.3, Eq. (4.85)",
            summary="Define a system of your own (coordinates, quasi-velocities, kinetic "
            "energy) and step through Eq. (4.85), from Ψ and Φ to the γ coefficients and the "
            "equations of motion.",
            order=(4, 3, 0),
        ),
        explorer="view:explorer",
        exercises=("Exercises: the Boltzmann–Hamel equations in polar speeds",
                   "exercises:polar_spring"),
        checks="checks:checks",
    ),
)
