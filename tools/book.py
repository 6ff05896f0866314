"""The companion as a static book: every chapter notebook executed and rendered to one HTML
page, readable offline from ``file://`` (``make book``).

    python -m tools.book                     # the whole book in build/book
    python -m tools.book --out DIR greenwood-04/knife-edge.ipynb   # a subset
    python -m tools.book --pdf   # and each chapter as a PDF handout, in pdf/

Each page is the export's page (:mod:`companion.scene.export`, nbconvert's ``lab`` page)
with nothing fetched from a network: MathJax 3 (the
``django-static-mathjax`` package of the ``[book]`` extra) is copied into the book's
``_static`` folder, and every widget is shown by its static form (the stepper's derivation as
typeset LaTeX, the explorer's PNG with its description, the scene playing from its saved
keyframes, the exercises with hints and solutions folded), followed by a link that opens the
notebook live.  Around it: the chapter table as home page (``chapters/index.ipynb``), a
sidebar of contents with the reconstructed examples marked, an offline search and
previous/next links.  The chapters come from the chapter table
(:func:`tools.chapter_index.chapters`), never from a list typed here.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

import nbformat

from companion.scene import export
from companion.scene.export import WIDGET_VIEW
from companion.widgets.style import STATIC_ENV
from tools import chapter_index

ROOT = chapter_index.ROOT
CHAPTERS = ROOT / "chapters"
#: Where ``make book`` writes the book.
OUT = ROOT / "build" / "book"
_HERE = Path(__file__).parent
#: The nbconvert template ``companion-book`` lives in this folder.
TEMPLATES = _HERE / "book_template"
_STATIC = _HERE / "book_static"

#: A widget's static forms, one of which every widget output must carry.
STATIC_FORMS = ("text/html", "text/markdown", "text/latex", "image/png", "image/svg+xml")
HOME = "index.ipynb"
#: The whole book's size limit (megabytes): ``make book`` fails above it.
BUDGET_MB = 60.0


class BookError(RuntimeError):
    """The book cannot be built as asked; the message says what to change."""


@dataclass(frozen=True)
class Page:
    """One page of the book: a notebook below ``chapters/``."""

    source: str  #: relative to ``chapters/``, e.g. ``"greenwood-04/knife-edge.ipynb"``
    title: str
    reconstructed: bool = False

    @property
    def html(self) -> str:
        """The page's path in the book, relative to its root."""
        return PurePosixPath(self.source).with_suffix(".html").as_posix()

    @property
    def root(self) -> str:
        """The relative path from this page back to the book's root (``""`` or ``"../"``)."""
        return "../" * (len(PurePosixPath(self.source).parts) - 1)

    @property
    def live(self) -> str:
        """The notebook on Binder (JupyterLab, a kernel, every widget live)."""
        return chapter_index.BINDER + self.source


def pages(only: Sequence[str] = ()) -> list[Page]:
    """The home page, then the chapters in the order of the chapter table.

    ``only``: paths relative to ``chapters/`` to keep (the home page is always built).

    Raises
    ------
    BookError
        A notebook under ``chapters/`` that the chapter table does not list (it would be
        left out of the book), or a name in ``only`` that is no chapter.
    """
    table = chapter_index.chapters()
    listed = {nb.path for nb in table}
    on_disk = {p.relative_to(CHAPTERS).as_posix() for p in CHAPTERS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts} - {HOME}
    if on_disk - listed:
        raise BookError(f"not in the chapter table, so not in the book: {sorted(on_disk - listed)}"
                        "; give each a Notebook record (companion.examples) and run `make index`")
    unknown = set(only) - listed
    if unknown:
        raise BookError(f"no such chapter: {sorted(unknown)}; the chapters are {sorted(listed)}")
    chapters = [Page(nb.path, nb.title, "reconstructed" in nb.source.lower())
                for nb in table if not only or nb.path in only]
    return [Page(HOME, "Contents"), *chapters]


