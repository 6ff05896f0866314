"""Predict mode (issue 32 §2): after choosing a predict preset nothing on screen shows the
outcome — no curve, marker, patch or text in the figure, no event in the readout, not the
scene's caption — until the motion has been played or "reveal the outcome" is clicked."""

from __future__ import annotations

import lab_browser as lb
import numpy as np
import pytest

from companion import examples
from companion.scene.widget import PREDICT_CAPTION
from companion.widgets.explorer import PLAYED_SHARE, PREDICTING_CLASS, Preset


def _drawn(explorer):
    """The artists in the figure's axes that would be drawn (figure titles are static)."""
    return [a for ax in explorer.figure.axes
            for a in (*ax.lines, *ax.collections, *ax.patches, *ax.texts, *ax.images)
            if a.get_visible()]


@pytest.fixture
def racket():
    explorer = examples.explorer("euler_body")
    scene = examples.scene("euler_body", explorer)
    yield explorer, scene
    explorer.close()


def test_nothing_shows_the_outcome_before_play(racket):
    explorer, scene = racket
    assert _drawn(explorer) and scene.caption == scene.description
    explorer.apply_preset("tennis racket")
    assert explorer.predicting and _drawn(explorer) == []
    assert "flip" not in scene.caption and scene.caption == PREDICT_CAPTION and scene.predict
    assert "changes sign" not in explorer.describe() and "⚠" not in explorer.readout.value
    assert explorer.reveal_button.layout.display != "none"
    assert PREDICTING_CLASS in explorer.widget._dom_classes  # lecture mode holds the answer

    t = explorer.trajectory.t
    scene.time = float(t[-1])  # the scrubber dragged to the end: nothing was played
    assert explorer.predicting and _drawn(explorer) == []
    scene.played = float(t[0] + 0.5 * (t[-1] - t[0]))  # the browser played half the motion
    assert explorer.predicting and _drawn(explorer) == []
    scene.played = float(t[0] + PLAYED_SHARE * (t[-1] - t[0]))  # ... and then the end
    assert not explorer.predicting and len(_drawn(explorer)) > 0
    assert scene.caption == scene.description and not scene.predict
    assert explorer.reveal_button.layout.display == "none"
    assert PREDICTING_CLASS not in explorer.widget._dom_classes


def test_reveal_click_and_slider_end_the_prediction(racket):
    explorer, scene = racket
    explorer.apply_preset("tennis racket")
    explorer.reveal_button.click()
    assert not explorer.predicting and _drawn(explorer) and not scene.predict
    explorer.apply_preset("smallest axis")
    assert explorer.predicting
    slider = explorer.controls["omega_x"]
    slider.value = explorer.values["omega_x"] + 1e-13  # a front end echoing the preset's value
    assert explorer.predicting
    explorer.controls["omega_x"].value = 1.5  # the reader moves on
    assert not explorer.predicting and _drawn(explorer)


def test_the_play_control_reveals_at_the_end():
    explorer = examples.explorer("euler_body")
    play = getattr(explorer.view, "play", None)
    if play is None:
        explorer.close()
        pytest.skip("this view has no play control")
    explorer.apply_preset("tennis racket")
    play.go_to_sample(len(explorer.trajectory.t) - 1)  # the frame slider dragged to the end
    assert explorer.predicting
    play.go_to_sample(0)
    play.widget.children[0].playing = True  # the browser's play button runs ...
    play.go_to_sample(len(explorer.trajectory.t) - 1)  # ... to the end
    assert not explorer.predicting and _drawn(explorer)
    explorer.close()


def test_a_preset_without_prediction_hides_nothing():
    explorer = examples.explorer("euler_body")
    explorer.presets["shown"] = Preset("shown", {"omega_x": 1.0}, "a question", predict=False)
    explorer.apply_preset("shown")
    assert not explorer.predicting and _drawn(explorer)
    explorer.close()


def _shown_texts(explorer) -> list[str]:
    """Every text the figure shows once drawn (titles, axis labels, tick labels, offsets,
    legends), in drawing order."""
    import matplotlib.text

    explorer.figure.canvas.draw()
    return [t.get_text() for t in explorer.figure.findobj(matplotlib.text.Text)
            if t.get_visible() and t.get_text().strip()]


