"""Loparo & Vakalis §7.9's nonholonomic half, reconstructed (ours): the knife edge of Greenwood's
Example 4.4 as a distribution on SE(2), Newton's law (7.1) under the constrained connection,
the σ-orthogonal choice of u₃, and steering by Lie brackets (the parallel-parking manoeuvre).
The system is the knife edge, under this slice's name."""

from companion.examples.knife_edge import CITATIONS
from companion.examples.record import Notebook, worked_example

EXAMPLES = (
    worked_example(
        __name__, "nonholonomic", citations=CITATIONS,
        notebook=Notebook(
            path="loparo-07/nonholonomic.ipynb",
            title="Newton's law on a distribution: the knife edge, steered (§7.9, reconstructed)",
            source="Loparo & Vakalis §7.9, nonholonomic constraints (reconstructed)",
            summary="See the knife edge's allowed velocities form a non-integrable "
            "distribution, get (4.122)–(4.123) and the blade force from the constrained "
            "connection, learn why the constrained T fails with Greenwood's u₃, and drive the "
            "blade with its two allowed motions (predict first where parking leaves it).",
            order=(7, 9, 1),
        ),
        exercises=("Exercises: Newton's law on a distribution", "exercises:nonholonomic"),
        checks="checks:checks",
        reconstruction=True,
    ),
)
