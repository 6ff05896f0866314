"""Every chapter notebook in JupyterLab, in Debian's headless Chromium, opened and run ONCE
per test session; every browser check of a chapter then looks at that one live page.

The notebooks are the ones the chapter index lists (:func:`lab_browser.chapter_notebooks`), so
a new notebook is checked as soon as it is listed.  Per notebook, in this order (the conftest
runs the module notebook by notebook, and :class:`Chapters` keeps the notebook's page open
between its checks):

1. it runs: no error output, no JavaScript error, its main explorer shows a figure;
2. one key press on a slider of the main explorer changes the figure;
3. its scene is not blank, frames advance while it plays, the keyboard scrubs it, and a slider
   of the explorer replaces its motion;
4. it fits the window (issue 17 item 1): at 1400×1000 with the file browser open, at 1024×768
   with it closed and back: no output wider than its output area, no button whose text is
   cut, every explorer's figure within its output area and drawn, and the same width again
   once the window is wide again;
5. no equation runs off the right edge (issue 17 item 2) at 1024×768, every stepper switched to
   "show all" (a change that stays: the checks after this one do not depend on steppers);
   then axe-core finds no WCAG A/AA violation in the companion's markup (issue 38);
6. last, as it changes the explorer most, for the notebooks whose main explorer is
   ``explorer``: after 30 fast slider moves the slider is where the keys took it and the
   canvas equals a whole fresh frame of the final state (issue 17 item 3).

Each check sets the window it needs first, so that it also passes when run alone (``-k``): the
cache then opens the notebook for it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import accessibility as a11y
import lab_browser as lb
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = lb.chapter_notebooks(ROOT)
WITH_EXPLORER = lb.notebooks_showing(ROOT, "explorer")
WITH_SCENE = lb.notebooks_showing(ROOT, "scene")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]

#: (width, height, file browser open)
WIDE_WITH_FILE_BROWSER = (1400, 1000, True)
SMALL_LAPTOP = (1024, 768, False)


# ---------------------------------------------------------------------------- the live pages
@dataclass
class Chapter:
    """A notebook open in JupyterLab with all its cells run."""

    notebook: str
    page: object
    run: lb.NotebookRun
    #: Whether JupyterLab opened the notebook with its left side bar closed (its default).
    left_collapsed: bool

    def new_js_errors(self, since: int) -> list[str]:
        """The page's JavaScript errors after the first ``since`` ones."""
        return self.run.js_errors[since:]


class Chapters:
    """The open chapter: asking for another notebook closes it (with its kernel) and opens
    and runs the new one; a notebook that failed to open fails again at once, unretried."""

    def __init__(self, lab, browser) -> None:
        self.lab, self.browser = lab, browser
        self.current: Chapter | None = None
        self.context = None
        self.failed: dict[str, BaseException] = {}

    def __call__(self, notebook: str) -> Chapter:
        if notebook in self.failed:
            raise RuntimeError(f"{notebook} did not open and run") from self.failed[notebook]
        if self.current is None or self.current.notebook != notebook:
            self.close()
            try:
                self.current = self._open(notebook)
            except BaseException as exc:
                self.close()
                self.failed[notebook] = exc
                raise
        return self.current

    def _open(self, notebook: str) -> Chapter:
        self.context = self.browser.new_context(viewport={"width": WIDE_WITH_FILE_BROWSER[0],
                                                          "height": WIDE_WITH_FILE_BROWSER[1]})
        page = self.context.new_page()
        run = lb.open_notebook(page, self.lab, notebook)
        left_collapsed = page.evaluate("() => window.jupyterapp.shell.leftCollapsed")
        set_window(page, WIDE_WITH_FILE_BROWSER)
        lb.run_all_cells(page, run, timeout=300)
        return Chapter(notebook, page, run, left_collapsed)

    def close(self) -> None:
        if self.context is not None:
            self.context.close()  # closing the page ends its kernel (lb.open_notebook)
        self.context = self.current = None


@pytest.fixture(scope="module")
def chapters(lab, browser):
    cache = Chapters(lab, browser)
    yield cache
    cache.close()


def set_window(page, size: tuple[int, int, bool]) -> None:
    """Resize the window and open (or close) JupyterLab's file browser."""
    width, height, file_browser = size
    page.set_viewport_size({"width": width, "height": height})
    if file_browser:
        page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
    else:
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    page.wait_for_timeout(600)  # the probe reports after 150 ms of quiet


