"""The one adapter over matplotlib's and ipympl's internals (companion/widgets/private_hooks.py):
no other module touches them, the hooks are taken only with the releases they were tested with,
and the plain path (public API only) draws the same pixels."""

from __future__ import annotations

import io
import re
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from PIL import Image

from companion import examples
from companion.widgets import private_hooks

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"

#: Names of matplotlib's and ipympl's internals (Python and front end) the hooks use.
PRIVATE_NAMES = re.compile(
    r"\b(_renderer|_png_is_old|send_binary|_data_url|syncing_data_url|_handle_message|"
    r"get_diff_image|handle_binary|offscreen_canvas|invM|_suptitle|_left_title|_right_title|"
    r"refresh_all|set_image_mode)\b|\bax\.M\b")


def test_only_the_adapter_touches_matplotlib_and_ipympl_internals():
    """In the package and the benchmarks (the adapter's own tests look inside it)."""
    adapter = {PACKAGE / "widgets" / "private_hooks.py", PACKAGE / "widgets" / "private_hooks.js"}
    found = []
    sources = [p for folder in (PACKAGE, ROOT / "benchmarks") for p in folder.rglob("*")
               if p.suffix in (".py", ".js")]
    for path in sorted(sources):
        if path in adapter:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PRIVATE_NAMES.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
    assert any(PRIVATE_NAMES.search(p.read_text(encoding="utf-8")) for p in adapter)


@pytest.fixture
def releases_read_again():
    """:func:`private_hooks.tested_releases` reads the releases anew in the test and after."""
    private_hooks.tested_releases.cache_clear()
    yield
    private_hooks.tested_releases.cache_clear()


def test_the_hooks_are_taken_only_with_tested_releases(monkeypatch, releases_read_again):
    monkeypatch.delenv(private_hooks.PLAIN_ENV, raising=False)
    assert private_hooks.untested_releases() == []  # this environment is a tested one
    assert private_hooks.enabled()
    monkeypatch.setitem(private_hooks.TESTED, "matplotlib", ((0, 1), (0, 2)))
    monkeypatch.setitem(private_hooks.TESTED, "ipympl", ((0, 1), (0, 2)))
    private_hooks.tested_releases.cache_clear()
    outside = private_hooks.untested_releases()
    assert [entry.split()[0] for entry in outside] == ["matplotlib", "ipympl"]
    assert outside[0] == f"matplotlib {matplotlib.__version__}"
    assert not private_hooks.enabled()
    monkeypatch.setenv(private_hooks.PLAIN_ENV, "0")  # the hooks whatever the releases
    assert private_hooks.enabled()


def test_the_plain_path_can_be_asked_for(monkeypatch):
    monkeypatch.setenv(private_hooks.PLAIN_ENV, "1")
    assert not private_hooks.enabled()
    monkeypatch.delenv(private_hooks.PLAIN_ENV)
    assert private_hooks.enabled()


@pytest.mark.parametrize("value", ["yes", "true", "2"])
def test_a_value_the_switch_does_not_know_is_refused(monkeypatch, value):
    monkeypatch.setenv(private_hooks.PLAIN_ENV, value)
    with pytest.raises(ValueError, match="set it to 1 for ipympl's own drawing"):
        private_hooks.enabled()


def _frame_after_an_update(name: str, plain: bool, monkeypatch) -> tuple[np.ndarray, list]:
    """The picture an explorer renders after a slider move and its front end's draw request
    (the frame it sends is that picture, whole or as ipympl's difference), with or without
    the hooks; and the names of the widgets shown with it."""
    if plain:
        monkeypatch.setenv(private_hooks.PLAIN_ENV, "1")
    else:
        monkeypatch.delenv(private_hooks.PLAIN_ENV, raising=False)
    explorer = examples.explorer(name)
    try:
        canvas = explorer.figure.canvas
        sent: list[bytes] = []
        canvas.send = lambda content, buffers=None: sent.extend(bytes(b) for b in buffers or [])
        canvas._handle_message(canvas, {"type": "initialized"}, [])  # a front end is there
        control, slider = next(iter(explorer.controls.items()))
        # a move, then one far enough to change the limits: a background rendered again, with
        # the texts that did not change replayed
        for share in (0.55, 0.95):
            value = float(slider.min + share * (slider.max - slider.min))
            assert explorer.update(**{control: value}), f"{name}: {control} = {value} refused"
            canvas._handle_message(canvas, {"type": "draw"}, [])  # what draw_idle asks for
        if not plain:
            layers = explorer.layers
            assert layers.backgrounds >= 2 and layers.texts.replayed > 0, \
                f"{name}: no background rendered again with texts replayed"
        helpers = [type(c).__name__ for c in explorer.widget.children]
        assert sent and Image.open(io.BytesIO(sent[-1])).format == "PNG", f"{name}: no frame"
        return np.asarray(canvas.get_renderer().buffer_rgba()).copy(), helpers
    finally:
        explorer.close()


@pytest.mark.parametrize("name", ["knife_edge_kane", "disk_link_friction", "rigid_body_so3"])
def test_the_plain_path_sends_the_same_pixels(widget_backend, monkeypatch, name):
    hooked, hooked_helpers = _frame_after_an_update(name, False, monkeypatch)
    plain, plain_helpers = _frame_after_an_update(name, True, monkeypatch)
    assert "DeferredSnapshot" in hooked_helpers and "DeferredSnapshot" not in plain_helpers
    assert plain.shape == hooked.shape
    differ = np.abs(plain.astype(int) - hooked.astype(int)).max(axis=2) > 2
    assert differ.sum() == 0, f"{name}: {differ.sum()} pixels differ"


def test_the_plain_path_leaves_the_canvas_to_ipympl(widget_backend, monkeypatch):
    from ipympl.backend_nbagg import Canvas  # (importing it makes it pyplot's backend)

    monkeypatch.setenv(private_hooks.PLAIN_ENV, "1")
    explorer = examples.explorer("knife_edge_kane")
    try:
        canvas = explorer.figure.canvas
        assert "draw" not in vars(canvas) and "send_binary" not in vars(canvas)
        assert canvas.draw.__func__ is Canvas.draw
        assert "handle_event" in vars(canvas)  # the lock on its messages stays
        canvas._handle_message(canvas, {"type": "initialized"}, [])
        assert not private_hooks.front_end_ready(canvas)  # the plain redraw asks the front end
        assert explorer.layers.whole_only
    finally:
        explorer.close()


def test_the_release_check_asks_for_releases(capsys):
    from tools import release_check

    with pytest.raises(SystemExit):
        release_check.main([])
    assert "name the releases to try" in capsys.readouterr().err
