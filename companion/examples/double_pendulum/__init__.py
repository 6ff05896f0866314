"""Loparo & Vakalis §7.7–7.8, Example 2 (reconstructed): the double pendulum by pull-back of
the free links' metric and forces."""

from companion.examples.record import Notebook, WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="double_pendulum",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        notebook=Notebook(
            path="loparo-07/double-pendulum.ipynb",
            title="The double pendulum by pull-back (§7.7–7.8, Example 2, reconstructed)",
            source="Loparo & Vakalis §7.7–7.8, Example 2 (reconstructed)",
            summary="Tie two free links together with pins, pull back their metric and forces, "
            "recover the pin forces from each link's own Newton–Euler equations, watch two "
            "nearby starts diverge, and find the normal modes of small swings.",
            order=(7, 7),
        ),
        explorer=part(__name__, "view:explorer"),
        exercises=("Exercises: the double pendulum's metric",
                   part(__name__, "exercises:double_pendulum")),
        checks=part(__name__, "checks:checks"),
        reconstruction=True,
    ),
)
