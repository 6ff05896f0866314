"""Beyond the books: a particle on springs in a moving, turning carriage
(rheonomic: Ψ(q, t), Ψ_t ≠ 0).

Checked against sympy's KanesMethod (:mod:`.independent`); the rheonomic terms of Greenwood's
(4.84)–(4.85) in their own notebook."""

from companion.examples.record import Notebook, worked_example

EXAMPLES = (
    worked_example(
        __name__, "moving_carriage",
        notebook=Notebook(
            path="greenwood-04/boltzmann-hamel-rheonomic.ipynb",
            title="Time in the definitions: a moving carriage",
            source="Greenwood §4.3, Eq. (4.84), on our own example",
            summary=r"Let the quasi-velocities depend on time, derive $\Psi_t$, $\Phi_t$ and the "
            r"rheonomic coefficients $\gamma^j_r$ for a particle in a shaking, turning carriage, "
            "and check the whole derivation by its conserved inertial energy.",
            order=(4, 3, 1),
        ),
        independent="independent:kane_model",
    ),
)
