"""The README's chapter table and the chapter index notebook, generated from the list of
worked examples, so that neither can drift from what exists.

    python -m tools.chapter_index          # rewrite both (``make index``)
    python -m tools.chapter_index --check  # exit 1 when either is stale

The README's table sits between the markers ``<!-- chapters:begin -->`` and
``<!-- chapters:end -->``, its Binder badge between ``<!-- badge:…-->`` and its nbgitpuller link
between ``<!-- hub-link:…-->`` markers, all written from :data:`REPOSITORY`; the index
notebook's two contents cells are found by their ids.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from urllib.parse import quote

from companion import examples
from companion.examples.record import Notebook

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
INDEX = ROOT / "chapters" / "index.ipynb"
#: The one place that names the GitHub repository (owner/name) that Binder builds from and
#: nbgitpuller pulls: ``make index`` writes it into the README's badge, hub link and table.
REPOSITORY = "advanced-dynamics/companion"
BINDER = f"https://mybinder.org/v2/gh/{REPOSITORY}/HEAD?urlpath=lab/tree/chapters/"

#: "Reconstructed", explained where a reader first meets the word (README table, index).
RECONSTRUCTED = ("*Reconstructed* marks an example of Loparo & Vakalis that our copy of the "
                 "chapter does not print (it stops inside §7.4): a worked instance of the "
                 "chapter's method, built by us, not the handbook's own figures or numbers.")

_SECTIONS = {
    "greenwood": ("greenwood-04-contents",
                  "## Greenwood, *Advanced Dynamics*, Chapter 4 — quasi-velocities and the "
                  "Boltzmann–Hamel equation", ""),
    "loparo": ("loparo-07-contents",
               "## Loparo & Vakalis, “The Dynamics of Systems of Interacting Rigid Bodies”",
               RECONSTRUCTED),
    "companion": ("workbench-contents", "## Beyond the books: a system of your own", ""),
}

#: Notebooks that teach no one worked example, listed after the books' chapters.
BEYOND_THE_BOOKS = (
    Notebook(path="workbench.ipynb", title="A workbench for your own system",
             source="Greenwood §4.3–4.4 on a system of your own",
             summary="Define a system in about ten lines (coordinates, speeds, kinetic energy, "
                     "constraints, forces, points to draw) and get every method that applies "
                     "with their agreement, the derivation step by step, an explorer, a scene "
                     "and what each method costs; start from a Chaplygin sleigh, a ball on a "
                     "spinning turntable or a snakeboard.",
             order=(99,)),
    Notebook(path="identities.ipynb", title="Five identities on one page",
             source="Greenwood (4.85), (4.133)/(4.142); Loparo & Vakalis (7.1)/(7.2); ours",
             summary="The five identities the companion teaches, each displayed with its "
                     "number, checked by one computed cell and linked to the notebook that "
                     "derives it: a map to read first, or a review to read last.",
             order=(100,)),
    Notebook(path="greenwood-04/practice-boltzmann-hamel.ipynb",
             title="Practice: the Boltzmann–Hamel equation",
             source="Greenwood §4.3, Eq. (4.85); faded worked examples (ours)",
             summary="Step through the knife edge again, finish the Chaplygin sleigh's "
                     "equation from its given Ψ, γ's and T, then write (4.85) unaided for a "
                     "puck pushed along its axis; the engine checks each answer.",
             order=(101,)),
    Notebook(path="greenwood-04/practice-kane.ipynb",
             title="Practice: the general dynamical equation",
             source="Greenwood §4.4, Eq. (4.133); faded worked examples (ours)",
             summary="Step through the knife edge by Kane's form again, finish a pendulum on "
                     "a cart's inertia force from its given velocity coefficients, then form a "
                     "two-link pendulum's applied and inertia forces unaided; the engine checks "
                     "each answer.",
             order=(102,)),
    Notebook(path="loparo-07/practice-pull-back.ipynb",
             title="Practice: the pull-back",
             source="Loparo & Vakalis §7.2–7.3, Eq. (7.2); faded worked examples (ours)",
             summary="Step through the double pendulum by pull-back again, finish a particle "
                     "on a cone from its given map and Jacobian, then pull a bowl's metric and "
                     "gravity back unaided; the engine checks each answer.",
             order=(103,)),
)


#: Three ways through the companion, each an ordered list of notebooks (paths relative to
#: ``chapters/``): every step needs the steps before it on its path.  Every notebook the index
#: lists is on at least one path (tested).
READING_PATHS = {
    "Greenwood §4.3–4.4": (
        "quasi-velocities, the Boltzmann–Hamel equation and the general dynamical equation",
        ["greenwood-04/boltzmann-hamel.ipynb", "greenwood-04/boltzmann-hamel-rheonomic.ipynb",
         "greenwood-04/euler-rigid-body.ipynb", "greenwood-04/knife-edge.ipynb",
         "greenwood-04/knife-edge-by-hand.ipynb", "greenwood-04/practice-boltzmann-hamel.ipynb",
         "greenwood-04/general-dynamical-equation.ipynb", "greenwood-04/practice-kane.ipynb",
         "greenwood-04/methods-compared.ipynb", "greenwood-04/whipple-bicycle.ipynb",
         "workbench.ipynb"]),
    "Loparo & Vakalis": (
        "Newton's law as a covariant derivative, SO(3), pull-back, contact and friction",
        ["loparo-07/covariant-derivative.ipynb", "loparo-07/euler-geodesic.ipynb",
         "loparo-07/lie-group.ipynb", "loparo-07/double-pendulum.ipynb",
         "loparo-07/double-pendulum-modes.ipynb", "loparo-07/practice-pull-back.ipynb",
         "loparo-07/disk-link-rolling.ipynb", "loparo-07/disk-link-control.ipynb",
         "loparo-07/disk-link-friction.ipynb"]),
    "Between the books": (
        "one method in two languages: Hamel's γ as brackets, constrained connections",
        ["greenwood-04/boltzmann-hamel.ipynb", "greenwood-04/knife-edge.ipynb",
         "loparo-07/covariant-derivative.ipynb", "loparo-07/euler-geodesic.ipynb",
         "loparo-07/bridge.ipynb", "loparo-07/bridge-constraints.ipynb",
         "loparo-07/nonholonomic.ipynb", "identities.ipynb"]),
}

#: Reading speed for the time estimate: words of prose a minute (technical text, read with the
#: book open), plus a minute for each code cell (run it, read what it prints, move a slider).
WORDS_PER_MINUTE = 100


def minutes(path: str) -> int:
    """Estimated minutes for the notebook at ``chapters/<path>``: its markdown words at
    :data:`WORDS_PER_MINUTE` (not the lecturer's presenter notes) plus a minute per code cell,
    rounded up to 5 minutes."""
    nb = json.loads((ROOT / "chapters" / path).read_text(encoding="utf-8"))
    words = sum(len("".join(c["source"]).split()) for c in nb["cells"]
                if c["cell_type"] == "markdown"
                and "presenter-notes" not in c.get("metadata", {}).get("tags", []))
    code = sum(c["cell_type"] == "code" for c in nb["cells"])
    return 5 * math.ceil((words / WORDS_PER_MINUTE + code) / 5)


def reading_paths_cell() -> dict:
    """The index notebook's study guide: each reading path as a numbered table with the time
    of each notebook and what it needs."""
    titles = {nb.path: nb.title for nb in chapters()}
    lines = ["## Reading paths", "",
             "Three ways through the companion. Each notebook needs the ones before it on its "
             "path; the times are estimates (prose at "
             f"{WORDS_PER_MINUTE} words a minute, plus a minute for each code cell).", ""]
    for name, (what, steps) in READING_PATHS.items():
        total = sum(minutes(p) for p in steps)
        lines += [f"### {name}: {what} (about {total // 60} h {total % 60:02d} min)", "",
                  "| | Notebook | Time | Needs |", "| --- | --- | --- | --- |"]
        for k, path in enumerate(steps, start=1):
            needs = f"step {k - 1}" if k > 1 else "the book's section, open beside it"
            title = titles.get(path, path)
            lines.append(f"| {k} | [{title}]({path}) | {minutes(path)} min | {needs} |")
        lines.append("")
    return {"cell_type": "markdown", "id": "reading-paths", "metadata": {},
            "source": "\n".join(lines).rstrip().splitlines(keepends=True)}


def chapters() -> list[Notebook]:
    """Every chapter notebook in the order of the table: the books' chapters, then the
    notebooks beyond them."""
    return [*(notebook for notebook, _ in examples.notebooks()), *BEYOND_THE_BOOKS]


def notebook_paths() -> list[str]:
    """Every notebook the index lists, as paths relative to ``chapters/``, in its order (the
    list the browser tests go over, so that a new notebook is checked once it is listed)."""
    return [nb.path for nb in chapters()]


def readme_table() -> str:
    """The README's chapter table: text, a Binder link to the notebook, what one does there."""
    lines = ["| Text | Notebook | What you do there |", "| --- | --- | --- |"]
    for nb in chapters():
        lines.append(f"| {nb.source} | [{nb.title}]({BINDER}{nb.path}) | {nb.summary} |")
    return "\n".join(lines)


def index_cell(book: str) -> dict:
    """The index notebook's contents cell of one book: links relative to chapters/."""
    cell_id, heading, note = _SECTIONS[book]
    lines = [heading, ""] + ([note, ""] if note else [])
    lines += ["| Notebook | What you do there |", "| --- | --- |"]
    lines += [f"| [{nb.title}]({nb.path}) | {nb.summary} |" for nb in chapters() if nb.book == book]
    text = "\n".join(lines)
    return {"cell_type": "markdown", "id": cell_id, "metadata": {},
            "source": text.splitlines(keepends=True)}


def readme_badge() -> str:
    """The README's Binder badge, and where to change the repository it names."""
    return (f"[![Binder](https://mybinder.org/badge_logo.svg)]({BINDER}index.ipynb)\n\n"
            f"*The badge and every link on this page name the repository `{REPOSITORY}`; for a "
            "copy of your own, change `REPOSITORY` in `tools/chapter_index.py` "
            "and run `make index`, which rewrites them all.*")


def hub_link() -> str:
    """The README's nbgitpuller link (a code block), for the repository's main branch."""
    name = REPOSITORY.split("/")[1]
    return ("  ```\n  https://<your-hub>/hub/user-redirect/git-pull?repo="
            f"{quote(f'https://github.com/{REPOSITORY}', safe='')}&branch=main&urlpath="
            f"{quote(f'lab/tree/{name}/chapters/index.ipynb', safe='')}\n  ```")


def _between(text: str, name: str, body: str) -> str:
    """``text`` with what lies between ``<!-- name:begin -->`` and ``<!-- name:end -->``
    replaced by ``body``."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if begin not in text or end not in text:
        raise ValueError(f"the README has no {begin} … {end} markers")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{body}\n{end}{tail}"


def readme_text(current: str) -> str:
    """``current`` with the table (and the sentence explaining "reconstructed" above it), the
    badge and the hub link between their markers replaced."""
    text = _between(current, "chapters", f"{RECONSTRUCTED}\n\n{readme_table()}")
    return _between(_between(text, "badge", readme_badge()), "hub-link", hub_link())


def index_text(current: str) -> str:
    """The index notebook ``current`` with its two contents cells regenerated."""
    nb = json.loads(current)
    ids = {cell_id for cell_id, _, _ in _SECTIONS.values()} | {"reading-paths"}
    cells = [c for c in nb["cells"] if c.get("id") not in ids]
    # the reading paths and the contents follow the introduction, before the closing cells
    nb["cells"] = (cells[:1] + [reading_paths_cell()]
                   + [index_cell(book) for book in _SECTIONS] + cells[1:])
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    stale = []
    for path, render in ((README, readme_text), (INDEX, index_text)):
        current = path.read_text(encoding="utf-8")
        wanted = render(current)
        if wanted != current:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(wanted, encoding="utf-8")
    if args.check and stale:
        print("stale: " + ", ".join(map(str, stale)) + " (run `make index`)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
