"""Explorers of the Loparo §7.2–7.6 examples: one figure, updated in place; errors shown."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from companion import examples  # noqa: E402


def _lines(ax) -> list[np.ndarray]:
    return [np.array(line.get_data_3d()) for line in ax.lines]


@pytest.mark.parametrize("name, change", [
    ("sphere_particle", {"R": 2.0}),
    ("rigid_body_so3", {"omega_z": 1.0}),
    ("thrown_body", {"v_z": 4.0}),
])
def test_update_redraws_the_same_figure(name, change):
    ex = examples.explorer(name)
    n_figs = len(plt.get_fignums())
    ax3d = ex.view.ax3d
    before, n_lines = _lines(ax3d), len(ax3d.lines)
    traj = ex.update(**change)
    assert traj is not None and ex.error is None
    ex.view.show_sample(len(traj.t) // 2)
    ex.figure.canvas.draw()
    after = _lines(ax3d)
    assert len(ax3d.lines) == n_lines and len(plt.get_fignums()) == n_figs
    assert any(b.shape != a.shape or not np.allclose(b, a)
               for b, a in zip(before, after, strict=True))
    assert ex.view.describe(traj)
    plt.close(ex.figure)


def test_sphere_explorer_crosses_the_pole_and_refuses_to_start_there():
    ex = examples.explorer("sphere_particle")
    traj = ex.update(**{r"\dot{\phi}": 1e-3})
    assert traj is not None and any("changed chart" in e for e in traj.events)
    good = ex.trajectory
    assert ex.update(theta=0.0) is None  # the pole lies outside the slider's range
    assert "outside this explorer's range" in ex.error and ex.trajectory is good
    with pytest.raises(ValueError, match="chart is singular"):
        ex.system.simulate(initial={"theta": 0.0})
    plt.close(ex.figure)


def test_great_circle_readout():
    ex = examples.explorer("sphere_particle")
    traj = ex.update(g=0.0)
    assert "great circle" in ex.view.describe(traj)
    assert np.max(np.abs(traj["off great-circle plane"])) < 1e-7
    plt.close(ex.figure)
