"""Loparo & Vakalis §7.2–7.3: a particle on a sphere, Newton's law as a covariant derivative."""

from companion.examples.record import Notebook, worked_example

EXAMPLES = (
    worked_example(
        __name__, "sphere_particle",
        notebook=Notebook(
            path="loparo-07/covariant-derivative.ipynb",
            title="Newton's law as a covariant derivative (§7.2–7.3)",
            source="Loparo & Vakalis §7.2–7.3",
            summary="Pull the flat metric back onto a sphere, compute its Christoffel symbols, "
            "see which paths force-free motion takes, and recover the reaction force "
            "normal to the surface.",
            order=(7, 2),
        ),
        explorer="view:explorer",
        exercises=("Exercises: the particle on a sphere", "exercises:sphere_particle"),
        checks="checks:checks",
    ),
)
