"""Frames drawn over a cached background (companion.widgets.background, issue 17 item 7) are the
frames a whole render gives: pixel for pixel, on every explorer, after small and large slider
moves, a resize and a time-cursor move; the cache serves small moves; a refit of the limits
keeps them over small changes; and the hand-written PNG of each frame decodes to its pixels."""

from __future__ import annotations

import io
import json

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from companion import examples
from companion.widgets import private_hooks
from companion.widgets.background import LayeredRender, background_key
from companion.widgets.explorer import drift_limits, rescale
from companion.widgets.frames import png_of

EXPLORERS = [r.name for r in examples.worked_examples() if r.explorer is not None]


def _pixels(canvas) -> np.ndarray:
    return np.asarray(canvas.get_renderer().buffer_rgba()).copy()


def _whole_render(canvas) -> np.ndarray:
    FigureCanvasAgg.draw(canvas)
    return _pixels(canvas)


def _assert_same_picture(layered: np.ndarray, whole: np.ndarray, what: str) -> None:
    assert layered.shape == whole.shape, what
    differ = np.abs(layered.astype(int) - whole.astype(int)).max(axis=2) > 2
    assert differ.mean() == 0.0, (f"{what}: {differ.sum()} pixels differ from a whole render "
                                  f"(rows {np.nonzero(differ)[0].min()}…)")


@pytest.mark.parametrize("name", EXPLORERS)
def test_a_layered_frame_is_the_whole_render(widget_backend, name):
    explorer = examples.explorer(name)
    try:
        canvas = explorer.figure.canvas
        private_hooks.pretend_front_end_ready(canvas)  # as once a browser shows it
        control = next(iter(explorer.controls))
        slider = explorer.controls[control]
        small = [slider.value + k * slider.step for k in (1, 2)]
        large = [slider.min + 0.8 * (slider.max - slider.min)]
        for value in [*small, *large]:
            if explorer.update(**{control: float(value)}) is None:
                continue  # refused (a dependent limit): nothing new to draw
            layered = _pixels(canvas)
            _assert_same_picture(layered, _whole_render(canvas), f"{name}, {control}={value:g}")
        # a time-cursor move (the play control), then a resize
        view = explorer.view
        if hasattr(view, "show_sample"):
            view.show_sample(len(explorer.trajectory.t) // 2, draw=False)
            explorer.redraw()
            _assert_same_picture(_pixels(canvas), _whole_render(canvas), f"{name}, cursor")
        explorer.fitter.fit(700)
        _assert_same_picture(_pixels(canvas), _whole_render(canvas), f"{name}, 700 px wide")
    finally:
        explorer.close()


def test_small_moves_reuse_the_background(widget_backend):
    explorer = examples.explorer("disk_link_friction")
    try:
        private_hooks.pretend_front_end_ready(explorer.figure.canvas)
        slider = explorer.controls["mu_s"]
        explorer.update(mu_s=slider.value + slider.step)
        before = explorer.layers.backgrounds
        for k in range(2, 6):
            explorer.update(mu_s=slider.value + k * slider.step)
        assert explorer.layers.frames >= 5
        assert explorer.layers.backgrounds - before <= 1, "small moves rendered the text anew"
    finally:
        explorer.close()


def test_a_frame_leaves_the_figure_drawn(widget_backend):
    """After every widget message ipykernel runs pyplot's draw_all, which asks the front end to
    draw each *stale* figure: a render that left its figure stale (an axes' apply_aspect marks
    it) had the front end ask again after each frame, and the two kept each other drawing for
    good (the general dynamical equation's explorer, 14 frames a second, the kernel never
    idle)."""
    explorer = examples.explorer("knife_edge")
    try:
        canvas = explorer.figure.canvas
        private_hooks.pretend_front_end_ready(canvas)
        sent = []
        canvas.send = lambda content, buffers=None: sent.append((content, buffers))
        slider = explorer.controls["m"]
        for k in (1, 2):  # a background render, then a cached frame
            explorer.update(m=slider.value + k * slider.step)
            assert not explorer.figure.stale
        plt.draw_all()
        requests = [content for content, buffers in sent
                    if not buffers and json.loads(content["data"]).get("type") == "draw"]
        assert len([b for _, b in sent if b]) == 2 and requests == []
    finally:
        explorer.close()


def test_a_save_after_layered_frames_shows_everything(widget_backend):
    explorer = examples.explorer("knife_edge")
    try:
        canvas = explorer.figure.canvas
        private_hooks.pretend_front_end_ready(canvas)
        explorer.update(m=explorer.controls["m"].value + explorer.controls["m"].step)
        shown = _pixels(canvas)
        png = io.BytesIO()
        explorer.figure.savefig(png, format="png", dpi=explorer.figure.dpi)
        saved = np.asarray(Image.open(png).convert("RGBA"))
        _assert_same_picture(saved, shown, "savefig after a layered frame")
    finally:
        explorer.close()


def test_the_key_ignores_rounding_noise_and_sees_new_limits():
    fig = plt.figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1])
    ax.set_xlim(0, 1)
    key = background_key(fig)
    assert background_key(fig) == key  # computing it changes nothing
    ax.set_xlim(0, 1 + 1e-15)
    assert background_key(fig) == key
    ax.set_title("another title")
    assert background_key(fig) != key
    ax.set_title("")
    ax.set_xlim(0, 2)
    assert background_key(fig) != key
    plt.close(fig)


