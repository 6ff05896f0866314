"""One screen per idea (issue 32 §6), headless: in lecture mode a scene that follows an
explorer sits beside its figure (which keeps its aspect and its panels side by side), and
one player per motion — the scene's; the explorer's play control is hidden and its cursor
follows the scene."""

from __future__ import annotations

import ipywidgets as w
import pytest

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