def _axis_numbers(explorer) -> list[str]:
    """The tick labels and offsets (×1e-12) the figure's axes show, once drawn."""
    return [t.get_text() for ax in explorer.figure.axes
            for axis in (ax.xaxis, ax.yaxis, getattr(ax, "zaxis", None)) if axis is not None
            for t in (*axis.get_ticklabels(), axis.get_offset_text())
            if t.get_visible() and t.get_text().strip()]


@pytest.mark.parametrize("name", ["knife_edge", "euler_body", "disk_link_friction"])
def test_no_axis_label_or_caption_depends_on_the_hidden_motion(name):
    """In predict mode the figure shows the same texts whatever the hidden motion: no tick
    label (limits fitted to hidden curves told the outcome: the knife edge's "no turning"
    showed a λ axis of ±1e-12) and no caption differ between two presets' motions."""
    explorer = examples.explorer(name)
    scene = examples.scene(name, explorer)
    predict = [n for n, p in explorer.presets.items() if p.predict and p.prompt]
    assert len(predict) >= 2, f"{name}: fewer than two predict presets"
    shown = {}
    for preset in predict:
        explorer.apply_preset(preset)
        assert explorer.predicting and scene.caption == PREDICT_CAPTION
        shown[preset] = _shown_texts(explorer)
        assert _axis_numbers(explorer) == [], f"{name}: {preset}: the axes tell the outcome"
    assert len({tuple(texts) for texts in shown.values()}) == 1, shown
    explorer.reveal()
    _shown_texts(explorer)
    assert _axis_numbers(explorer), "the axes' numbers did not come back"
    explorer.close()


@pytest.mark.usefixtures("widget_backend")
def test_an_explorer_built_on_a_preset_asks_first():
    """``examples.explorer(name, preset=...)`` (euler's second explorer) opens the preset's
    prediction instead of showing its outcome already played, its axes fitted to the
    defaults' motion as an explorer built without the preset has them."""
    explorer = examples.explorer("euler_body", preset="smallest axis")
    assert explorer.predicting and _drawn(explorer) == []
    assert "Predict before you press play" in explorer.prompt.value
    plain = examples.explorer("euler_body")
    assert _limits(explorer) == _limits(plain)
    explorer.reveal()
    assert _limits(explorer) != _limits(plain)
    explorer.close()
    plain.close()


def test_a_fast_motion_plays_at_a_speed_a_room_can_follow():
    """The disk–link friction presets (motions under a second) set the scene to ¼×; reset
    brings 1× back; a speed the scene's menu lacks is refused with the list."""
    from companion.widgets.explorer import PLAYBACK_SPEEDS

    explorer = examples.explorer("disk_link_friction")
    scene = examples.scene("disk_link_friction", explorer)
    assert scene.speed == 1.0
    explorer.apply_preset("stick-slip")
    assert scene.speed == 0.25 and float(explorer.trajectory.t[-1]) < 1.0
    explorer.reset()
    assert scene.speed == 1.0
    with pytest.raises(ValueError, match="not one of the scene's speeds"):
        Preset("too slow", {}, "?", speed=0.1)
    assert 0.25 in PLAYBACK_SPEEDS
    explorer.close()


def _limits(explorer) -> list[tuple[float, ...]]:
    """Every axes' limits as drawn (an equal-aspect axes widens them when drawn), to nine
    digits (the widening, computed anew, differs in the last bits)."""
    explorer.figure.canvas.draw()
    return [tuple(float(f"{v:.9g}") for v in (*ax.get_xlim(), *ax.get_ylim(),
                                                 *getattr(ax, "get_zlim", tuple)()))
            for ax in explorer.figure.axes]


@pytest.mark.parametrize("name", ["knife_edge", "euler_body", "disk_link_friction"])
def test_the_axes_are_not_fitted_to_the_hidden_motion(name):
    """In predict mode the axes keep the limits of the motion shown before, whichever motion
    is hidden (the knife edge's "no turning" fitted its λ axis to ±1e-12, the tight turn to
    0–8 N: tick marks, the equal-aspect path's frame and any tick label a cached picture kept
    told the outcome); revealed, they are those of the preset applied without a prediction.
    (An equal-aspect axes widens its limits to its box, which in predict mode has its tick
    labels' room too: only the other axes are compared with those before and after.)"""
    import dataclasses

    explorer = examples.explorer(name)
    asked = [n for n, p in explorer.presets.items() if p.predict and p.prompt]
    shown = _limits(explorer)
    predicting = []
    for preset in (*asked, *reversed(asked)):
        explorer.apply_preset(preset)
        assert explorer.predicting
        predicting.append(_limits(explorer))
    assert all(limits == predicting[0] for limits in predicting), predicting
    plain = [i for i, ax in enumerate(explorer.figure.axes) if ax.get_aspect() == "auto"]
    assert [predicting[0][i] for i in plain] == [shown[i] for i in plain]
    explorer.reveal()
    revealed = _limits(explorer)
    twin = examples.explorer(name, key="twin")
    twin.presets[asked[0]] = dataclasses.replace(twin.presets[asked[0]], predict=False)
    assert _limits(twin) == shown  # drawn, as the explorer was: the same start
    twin.apply_preset(asked[0])
    assert not twin.predicting
    assert [_limits(twin)[i] for i in plain] == [revealed[i] for i in plain]
    explorer.close()
    twin.close()


