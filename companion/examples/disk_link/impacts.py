"""The disk–link's resets: a plastic impact when the flying disk meets the link again, and the
projection of a contact state onto the rolling constraint.

Both act on the state x = (θ, s, h, ψ, θ̇, ṡ, ḣ, ψ̇, W_τ, W_f) of :mod:`.modes`; the energy an
impact takes joins W_f, the work of the contact forces, so that E − W_τ − W_f stays conserved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np


def project_on_rolling(x: np.ndarray, pv: Mapping[str, float]) -> np.ndarray:
    """Put a contact state exactly on h = 0, ḣ = 0, v_slip = 0 (rolling)."""
    x = x.copy()
    x[2] = x[6] = 0.0
    x[7] = x[4] - x[5] / pv["r"]
    return x


def plastic_impact(x: np.ndarray, p: Sequence[float], pv: Mapping[str, float], held: bool,
                   metric: Callable, extras: Callable) -> tuple[np.ndarray, str]:
    """Plastic impact on re-contact with the Coulomb cone on the impulse.

    ``metric(x, p)`` is the free-flight metric, ``extras(*x[:8], *p)`` gives the energy, the
    slip velocity, the disk centre and the contact 1-forms (∂v_slip/∂q̇, ∂v_n/∂q̇).  With a
    held link the link's rate takes no impulse.
    """
    x = x.copy()
    x[2] = 0.0
    Mm = metric(x, p)
    vals = extras(*x[:8], *p)
    a = np.array(vals[4:]).reshape(2, 4)  # rows: ∂v_slip/∂q̇, ∂v_n/∂q̇ (= contact 1-forms)
    free = slice(1, None) if held else slice(None)
    Mf, af, v = Mm[free, free], a[:, free], x[4:8][free]
    Minv_a = np.linalg.solve(Mf, af.T)
    # Sticking impulse (Λ_F, Λ_N): a (v + M⁻¹ aᵀ Λ) = 0.
    lam = np.linalg.solve(af @ Minv_a, -af @ v)
    if abs(lam[0]) > pv["mu_s"] * lam[1]:
        # Sliding: Λ_F = sgn(Λ_F^stick) μ_k Λ_N, friction opposing the slip that the
        # sticking impulse would have removed (so the impact cannot add energy).
        dirn = np.array([np.sign(lam[0]) * pv["mu_k"], 1.0])
        col = Minv_a @ dirn
        lam_n = -(af[1] @ v) / (af[1] @ col)
        lam = dirn * lam_n
    x[4:8][free] = v + Minv_a @ lam
    x[6] = 0.0
    lost = vals[0] - extras(*x[:8], *p)[0]  # vals[0]: the energy before
    x[9] -= lost  # the impulses' work joins the work of the contact forces
    msg = (f"plastic impact, normal impulse {lam[1]:.4g} N·s, tangential {lam[0]:.4g} N·s,"
           f" energy lost {lost:.4g} J")
    return x, msg
