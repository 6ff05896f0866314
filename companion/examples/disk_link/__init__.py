"""Loparo & Vakalis §7.9–7.11, Examples 3 and 4 (reconstructed): a disk on a pivoted link,
rolling, and with Coulomb friction as a hybrid motion (rolling, slipping, flight).

The slice is a package of its own parts: the contact geometry and mode models
(:mod:`.contact`), its parameters (:mod:`.parameters`: one list, whose order is the
order of p everywhere), the model (:mod:`.model`: a :class:`~companion.model.Model` of its
own, no System), the modes and the integrator part that switches them (:mod:`.modes`), the
impacts (:mod:`.impacts`), the link-torque controller
that makes it a ball and beam (:mod:`.controller`) and its linearization in the robotics form
M q̈ + C q̇ + g = B τ (:mod:`.robotics`), the disk's own Newton–Euler equations as an
independent check (:mod:`.newton_euler`), the view, the exercises and the checks.
"""

from companion.examples.record import Notebook, worked_example

EXAMPLES = (
    worked_example(
        __name__, "disk_link_rolling",
        system="model:build_rolling",
        notebook=Notebook(
            path="loparo-07/disk-link-rolling.ipynb",
            title="A disk rolling on a pivoted link (§7.9–7.10, Example 3, reconstructed)",
            source="Loparo & Vakalis §7.9–7.10, Example 3 (reconstructed)",
            summary="Pull the two bodies' metric back through the contact map, recover the "
            "contact forces, and watch when the rolling model stops being valid.",
            order=(7, 9),
        ),
        explorer="view:rolling_explorer",
        exercises=("Exercises: the disk rolling on the link", "exercises:disk_link_rolling"),
        checks="checks:rolling_checks",
        reconstruction=True,
    ),
    worked_example(
        # the rolling model again, in its own notebook: held by the link as a ball and beam
        __name__, "disk_link_control",
        system="model:build_rolling",
        notebook=Notebook(
            path="loparo-07/disk-link-control.ipynb",
            title="Holding the disk: the disk on the link as a ball and beam (§7.10, Example 3, "
            "reconstructed)",
            source="Loparo & Vakalis §7.10, Example 3 (reconstructed)",
            summary="Write the rolling model as M q̈ + C q̇ + g = B τ with Ṁ − 2C skew, hold the "
            "disk with a link-angle loop, and linearize the ball and beam with and without "
            "feedback, and read what the eigenvalues say.",
            order=(7, 10),
        ),
        reconstruction=True,
    ),
    worked_example(
        __name__, "disk_link_friction",
        system="model:build_friction",
        notebook=Notebook(
            path="loparo-07/disk-link-friction.ipynb",
            title="The disk on the link with Coulomb friction (§7.11, Example 4, reconstructed)",
            source="Loparo & Vakalis §7.11, Example 4 (reconstructed)",
            summary="Simulate rolling, slipping and flight as one hybrid motion with "
            "event-located switches, and see where the energy goes.",
            order=(7, 11),
        ),
        explorer="view:friction_explorer",
        exercises=("Exercises: the disk slipping on the link", "exercises:disk_link_friction"),
        checks="checks:friction_checks",
        reconstruction=True,
    ),
)