def execute(page: Page, kernel_name: str = "python3", timeout: int = 600) -> nbformat.NotebookNode:
    """The page's notebook, run top to bottom in a fresh kernel with its folder as cwd.

    No widget state is stored: the page shows each widget's static form (the exercises' too:
    the kernel runs with :data:`~companion.widgets.style.STATIC_ENV` set).
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = CHAPTERS / page.source
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name=kernel_name, timeout=timeout,
                            store_widget_state=False,
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute(env={**os.environ, STATIC_ENV: "1"})
    except CellExecutionError as exc:
        raise BookError(f"chapters/{page.source} does not run: {exc}") from None
    return nb


def without_static_form(nb: nbformat.NotebookNode, first: int = 1) -> list[str]:
    """The widget outputs of an executed notebook that carry none of :data:`STATIC_FORMS`
    (each would be an empty box on a page without widgets), as ``"cell N: <text/plain>"``
    with cells numbered from ``first``."""
    return [f"cell {number}: {output.data.get('text/plain', '?')[:80]}"
            for number, cell in enumerate(nb.cells, start=first) if cell.cell_type == "code"
            for output in cell.get("outputs", [])
            if WIDGET_VIEW in output.get("data", {})
            and not any(form in output.data for form in STATIC_FORMS)]


def static_outputs(nb: nbformat.NotebookNode, page: Page) -> None:
    """Show every widget by its static form, followed by a link that opens it live.

    Raises
    ------
    BookError
        A widget output with no static form (it would be an empty box in the book): give the
        widget a ``_repr_mimebundle_`` with one of :data:`STATIC_FORMS` (for a notebook's own
        box of widgets, :class:`companion.widgets.Panel`).
    """
    bare = without_static_form(nb)
    if bare:
        raise BookError(f"chapters/{page.source}: widgets with no static form: {bare}")
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.get("outputs", []):
            outputs.append(output)
            data = output.get("data", {})
            if WIDGET_VIEW not in data:
                continue
            del data[WIDGET_VIEW]
            outputs.append(nbformat.v4.new_output("display_data", data={"text/html": (
                f'<p class="book-live-output book-nomath"><a class="book-live" '
                f'href="{html.escape(page.live)}">Open this live</a> (move the sliders, '
                "step through, answer: the notebook in JupyterLab on Binder)</p>")}))
        cell.outputs = outputs


_LINK = re.compile(r"(\]\(\s*<?|href=\")([^)\s>\"#]+\.ipynb)(#[^)\s>\"]*)?")


def link_pages(nb: nbformat.NotebookNode, page: Page, built: set[str]) -> None:
    """Links in the Markdown to a notebook: to its page when the book has it, else to Binder."""

    def target(match: re.Match) -> str:
        lead, link, anchor = match.group(1), match.group(2), match.group(3) or ""
        if "://" in link:
            return match.group(0)
        resolved = (CHAPTERS / page.source).parent.joinpath(link).resolve()
        if not resolved.is_relative_to(CHAPTERS):
            return match.group(0)
        source = resolved.relative_to(CHAPTERS).as_posix()
        if source in built:
            return lead + PurePosixPath(link).with_suffix(".html").as_posix() + anchor
        return lead + chapter_index.BINDER + source + anchor

    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _LINK.sub(target, cell.source)


def add_readme_figure(nb: nbformat.NotebookNode) -> None:
    """The README's screenshot (its first image) with the italic caption under it, placed
    after the home page's introduction; nothing when the README has none."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"(!\[[^\]]*\]\()chapters/([^)\s]+\))\s*\n\s*\n(\*.+?\*)\n\n", text, re.S)
    if found is not None:
        image, src, caption = found.groups()
        nb.cells.insert(1, nbformat.v4.new_markdown_cell(f"{image}{src}\n\n{caption}"))