def wide(chapters: Chapters, notebook: str) -> tuple[Chapter, object, int]:
    """The notebook's live chapter and page at 1400×1000 with the file browser open, and
    how many JavaScript errors the page had before the check."""
    chapter = chapters(notebook)
    set_window(chapter.page, WIDE_WITH_FILE_BROWSER)
    return chapter, chapter.page, len(chapter.run.js_errors)


def test_the_chapters_are_found():
    assert len(NOTEBOOKS) >= 10 and "chapters/loparo-07/double-pendulum.ipynb" in NOTEBOOKS


# ---------------------------------------------------------------------------- 1. it runs
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_runs_in_jupyterlab(chapters, notebook):
    chapter = chapters(notebook)
    page = chapter.page
    assert chapter.run.js_errors == [], f"JavaScript errors in {notebook}: {chapter.run.js_errors}"
    assert chapter.run.error_outputs == [], \
        f"error outputs in {notebook}: {chapter.run.error_outputs}"
    if notebook in WITH_EXPLORER:
        page.wait_for_selector(f".{lb.EXPLORER_CLASS} canvas", timeout=60_000)
        page.wait_for_timeout(500)
        assert lb.explorer_canvas_snapshot(page), f"{notebook}: the main explorer shows no figure"


# ---------------------------------------------------------------------------- 2. a slider
@pytest.mark.parametrize("notebook", WITH_EXPLORER)
def test_a_slider_redraws_the_figure(chapters, notebook):
    chapter, page, errors = wide(chapters, notebook)
    page.wait_for_selector(f".{lb.EXPLORER_CLASS} canvas", timeout=60_000)
    before = lb.explorer_canvas_snapshot(page)
    assert before, f"{notebook}: the main explorer shows no figure"
    lb.slider_latency(page)  # raises when the figure does not change
    assert lb.explorer_canvas_snapshot(page) != before
    assert chapter.new_js_errors(errors) == [], \
        f"JavaScript errors after moving a slider: {chapter.new_js_errors(errors)}"


# ---------------------------------------------------------------------------- 3. the scene
#: The explorer slider the scene check moves, where the first one does not change the motion
#: (the knife edge's mass scales its forces but not its path).
MOTION_SLIDER = {"chapters/greenwood-04/knife-edge.ipynb": 1,
                 "chapters/greenwood-04/general-dynamical-equation.ipynb": 1,
                 "chapters/greenwood-04/methods-compared.ipynb": 1,
                 "chapters/loparo-07/bridge-constraints.ipynb": 1,  # mass moves nothing
                 "chapters/loparo-07/nonholonomic.ipynb": 1}
#: Luminance variance of a canvas (0–255 scale) above which it shows something: a blank
#: white canvas has 0, a scene's bodies and grid give hundreds.
NOT_BLANK = 30.0


@pytest.mark.parametrize("notebook", [nb for nb in WITH_SCENE if nb in WITH_EXPLORER])
def test_scene_plays_scrubs_and_follows_the_explorer(chapters, notebook):
    chapter, page, errors = wide(chapters, notebook)
    page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
    page.locator(f".{lb.SCENE_CLASS}").first.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    first = lb.scene_pixels(page)
    assert first["variance"] > NOT_BLANK, f"{notebook}: the scene is blank"

    lb.scene_button(page).click()  # play
    page.wait_for_function("() => globalThis.__companionScenes.some(s => s.playing)")
    before = lb.scene_stats(page)
    page.wait_for_function(
        "n => globalThis.__companionScenes.filter(x => x.el.isConnected)[0].frames > n + 10",
        arg=before["frames"], timeout=20_000)
    assert lb.scene_stats(page)["time"] != before["time"], "time stands still while playing"
    lb.scene_button(page).click()  # pause

    scene = page.locator(f".{lb.SCENE_CLASS}").first
    scene.focus()
    scene.press("Home")
    start = lb.scene_pixels(page)["url"]
    for _ in range(8):
        scene.press("ArrowRight")
    assert lb.scene_stats(page)["time"] > 0
    assert lb.scene_pixels(page)["url"] != start, "scrubbing did not move the scene"

    shown = lb.scene_pixels(page)["url"]
    lb.scene_motion_latency(page, slider=MOTION_SLIDER.get(notebook, 0))  # raises if none
    page.wait_for_timeout(200)
    assert lb.scene_pixels(page)["url"] != shown, "the new motion looks the same"
    assert chapter.new_js_errors(errors) == [], \
        f"JavaScript errors in {notebook}: {chapter.new_js_errors(errors)}"


