"""No equation runs off the right edge (issue 17 item 2), in JupyterLab in Debian's Chromium at
a 1024 × 768 window: every chapter notebook is run, every stepper is switched to "show all",
and every typeset MathJax equation must fit the output area that holds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.devtools import lab_browser as lb

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(lb.chromium_path() is None, reason="Debian's chromium is not installed"),
]

NOTEBOOKS = lb.chapter_notebooks(ROOT)

#: Every typeset equation inside an output area: its width against the area's.
_WIDTHS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output mjx-container'))
  .map(c => { const area = c.closest('.jp-OutputArea-output');
              const math = c.querySelector('mjx-math') || c;
              return {width: math.getBoundingClientRect().width, area: area.clientWidth,
                      text: (c.textContent || '').slice(0, 80)}; })"""

#: MathJax has finished when no math is left untypeset in the page.
_PENDING = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output'))
  .some(o => /\\$\\$|\\\\begin\\{aligned\\}/.test(o.innerText))"""


def test_the_chapters_are_found():
    assert len(NOTEBOOKS) >= 10 and "chapters/loparo-07/double-pendulum.ipynb" in NOTEBOOKS


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_no_equation_is_wider_than_its_output_area(lab, browser, notebook):
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        run = lb.open_notebook(page, lab, notebook)
        lb.run_all_cells(page, run, timeout=300)
        assert run.error_outputs == []
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
    finally:
        page.close()
