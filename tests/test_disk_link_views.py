"""Explorers of the disk on the link: one figure updated in place, play control, refusals.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from companion import examples  # noqa: E402
from companion.examples.disk_link.view import (  # noqa: E402
    timeline,
)


@pytest.fixture(scope="module", params=["disk_link_rolling", "disk_link_friction"])
def explorer(request):
    return examples.explorer(request.param)


def test_update_in_place(explorer):
    fig = explorer.figure
    n_axes, line = len(fig.axes), explorer.view.N
    traj = explorer.update(theta=0.35)
    assert traj is not None and explorer.error is None
    assert explorer.figure is fig and len(fig.axes) == n_axes and explorer.view.N is line
    np.testing.assert_array_equal(line.get_xdata(), traj.t)
    assert explorer.view.play.n_samples == len(traj.t)


def test_bad_values_are_refused(explorer):
    good = explorer.trajectory
    assert explorer.update(s=5.0) is None
    assert "outside this explorer's range" in explorer.error
    assert explorer.trajectory is good
    with pytest.raises(ValueError, match="off the link"):
        explorer.system.simulate(initial={"s": 5.0})
    assert explorer.update(s=0.5) is not None


def test_play_moves_the_disk(explorer):
    view = explorer.view
    view.play.show(view.play.n_frames - 1)
    last = explorer.trajectory
    assert view.disk.center == pytest.approx((last["x_D"][-1], last["y_D"][-1]))


def test_timeline_covers_the_run(explorer):
    segments, colors = timeline(explorer.trajectory)
    assert segments[0][0] == 0.0 and segments[-1][1] == explorer.trajectory.t[-1]
    assert all(label in colors for *_, label in segments)


def test_friction_refuses_mu_k_above_mu_s():
    ex = examples.explorer("disk_link_friction")
    assert ex.update(mu_k=1.0) is None and "μ_k" in ex.error
