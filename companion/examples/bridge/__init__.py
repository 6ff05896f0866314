"""Between the books: Greenwood's Hamel coefficients of Examples 4.3 and 4.4 as the structure
constants of so(3) and se(2) (left-invariant frames), Boltzmann–Hamel's gyroscopic term as
Loparo & Vakalis's B(ω, ω), Euler's equations as geodesics of Ψᵀ A Ψ in Euler angles, and why
the pull-back cannot treat the knife edge."""

from companion.examples.euler_body import CITATIONS
from companion.examples.record import Notebook, Part, worked_example

#: Example 4.3's free body: that body's scene.
SCENE = Part("companion.examples.euler_body.scene", "scene")

EXAMPLES = (
    worked_example(
        __name__, "bridge", citations=CITATIONS,
        scene=SCENE,
        notebook=Notebook(
            path="loparo-07/bridge.ipynb",
            title="Between the books: Hamel's γ, so(3) and geodesics",
            source="Greenwood §4.3 (Examples 4.3, 4.4) with Loparo & Vakalis §7.2–7.4",
            summary=r"See Greenwood's $\gamma^j_{rl}$ of Example 4.3 turn out to be the structure "
            "constants of so(3) and those of Example 4.4 the structure constants of se(2) "
            r"(both frames are left-invariant), and, for any frame, "
            r"$\langle\omega^j, [X_r, X_l]\rangle$, his gyroscopic term "
            "become B(ω, ω), and Euler's equations come out as geodesics in Euler angles.",
            order=(7, 4, 9),
        ),
        exercises=("Exercises: Hamel's γ and the gyroscopic term", "exercises:bridge"),
        checks="checks:checks",
    ),
    worked_example(
        # the bridge continued in its own notebook: constraints, Kane's equations, robotics
        __name__, "bridge_constraints", citations=CITATIONS,
        scene=SCENE,
        notebook=Notebook(
            path="loparo-07/bridge-constraints.ipynb",
            title="Between the books: where the pull-back stops — the γ-test, Kane's "
            "equations and the robotics form",
            source="Greenwood §4.3–4.4 (Example 4.4, the general dynamical equation) with "
            "Loparo & Vakalis §7.3",
            summary="Run the γ-test that shows the knife edge has no submanifold to pull back "
            r"to (and set it beside Greenwood's $C^j$), get Kane's equations as the projection of "
            "Newton's law from σ alone, and see Greenwood's velocity coefficients become the "
            "columns of J, with M q̈ + C q̇ + g = τ and Ṁ − 2C skew.",
            order=(7, 4, 10),
        ),
    ),
)
