"""The static book (``make book``, tools.book): a two-chapter book is built and
every page is opened from file:// in headless Chromium with every request outside the book's
folder refused and counted.  ``make book`` builds the whole book and checks its size."""

from __future__ import annotations

import html
from pathlib import Path
from urllib.parse import unquote, urlparse

import accessibility as a11y
import lab_browser as lb
import nbformat
import pytest

from tools import book as bk
from tools import chapter_index

ROOT = Path(__file__).resolve().parents[1]
#: Two chapters with every kind of output: equations, a stepper, an explorer, a scene,
#: exercises, one from each book; their scenes play (the knife edge's explorer opens asking a
#: prediction: its scene keeps its player and draws the start neutral until played).
SUBSET = ("greenwood-04/knife-edge.ipynb", "loparo-07/disk-link-rolling.ipynb")

# --- without a browser --------------------------------------------------------------------


def test_pages_follow_the_chapter_table():
    pages = bk.pages()
    assert pages[0].source == bk.HOME
    assert [p.source for p in pages[1:]] == [nb.path for nb in chapter_index.chapters()]
    on_disk = {p.relative_to(bk.CHAPTERS).as_posix() for p in bk.CHAPTERS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts}
    assert {p.source for p in pages} == on_disk
    marked = [p.title for p in pages if p.reconstructed]
    assert marked and all("reconstructed" in t.lower() for t in marked)


def test_unknown_chapter_is_named():
    with pytest.raises(bk.BookError, match="no such chapter: \\['nope.ipynb'\\]"):
        bk.pages(["nope.ipynb"])


def _widget_output(data: dict) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("display_data", data={
        bk.WIDGET_VIEW: {"model_id": "x", "version_major": 2, "version_minor": 0}, **data})


def test_widgets_become_their_static_form_with_a_live_link():
    page = bk.pages(SUBSET[:1])[1]
    cell = nbformat.v4.new_code_cell("explorer")
    cell.outputs = [_widget_output({"text/plain": "Explorer", "text/html": "<img alt='x'>"})]
    nb = nbformat.v4.new_notebook(cells=[cell])
    bk.static_outputs(nb, page)
    first, link = cell.outputs
    assert bk.WIDGET_VIEW not in first.data and first.data["text/html"] == "<img alt='x'>"
    assert page.live in link.data["text/html"] and "Open this live" in link.data["text/html"]


def test_a_widget_without_static_form_is_an_error():
    page = bk.pages(SUBSET[:1])[1]
    cell = nbformat.v4.new_code_cell("box")
    cell.outputs = [_widget_output({"text/plain": "VBox(children=())"})]
    with pytest.raises(bk.BookError, match=r"knife-edge.ipynb: widgets with no static form: "
                                           r"\['cell 1: VBox"):
        bk.static_outputs(nbformat.v4.new_notebook(cells=[cell]), page)


def test_a_folder_that_is_no_book_is_never_emptied(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(bk.BookError, match="has files and is not a book built here"):
        bk.build(tmp_path, SUBSET[:1])
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_links_go_to_built_pages_or_to_binder():
    home = bk.pages(SUBSET[:1])[0]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "[a](greenwood-04/knife-edge.ipynb#Closed-form) [b](loparo-07/bridge.ipynb) "
        "[c](https://example.org/x.ipynb)")])
    bk.link_pages(nb, home, {"index.ipynb", "greenwood-04/knife-edge.ipynb"})
    assert nb.cells[0].source == (
        "[a](greenwood-04/knife-edge.html#Closed-form) "
        f"[b]({chapter_index.BINDER}loparo-07/bridge.ipynb) [c](https://example.org/x.ipynb)")


# --- the static forms the book shows ------------------------------------------------------


def test_exercises_carry_their_solutions_only_for_a_static_page(monkeypatch):
    from companion import examples
    from companion.exercises.widget import ExerciseSetBox
    from companion.widgets import style

    exercises = examples.exercises_for("knife_edge")
    monkeypatch.delenv(style.STATIC_ENV, raising=False)
    live = ExerciseSetBox(exercises)._repr_mimebundle_()["text/html"]  # an HTML export's
    assert all(ex.prompt in live for ex in exercises)
    assert "Solution" not in live and "Hint" not in live
    assert live.count("Answer it in the live notebook") == len(exercises)
    monkeypatch.setenv(style.STATIC_ENV, "1")
    page = ExerciseSetBox(exercises)._repr_mimebundle_()["text/html"]
    folded = sum(len(ex.hints) + 1 for ex in exercises)  # each hint, and the solution
    assert page.count("<details class='book-exercise-part'>") >= folded
    first = exercises[0]
    assert first.prompt in page and "<summary>Solution (derived by the engine)</summary>" in page
    # the solution is the engine's derivation, typeset: its first step's LaTeX is there
    assert first.solution_steps()[0].title in page and "$$\\displaystyle" in page


