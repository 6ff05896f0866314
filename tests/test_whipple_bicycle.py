"""The Whipple bicycle benchmark: printed speeds and eigenvalues of Meijaard et al. (2007),
agreement with sympy's KanesMethod, and physics of the nonlinear motion."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from companion import book, examples
from companion.examples.whipple_bicycle import checks, stability

PRINTED = book.printed("whipple_bicycle")


@cache
def bicycle():
    return examples.get("whipple_bicycle")


def test_registered_with_a_cheap_build():
    from companion.examples.whipple_bicycle.system import build

    system = build()
    assert "whipple_bicycle" in examples.names()
    assert system.elimination == "numeric" and system.n_constraints == 5
    assert [s.name for s in system.dependent] == ["theta"]


def test_weave_and_capsize_speeds_match_the_paper():
    weave, capsize = stability.stability_speeds(bicycle())
    assert abs(weave - PRINTED["weave speed"]) / PRINTED["weave speed"] < 1e-8
    assert abs(capsize - PRINTED["capsize speed"]) / PRINTED["capsize speed"] < 1e-8


def test_eigenvalues_match_table_2():
    errors = checks.eigenvalue_errors(PRINTED["eigenvalues"])
    assert set(errors) == set(range(11))
    assert max(errors.values()) < 1e-8


def test_linear_coefficient_matrices_match_section_5_3():
    errors = checks.matrix_errors(PRINTED)
    assert max(errors.values()) < 1e-8, errors


def test_forward_speed_decouples_from_lean_and_steer():
    lin = stability.upright(bicycle(), 5.0)
    i = lin.states.index("u_3")
    others = [j for j in range(len(lin.states)) if j != i]
    assert np.max(np.abs(lin.A[i, others])) < 1e-9
    assert np.max(np.abs(lin.A[others, i])) < 1e-9


def test_symbolic_methods_refuse_numeric_elimination_clearly():
    with pytest.raises(NotImplementedError, match="numeric"):
        bicycle().derive("kane")


def test_lean_disturbance_dies_out_inside_the_band_and_grows_outside():
    system = bicycle()
    r_R = system.parameter_values()["r_R"]
    inside = system.simulate(4.0, initial={"phi": 0.02, "u_3": 5.0 / r_R}, n_points=81,
                             rtol=1e-8, atol=1e-10)
    # At 2 m/s the weave doubles the lean within a second and throws the bicycle over by
    # t ≈ 2 s; the model, which knows no ground but the wheels', would then pass through it
    # near a singular lean (integrating that is neither meaningful nor reproducible).
    outside = system.simulate(1.5, initial={"phi": 0.02, "u_3": 2.0 / r_R}, n_points=31,
                              rtol=1e-8, atol=1e-10)
    assert np.max(np.abs(inside["phi"][-20:])) < 0.02
    assert np.max(np.abs(outside["phi"])) > 0.05
    # Rolling does no work and nothing dissipates: T + V is kept (the observer's energy),
    # and the front wheel stays on the ground (the configuration constraint's residual).
    for motion in (inside, outside):
        assert motion.drift("energy") < 1e-8
        assert motion.max_residual("configuration constraint") < 1e-9


def test_kinetic_energy_of_straight_running_is_the_closed_form():
    """Upright and straight at speed v: T = ½ m v² + ½ I_Ryy (v/r_R)² + ½ I_Fyy (v/r_F)²."""
    system = bicycle()
    pv = system.parameter_values()
    v = 5.0
    x0 = system.initial_state(system.initial_values({"phi": 0.0, "u_3": v / pv["r_R"]}))
    n = len(system.q)
    T = system.compiled().kinetic_energy(
        np.zeros(1), x0[:n, None], x0[n:, None],
        [pv[s.name] for s in system.parameter_symbols])
    mass = pv["m_R"] + pv["m_B"] + pv["m_H"] + pv["m_F"]
    expected = 0.5 * (mass * v**2 + pv["I_Ryy"] * (v / pv["r_R"]) ** 2
                      + pv["I_Fyy"] * (v / pv["r_F"]) ** 2)
    assert T[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.slow
def test_agrees_with_kanes_method_at_random_states():
    """Our u̇ against sympy's KanesMethod (the independent method) at three random states.

    30–50 s, nearly all of it KanesMethod deriving the Whipple bicycle: the independent
    derivation is the point of the test, and nothing else in the suite derives it, so there
    is nothing to share; three states (not the five of ``verify``) keep the rest short."""
    assert checks.kane_disagreement(n_states=3) < 1e-10


def test_the_explorer_switches_to_the_c_right_hand_side_once_built():
    from companion.examples.whipple_bicycle import view
    from companion.numerics.c_rhs import compiler

    if compiler() is None:
        pytest.skip("no C compiler: the explorer stays with the Python right-hand side")
    explorer = examples.explorer("whipple_bicycle")
    try:
        python_kwargs = {k: v for k, v in explorer.simulate_kwargs.items() if k != "integrator"}
        explorer.update(phi=0.04)  # the first move starts the build; a second one joins here
        thread = view.build_c_in_background(explorer.system, explorer)
        thread.join(300)
        assert explorer.simulate_kwargs["integrator"].backend == "c"
        traj = explorer.update(phi=0.03, delta=-0.02)
        params = {p.name: explorer.values[p.name] for p in explorer.system.parameters}
        initial = {p.name: explorer.values[p.name] for p in explorer.system.initial}
        reference = explorer.system.simulate(params=params, initial=initial, **python_kwargs)
        # the same motion within the integration tolerances (rtol 1e-8)
        assert np.allclose(traj.states, reference.states, rtol=1e-5, atol=1e-6)
    finally:
        explorer.close()
