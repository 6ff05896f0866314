"""Loparo & Vakalis §7.7–7.8, Example 2 (reconstructed): the double pendulum by pull-back of
the free links' metric and forces."""

from companion.examples.record import Notebook, Part, worked_example

#: Links, pins, pin forces and the tip's trail, as for every planar chain.
SCENE = Part("companion.scene.chain", "chain_scene")

EXAMPLES = (
    worked_example(
        __name__, "double_pendulum",
        scene=SCENE,
        notebook=Notebook(
            path="loparo-07/double-pendulum.ipynb",
            title="The double pendulum by pull-back (§7.7–7.8, Example 2, reconstructed)",
            source="Loparo & Vakalis §7.7–7.8, Example 2 (reconstructed)",
            summary="Tie two free links together with pins, pull back their metric and forces, "
            "and recover the pin forces from each link's own Newton–Euler equations.",
            order=(7, 7),
        ),
        explorer="view:explorer",
        exercises=("Exercises: the double pendulum's metric", "exercises:double_pendulum"),
        checks="checks:checks",
        reconstruction=True,
    ),
    worked_example(
        # the same pendulum in its own notebook: what it does beyond one run
        __name__, "double_pendulum_modes",
        scene=SCENE,
        notebook=Notebook(
            path="loparo-07/double-pendulum-modes.ipynb",
            title="The double pendulum's motion: two nearby starts, normal modes and more links "
            "(§7.7–7.8, Example 2, reconstructed)",
            source="Loparo & Vakalis §7.7–7.8, Example 2 (reconstructed)",
            summary="Follow two nearby starts and certify what you see against the integrator's "
            "tolerance, find the normal modes of small swings, and string n links together.",
            order=(7, 7, 1),
        ),
        reconstruction=True,
    ),
)