# ---------------------------------------------------------------------------- 4. the window
def _layout_problems(page, size) -> list[str]:
    """Everything wrong with the page's layout at this size, in words."""
    where = f"{size[0]}×{size[1]}"
    problems = []
    for k in range(page.locator(lb.OUTPUT_AREA).count()):
        page.locator(lb.OUTPUT_AREA).nth(k).scroll_into_view_if_needed()
        problems += [f"{where}: {p}" for p in lb.outputs_wider_than_their_area(page, index=k)]
    problems += [f"{where}: button {b}" for b in lb.truncated_buttons(page)]
    for i in range(page.locator(f".{lb.EXPLORER_CLASS}").count()):
        page.locator(f".{lb.EXPLORER_CLASS}").nth(i).locator("canvas").first \
            .scroll_into_view_if_needed()
        fit = lb.wait_for_explorer_fit(page, i)
        if not fit["canvas"] > 0:
            problems.append(f"{where}: explorer {i} shows no canvas ({fit})")
        elif fit["left"] < -1 or fit["right"] < -1:
            problems.append(f"{where}: explorer {i}'s figure is {fit['canvas']:.0f} px wide in "
                            f"an output area of {fit['area']:.0f} px")
        page.wait_for_timeout(300)
        if lb.painted_fraction(page, i) < 0.005:
            problems.append(f"{where}: explorer {i}'s figure is blank")
    return problems


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_fits_the_window(chapters, notebook):
    chapter, page, errors = wide(chapters, notebook)
    problems = _layout_problems(page, WIDE_WITH_FILE_BROWSER)
    widths = [lb.explorer_canvas_fit(page, i)["canvas"]
              for i in range(page.locator(f".{lb.EXPLORER_CLASS}").count())]

    set_window(page, SMALL_LAPTOP)
    problems += _layout_problems(page, SMALL_LAPTOP)

    # and back: a figure that follows its area grows again
    set_window(page, WIDE_WITH_FILE_BROWSER)
    for i, width in enumerate(widths):
        page.locator(f".{lb.EXPLORER_CLASS}").nth(i).scroll_into_view_if_needed()
        again = 0.0
        for _ in range(60):  # a debounce and a round trip to a busy kernel
            again = lb.explorer_canvas_fit(page, i)["canvas"]
            if abs(again - width) <= 4:
                break
            page.wait_for_timeout(250)
        if abs(again - width) > 4:
            problems.append(f"explorer {i} is {again:.0f} px wide after the window came "
                            f"back to {WIDE_WITH_FILE_BROWSER[0]} px, was {width:.0f} px")
    assert problems == [], f"{notebook}:\n" + "\n".join(problems)
    outputs = page.evaluate(lb._ERRORS)
    assert outputs == [], f"error outputs in {notebook} after the resizes: {outputs}"
    assert chapter.new_js_errors(errors) == [], \
        f"JavaScript errors in {notebook}: {chapter.new_js_errors(errors)}"


# ---------------------------------------------------------------------------- 5. equations
#: Every typeset equation inside an output area: its width against the area's.
_WIDTHS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output mjx-container'))
  .map(c => { const area = c.closest('.jp-OutputArea-output');
              const math = c.querySelector('mjx-math') || c;
              return {width: math.getBoundingClientRect().width, area: area.clientWidth,
                      text: (c.textContent || '').slice(0, 80)}; })"""

#: MathJax has finished when no math is left untypeset in the page.
_PENDING = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
  .some(o => /\\$\\$|\\\\begin\\{aligned\\}/.test(o.innerText))"""


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_no_equation_is_wider_than_its_output_area(chapters, notebook):
    """At 1024×768 with the side bar as JupyterLab opens it, every stepper showing all."""
    chapter = chapters(notebook)
    page = chapter.page
    page.set_viewport_size({"width": 1024, "height": 768})
    page.evaluate("c => c ? window.jupyterapp.shell.collapseLeft() : "
                  "window.jupyterapp.shell.expandLeft()", chapter.left_collapsed)
    page.wait_for_timeout(600)
    # a click from inside the page: a stepper scrolled out of JupyterLab's view counts too
    page.evaluate("""() => document.querySelectorAll('button.widget-toggle-button')
      .forEach(b => { if (b.textContent.trim() === 'show all') b.click(); })""")
    page.wait_for_function(f"() => !({_PENDING})()", timeout=30_000)
    page.wait_for_timeout(1500)  # the last typesetting pass
    shown = page.evaluate(_WIDTHS)
    assert shown, f"{notebook}: no typeset equation found"
    too_wide = [f"{s['width']:.0f} px > {s['area']} px: {s['text']}" for s in shown
                if s["width"] > s["area"] + 1]
    assert not too_wide, f"{notebook}: " + "; ".join(too_wide)


