"""Explorers of the disk on the link: one figure updated in place, play control, refusals.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from companion import examples  # noqa: E402
from companion.examples.disk_link.view import timeline  # noqa: E402


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
    # every sample is animated, except the rolling model's past its first violation
    assert explorer.view.play.n_samples == explorer.view.animated_samples(traj)
    if "rolling valid" not in traj.series or np.all(traj["rolling valid"] > 0):
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
    k = view.animated_samples(last) - 1
    assert view.disk.center == pytest.approx((last["x_D"][k], last["y_D"][k]))


def test_rolling_animation_stops_at_the_first_violation():
    """Issue 14 item 9: the default rolling run is violated before its end; the play control
    stops at the first violating sample instead of animating the invalid model."""
    ex = examples.explorer("disk_link_rolling")
    traj = ex.trajectory
    valid = traj["rolling valid"] > 0
    assert not valid.all()
    first_bad = int(np.flatnonzero(~valid)[0])
    assert ex.view.play.n_samples == first_bad + 1 < len(traj.t)
    ex.view.play.show(ex.view.play.n_frames - 1)
    assert "violated" in ex.view.clock.get_text()
    assert any("first violation" in e for e in traj.events)


def test_timeline_covers_the_run(explorer):
    segments, colors = timeline(explorer.trajectory)
    assert segments[0][0] == 0.0 and segments[-1][1] == explorer.trajectory.t[-1]
    assert all(label in colors for *_, label in segments)


def test_friction_refuses_mu_k_above_mu_s():
    ex = examples.explorer("disk_link_friction")
    assert ex.update(mu_k=1.0) is None and "μ_k" in ex.error


def test_the_scene_follows_the_disk():
    """The scene keeps the disk's centre in the middle and shows REACH link lengths around
    it: the stick–slip preset's disk spans a quarter of the view (framing the whole fall left
    it about 25 px across on a projector)."""
    from companion.examples.disk_link import scene as disk_scene

    explorer = examples.explorer("disk_link_friction")
    trajectory = explorer.apply_preset("stick-slip")
    explorer.close()
    declaration = disk_scene.scene(trajectory)
    point, reach = declaration.follow
    p = trajectory.params
    np.testing.assert_allclose(point, [trajectory["x_D"], trajectory["y_D"]])
    assert reach == pytest.approx(disk_scene.REACH * p["L"])
    assert 2 * p["r"] / (2 * reach) == pytest.approx(0.25)  # the default disk and link
    # the force arrows (m g is ARROW_SCALE link lengths) fit in the view around the disk
    assert disk_scene.ARROW_SCALE * p["L"] < reach
