"""The exercises in Voilà, in Debian's Chromium: typing an answer and pressing Check gives a
verdict from the grading worker (started by the Voilà kernel, checked from its widget
callback), hints render as math, a prediction is committed and explained."""

from __future__ import annotations

import os
from pathlib import Path

import lab_browser as lb
import pytest

NOTEBOOK = "chapters/greenwood-04/boltzmann-hamel.ipynb"
SHOTS = Path(os.environ.get("COMPANION_SHOTS", "/tmp"))

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]


def test_exercises_are_checked_in_voila(voila, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(voila.link(f"voila/render/{NOTEBOOK}"), timeout=120_000)
        answer = page.locator("textarea").first
        answer.wait_for(timeout=120_000)
        answer.scroll_into_view_if_needed()
        answer.fill("[[0, -1/r], [1/r, 0]]")
        checks = page.get_by_role("button", name="Check")
        checks.first.click()
        page.get_by_text("Right.").first.wait_for(timeout=30_000)
        answer.fill("[[0, 1/r], [-1/r, 0]]")
        checks.first.click()
        page.get_by_text("index order").first.wait_for(timeout=30_000)
        choice = page.get_by_text("No: C² ≠ 0")
        choice.scroll_into_view_if_needed()
        choice.click()
        checks.nth(2).click()
        page.get_by_text("mismatch").first.wait_for(timeout=30_000)
        assert page.locator("mjx-container, .MathJax").count() > 0, "math is not rendered"
        for width, height in ((1024, 768), (1400, 1000), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(300)
            answer.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"exercises-voila-{width}.png"))
            choice.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"exercises-voila-choice-{width}.png"))
        assert errors == []
    finally:
        page.close()


def test_a_prediction_in_voila(voila, browser):
    """The knife edge's prediction: choose, check, read the explanation and what to run."""
    notebook = "chapters/greenwood-04/knife-edge.ipynb"
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(voila.link(f"voila/render/{notebook}"), timeout=120_000)
        option = page.get_by_text("The turning slows down while v grows")
        option.wait_for(timeout=120_000)
        option.scroll_into_view_if_needed()
        option.click()
        box = page.locator(".widget-vbox", has=option).last
        box.get_by_role("button", name="Check").click()
        page.get_by_text("press ▶").first.wait_for(timeout=30_000)
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / "exercises-voila-predict-1024.png"))
        assert page.locator("input[type=radio]:disabled").count() >= 4
        assert errors == []
    finally:
        page.close()
