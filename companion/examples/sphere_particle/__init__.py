"""Loparo & Vakalis §7.2–7.3: a particle on a sphere, Newton's law as a covariant derivative."""

from companion.examples.record import Notebook, WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="sphere_particle",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        notebook=Notebook(
            path="loparo-07/covariant-derivative.ipynb",
            title="Newton's law as a covariant derivative (§7.2–7.3)",
            source="Loparo & Vakalis §7.2–7.3",
            summary="Pull the flat metric back onto a sphere, compute its Christoffel symbols, "
            "see which paths force-free motion takes, and recover the reaction force "
            "normal to the surface.",
            order=(7, 2),
        ),
        explorer=part(__name__, "view:explorer"),
        exercises=("Exercises: the particle on a sphere",
                   part(__name__, "exercises:sphere_particle")),
        checks=part(__name__, "checks:checks"),
    ),
)