# --------------------------------------------------------------- 5b. accessibility (issue 38)
@pytest.mark.parametrize("notebook", NOTEBOOKS)
@pytest.mark.skipif(not a11y.axe_available(), reason="axe-core is not installed: `make axe`")
def test_axe_finds_nothing_in_the_companion_s_markup(chapters, notebook):
    """axe-core's WCAG 2.0–2.2 A/AA rules: no violation in the companion's markup (JupyterLab's
    own, listed apart, each has an upstream record); every live figure is a named image."""
    page = chapters(notebook).page
    ours, host = a11y.run_axe(page)
    assert ours == [], f"{notebook}:\n" + "\n".join(map(str, ours))
    assert [v for v in host if v.rule not in a11y.UPSTREAM] == [], f"{notebook}: {host}"
    unnamed = page.evaluate(f"""() => [...document.querySelectorAll(
        '.{lb.EXPLORER_CLASS} .jupyter-matplotlib-canvas-div')]
        .filter(c => c.getAttribute('role') !== 'img' || !c.getAttribute('aria-label')).length""")
    assert unnamed == 0, f"{notebook}: {unnamed} live figures without a text alternative"


# ---------------------------------------------------------------------------- 6. a fast drag
#: Notebooks whose main explorer is the variable ``explorer``.
REDRAW_NOTEBOOKS = ["chapters/loparo-07/disk-link-friction.ipynb",
                    "chapters/loparo-07/disk-link-rolling.ipynb",
                    "chapters/greenwood-04/knife-edge.ipynb",
                    "chapters/loparo-07/covariant-derivative.ipynb",
                    "chapters/greenwood-04/euler-rigid-body.ipynb",
                    "chapters/loparo-07/double-pendulum.ipynb",
                    "chapters/loparo-07/euler-geodesic.ipynb"]
#: Key presses of a fast drag.
PRESSES = 30
#: The explorer's values, as a Python literal.
VALUES = "{name: float(value) for name, value in explorer.values.items()}"


@pytest.mark.parametrize("notebook", REDRAW_NOTEBOOKS)
def test_fast_slider_moves_leave_the_canvas_intact(chapters, notebook):
    chapter, page, errors = wide(chapters, notebook)
    lb.wait_for_explorer_fit(page)
    lb.settle_explorer(page)  # the frames of the resizes before this check are painted
    handle = page.locator(f".{lb.EXPLORER_CLASS}").first.locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.focus()
    before = ast.literal_eval(lb.kernel_value(page, VALUES))
    for _ in range(PRESSES):  # as fast as the keyboard repeats: frames overtake each other
        handle.press("ArrowRight", delay=0)
    lb.settle_explorer(page)
    after = ast.literal_eval(lb.kernel_value(page, VALUES))
    (moved,) = [name for name in before if after[name] != before[name]]
    step, high = ast.literal_eval(lb.kernel_value(
        page, f"(explorer.controls[{moved!r}].step, explorer.range_of({moved!r})[1])"))
    # every press counted: the slider never jumped back to a value the kernel echoed
    assert after[moved] == pytest.approx(min(before[moved] + PRESSES * step, high),
                                         abs=step / 2), f"{notebook}: {moved} fell back"
    after_drag = np.frombuffer(lb.canvas_pixels(page), dtype=np.uint8).astype(float)
    painted = lb.paint_count(page)
    lb.run_in_kernel(page, "explorer.figure.canvas._force_full = True\n"
                           "explorer.figure.canvas.draw()")
    page.wait_for_function("n => window.__companionPaints.length > n", arg=painted,
                           timeout=60_000)
    fresh = np.frombuffer(lb.canvas_pixels(page), dtype=np.uint8).astype(float)
    assert fresh.size and after_drag.shape == fresh.shape
    differing = np.mean(np.abs(after_drag - fresh) > 8)
    assert differing < 0.002, f"{notebook}: {differing:.1%} of the canvas is stale"
    assert chapter.new_js_errors(errors) == []
