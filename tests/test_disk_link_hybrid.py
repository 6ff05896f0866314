"""Disk on a pivoted link with Coulomb friction (Loparo & Vakalis §7.11, reconstructed
Example 4): event-driven modes, energy by mode, separation, re-contact, analytic cases."""

from __future__ import annotations

import numpy as np
import pytest

from companion import examples
from companion.book import loparo_contact as book
from companion.checks import RECONSTRUCTION
from companion.examples.disk_link.modes import MODES
from companion.numerics.hybrid import Guard, Mode, simulate_hybrid
from companion.verify import all_checks, run_checks


@pytest.fixture(scope="module")
def friction():
    return examples.get("disk_link_friction")


@pytest.fixture(scope="module")
def default_run(friction):
    return friction.simulate()


def _intervals(tr, mode):
    """Index ranges of the samples in one mode (between switches)."""
    idx = MODES.index(mode)
    inside = tr["mode"] == idx
    edges = np.flatnonzero(np.diff(np.concatenate([[0], inside.astype(int), [0]])))
    return [slice(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def test_default_run_visits_every_mode(default_run):
    seen = {MODES[int(i)] for i in np.unique(default_run["mode"])}
    assert seen == set(MODES)
    assert any("separated" in e and "N reaches 0" in e for e in default_run.events)
    assert len(default_run.switches) <= 10  # no chattering


def test_energy_by_mode(default_run):
    tr = default_run
    assert np.all(tr["tau"] == 0)
    e = tr["energy"]
    for sl in _intervals(tr, "rolling") + _intervals(tr, "separated"):
        assert np.ptp(e[sl]) < 1e-8 * max(1.0, abs(e[sl][0]))
    for mode in ("slipping forward", "slipping backward"):
        for sl in _intervals(tr, mode):
            assert np.all(np.diff(e[sl]) <= 1e-10)
    assert np.all(np.diff(tr["W_fric"]) <= 1e-12)
    assert tr.drift("energy balance") < 1e-8


def test_friction_law_holds(default_run):
    tr = default_run
    n, f, v = tr["N"], tr["F"], tr["v_slip"]
    mu_s, mu_k = tr.params["mu_s"], tr.params["mu_k"]
    rolling = tr["mode"] == 0
    slipping = (tr["mode"] == 1) | (tr["mode"] == 2)
    assert np.all(n[rolling | slipping] >= -1e-9)
    assert np.all(np.abs(f[rolling]) <= mu_s * n[rolling] + 1e-9)
    sigma = np.where(tr["mode"] == 1, 1.0, -1.0)  # slipping forward: v_slip > 0
    np.testing.assert_allclose(f[slipping], -mu_k * n[slipping] * sigma[slipping], atol=1e-12)
    clear = slipping & (np.abs(v) > 1e-9)
    assert np.all(np.sign(v[clear]) == sigma[clear])
    assert np.all(np.abs(v[rolling]) < 1e-9)


def test_recontact_with_plastic_impact(friction):
    pd = {"K_theta": 150, "D_theta": 20, "k_p": 1.0, "k_d": 0.8, "s_ref": 0.5, "c_g": 1}
    tr = friction.simulate(3.0, pd, {"theta": 0.0, "s": 0.3, "theta_dot": 0.0})
    impacts = [e for e in tr.events if "re-contact" in e]
    assert impacts and "energy lost" in impacts[0]
    assert tr.drift("energy balance") < 1e-7
    assert np.min(tr["h"]) >= -1e-9


def test_no_chattering_with_equal_coefficients(friction):
    tr = friction.simulate(params={"mu_s": 0.2, "mu_k": 0.2})
    assert len(tr.switches) < 20
    assert not any("Zeno" in e for e in tr.events)


@pytest.mark.parametrize("name", ["rolling_fixed", "sliding_fixed", "stop_slipping",
                                  "threshold", "metric", "equations"])
def test_book_checks(name):
    from companion.examples.disk_link import checks

    fn = getattr(checks, f"_check_{name}")
    ok, detail = fn({**book.PRINTED["disk_link_rolling"], **book.PRINTED["disk_link_friction"]})
    assert ok, detail


def test_verify_table_lists_the_reconstruction():
    outcomes = run_checks(all_checks(["disk_link_rolling", "disk_link_friction"]))
    assert all(o.matched for o in outcomes)
    assert outcomes and all(o.check.kind == RECONSTRUCTION for o in outcomes)


def test_hybrid_engine_bouncing_ball():
    """The engine on its own: a ball with a restitution reset, switch times exact."""
    g, e = 9.81, 0.5

    def transition(mode, guard, t, x):
        return "fly", np.array([0.0, -e * x[1]]), f"bounce at {t:.6f}"

    modes = {"fly": Mode("fly", lambda t, x: np.array([x[1], -g]),
                         (Guard("ground", lambda t, x: x[0]),))}
    run = simulate_hybrid(modes, "fly", np.array([1.0, 0.0]), 2.0, transition,
                          max_switches=5)
    t1 = np.sqrt(2 / g)
    assert run.switches[0].t == pytest.approx(t1, abs=1e-12)
    assert run.switches[1].t == pytest.approx(t1 + 2 * e * g * t1 / g, abs=1e-10)
    assert "Zeno" in run.stopped or run.t[-1] == pytest.approx(2.0)


def test_unknown_start_mode():
    with pytest.raises(ValueError, match="unknown mode"):
        simulate_hybrid({}, "x", np.zeros(1), 1.0, lambda *a: (None, a[3], ""))
