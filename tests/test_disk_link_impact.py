"""The disk–link's plastic impact with Coulomb friction (issue 14, item 1).

The impact map is exercised directly (no simulation): at every impact the kinetic energy does
not rise and the slip speed does not grow, over a randomized scan of starts and friction pairs.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion import examples
from companion.examples.disk_link.impacts import plastic_impact


@pytest.fixture(scope="module")
def friction():
    return examples.get("disk_link_friction")


def _impact_with_energy(system, x, pv, held):
    """Energy before and after the impact, |v_slip| before and after, and the report."""
    p = system.parameter_vector(pv)
    before = np.asarray(x, dtype=float).copy()
    before[2] = 0.0  # the impact happens on the link's surface
    modes = system.integrator  # the contact modes' numerics: metric and contact 1-forms
    after, msg = plastic_impact(before, p, pv, held, modes._numeric("separated").metric,
                                modes._extras)
    e0, vs0 = modes._extras(*before[:8], *p)[:2]
    e1, vs1 = modes._extras(*after[:8], *p)[:2]
    return e0, e1, abs(vs0), abs(vs1), msg


def test_reported_case_loses_energy(friction):
    """θ₀ = 0, θ̇₀ = 1.5, ṡ₀ = −1, ψ̇₀ = 0, μ_s = 0.25, μ_k = 0.15: the case that gained
    2.6 mJ when the sliding impulse pointed along the slip."""
    pv = friction.parameter_values({"mu_s": 0.25, "mu_k": 0.15})
    x = np.array([0.0, 0.5, 0.0, 0.0, 1.5, -1.0, -0.5, 0.0, 0.0, 0.0])
    e0, e1, vs0, vs1, msg = _impact_with_energy(friction, x, pv, held=False)
    assert "tangential" in msg
    assert e1 <= e0 + 1e-12, (e0, e1)
    assert vs1 <= vs0 + 1e-12, (vs0, vs1)


def test_random_impacts_never_gain_energy(friction):
    """≥ 500 random approach states and friction pairs (μ_k ≤ μ_s): no impact gains energy
    or speeds up the slip; both the sticking and the sliding branch are exercised."""
    rng = np.random.default_rng(20261202)
    base = friction.parameter_values()
    sliding = sticking = 0
    worst_gain = -np.inf
    for _ in range(600):
        mu_s = rng.uniform(0.0, 1.5)
        pv = dict(base, mu_s=mu_s, mu_k=rng.uniform(0.0, mu_s))
        x = np.array([rng.uniform(-0.8, 0.8), rng.uniform(0.05, 0.95) * pv["L"], 0.0,
                      rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-3, 3),
                      -rng.uniform(0.01, 3.0), rng.uniform(-30, 30), 0.0, 0.0])
        held = bool(rng.random() < 0.3)
        if held:
            x[4] = 0.0
        e0, e1, vs0, vs1, msg = _impact_with_energy(friction, x, pv, held)
        worst_gain = max(worst_gain, e1 - e0)
        assert e1 <= e0 + 1e-9 * max(1.0, e0), (x, pv["mu_s"], pv["mu_k"], e1 - e0)
        assert vs1 <= vs0 + 1e-9 * max(1.0, vs0), (x, pv["mu_s"], pv["mu_k"], vs0, vs1)
        stuck = vs1 < 1e-9 * max(1.0, vs0)
        sticking += stuck
        sliding += not stuck
    assert sliding > 50 and sticking > 50, (sliding, sticking)
    assert worst_gain <= 1e-9


def test_reported_run_loses_energy_at_every_impact(friction):
    """The full run of the report: every re-contact loses energy (the slip speed is
    checked on the impact map above)."""
    tr = friction.simulate(params={"mu_s": 0.25, "mu_k": 0.15},
                           initial={"theta": 0.0, "theta_dot": 1.5, "s_dot": -1.0,
                                    "psi_dot": 0.0})
    impacts = [e for e in tr.events if "re-contact" in e]
    assert impacts
    for event in impacts:
        lost = float(event.split("energy lost ")[1].split(" J")[0])
        assert lost >= 0, event
    assert tr.drift("energy balance") < 1e-7
