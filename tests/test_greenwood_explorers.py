"""Greenwood §4.3 explorers and the numerics under them: accuracy of the default simulations,
the knife-edge closed form, gimbal lock of Φ, and the explorers driven without a browser."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from companion import examples  # noqa: E402
from companion.examples.euler_body import view as euler_body  # noqa: E402
from companion.examples.knife_edge.closed_form import (  # noqa: E402
    closed_form_error,
    knife_edge_closed_form,
)
from companion.numerics import SingularConfigurationError  # noqa: E402
from companion.numerics.compile import _unrolled_solver, solve_linear  # noqa: E402


@pytest.mark.parametrize("integrator", ["lsoda", "dop853"])
def test_default_simulations_conserve(integrator):
    traj = examples.get("euler_body").simulate(integrator=integrator)
    for name in traj.invariants:
        assert traj.drift(name) <= 1e-9, name
    assert traj.max_residual("quaternion norm − 1") <= 1e-9
    traj = examples.get("knife_edge").simulate(integrator=integrator)
    assert traj.drift("energy") <= 1e-9
    assert closed_form_error(traj) <= 1e-9


@pytest.mark.parametrize("v0, w0, l", [(0.5, 1.5, 1.0), (-1.5, 3.5, 0.2), (0.0, -4.0, 3.0),
                                       (2.0, 0.0, 1.0)])
def test_knife_edge_matches_closed_form_across_sliders(v0, w0, l):
    traj = examples.get("knife_edge").simulate(params={"l": l}, initial={"u_1": v0, "u_2": w0})
    assert closed_form_error(traj) <= 1e-9
    # the knife-edge force from the engine's suppressed row is λ = m v φ̇
    np.testing.assert_allclose(traj["lambda"], traj.params["m"] * traj["u_1"] * traj["u_2"],
                               atol=1e-12)


def test_closed_form_solves_the_equations():
    t = np.linspace(0.0, 5.0, 20001)
    l = 0.7
    v, w = knife_edge_closed_form(t, 0.3, -2.0, l)
    assert (v[0], w[0]) == pytest.approx((0.3, -2.0))
    dv, dw = np.gradient(v, t), np.gradient(w, t)
    inner = slice(1, -1)
    np.testing.assert_allclose((2 * dv)[inner], (l * w**2)[inner], atol=1e-6)
    np.testing.assert_allclose((l * dw)[inner], (-v * w)[inner], atol=1e-6)
    with pytest.raises(ValueError, match="rod length"):
        knife_edge_closed_form(t, 1.0, 1.0, 0.0)


def test_integrators_agree():
    system = examples.get("euler_body")
    a = system.simulate(initial={"omega_x": 1.0, "omega_z": -0.5})
    b = system.simulate(initial={"omega_x": 1.0, "omega_z": -0.5}, integrator="dop853")
    np.testing.assert_allclose(a.states, b.states, atol=1e-7)
    with pytest.raises(ValueError, match="unknown integrator"):
        system.simulate(integrator="euler")


def test_gimbal_lock_phi_blows_up():
    theta = np.radians([0.0, 60.0, 89.0, 89.999])
    system = examples.get("euler_body")
    norms = euler_body.phi_norm(system, theta)
    assert np.all(np.diff(norms) > 0)
    assert norms[0] == pytest.approx(np.sqrt(3.0))  # Φ(0) has three unit entries
    assert norms[-1] > 1e4
    assert euler_body.phi_norm(system, -theta[-1]) == pytest.approx(norms[-1])


def test_small_solver_matches_numpy_and_falls_back():
    rng = np.random.default_rng(1)
    for k in range(1, 7):
        A = rng.normal(size=(k, k)) + k * np.eye(k)
        b = rng.normal(size=k)
        np.testing.assert_allclose(_unrolled_solver(k)(A.ravel().tolist(), b.tolist()),
                                   np.linalg.solve(A, b), rtol=1e-12, atol=1e-12)
        B = rng.normal(size=(k, 3))  # several right-hand sides: Ψ⁻¹ is Ψ X = 1
        np.testing.assert_allclose(_unrolled_solver(k, 3)(A.ravel().tolist(), B.ravel().tolist()),
                                   np.linalg.solve(A, B).ravel(), rtol=1e-12, atol=1e-12)
    A, B = rng.normal(size=(8, 8)), rng.normal(size=(8, 2))  # numpy's, beyond the unrolled
    np.testing.assert_allclose(solve_linear(A.ravel().tolist(), B.ravel().tolist(), columns=2),
                               np.linalg.solve(A, B).ravel(), rtol=1e-12, atol=1e-12)
    assert _unrolled_solver(2)([0.0, 1.0, 1.0, 0.0], [1.0, 2.0]) is None  # needs a pivot
    assert solve_linear([0.0, 1.0, 1.0, 0.0], [1.0, 2.0]) == pytest.approx([2.0, 1.0])
    with pytest.raises(SingularConfigurationError, match="singular"):
        solve_linear([1.0, 2.0, 2.0, 4.0], [1.0, 2.0])


# ----------------------------------------------------------------------------- explorers
@pytest.fixture(params=["euler_body", "knife_edge"])
def explorer(request):
    ex = examples.explorer(request.param)
    yield ex
    plt.close(ex.figure)


def _all_line_data(fig):
    return [np.array(line.get_data(), dtype=float).copy() for ax in fig.axes
            for line in ax.get_lines()]


def test_explorer_updates_in_place(explorer):
    figs = plt.get_fignums()
    before = _all_line_data(explorer.figure)
    name = "omega_x" if "omega_x" in explorer.controls else "u_2"
    traj = explorer.update(**{name: 1.2})
    assert traj is not None and traj[name][0] == 1.2
    after = _all_line_data(explorer.figure)
    assert len(after) == len(before)
    pairs = zip(before, after, strict=True)
    assert any(a.shape != b.shape or not np.allclose(a, b) for a, b in pairs)
    assert plt.get_fignums() == figs
    explorer.figure.canvas.draw()  # renders without error
    assert explorer.describe()


def test_explorer_errors_in_readout(explorer):
    name = "I_xx" if "I_xx" in explorer.controls else "l"
    before, high = explorer.values[name], explorer.controls[name].max
    assert explorer.update(**{name: 0.0}) is None  # not allowed: refused, not simulated
    assert f"{name} " in explorer.readout.value and "must be &gt; 0" in explorer.readout.value
    assert explorer.update(**{name: 2 * high}) is None  # beyond the slider: refused too
    assert "outside this explorer&#x27;s range" in explorer.readout.value
    assert explorer.values[name] == before


def test_play_moves_markers():
    ex = examples.explorer("knife_edge")
    try:
        view = ex.view
        view.play.show(view.play.n_frames - 1)
        x, y = view.rod_now.get_data()
        traj = ex.trajectory
        assert x[0] == pytest.approx(traj["x"][-1]) and y[1] == pytest.approx(traj["y2"][-1])
    finally:
        plt.close(ex.figure)


def test_euler_explorer_reports_gimbal_lock():
    ex = examples.explorer("euler_body")
    try:
        traj = ex.update(omega_y=2.0, omega_x=0.0, omega_z=0.0)  # a pure spin about y
        assert np.max(np.abs(traj["theta"])) > np.radians(89.0)
        largest = np.max(euler_body.phi_norm(ex.system, traj["theta"]))
        assert f"where ‖Φ‖ is {largest:.3g}" in ex.describe()
    finally:
        plt.close(ex.figure)


def test_euler_polhode_is_omega_on_the_energy_ellipsoid():
    """Issue 14 item 9: the polhode panel plots ω (not H/|H|) on ωᵀIω = 2T, and the readout
    and the gimbal-lock event give the same largest |θ|, never 'passes ±90°'."""
    ex = examples.explorer("euler_body")
    try:
        traj = ex.update(omega_y=2.0, omega_x=0.05, omega_z=0.05)
        line = np.array(ex.view.polhode.get_data_3d())
        assert np.allclose(line, [traj["omega_x"], traj["omega_y"], traj["omega_z"]])
        inertia = np.array([traj.params[n] for n in ("I_xx", "I_yy", "I_zz")])
        energy = inertia @ line**2
        assert np.allclose(energy, energy[0], rtol=1e-8)
        assert "energy ellipsoid" in ex.view.axes[2].get_title()
        largest = f"{np.degrees(np.max(np.abs(traj['theta']))):.1f}°"
        assert largest in ex.describe()
        lock = [e for e in traj.events if "gimbal" in e]
        assert lock and largest in lock[0] and "passes" not in lock[0]
    finally:
        plt.close(ex.figure)