def drop_magics(nb: nbformat.NotebookNode) -> None:
    """Leave out the code cells that only set the notebook up (``%matplotlib widget``) and
    show nothing: they mean nothing on a static page."""
    nb.cells = [c for c in nb.cells if not (
        c.cell_type == "code" and not c.get("outputs")
        and all(line.startswith("%") for line in c.source.splitlines() if line.strip()))]


def render(nb: nbformat.NotebookNode, page: Page, book: list[Page]) -> str:
    """The page's HTML in the book's frame."""
    from nbconvert import HTMLExporter

    def entry(other: Page) -> dict:
        return {"title": other.title, "href": page.root + other.html,
                "reconstructed": other.reconstructed, "current": other == page}

    at = book.index(page)
    note = chapter_index.RECONSTRUCTED.replace("*Reconstructed*", "<em>Reconstructed</em>")
    context = {
        "root": page.root, "toc": [entry(p) for p in book], "source": page.source,
        "prev": entry(book[at - 1]) if at > 0 else None,
        "next": entry(book[at + 1]) if at + 1 < len(book) else None,
        "live": page.live if page.source != HOME else "",
        "notebook": PurePosixPath(page.source).name,
        "reconstructed": html.unescape(re.sub(r"<[^>]+>", "", note)),
        "reconstructed_note": note if page.reconstructed else "",
    }
    # the book's template extends 'companion/index.html.j2', found below export.TEMPLATES
    exporter = HTMLExporter(extra_template_basedirs=[str(TEMPLATES), str(export.TEMPLATES)],
                            extra_template_paths=[str(export.TEMPLATES)],
                            template_name="companion-book")
    body, _ = exporter.from_notebook_node(nb, resources={"book": context})
    return body


class _Sections(HTMLParser):
    """The text of a rendered page, cut at its headings (for the search index)."""

    _SKIP = {"script", "style", "nav", "pre", "code"}

    def __init__(self):
        super().__init__()
        self.sections: list[dict[str, str]] = [{"anchor": "", "heading": "", "text": ""}]
        self._skipping = 0
        self._heading: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag in self._SKIP:
            self._skipping += 1
        elif re.fullmatch(r"h[1-3]", tag):
            self._heading = ""
            self.sections.append({"anchor": dict(attrs).get("id") or "", "heading": "",
                                  "text": ""})

    def handle_endtag(self, tag):
        if tag in self._SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif re.fullmatch(r"h[1-3]", tag) and self._heading is not None:
            self.sections[-1]["heading"] = self._heading.replace("¶", "").strip()
            self._heading = None

    def handle_data(self, data):
        if self._skipping:
            return
        if self._heading is not None:
            self._heading += data
        else:
            self.sections[-1]["text"] += data


def search_entry(page: Page, body: str) -> dict:
    """One page's sections (anchor, heading, words) for the offline search."""
    parser = _Sections()
    parser.feed(body)
    sections = [{**s, "text": " ".join(s["text"].split())[:4000]} for s in parser.sections]
    return {"href": page.html, "title": page.title,
            "sections": [s for s in sections if s["heading"] or s["text"]]}