def test_a_panel_shows_its_controls_and_its_scene_without_widgets():
    import ipywidgets as w

    from companion.examples.nonholonomic import steering
    from companion.examples.nonholonomic.scene import scene as parking_scene
    from companion.scene import Scene
    from companion.widgets import Panel

    epsilon = w.FloatSlider(value=0.6, min=0.05, max=1.2, description="ε")
    scene = Scene(parking_scene, steering.trajectory(steering.parking(epsilon.value)))
    bundle = Panel([epsilon, w.HTML("<b>note</b>"), w.VBox([scene])])._repr_mimebundle_()
    assert bk.WIDGET_VIEW in bundle  # still the live widget in JupyterLab
    page = bundle["text/html"]
    assert page.index("ε = 0.60") < page.index("<b>note</b>") < page.index(
        '<figure class="companion-scene-static">')
    assert html.escape(scene.description) in page and "data:image/png;base64," in page
    bare = Panel([epsilon, w.Output()])._repr_mimebundle_()  # an Output has no static form
    assert bk.WIDGET_VIEW in bare and "text/html" not in bare


def test_a_responsive_figure_leaves_a_png():
    import matplotlib.pyplot as plt

    from companion.widgets.responsive import responsive_figure

    with plt.ioff():
        fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    try:
        png = responsive_figure(fig)._repr_mimebundle_()["image/png"]
    finally:
        plt.close(fig)
    assert png.startswith("iVBOR")  # base64 of the PNG signature


def test_the_workbench_shows_every_part_without_widgets():
    from companion.workbench import presets, workbench

    bench = workbench(presets.chaplygin_sleigh())
    try:
        page = bench._repr_mimebundle_()["text/html"]
    finally:
        bench.close()
    assert bench.errors == {}
    assert "Step 1 of" in page and "data:image/png;base64," in page  # stepper, explorer
    assert "<th>first-order ODEs</th>" in page and bench.summary() in page
    assert page.count("<figure class=\"companion-scene-static\">") == (bench.scene is not None)


# --- the built book in a browser ----------------------------------------------------------


@pytest.fixture(scope="module")
def book(tmp_path_factory, python3_kernel) -> Path:
    out = tmp_path_factory.mktemp("book") / "book"
    bk.build(out, SUBSET, kernel_name=python3_kernel, log=lambda _: None)
    return out


_TEXT_LEFT = r"""() => {
  const skip = "SCRIPT,STYLE,PRE,CODE,TEXTAREA,MJX-CONTAINER".split(",");
  const raw = /\$[^$\s][^$]*\$|\\(frac|dot|ddot|begin|left|mathrm|displaystyle|sum)\b/;
  const left = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    let e = n.parentElement, skipped = false;
    for (; e; e = e.parentElement) if (skip.includes(e.tagName)) { skipped = true; break; }
    if (!skipped && raw.test(n.textContent)) left.push(n.textContent.trim().slice(0, 120));
  }
  return {left, errors: document.querySelectorAll("mjx-merror").length,
          typeset: document.querySelectorAll("mjx-container").length};
}"""

_IMAGES = """() => Array.from(document.images)
  .filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src.slice(0, 80))"""

_LINKS = """() => Array.from(document.querySelectorAll("a[href]"))
  .map(a => ({href: a.getAttribute("href"), url: a.href, cls: a.className}))"""


