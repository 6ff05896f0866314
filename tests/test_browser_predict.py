"""Predict mode in a real browser (issue 39 §4): in lecture mode (Voilà, ``make lecture``), a
preset key opens a prediction and, until the motion is played (End, a jump, is no play), the scene
draws only what its start shows — the same canvas pixels and the same texts (scene
controls, clock, caption, status line) for two presets that start from the same picture but
move differently; revealed and at the end each shows its own outcome.

The knife edge's two presets start from the same place (they differ in speeds only), the
disk–link friction presets from the same tilt (the second launched downward): a picture
that differed before play would tell the outcome (the tight turn's blade force λ(0), the
first mode's colour, the contact forces N(0) and F(0), the end time 0.76 s or 0.61 s).
Screenshots of the predict state go to ``$COMPANION_SHOTS`` (default: the test's
temporary directory).
"""

from __future__ import annotations

import os
from pathlib import Path

import lab_browser as lb
import pytest

from companion.scene.widget import PREDICT_CAPTION
from companion.widgets.explorer import PREDICT_STATUS, PREDICTING_CLASS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]

#: The first scene and its explorer as shown: the canvas (a data URL), every text of the
#: scene (controls, clock, caption, the canvas's name), the explorer's status line, whether
#: the explorer is predicting and how many motions the scene has loaded.
_SHOWN = """() => { const s = globalThis.__companionScenes.filter(x => x.el.isConnected)[0];
  const canvas = s.el.querySelector('canvas');
  const explorer = document.querySelector('.EXPLORER');
  return {pixels: canvas.toDataURL(), generation: s.generation,
          texts: [s.el.innerText, canvas.getAttribute('aria-label'),
                  explorer.querySelector('.STATUS').textContent],
          predicting: explorer.classList.contains('PREDICTING')}; }""" \
    .replace("EXPLORER", lb.EXPLORER_CLASS).replace("STATUS", "companion-status") \
    .replace("PREDICTING", PREDICTING_CLASS)


def _settled(page, until, seconds: float = 120) -> dict:
    """What the scene shows once ``until`` holds of it and it stayed the same for 1.5 s (the
    kernel's messages — the prediction, the new motion, the status line — have all come)."""
    import time

    deadline, last, same = time.monotonic() + seconds, None, 0
    while True:
        now = page.evaluate(_SHOWN)
        same = same + 1 if now == last and until(now) else 0
        if same >= 3:
            return now
        assert time.monotonic() < deadline, f"the scene did not settle: {now['texts']}"
        last = now
        page.wait_for_timeout(500)


def _differing_pixels(page, a: str, b: str) -> int:
    """How many pixels differ between two canvas data URLs of the same size."""
    return page.evaluate("""async ([a, b]) => {
      const load = async (url) => { const img = new Image(); img.src = url; await img.decode();
        const c = new OffscreenCanvas(img.width, img.height), ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0); return ctx.getImageData(0, 0, img.width, img.height).data; };
      const [p, q] = [await load(a), await load(b)];
      let n = 0; for (let k = 0; k < p.length; k += 4)
        if (p[k] !== q[k] || p[k + 1] !== q[k + 1] || p[k + 2] !== q[k + 2]) n++;
      return n; }""", [a, b])


@pytest.mark.parametrize("notebook", ["greenwood-04/knife-edge.ipynb",
                                      "loparo-07/disk-link-friction.ipynb"])
def test_two_presets_look_the_same_until_played(lecture_voila, browser, notebook, tmp_path):
    shots = Path(os.environ.get("COMPANION_SHOTS", tmp_path))
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    lb.collect_page_errors(page, errors)
    try:
        page.goto(lecture_voila.link(f"voila/render/chapters/{notebook}"), timeout=180_000)
        page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=180_000)
        page.evaluate(f"() => document.querySelector('.{lb.EXPLORER_CLASS}')"
                      ".scrollIntoView({block: 'start'})")
        # the knife edge's explorer opens asking (on its tight turn), the friction's does not
        shown = _settled(page, lambda s: True)
        asked, ended = [], []
        for key in ("1", "2"):
            before = shown["generation"]
            page.keyboard.press(key)  # a predict preset: its scene takes the focus
            shown = _settled(page, lambda s, g=before: s["predicting"] and s["generation"] > g)
            asked.append(shown)
            page.screenshot(path=str(shots / f"predict-{Path(notebook).stem}-{key}.png"))
            scene, caption, status = shown["texts"]
            assert caption == PREDICT_CAPTION and status == PREDICT_STATUS, shown["texts"]
            assert " / " not in scene and "t = 0.00 s" in scene, f"an end time shows: {scene}"
            page.wait_for_function("() => document.activeElement.classList.contains("
                                   f"'{lb.SCENE_CLASS}')", timeout=30_000)
            page.keyboard.press("End")  # a jump to the end is no play: still asking, neutral
            still = _settled(page, lambda s: s["predicting"])
            assert still["texts"] == shown["texts"], "End told the outcome"
            assert _differing_pixels(page, still["pixels"], shown["pixels"]) == 0, \
                "End drew the outcome"
            page.get_by_role("button", name="reveal the outcome").first.click()
            _settled(page, lambda s: not s["predicting"])
            page.locator(f".{lb.SCENE_CLASS}").first.focus()
            page.keyboard.press("End")  # revealed, the scene shows the motion's end
            shown = _settled(page, lambda s: not s["predicting"])
            ended.append(shown)
            assert shown["texts"][1] != PREDICT_CAPTION and "simulated in" in shown["texts"][2]
        first, second = asked
        assert first["texts"] == second["texts"], (first["texts"], second["texts"])
        assert _differing_pixels(page, first["pixels"], second["pixels"]) == 0, \
            "the predict pictures of the two presets differ"
        # played to the end, each shows its own outcome, and not the picture asked on
        assert ended[0]["texts"] != ended[1]["texts"]
        assert _differing_pixels(page, ended[0]["pixels"], ended[1]["pixels"]) > 1000
        assert all(_differing_pixels(page, a["pixels"], e["pixels"]) > 1000
                   for a, e in zip(asked, ended, strict=True))
        assert errors == [], errors
    finally:
        page.close(run_before_unload=True)