def test_3d_axes_keep_their_background_until_the_view_turns():
    fig = plt.figure(figsize=(4, 3))
    ax = fig.add_subplot(projection="3d")
    (line,) = ax.plot([0, 1], [0, 1], [0, 1])
    ax.scatter([0.5], [0.5], [0.2], s=40)
    canvas = FigureCanvasAgg(fig)
    layers = LayeredRender(canvas)
    layers.render()
    line.set_data_3d([0, 1], [1, 0], [0, 0.5])  # new data, same view
    layers.render()
    assert layers.backgrounds == 1 and layers.frames == 2
    _assert_same_picture(_pixels(canvas), _whole_render(canvas), "3D, new data")
    ax.view_init(elev=40, azim=10)
    layers.render()
    assert layers.backgrounds == 2
    _assert_same_picture(_pixels(canvas), _whole_render(canvas), "3D, turned")
    plt.close(fig)


def test_rescale_keeps_limits_over_small_changes_and_refits_otherwise():
    fig = plt.figure()
    ax = fig.add_subplot()
    (line,) = ax.plot([0, 10], [0, 1.0])
    rescale(ax)
    limits = ax.get_ylim()
    line.set_ydata([0, 0.9])  # still fills most of the axis
    rescale(ax)
    assert ax.get_ylim() == limits
    line.set_ydata([0, 3.0])  # out of the axis: refitted, to round numbers
    rescale(ax)
    low, high = ax.get_ylim()
    assert low <= 0 and high >= 3.0 and high == pytest.approx(round(high, 6))
    assert high == pytest.approx(ax.get_yticks()[-1])  # rounded out to a tick
    line.set_ydata([0, 0.01])  # a sliver of the axis: refitted
    rescale(ax)
    assert ax.get_ylim()[1] < 0.1
    # an artist added later (a cursor) does not refit the limits at the next draw
    assert not ax.get_autoscaley_on()
    ax.axhline(0.5)
    fig.canvas.draw()
    assert ax.get_ylim()[1] < 0.1
    square = fig.add_subplot(aspect="equal")
    square.plot([0, 1], [0, 2])
    rescale(square)
    assert square.get_autoscaley_on()  # an equal-aspect axes sets its limits itself
    plt.close(fig)


def test_rescale_starts_a_time_axis_at_zero_and_rounds_out_to_ticks():
    fig = plt.figure()
    ax = fig.add_subplot()
    ax.plot([0.0, 1.6], [-8.07, 8.77])
    rescale(ax)  # the first fit: round numbers, no margin rounded out to a negative time
    assert ax.get_xlim()[0] == 0.0 and ax.get_xlim()[1] in ax.get_xticks()
    assert ax.get_ylim()[0] in ax.get_yticks() and ax.get_ylim()[1] in ax.get_yticks()
    plt.close(fig)


def test_rescale_keeps_noise_under_its_floor_on_a_fixed_axis():
    fig = plt.figure()
    ax = fig.add_subplot()
    (line,) = ax.plot([0, 1], [-2e-15, 4e-16])  # slip while rolling: zero up to rounding
    rescale(ax, y_floor=3e-3)
    assert ax.get_ylim() == (-3e-3, 3e-3)
    line.set_ydata([1e-15, -3e-15])  # other noise, the same axis
    rescale(ax, y_floor=3e-3)
    assert ax.get_ylim() == (-3e-3, 3e-3)
    line.set_ydata([0, 0.5])  # a real slip: fitted as usual
    rescale(ax, y_floor=3e-3)
    assert 0.5 <= ax.get_ylim()[1] < 1.1
    plt.close(fig)


def test_drift_limits_are_symmetric_decades_that_keep_still_within_a_hundredfold():
    fig = plt.figure()
    ax = fig.add_subplot()
    (line,) = ax.plot([0, 1], [-3e-11, 8e-11])
    drift_limits(ax)
    assert ax.get_ylim() == pytest.approx((-1e-10, 1e-10), rel=1e-12)
    line.set_ydata([2e-12, -4e-12])  # noise moved, within a hundredfold: kept
    drift_limits(ax)
    assert ax.get_ylim() == pytest.approx((-1e-10, 1e-10), rel=1e-12)
    line.set_ydata([0, 3e-9])  # beyond the axis: the next decade
    drift_limits(ax)
    assert ax.get_ylim() == pytest.approx((-1e-8, 1e-8), rel=1e-12)
    line.set_ydata([0, 0])  # kept exactly: the decade of rounding, not 1e-300
    drift_limits(ax)
    drift_limits(ax)
    assert ax.get_ylim()[1] == pytest.approx(1e-16, rel=1e-12)
    plt.close(fig)