def test_a_predict_preset_never_shows_its_motion_first(racket):
    """Nothing of the new motion reaches the page before it is hidden: every figure drawn
    while the preset is applied shows no curve and no tick label, and the scene receives the
    new motion with its caption already the invitation to play (a screen reader read the
    outcome as the caption changed, and the scene's heads-up line named the mode)."""
    explorer, scene = racket
    drawn, captions = [], []
    redraw = explorer.redraw

    def recording_redraw():
        explorer.figure.canvas.draw()
        drawn.append((_drawn(explorer), _axis_numbers(explorer)))
        redraw()

    explorer.redraw = recording_redraw
    scene.observe(lambda _: captions.append(scene.caption), names="spec")
    for preset in ("tennis racket", "smallest axis"):  # the second without playing the first
        explorer.apply_preset(preset)
    assert drawn and all(d == ([], []) for d in drawn), drawn
    assert captions and set(captions) == {PREDICT_CAPTION}, captions


def test_a_slider_move_queued_before_a_preset_does_not_undo_it(racket):
    """A slider move still waiting to be applied when a preset key arrives (a drag's last
    values, an echo) is older than the key: the preset's values stand, and so does its
    prediction."""
    explorer, scene = racket
    explorer._pending["omega_x"] = 1.5  # as _on_slider queues it while the kernel is busy
    explorer.apply_preset("tennis racket")
    explorer.flush()
    preset = explorer.presets["tennis racket"].values
    assert all(explorer.values[k] == v for k, v in preset.items())
    assert explorer.predicting and scene.trajectory is explorer.trajectory


@pytest.mark.usefixtures("widget_backend")
def test_the_frame_sent_in_predict_mode_shows_no_tick_label():
    """The live canvas's layered render draws its cached background (ticks, tick labels)
    anew when predict mode takes the numbers off the axes: a background cached with the tick
    labels of the motion just fitted kept showing them over the hidden curves.  A frame is
    the one a render without a cache gives."""
    from companion.widgets.background import LayeredRender

    explorer = examples.explorer("knife_edge")
    canvas = explorer.figure.canvas

    def pixels(layers: LayeredRender) -> np.ndarray:
        layers.render()
        return np.asarray(canvas.buffer_rgba()).copy()

    pixels(explorer.layers)
    for preset in ("tight turn", "straight", "tight turn"):
        explorer.apply_preset(preset)
        sent = pixels(explorer.layers)
        assert explorer.predicting and np.array_equal(sent, pixels(LayeredRender(canvas)))
    explorer.reveal()
    sent = pixels(explorer.layers)
    assert np.array_equal(sent, pixels(LayeredRender(canvas)))
    explorer.close()


def _published(explorer, scene) -> str:
    """Every text the explorer, its figure and its scene publish: the status line (and its
    screen-reader part), the prompt, the figure's name and texts, the explorer's and the
    scene's static forms (without their pictures and the scene's player), the scene's
    caption."""
    import re

    bundle = explorer._repr_mimebundle_()
    scene_bundle = scene._repr_mimebundle_()[0]
    scene_static = re.sub(r"<style>.*?</script>", "", scene_bundle["text/html"], flags=re.S)
    return "\n".join([explorer.readout.value, explorer.prompt.value, explorer.describe(),
                      explorer.fitter.probe.description, *_shown_texts(explorer),
                      bundle["text/plain"], re.sub(r'src="data:[^"]*"', "", bundle["text/html"]),
                      scene.caption, scene_bundle["text/plain"], repr(scene),
                      re.sub(r'src="data:[^"]*"', "", scene_static)])


