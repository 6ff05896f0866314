"""The lecture kit in a real browser (issue 32): ``make lecture``'s server (Voilà, the lecture
template, the whole ``chapters/`` folder), driven from the keyboard as from the front of a
room, on the tennis-racket flip.

- the landing page lists every chapter;
- a preset click leaves the keyboard focus on the scene (Space then plays it), the caption
  keeps the outcome to itself until the motion has been played (predict mode), key 2 presses
  the second preset, N steps to the next section, and the keys are written on the page;
- screenshots of one explorer and its scene at 1920×1080 and 1280×720 are written to
  ``$COMPANION_SHOTS`` (default: the test's temporary directory) for a person to look at.

One Voilà server and one page for the module: browser runs are expensive.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.devtools import lab_browser as lb
from companion.scene.widget import PREDICT_CAPTION

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "greenwood-04/euler-rigid-body.ipynb"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]

_PREDICTING = ("() => document.querySelector('.companion-scene-description').textContent "
               f"=== {PREDICT_CAPTION!r}")
_FOCUSED = "() => !!(document.activeElement && document.activeElement.closest('.companion-scene'))"


@pytest.fixture(scope="module")
def lecture():
    """What ``make lecture`` serves: Voilà with the lecture template over chapters/."""
    with lb.jupyter_server(ROOT / "chapters", app="voila", lecture=True) as server:
        yield server


def test_landing_page_lists_every_chapter(lecture, browser):
    page = browser.new_page()
    try:
        page.goto(lecture.link(""), timeout=60_000)
        page.wait_for_selector("text=greenwood-04", timeout=60_000)  # drawn by Voilà's script
        text = page.inner_text("body")
        for folder in ("greenwood-04", "loparo-07", "index.ipynb"):
            assert folder in text, f"{folder} not on the landing page"
        page.click("text=greenwood-04")
        page.wait_for_selector("text=knife-edge.ipynb", timeout=60_000)
        assert "euler-rigid-body.ipynb" in page.inner_text("body")
    finally:
        page.close()


def test_driven_from_the_keyboard(lecture, browser, tmp_path):
    shots = Path(os.environ.get("COMPANION_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    lb.collect_page_errors(page, errors)
    try:
        page.goto(lecture.link(f"voila/render/{CHAPTER}"), timeout=180_000)
        page.wait_for_selector(f".{lb.EXPLORER_CLASS} canvas", timeout=180_000)
        page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
        page.wait_for_timeout(1000)
        assert "1–9 presets" in page.inner_text(".companion-lecture-keys")

        presets = page.locator(f".{lb.EXPLORER_CLASS} .companion-preset")
        presets.first.click()
        page.wait_for_function(_PREDICTING, timeout=30_000)
        assert page.evaluate(_FOCUSED), "the focus stayed on the preset button"
        prompt = page.locator(f".{lb.EXPLORER_CLASS}").first.inner_text()
        assert "Predict" in prompt and "reveal the outcome" in prompt

        page.keyboard.press(" ")  # plays the scene, not the preset again
        page.wait_for_function("() => globalThis.__companionScenes.some(s => s.playing)",
                               timeout=10_000)
        page.keyboard.press(" ")
        page.keyboard.press("End")  # played to the end: the outcome may be told
        page.wait_for_function(f"() => !({_PREDICTING})()", timeout=30_000)

        page.keyboard.press("2")  # the second preset, from the scene
        page.wait_for_function(_PREDICTING, timeout=30_000)
        second = page.locator(f".{lb.EXPLORER_CLASS}").first.inner_text()
        assert second != prompt
        page.wait_for_timeout(2000)  # the sliders' echoes of the preset's values do not reveal
        assert page.evaluate(_PREDICTING), "the outcome was shown before play"
        page.click("text=reveal the outcome")
        page.wait_for_function(f"() => !({_PREDICTING})()", timeout=30_000)

        for width, height in ((1920, 1080), (1280, 720)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(800)
            page.locator(f".{lb.EXPLORER_CLASS}").first.scroll_into_view_if_needed()
            page.evaluate(f"() => document.querySelector('.{lb.EXPLORER_CLASS}')"
                          ".scrollIntoView({block: 'start'})")
            page.wait_for_timeout(3000)  # the kernel re-fits the figure to its new column
            page.screenshot(path=str(shots / f"lecture-{width}x{height}.png"))

        page.evaluate("() => document.activeElement.blur()")
        before = page.evaluate("() => [...document.querySelectorAll('#rendered_cells h2')]"
                               ".map(h => Math.round(h.getBoundingClientRect().top))")
        page.keyboard.press("n")
        page.wait_for_timeout(500)
        after = page.evaluate("() => [...document.querySelectorAll('#rendered_cells h2')]"
                              ".map(h => Math.round(h.getBoundingClientRect().top))")
        following = next(i for i, top in enumerate(before) if top > 8)
        assert abs(after[following]) < 40, (before, after)  # the next heading at the top
        assert errors == [], errors
    finally:
        page.close()