def test_png_of_decodes_to_its_pixels():
    rng = np.random.default_rng(1)
    rgba = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)
    decoded = np.asarray(Image.open(io.BytesIO(png_of(rgba))).convert("RGBA"))
    assert np.array_equal(decoded, rgba)
    with pytest.raises(ValueError, match="rows × columns × 4"):
        png_of(rgba[..., :3])


def test_rescale_leaves_room_toward_where_the_data_grow():
    """A drag that makes a quantity grow move after move refits the axis every few moves, not
    at every one (each refit renders the figure whole); the limits always hold the data and
    a side that did not grow (a time axis from 0) stays."""
    fig = plt.figure()
    ax = fig.add_subplot()
    (line,) = ax.plot([0, 1], [0, -1.0])
    rescale(ax)
    refits, limits = 0, ax.get_ylim()
    for k in range(1, 16):
        low = -1.0 * 1.06**k
        line.set_ydata([0, low])
        rescale(ax)
        assert ax.get_ylim()[0] <= low and ax.get_ylim()[1] == 0.0
        refits += ax.get_ylim() != limits
        limits = ax.get_ylim()
    assert refits <= 3, f"refitted on {refits} of 15 moves"
    # a time axis whose motion gets longer from a start above its lower limit keeps t = 0
    ax.set_xlim(0.1, 0.5)
    line.set_xdata([0.0, 0.8])
    rescale(ax)
    assert ax.get_xlim()[0] == 0.0 and ax.get_xlim()[1] >= 0.8
    # a first sample time of −7e-18 s (computed for t = 0) is rounding: kept, never a refit
    limits = ax.get_xlim()
    line.set_xdata([-6.9e-18, 0.75])
    rescale(ax)
    assert ax.get_xlim() == limits
    line.set_xdata([-6.9e-18, 1.4])  # outgrown: room to the right only
    rescale(ax)
    assert ax.get_xlim()[0] == 0.0 and ax.get_xlim()[1] >= 1.4
    plt.close(fig)


def test_a_background_render_replays_the_texts_that_did_not_change():
    """After one panel's limits change, the other panels' texts come back from the glyph
    images recorded at the last background render, pixel for pixel what matplotlib draws."""
    fig = plt.figure(figsize=(6, 4), dpi=100)
    axes = fig.subplots(2, 1)
    for k, ax in enumerate(axes):
        ax.plot([0, 1], [0, k + 1])
        ax.set(title=f"panel {k}", xlabel="t [s]", ylabel="θ [rad]")
    axes[0].text(0.2, 0.5, "a label in the data")
    canvas = fig.canvas
    layers = LayeredRender(canvas)
    layers.render()
    assert layers.texts.replayed == 0 and layers.texts.drawn > 10
    axes[1].set_ylim(-5, 5)  # new tick labels on one panel only
    layers.render()
    assert layers.backgrounds == 2
    assert layers.texts.replayed > 8 and 0 < layers.texts.drawn < layers.texts.replayed
    layered = _pixels(canvas)
    assert np.array_equal(layered, _whole_render(canvas)), "a replayed text differs"
    plt.close(fig)


def test_a_data_layer_text_that_reads_the_same_is_replayed():
    """A clock whose string did not change comes back from its glyph images over the new
    data, pixel for pixel what matplotlib draws; a changed string is drawn anew."""
    fig = plt.figure(figsize=(6, 4), dpi=100)
    ax = fig.subplots()
    (line,) = ax.plot([0, 1], [0, 1])
    clock = ax.text(0.05, 0.9, "t = 0.000 s · rolling", transform=ax.transAxes)
    canvas = fig.canvas
    layers = LayeredRender(canvas)
    layers.render()
    assert (layers.data_texts.drawn, layers.data_texts.replayed) == (1, 0)
    line.set_ydata([0.9, 0.1])  # crosses the clock
    layers.render()
    assert (layers.data_texts.drawn, layers.data_texts.replayed) == (0, 1)
    assert np.array_equal(_pixels(canvas), _whole_render(canvas)), "a replayed text differs"
    clock.set_text("t = 0.500 s · slipping")
    layers.render()
    assert (layers.data_texts.drawn, layers.data_texts.replayed) == (1, 0)
    assert np.array_equal(_pixels(canvas), _whole_render(canvas))
    plt.close(fig)
