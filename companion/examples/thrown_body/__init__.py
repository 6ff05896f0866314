"""Loparo & Vakalis §7.4–7.6: a tumbling body thrown in gravity (rotation on SO(3), the mass
centre on a parabola)."""

from companion.examples.record import Notebook, Part, worked_example

EXAMPLES = (
    worked_example(
        __name__, "thrown_body",
        notebook=Notebook(
            path="loparo-07/lie-group.ipynb",
            title="Body and space on SO(3): the adjoint map, Lemma 7.1 and a thrown body "
            "(§7.4; §7.6 reconstructed)",
            source="Loparo & Vakalis §7.4; §7.6 (reconstructed)",
            summary=r"Tell the body from the spatial angular velocity through $\mathrm{Ad}_g$, "
            "measure how fast Lemma 7.1's remainder shrinks, and throw a tumbling body whose "
            "centre follows a parabola.",
            order=(7, 4, 1),
        ),
        # the view of Example 1 on SO(3), the box flying
        explorer=Part("companion.examples.rigid_body_so3.view", "thrown_explorer"),
    ),
)
