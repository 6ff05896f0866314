"""Accessibility checks in a real browser (issue 38), beside the browser harness
(``lab_browser``): axe-core's WCAG 2.0/2.1/2.2 A and AA
rules on a page, split into the companion's own markup and the host's (JupyterLab's or Voilà's)
chrome, and a keyboard walk that finds traps.

axe-core comes from npm, never a CDN (``make axe``: ``build/axe/node_modules/axe-core``); the
page gets it with Playwright's ``add_script_tag(path=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where ``make axe`` (``npm install --prefix build/axe axe-core@4``) puts axe-core.
AXE_JS = ROOT / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"

#: axe-core's tags of the WCAG 2.0, 2.1 and 2.2 success criteria of levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

#: Elements whose markup is the companion's: cell outputs (its widgets, figures, equations),
#: and its own boxes wherever they are.  Anything else is the host's chrome.
OURS = ".jp-OutputArea-output, [class*='companion-'], .jp-RenderedMarkdown"

#: The host's violations that remain (JupyterLab 4), each with its upstream record: listed,
#: not failed.
UPSTREAM = {
    "aria-allowed-attr": "jupyterlab/jupyterlab#16891: aria-pressed on toolbar jp-buttons "
                         "whose role is none",
    "aria-input-field-name": "jupyterlab/jupyterlab#10347: cell editors (CodeMirror) without "
                             "an accessible name",
    "aria-required-children": "jupyterlab/jupyterlab#14765: the notebook's role=feed without "
                              "articles (Notebooks for All's recommendations)",
    "button-name": "JupyterLab's collapse-heading button (from jupyterlab/jupyterlab#10260) "
                   "has no name; no upstream issue found",
}


_RUN = """async ([tags, ours]) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => {
      let el = null;
      try { el = document.querySelector(n.target[0]); } catch (e) { el = null; }
      return {target: n.target.join(' '), html: n.html.slice(0, 200),
              ours: !!(el && el.closest(ours))};
    }),
  }));
}"""


@dataclass
class Violation:
    """One axe rule broken on some nodes."""

    rule: str
    impact: str
    help: str
    nodes: list[str]

    def __str__(self) -> str:
        return f"{self.rule} ({self.impact}, {len(self.nodes)}: {self.help}): {self.nodes[:3]}"


def axe_available() -> bool:
    """Whether ``make axe`` has installed axe-core."""
    return AXE_JS.is_file()


def run_axe(page) -> tuple[list[Violation], list[Violation]]:
    """axe-core's WCAG A/AA violations on ``page``: (the companion's, the host's)."""
    if not axe_available():
        raise FileNotFoundError(f"axe-core is not installed at {AXE_JS}: run `make axe`")
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    ours: list[Violation] = []
    host: list[Violation] = []
    for v in page.evaluate(_RUN, [WCAG_TAGS, OURS]):
        for mine, bucket in ((True, ours), (False, host)):
            nodes = [f"{n['target']} | {n['html']}" for n in v["nodes"] if n["ours"] == mine]
            if nodes:
                bucket.append(Violation(v["id"], v["impact"], v["help"], nodes))
    return ours, host


_STEP = """() => { const a = document.activeElement; return a ? a.outerHTML.slice(0, 120) : ''; }"""
_INSIDE = """(selector) => !!(document.activeElement && document.activeElement.closest(selector))"""


def tab_through(page, container: str, limit: int = 80) -> list[str]:
    """Focus the first element of ``container`` (a CSS selector) that takes the keyboard focus,
    press Tab until the focus leaves it; the elements focused on the way.

    Raises AssertionError on a trap: a Tab that leaves the focus where it was, or ``limit``
    presses without leaving."""
    page.evaluate("""(selector) => {
      const root = document.querySelector(selector);
      const first = [...root.querySelectorAll('a[href], button, input, select, textarea, '
                                              + '[tabindex]')]
        .find(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length);
      (first || root).focus(); }""", container)
    visited = [page.evaluate(_STEP)]
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = page.evaluate(_STEP)
        if now == visited[-1]:
            raise AssertionError(f"a keyboard trap in {container}: Tab stays on {now}")
        if not page.evaluate(_INSIDE, container):
            return visited
        visited.append(now)
    raise AssertionError(f"{limit} Tab presses did not leave {container}: {visited[-5:]}")