def _told(explorer, scene) -> list[str]:
    """What would tell the hidden run: its drifts and residuals as the status line writes
    them, its events, the view's and the scene's descriptions of it."""
    traj = explorer.trajectory
    figures = [traj.drift(k) for k in traj.invariants]
    figures += [traj.max_residual(k) for k in traj.residuals]
    return [*(f"{v:{form}}" for v in figures for form in (".0e", ".1e")),
            "kept to", "held to", *traj.events,
            explorer.view.describe(traj), scene.description]


def _untimed(status: str) -> str:
    import re

    return re.sub(r"simulated in \d+ ms", "simulated in … ms", status)


@pytest.mark.parametrize("name", ["knife_edge", "disk_link_friction"])
def test_no_published_text_tells_the_hidden_motion(name):
    """While predicting, the status line only asks for the prediction (the knife edge's "no
    turning" said "energy kept to 0e+00 · constraints held to 0e+00": a motion with nothing
    to keep), and no other text the page shows or reads aloud tells the hidden run's
    figures or events; revealed, the status line is the one an update without a prediction
    writes."""
    import dataclasses

    from companion.widgets.explorer import PREDICT_STATUS

    explorer = examples.explorer(name)
    scene = examples.scene(name, explorer)
    asked = [n for n, p in explorer.presets.items() if p.asks]
    for preset in asked:
        explorer.apply_preset(preset)
        assert explorer.predicting
        # no timing either: a motion that turns took longer to simulate
        assert explorer.readout.value.endswith(f"</span>{PREDICT_STATUS}</div>")
        published = _published(explorer, scene)
        told = [text for text in _told(explorer, scene) if text and text in published]
        assert told == [], f"{name}: {preset}: {told}"
        explorer.reveal()
        twin = examples.explorer(name, key="twin")
        twin.presets[preset] = dataclasses.replace(twin.presets[preset], predict=False)
        twin.apply_preset(preset)
        assert not twin.predicting
        assert _untimed(explorer.readout.value) == _untimed(twin.readout.value)
        assert explorer.readout_html() != PREDICT_STATUS and "kept to" in explorer.readout.value
        assert explorer.describe() == twin.describe() == explorer.fitter.probe.description
        assert scene.caption == scene.description
        twin.close()
    explorer.close()


def _exported(explorer, scene) -> str:
    """The page :func:`~companion.scene.export.export_html` makes of a notebook whose cells
    showed ``explorer`` and ``scene`` as they are now (saved mid-prediction, or not)."""
    import nbformat

    from companion.scene.export import export_html

    cells = []
    for shown in (explorer._repr_mimebundle_(), scene._repr_mimebundle_()[0]):
        cell = nbformat.v4.new_code_cell("")
        cell.outputs = [nbformat.v4.new_output("display_data", data=shown)]
        cells.append(cell)
    return export_html(nbformat.v4.new_notebook(cells=cells))


def _pages_mid_prediction(name: str) -> tuple[list[str], dict[str, str]]:
    """The explorer's predict presets and, for each, the page exported while its prediction
    is open (one after the other, none revealed)."""
    explorer = examples.explorer(name)
    scene = examples.scene(name, explorer)
    asked = [n for n, p in explorer.presets.items() if p.asks]
    pages = {}
    for preset in asked:
        explorer.apply_preset(preset)
        pages[preset] = _exported(explorer, scene)
    explorer.close()
    return asked, pages


@pytest.mark.parametrize("name", ["knife_edge", "disk_link_friction"])
def test_a_page_exported_mid_prediction_plays_and_shows_no_outcome(name):
    """An exported page saved while a prediction is open says so and keeps its player (the
    static book's reader can play the motion: scene.js keeps it neutral until then), but
    nothing a reader sees before playing tells the outcome: no description outside the
    player's data, no status figure, and every picture (the explorer's figure, the scene's
    start drawn neutral) the same for the two presets, which start from the same picture;
    revealed, each page shows its own motion."""
    import re

    asked, pages = _pages_mid_prediction(name)
    explorer = examples.explorer(name)
    scene = examples.scene(name, explorer)
    pictures = {}
    for preset, page in pages.items():
        seen = re.sub(r"<script.*?</script>", "", page, flags=re.S)
        assert "m.play(" in page and '"predict": true' in page, f"{preset}: no player"
        assert PREDICT_CAPTION in seen and "simulated in" not in seen
        explorer.apply_preset(preset)
        assert scene.description not in seen, f"{preset}: the description before play"
        pictures[preset] = re.findall(r'<img[^>]*src="data:image/png;base64,([^"]+)"', page)
        assert len(pictures[preset]) == 2  # the explorer's figure and the scene's start
    first, second = (pictures[p] for p in asked)
    assert first == second, "a picture saved mid-prediction tells the outcome"
    revealed = {}
    for preset in asked:
        explorer.apply_preset(preset)
        explorer.reveal()
        revealed[preset] = _exported(explorer, scene)
        assert scene.description in revealed[preset] and '"predict": false' in revealed[preset]
    assert revealed[asked[0]] != revealed[asked[1]]
    explorer.close()