def copy_static(out: Path) -> None:
    """MathJax, the book's style and script, and the files the notebooks show (images)."""
    try:
        mathjax = export.mathjax_file()
    except RuntimeError as exc:
        raise BookError(str(exc)) from None
    static = out / "_static"
    (static / "mathjax").mkdir(parents=True, exist_ok=True)
    shutil.copy2(mathjax, static / "mathjax" / mathjax.name)
    for name in ("book.css", "book.js"):
        shutil.copy2(_STATIC / name, static / name)
    for path in CHAPTERS.rglob("*"):
        if path.is_file() and path.suffix != ".ipynb" and ".ipynb_checkpoints" not in path.parts:
            target = out / path.relative_to(CHAPTERS)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def build(out: Path = OUT, only: Sequence[str] = (), kernel_name: str = "python3",
          log=print) -> list[Page]:
    """Build the book (or the home page and the chapters ``only``) into ``out``, emptied first.

    Returns the pages built.  Raises :class:`BookError` naming the notebook that fails, or
    when ``out`` is a folder with files that is not an earlier book (it is never emptied).
    """
    book = pages(only)
    if out.exists():
        if any(out.iterdir()) and not (out / "_static" / "book.js").is_file():
            raise BookError(f"{out} has files and is not a book built here: give --out a new "
                            "or empty folder (it is emptied before each build)")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    copy_static(out)
    built = {p.source for p in book}
    index = []
    for page in book:
        start = time.monotonic()
        if page.source == HOME:
            nb = nbformat.read(CHAPTERS / HOME, as_version=4)
            add_readme_figure(nb)
        else:
            nb = execute(page, kernel_name)
        drop_magics(nb)
        static_outputs(nb, page)
        link_pages(nb, page, built)
        body = render(nb, page, book)
        target = out / page.html
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
        shutil.copy2(CHAPTERS / page.source, out / page.source)  # "download the notebook"
        index.append(search_entry(page, body))
        log(f"{page.html}: {len(body) / 1e6:.1f} MB in {time.monotonic() - start:.0f} s")
    (out / "_static" / "search-index.js").write_text(
        "window.BOOK_SEARCH = " + json.dumps(index, ensure_ascii=False) + ";\n",
        encoding="utf-8")
    return book


CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


def chromium_path() -> str | None:
    """Path of the system Chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")



@contextmanager
def chromium() -> Iterator[object]:
    """A Playwright Chromium browser (Debian's), headless."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise RuntimeError("Chromium is not installed (apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()



def print_pdfs(out: Path, book: Sequence[Page], browser=None, log=print) -> list[Path]:
    """Each chapter of the built book ``out`` printed to ``out/pdf/<name>.pdf`` by headless
    Chromium (an instructor's handout): the page's print style leaves out the sidebar and the
    live links and shows each scene as its filmstrip.  ``browser``: a Playwright browser
    already open (default: Debian's Chromium, started here)."""
    from contextlib import nullcontext

    printed = []
    (out / "pdf").mkdir(exist_ok=True)
    with chromium() if browser is None else nullcontext(browser) as browser:
        for page in book:
            if page.source == HOME:
                continue
            tab = browser.new_page()
            try:
                tab.goto((out / page.html).resolve().as_uri())
                tab.wait_for_function("() => window.MathJax && MathJax.startup"
                                      " && MathJax.startup.promise")
                tab.evaluate("() => MathJax.startup.promise")
                target = out / "pdf" / PurePosixPath(page.html).with_suffix(".pdf").name
                tab.pdf(path=str(target), format="A4", print_background=True,
                        margin={"top": "15mm", "bottom": "15mm", "left": "12mm",
                                "right": "12mm"})
            finally:
                tab.close()
            log(f"{target.relative_to(out)}: {target.stat().st_size / 1e6:.1f} MB")
            printed.append(target)
    return printed


def size(out: Path) -> int:
    """Bytes of every file in the book."""
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="paths relative to chapters/ (default: all)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"default {OUT}")
    parser.add_argument("--kernel", default="python3", help="Jupyter kernel to run them in")
    parser.add_argument("--pdf", action="store_true",
                        help="also print each chapter to pdf/ with headless Chromium")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        book = build(args.out, args.chapters, args.kernel)
        if args.pdf:
            print_pdfs(args.out, book)
    except BookError as exc:
        print(f"book: {exc}", file=sys.stderr)
        return 1
    megabytes = size(args.out) / 1e6
    print(f"{len(book)} pages, {megabytes:.1f} MB, in {time.monotonic() - start:.0f} s;"
          f" open {(args.out / 'index.html').resolve().as_uri()}")
    if megabytes > BUDGET_MB:
        print(f"book: {megabytes:.1f} MB is over the budget of {BUDGET_MB:.0f} MB: see which "
              "pages above are large", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
