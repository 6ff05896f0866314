"""The reader steers the knife edge (issue 37 §3): four legs of piecewise-constant u₁, u₂
towards a target, and the closed loop whose ∮u₁ dt is not zero (θ₁ is no function of q)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from companion import examples  # noqa: E402
from companion.examples.nonholonomic import steering, view  # noqa: E402


@pytest.fixture(scope="module")
def model():
    return steering.SteeredKnifeEdge()


def test_the_circle_closes_q_but_not_theta_1(model):
    run = model.simulate(params=steering.MANOEUVRES["circle"])
    x, y, phi = run.states[:, -1]
    assert abs(x) < 1e-8 and abs(y) < 1e-8
    assert phi == pytest.approx(2 * np.pi)
    # θ₁ = Σ u₁ × 1 s over the legs, read from the inputs the run was given
    assert run["theta_1"][-1] == pytest.approx(sum(run.params[f"v_{k}"] for k in range(1, 5)))
    # the default target (0, −0.3, 0): φ = 2π is the same heading, so the miss is 0.3 m
    assert run["miss"][-1] == pytest.approx(0.3, abs=1e-8)


def test_the_parking_preset_is_the_parking_manoeuvre(model):
    run = model.simulate(params=steering.MANOEUVRES["parking"])
    np.testing.assert_allclose(run.states[:, -1], steering.parking(0.6).q[:, -1], atol=1e-8)
    assert abs(run["theta_1"][-1]) < 1e-12


def test_theta_1_is_the_integral_of_u_1_and_particle_2_a_rod_away(model):
    run = model.simulate(params={"v_1": 0.7, "w_2": -1.1, "v_3": 0.3, "w_3": 0.4, "v_4": -1.0})
    assert run["theta_1"][-1] == pytest.approx(0.7 + 0.3 - 1.0)
    np.testing.assert_allclose(np.hypot(run["x2"] - run["x"], run["y2"] - run["y"]), 1.0)
    # the blade never slides sideways: −ẋ sin φ + ẏ cos φ = 0 along the path
    dx, dy = np.gradient(run["x"], run.t), np.gradient(run["y"], run.t)
    inner = slice(2, -2)
    assert np.max(np.abs(-dx * np.sin(run["phi"]) + dy * np.cos(run["phi"]))[inner]) < 5e-3


def test_bad_input_is_named(model):
    with pytest.raises(ValueError, match="takes no options"):
        model.simulate(method="RK45")
    with pytest.raises(ValueError, match="4 legs of 1 s"):
        model.simulate(t_final=10.0)
    with pytest.raises(ValueError, match="unknown parameter"):
        model.simulate(params={"v_9": 1.0})
    with pytest.raises(ValueError, match="leg 2 must be"):
        steering.drive([(1.0, 0.0, 1.0), (1.0, 0.0, 0.0)])
    with pytest.raises(ValueError, match="q0 must be"):
        steering.drive([(1.0, 0.0, 1.0)], q0=(0.0, 0.0))


def test_the_explorer_says_where_the_blade_ends():
    explorer = view.explorer()
    try:
        explorer.apply_preset("circle")
        explorer.reveal()
        text = explorer.describe()
        assert "0.300 m from the target" in text and "changed by 4.000 m" in text
        assert [ax.get_title() for ax in explorer.figure.axes] == ["Where the blade goes",
                                                                  "The inputs"]
    finally:
        explorer.close()


def test_the_closed_loop_exercise_is_keyed_by_the_simulation():
    exercise = {e.key: e for e in examples.exercises_for("nonholonomic").exercises}["closed_loop"]
    right = exercise.right_index()
    assert "no function of q" in exercise.options[right].label
