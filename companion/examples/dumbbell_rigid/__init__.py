"""Greenwood §4.4: the knife-edge dumbbell as one rigid body about the knife edge (ρ_c ≠ 0 in
(4.139)/(4.140)), and d'Alembert's principle to the general dynamical equation."""

from companion.examples.knife_edge import CITATIONS
from companion.examples.record import Notebook, Part, worked_example

EXAMPLES = (
    worked_example(
        __name__, "dumbbell_rigid", citations=CITATIONS,
        # moves exactly as Example 4.4's two particles: the same scene
        scene=Part("companion.examples.knife_edge.scene", "scene"),
        notebook=Notebook(
            path="greenwood-04/general-dynamical-equation.ipynb",
            title="The general dynamical equation (§4.4)",
            source="Greenwood §4.4, Eqs. (4.124, by position)–(4.142)",
            summary="Derive Kane's equations from d'Alembert's principle step by step, carry "
            "Kane's recipe out on the knife edge by the engine and in plain sympy, and see the "
            "terms a reference point away from the mass centre brings in.",
            order=(4, 4),
        ),
        checks="checks:checks",
    ),
)
