"""One screen per idea (issue 32 §6), headless: in lecture mode a scene that follows an
explorer sits beside its figure (which keeps its aspect and its panels side by side), and
one player per motion — the scene's; the explorer's play control is hidden and its cursor
follows the scene."""

from __future__ import annotations

import ipywidgets as w
import numpy as np
import pytest
from figure_checks import clipped_texts, overlapping_panels

from companion import examples
from companion.widgets import use_lecture_style


@pytest.fixture
def lecture():
    use_lecture_style(True)
    try:
        yield
    finally:
        use_lecture_style(False)


def test_scene_beside_its_figure_in_lecture_mode(lecture):
    explorer = examples.explorer("euler_body")
    scene = examples.scene("euler_body", explorer)
    row = explorer.widget.children[-1]
    assert isinstance(row, w.HBox)
    figure_column, scene_column = row.children
    assert scene in scene_column.children and explorer.fitter.probe in figure_column.children
    assert scene._repr_mimebundle_()[0] == {"text/plain": ""}  # not shown twice
    # too narrow for both, the row wraps: the figure column never below its legible width
    # (half its nominal one), the scene's never below SCENE_MIN_PX
    assert row.layout.flex_flow == "row wrap"
    assert figure_column.layout.min_width == f"{0.5 * 1350:.0f}px"  # 10 in × 1.35 × 100 px
    assert scene_column.layout.min_width == "360px"
    explorer.fitter.fit(800)
    width, height = explorer.figure.get_size_inches()
    nominal_w, nominal_h = explorer.fitter.nominal_inches
    assert not explorer.fitter.stacked and height == pytest.approx(width * nominal_h / nominal_w)
    explorer.close()


def test_one_player_per_motion():
    explorer = examples.explorer("euler_body")
    scene = examples.scene("euler_body", explorer)
    play = explorer.view.play
    assert play.widget.layout.display == "none"
    t = explorer.trajectory.t
    scene.time = float(t[len(t) // 2])  # the scene plays: the explorer's cursor follows
    assert abs(explorer.view.time_index - len(t) // 2) <= len(t) / play.n_frames + 1
    explorer.close()


def test_the_knife_edge_fills_its_scene():
    """The scene follows the dumbbell: the rod spans a fixed share of the view however long
    the path (before: the whole path in view, the rod about 20 px of 1100)."""
    from companion.scene.keyframes import build

    explorer = examples.explorer("knife_edge")
    scene = examples.scene("knife_edge", explorer)
    spec = scene.spec
    reach = spec["follow"]["reach"]
    rod = explorer.trajectory.params["l"]
    assert rod / (2 * reach) >= 0.35  # of the view's width
    lo, hi = spec["bounds"]
    path_span = max(hi[0] - lo[0], hi[1] - lo[1])
    assert 2 * reach < path_span  # the default motion is longer than the view: followed
    declaration = scene.declare(explorer.trajectory)
    with pytest.raises(ValueError, match="reach"):
        type(declaration)(declaration.items, follow=(declaration.follow[0], 0.0))
    assert build(declaration, explorer.trajectory.t).spec["follow"]["point"] in spec["channels"]
    explorer.close()


def _pixels_per_unit(spec, width=1100, height=720, margin=24):
    """What scene.js's Camera.fit gives: whole-motion bounds, and the followed frame."""
    lo, hi = np.array(spec["bounds"])
    az, el = np.radians(spec["camera"])
    right = np.array([-np.sin(az), np.cos(az), 0.0])
    toward = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])
    up = np.cross(toward, right)
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                        for z in (lo[2], hi[2])])
    sx, sy = corners @ right, corners @ up
    whole = min((width - 2 * margin) / np.ptp(sx), (height - 2 * margin) / np.ptp(sy))
    framed = min(width, height) - 2 * margin
    return whole, framed / (2 * spec["follow"]["reach"])


def test_the_tumbling_box_fills_its_scene():
    """Framed on the box and its arrows instead of the cube its attitudes sweep: more than
    twice as large (151 → 354 px per box length in 1100×720), ω and H still inside."""
    explorer = examples.explorer("euler_body")
    spec = examples.scene("euler_body", explorer).spec
    whole, framed = _pixels_per_unit(spec)
    assert framed > 2 * whole
    assert spec["follow"]["reach"] > 0.85  # the arrows' length (companion.scene.rigid)
    explorer.close()


def test_a_figure_beside_its_scene_fits_a_small_screen(lecture):
    """A figure beside its scene fits the height left below the sliders (the probe's), at its
    aspect, and shrinks its text with it, so its titles stay inside their panels; at
    1920×1080's share of its nominal size the text keeps its size.  It never shrinks below
    half its nominal size for the height's sake (1280×720, 1024×768): there the page scrolls,
    where a smaller figure's legends covered the next panels."""
    explorer = examples.explorer("euler_body")
    examples.scene("euler_body", explorer)
    fitter = explorer.fitter
    ppi = fitter.pixels_per_inch
    nominal_w, nominal_h = fitter.nominal_inches
    title = explorer.figure.axes[0].title
    size = title.get_fontsize()
    fitter.probe.height, fitter.probe.width = 760, 1040  # 1920×1080
    width, height = explorer.figure.get_size_inches() * ppi
    assert width == pytest.approx(1040) and title.get_fontsize() == size
    fitter.probe.height, fitter.probe.width = 560, 800  # a 1400×900 screen
    width, height = explorer.figure.get_size_inches() * ppi
    assert height == pytest.approx(560) and width == pytest.approx(560 * nominal_w / nominal_h)
    fitter.probe.height, fitter.probe.width = 410, 700  # 1280×720: half the nominal size
    width, height = explorer.figure.get_size_inches() * ppi
    assert width == pytest.approx(0.5 * nominal_w * ppi) and height > 410
    assert title.get_fontsize() < size
    renderer = explorer.figure.canvas.get_renderer()
    titles = [ax.title.get_window_extent(renderer) for ax in explorer.figure.axes
              if ax.get_title()]
    for box in titles:  # inside the figure ...
        assert explorer.figure.bbox.x0 - 1 <= box.x0 and box.x1 <= explorer.figure.bbox.x1 + 1
    for i, a in enumerate(titles):  # ... and none runs into another
        assert not any(a.overlaps(b) for b in titles[i + 1:])
    fitter.probe.height = 0  # not measured: the width alone
    fitter.fit(1040)
    assert title.get_fontsize() == size
    explorer.close()


@pytest.mark.parametrize("probe", [(410, 994), (410, 700), (780, 1058)],
                         ids=["1024x768", "1280x720", "1920x1080"])
def test_the_disk_link_beside_its_scene_stays_legible(lecture, probe):
    """The five panels beside their scene: at least half their nominal size, every legend
    beside its own panel (none over a curve or the next panel), nothing outside the figure."""
    explorer = examples.explorer("disk_link_rolling")
    examples.scene("disk_link_rolling", explorer)
    fitter = explorer.fitter
    fitter.probe.height, fitter.probe.width = probe
    width = explorer.figure.get_size_inches()[0] * fitter.pixels_per_inch
    assert width >= min(probe[1], fitter.narrowest_beside_px()) - 0.5
    explorer.figure.canvas.draw()
    assert clipped_texts(explorer.figure) == [] and overlapping_panels(explorer.figure) == []
    renderer = explorer.figure.canvas.get_renderer()
    for ax in explorer.view.time_axes[:2]:  # s, θ and the contact forces
        legend = ax.get_legend().get_window_extent(renderer)
        assert legend.x0 >= ax.get_window_extent(renderer).x1, "a legend over its curves"
    explorer.close()
