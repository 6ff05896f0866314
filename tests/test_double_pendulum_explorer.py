"""The double-pendulum explorer redraws in place; chaos and normal-mode figures."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from companion import examples
from companion.examples.double_pendulum.view import (
    chain_points,
    chaos_figure,
    modes_figure,
    nearby_motions,
    tolerance_check,
)
from companion.mechanics.small_oscillations import normal_modes


@pytest.fixture(scope="module")
def system():
    return examples.get("double_pendulum")


def test_explorer_updates_one_figure_in_place(system):
    ex = examples.explorer("double_pendulum")
    view = ex.view
    n_figures = len(plt.get_fignums())
    artists = (view.links, view.trail_line, view.arrows, view.energy_line)
    traj = ex.update(theta_1=0.5, m_2=2.0)
    assert traj is not None and ex.error is None
    assert len(plt.get_fignums()) == n_figures
    assert (view.links, view.trail_line, view.arrows, view.energy_line) == artists
    # the drawn linkage is the simulated one: the tip is l₂ beyond the elbow
    pts = chain_points(system, traj)
    assert np.allclose(np.linalg.norm(pts[2] - pts[1], axis=0), traj.params["l_2"])
    assert np.allclose(view.links.get_xydata(), pts[:, :, view.time_index])
    assert view.play.widget in ex.widget.children
    view.play.show(view.play.n_frames - 1)
    assert view.time_index == len(traj.t) - 1
    assert ex.update(J_1=-1.0) is None and "J_1" in ex.error


def test_chaos_and_modes_figures(system):
    a, b, sep = nearby_motions(system, 1e-8, t_final=10.0, n_points=200)
    assert sep[0] == pytest.approx(1e-8) and sep[-1] > 1e-4
    chaos_figure(plt.figure(), system, a, b, sep)
    pv = system.parameter_values()
    w2, modes = normal_modes(system.derive("pull_back"),
                             {s: pv[s.name] for s in system.parameter_symbols})
    runs = modes_figure(plt.figure(), system, modes, w2)
    for k, traj in enumerate(runs):  # a mode keeps its amplitude ratio
        ratio = modes[1, k] / modes[0, k]
        big = np.abs(traj["theta_1"]) > 0.01
        assert np.allclose(traj["theta_2"][big] / traj["theta_1"][big], ratio, rtol=2e-2)
    with pytest.raises(ValueError, match="delta"):
        nearby_motions(system, 0.0)
    plt.close("all")


def test_chaos_is_certified_by_two_tolerances(system):
    """Issue 14 item 2: the nearby starts separate (> 0.1) while rtol 1e-10 and 1e-13 still
    agree to plotting accuracy (1e-3) on both starts."""
    check = tolerance_check(system, 1e-5)
    assert check.tolerances == (1e-10, 1e-13)
    assert check.separation[0] == pytest.approx(1e-5)
    assert check.t_separated < check.t_agree, (check.t_separated, check.t_agree)
    assert check.certified
    inside = check.t < check.t_agree
    assert np.max(check.tolerance_gap[inside]) <= check.accuracy
    assert np.max(check.separation[inside]) > check.separated
    # the check can fail: a start 1e-9 away separates only after the tolerances disagree
    assert not tolerance_check(system, 1e-9).certified
    chaos_figure(plt.figure(), system, *check.fine, check.separation, check)
    plt.close("all")