def _open(browser, path: Path, book: Path):
    """A page opened from file://: what it asked outside the book, its errors."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside, errors = [], []
    folder = book.resolve().as_uri() + "/"

    def route(r):
        url = r.request.url
        if url.startswith(("data:", "blob:")) or url.startswith(folder):
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    page.route("**/*", route)
    lb.collect_page_errors(page, errors)
    page.on("requestfailed", lambda req: errors.append(f"failed: {req.url[:100]}"))
    page.goto(path.as_uri())
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")
    return page, outside, errors


def _check_links(page, path: Path, book: Path) -> list[str]:
    bad = []
    for link in page.evaluate(_LINKS):
        url = urlparse(link["url"])
        if url.scheme == "file":
            target = Path(unquote(url.path))
            if not target.is_file() or not target.resolve().is_relative_to(book.resolve()):
                bad.append(f"{link['href']}: no such file in the book")
        if "book-live" in link["cls"]:
            if not link["href"].startswith(chapter_index.BINDER):
                bad.append(f"{link['href']}: an 'open live' link not to Binder")
            elif not (bk.CHAPTERS / link["href"][len(chapter_index.BINDER):]).is_file():
                bad.append(f"{link['href']}: names no notebook")
    return bad


@pytest.mark.browser
@pytest.mark.slow
def test_every_page_reads_offline(book, browser):
    pages = sorted(book.rglob("*.html"))
    assert len(pages) == 1 + len(SUBSET)
    report = {}
    for path in pages:
        page, outside, errors = _open(browser, path, book)
        try:
            math = page.evaluate(_TEXT_LEFT)
            page.fill(".book-search input", "knife edge")  # offline search: its hits are links
            assert page.locator(".book-results a").count() > 0, f"{path.name}: search finds none"
            problems = {"requests outside the book": outside, "errors": errors,
                        "raw LaTeX": math["left"],
                        "MathJax errors": [math["errors"]] if math["errors"] else [],
                        "images not loaded": page.evaluate(_IMAGES),
                        "links": _check_links(page, path, book)}
            problems = {k: v for k, v in problems.items() if v}
            if problems:
                report[path.relative_to(book).as_posix()] = problems
            if path.name != "index.html":
                assert math["typeset"] > 0, f"{path.name}: no equation typeset"
                assert page.locator(".book-current .book-sections a").count() > 0, (
                    f"{path.name}: the sidebar lists none of its sections")
                assert page.locator("a.book-live").count() > 1, f"{path.name}: no live link"
                assert page.locator("details.book-exercise-part").count() > 0, (
                    f"{path.name}: no folded hints or solutions")
            else:
                assert "Reconstructed" in page.inner_text("main"), "the index does not mark them"
        finally:
            page.close()
    assert not report, f"pages that do not read offline: {report}"


@pytest.mark.browser
@pytest.mark.slow
def test_every_page_passes_axe(book, browser):
    """axe-core's WCAG 2.0–2.2 A/AA rules on every page of the static book (issue 38): the
    whole page is the companion's markup here (its template, sidebar and search too)."""
    if not a11y.axe_available():
        pytest.fail(f"axe-core is missing at {a11y.AXE_JS}: run `make axe`", pytrace=False)
    report = {}
    for path in sorted(book.rglob("*.html")):
        page, _, _ = _open(browser, path, book)
        try:
            ours, host = a11y.run_axe(page)
            found = [f"{v.rule} ({v.impact}): {v.help}: {v.nodes[:3]}" for v in ours + host]
            if found:
                report[path.relative_to(book).as_posix()] = found
        finally:
            page.close()
    assert not report, f"WCAG A/AA violations in the book: {report}"


@pytest.mark.browser
@pytest.mark.slow
def test_every_scene_plays_offline(book, browser):
    played = 0
    for name in SUBSET:
        page, outside, errors = _open(browser, book / name.replace(".ipynb", ".html"), book)
        try:
            scenes = page.locator(f".{lb.SCENE_CLASS}")
            for i in range(scenes.count()):
                scenes.nth(i).scroll_into_view_if_needed()
                text = scenes.nth(i).inner_text()
                assert "▶" in text and "Ã" not in text, f"{name}: scene {i} reads {text[:80]!r}"
                before = lb.scene_stats(page, i)["frames"]
                lb.scene_button(page, i).click()
                page.wait_for_function(
                    "([i, n]) => globalThis.__companionScenes.filter(s => s.el.isConnected)[i]"
                    ".frames > n + 10", arg=[i, before], timeout=20_000)
                lb.scene_button(page, i).click()  # pause: the next scene plays alone
                played += 1
            assert outside == [] and errors == [], (name, outside, errors)
        finally:
            page.close()
    assert played >= len(SUBSET), f"only {played} scenes played in {SUBSET}"


@pytest.mark.browser
@pytest.mark.slow
def test_chapters_print_to_pdf(book, browser):
    printed = bk.print_pdfs(book, bk.pages(SUBSET), browser, log=lambda _: None)
    assert [p.name for p in printed] == [Path(name).with_suffix(".pdf").name for name in SUBSET]
    for pdf in printed:
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF") and b"/Subtype /Image" in data, pdf.name  # filmstrips


@pytest.mark.slow
def test_chapter_pages_fit_the_budget(book):
    """Each chapter page within its share of the whole book's budget (``make book`` measures
    the whole book and fails above the budget)."""
    share = bk.BUDGET_MB * 1e6 / len(chapter_index.chapters())
    shared = bk.size(book / "_static")
    for name in SUBSET:
        page = (book / name.replace(".ipynb", ".html")).stat().st_size
        assert page + shared / len(chapter_index.chapters()) <= share, (
            f"{name}: {page / 1e6:.1f} MB, more than its share {share / 1e6:.1f} MB")