def test_an_exported_scene_tells_a_prediction_when_the_kernel_would():
    """Without a kernel the exported scene answers a prediction itself after the share of
    the motion the kernel waits for (scene.js's PLAYED_SHARE is the explorer's)."""
    from companion.scene.widget import _ESM_SOURCE
    from companion.widgets.explorer import PLAYED_SHARE

    assert f"const PLAYED_SHARE = {PLAYED_SHARE};" in _ESM_SOURCE


@pytest.mark.browser
@pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed")
@pytest.mark.usefixtures("widget_backend")
def test_an_exported_prediction_stays_neutral_until_played(browser, tmp_path):
    """The static book's page of a chapter that opens asking (issue 39): its scene has a
    player; before play its canvas is the neutral start — the same pixels for two presets
    that start from the same picture but move differently — with no end time and the
    invitation to predict; played, the motion shows (other pixels, the end time) and, past
    the kernel's share, the caption tells what happened."""
    asked, pages = _pages_mid_prediction("knife_edge")
    shown = {}
    for preset in asked:
        path = tmp_path / f"{asked.index(preset)}.html"
        path.write_text(pages[preset], encoding="utf-8")
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        try:
            page.goto(path.as_uri())
            page.wait_for_function("() => (globalThis.__companionScenes || []).length > 0"
                                   " && globalThis.__companionScenes[0].frames > 0")
            page.wait_for_timeout(300)  # a resize settles
            before = page.evaluate(_CANVAS)
            assert PREDICT_CAPTION in before["text"] and " / " not in before["text"]
            lb.scene_button(page, 0).click()  # the caption tells once PLAYED_SHARE has played
            page.wait_for_function(f"() => !document.querySelector('.{lb.SCENE_CLASS}')"
                                   f".innerText.includes({PREDICT_CAPTION!r})", timeout=60_000)
            lb.scene_button(page, 0).click()  # pause
            after = page.evaluate(_CANVAS)
            shown[preset] = before, after
        finally:
            page.close()
    (first, first_after), (second, _) = (shown[p] for p in asked)
    assert first["pixels"] == second["pixels"], "the canvas before play tells the outcome"
    assert first_after["pixels"] != first["pixels"] and " / " in first_after["text"]


#: The first scene's canvas (a data URL) and every text it shows.
_CANVAS = """() => { const s = globalThis.__companionScenes[0];
  return {pixels: s.el.querySelector('canvas').toDataURL(), text: s.el.innerText}; }"""


def test_the_neutral_start_is_the_same_whatever_follows():
    """The scene layer's one rule, on two motions from the same start: drawn neutral (the
    static form's picture; scene.js draws the same), the start is framed by itself and shows
    no trail, arrow, fitted grid or mode colour, so the pictures are equal; drawn whole they
    differ (the motion's bounds, the arrow, the first mode's colour)."""
    from companion.scene import keyframes as kf
    from companion.scene.filmstrip import filmstrip_png
    from companion.scene.items import Arrow, Body, Declaration, Grid, Modes, Point, box_mesh

    t = np.linspace(0.0, 1.0, 50)

    def declared(speed: float, first_mode: int) -> Declaration:
        p = np.array([speed * t, 0 * t, 0 * t])
        modes = Modes(np.full(t.size, first_mode), ["a", "b"], ["#E69F00", "#009E73"])
        return Declaration([Grid(), Point(p, trail=True), Arrow(p, p + [[0], [1], [0]], "#000000"),
                            Body(box_mesh((0.2, 0.2, 0.2)), p, modes=modes)], view="2d")

    slow, fast = kf.build(declared(1.0, 0), t), kf.build(declared(3.0, 1), t)
    assert slow.spec["bounds"] != fast.spec["bounds"]
    assert slow.spec["start_bounds"] == fast.spec["start_bounds"]
    assert filmstrip_png(slow, neutral=True) == filmstrip_png(fast, neutral=True)
    assert filmstrip_png(slow) != filmstrip_png(fast)
