"""Loparo & Vakalis §7.4 and Example 1 (§7.5, reconstructed): Euler's equations from the
operator B, the attitude carried on SO(3)."""

from companion.examples.record import Notebook, Part, worked_example

EXAMPLES = (
    worked_example(
        __name__, "rigid_body_so3",
        # the body of Ex. 4.3: its scene, with the chapter's title
        scene=Part("companion.examples.euler_body.scene", "so3_scene"),
        notebook=Notebook(
            path="loparo-07/euler-geodesic.ipynb",
            title="Euler's equations as a geodesic on SO(3) (§7.4; Example 1, reconstructed)",
            source="Loparo & Vakalis §7.4; Example 1 (§7.5, reconstructed)",
            summary="Build the operator B from its definition, get Euler's equations (and, with "
            "the wrong bracket sign, ω̇ = −B(ω, ω), which §7.4 calls time-reversed: solved by "
            "ω(−t), not by the body's physical reversal −ω(−t)), simulate the attitude on SO(3) "
            "and spin the body about each principal axis.",
            order=(7, 4),
        ),
        explorer="view:explorer",
        exercises=("Exercises: Euler's equations from B", "exercises:rigid_body_so3"),
        checks="checks:checks",
    ),
)
