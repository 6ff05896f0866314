"""Accessibility in a real browser (issue 38, WCAG 2.2 A/AA): one chapter with an explorer, a
scene, steppers and exercises (the knife edge), opened ONCE in JupyterLab and once in Voilà's
lecture mode, in Debian's headless Chromium.

In JupyterLab: Tab walks an explorer, a scene, a stepper and an exercise without a trap, past
every live figure (ipympl's canvas kept Tab: 2.1.2); each figure is an image named by a
description that changes with the motion (1.1.1); the status line and the scene's caption are
polite live regions (4.1.3); slider handles have their label as name and a value rounded to
their step (4.1.2); exercise choices are targets of at least 24 px (2.5.8); and axe-core finds
no violation in the companion's markup (JupyterLab's own are listed apart, with their upstream
issues: :data:`accessibility.UPSTREAM`).  In lecture mode: axe-core again,
and the figures' names.  Every chapter gets axe-core in tests/test_browser_chapters.py and
tests/test_browser_lecture.py, on the pages those open anyway.
"""

from __future__ import annotations

import re
from pathlib import Path

import accessibility as a11y
import lab_browser as lb
import pytest

from companion.widgets.explorer import PREDICTING_CLASS

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "chapters/greenwood-04/knife-edge.ipynb"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
    pytest.mark.skipif(not a11y.axe_available(),
                       reason=f"axe-core is not installed at {a11y.AXE_JS}: run `make axe`"),
]

EXPLORER = f".{lb.EXPLORER_CLASS}"
FIGURE = f"{EXPLORER} .jupyter-matplotlib-canvas-div"


@pytest.fixture(scope="module")
def page(lab, browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    run = lb.open_notebook(page, lab, NOTEBOOK)
    lb.run_all_cells(page, run, timeout=300)
    page.wait_for_selector(f"{FIGURE}[role=img]", timeout=120_000)
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    # the first explorer opens asking for a prediction, its outcome hidden from every reader
    # alike (test_browser_predict.py): reveal it, as a reader who has answered does
    page.get_by_role("button", name="reveal the outcome").first.click()
    page.wait_for_function(f"() => !document.querySelector('{EXPLORER}').classList"
                           f".contains('{PREDICTING_CLASS}') && document.querySelector("
                           f"'{EXPLORER} .companion-status').textContent.includes('simulated')",
                           timeout=120_000)
    yield page
    context.close()


def _attribute(page, selector: str, name: str) -> str | None:
    return page.locator(selector).first.get_attribute(name)


def test_tab_and_shift_tab_leave_a_live_figure(page):
    figure = page.locator(FIGURE).first
    figure.scroll_into_view_if_needed()
    for key, after in (("Tab", True), ("Shift+Tab", False)):
        figure.focus()
        page.keyboard.press(key)
        where = page.evaluate("""([selector, after]) => {
          const fig = document.querySelector(selector), now = document.activeElement;
          if (!now || now === fig || fig.contains(now)) return 'still on the figure';
          const order = fig.compareDocumentPosition(now);
          return (after ? order & Node.DOCUMENT_POSITION_FOLLOWING
                        : order & Node.DOCUMENT_POSITION_PRECEDING) ? 'ok' : 'wrong way'; }""",
                              [FIGURE, after])
        assert where == "ok", f"{key} on the explorer's figure: {where}"


@pytest.mark.parametrize("container", [EXPLORER, ".companion-scene", ".companion-stepper",
                                       ".companion-exercise"])
def test_tab_walks_every_control_without_a_trap(page, container):
    page.locator(container).first.scroll_into_view_if_needed()
    visited = a11y.tab_through(page, container)
    assert len(visited) >= 2, f"{container}: Tab found {visited}"
    if container == EXPLORER:
        assert any("jupyter-matplotlib-canvas-div" in v for v in visited), \
            f"the explorer's figure is not on Tab's way: {visited}"


def test_figure_is_an_image_named_by_what_the_motion_did(page):
    before = _attribute(page, FIGURE, "aria-label")
    assert _attribute(page, FIGURE, "role") == "img"
    assert before and "knife" in before.lower() and "N" in before, before
    lb.focus_slider(page, index=0)
    page.keyboard.press("End")  # the first slider to its largest value
    page.wait_for_function("([s, old]) => document.querySelector(s).getAttribute('aria-label')"
                           " !== old", arg=[FIGURE, before], timeout=30_000)


def test_status_line_and_scene_caption_are_polite_live_regions(page):
    status = f"{EXPLORER} .companion-status"
    assert _attribute(page, status, "role") == "status"
    assert _attribute(page, status, "aria-live") == "polite"
    # what the motion did is read out; the timing is not
    outcome = page.locator(f"{status} .companion-sr-only").first.text_content()
    assert outcome and "force" in outcome, outcome
    assert page.locator(f"{status} [aria-hidden=true]").first.text_content().startswith(
        "simulated in")
    assert _attribute(page, ".companion-scene-description", "aria-live") == "polite"


def test_slider_handles_are_named_and_read_rounded_values(page):
    handles = page.evaluate(f"""() => [...document.querySelectorAll('{EXPLORER} .noUi-handle')]
      .map(h => [h.getAttribute('aria-label'), h.getAttribute('aria-valuetext'),
                 h.getAttribute('aria-valuenow')])""")
    assert handles
    for name, text, now in handles:
        assert name, f"a slider handle without a name (value {now})"
        assert re.fullmatch(r"-?\d+(\.\d{1,4})?( \S+)?", text or ""), (name, text)
        assert abs(float(text.split()[0]) - float(now)) < 1e-3 * max(1, abs(float(now))), \
            (name, text, now)
        if "[" in name:  # the unit in the label is read with the value
            assert text.endswith(" " + name[name.rindex("[") + 1:-1]), (name, text)


def test_exercise_choices_are_targets_of_24_px(page):
    page.locator(".companion-choices").first.scroll_into_view_if_needed()
    heights = page.evaluate("""() => [...document.querySelectorAll(
        '.companion-choices .widget-radio-box label')]
        .map(l => l.getBoundingClientRect().height)""")
    assert heights and min(heights) >= 24, heights


def test_axe_finds_nothing_in_the_companion_s_markup_in_jupyterlab(page):
    ours, host = a11y.run_axe(page)
    assert ours == [], "\n".join(str(v) for v in ours)
    unknown = [v for v in host if v.rule not in a11y.UPSTREAM]
    assert unknown == [], ("JupyterLab violations without an upstream record (add them to "
                           "accessibility.UPSTREAM):\n" + "\n".join(map(str, unknown)))


def test_lecture_mode_names_its_figures_and_passes_axe(lecture_voila, browser):
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(lecture_voila.link(f"voila/render/{NOTEBOOK}"), timeout=180_000)
        page.wait_for_selector(f"{FIGURE}[role=img][aria-label]", timeout=180_000)
        page.wait_for_timeout(1500)  # the last outputs and the scroll containers settle
        assert "knife" in (_attribute(page, FIGURE, "aria-label") or "").lower()
        ours, host = a11y.run_axe(page)
        assert ours == [], "\n".join(str(v) for v in ours)
        assert [v for v in host if v.rule not in a11y.UPSTREAM] == [], host
    finally:
        page.close()
