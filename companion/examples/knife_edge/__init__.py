"""Greenwood Example 4.4: the knife-edge dumbbell, by the Boltzmann–Hamel equation (§4.3) and by
the general dynamical equation, Lagrange's multipliers and Maggi's equations (§4.4)."""

from companion.examples.record import Notebook, worked_example

#: Example 4.4's own equation numbers, by Boltzmann–Hamel step (the stepper shows these, not the
#: general (4.81)–(4.109)): C^j by (4.112) (C² = 0), γ^j by (4.113), in matrix form (4.114).
CITATIONS = {"boltzmann_hamel": {
    "psi": "(4.105)–(4.107)→(4.110)", "phi": "(4.111)", "c_matrices": "(4.112)→(4.115)–(4.116)",
    "gamma": "(4.113)–(4.114)→(4.117)–(4.119)", "kinetic_energy": "(4.108)",
    "momenta": "(4.120)", "gyroscopic": "(4.121)", "equations": "(4.122)–(4.123)",
}}

EXAMPLES = (
    worked_example(
        __name__, "knife_edge", citations=CITATIONS,
        notebook=Notebook(
            path="greenwood-04/knife-edge.ipynb",
            title="The knife edge (Example 4.4)",
            source="Greenwood §4.3, Example 4.4",
            summary="Treat a nonholonomic constraint by suppressing a quasi-velocity, see where "
            "the gyroscopic terms come from, then launch the dumbbell with a speed and a "
            "turning rate and see what its turn does (driving it with inputs is in the "
            "nonholonomic notebook).",
            order=(4, 3, 4),
        ),
        explorer="view:explorer",
        exercises=("Exercises: the knife-edge dumbbell", "exercises:knife_edge"),
        checks="checks:checks",
        independent="independent:kane_model",
        variants="exercises:variants",
    ),
    worked_example(
        # the same system again, in its own notebook: (4.85) by hand in plain sympy
        __name__, "knife_edge_by_hand", citations=CITATIONS,
        notebook=Notebook(
            path="greenwood-04/knife-edge-by-hand.ipynb",
            title="The knife edge by hand: (4.85) in plain sympy (Example 4.4)",
            source="Greenwood §4.3, Example 4.4",
            summary="Derive the dumbbell's equations (4.122)–(4.123) on paper in plain sympy, "
            r"take $d/dt(\partial T/\partial u_r)$ along q̇ = Φ u, see which terms of (4.85) do "
            "not mind a constrained T, and test the constraint's integrability with the γ's.",
            order=(4, 3, 5),
        ),
    ),
    worked_example(
        __name__, "knife_edge_kane", citations=CITATIONS,
        notebook=Notebook(
            path="greenwood-04/methods-compared.ipynb",
            title="Four routes to one motion (§4.4)",
            source="Greenwood §4.4, the comparison of methods",
            summary="Switch between Lagrange with multipliers, Maggi, Boltzmann–Hamel and "
            "Kane on any example, see them agree, and compare what each method costs, up to "
            "a chain of n links.",
            order=(4, 4, 1),
        ),
        explorer="view:explorer",
        exercises=("Exercises: the general dynamical equation", "exercises:knife_edge_kane"),
        checks="checks:methods_checks",
    ),
)
