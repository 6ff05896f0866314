"""The notebooks teach (issue #27, §2–§3): displayed laws, predictions first, a lesson's shape.

Checks on the notebooks' text and cell order only; nothing is executed (tests/test_notebooks.py
runs them).  Cells that pose a prediction carry the tag ``predict`` in their metadata, the cells
that answer it (the explorer, the scene, the prose that explains) the tag ``answers-prediction``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"

#: Greenwood's notebooks and the diagram each shows (``None``: the reader's own system, no figure).
GREENWOOD = {
    "greenwood-04/knife-edge.ipynb": "diagram-knife_edge.png",
    "greenwood-04/knife-edge-by-hand.ipynb": "diagram-knife_edge.png",
    "greenwood-04/boltzmann-hamel.ipynb": "diagram-polar_spring.png",
    "greenwood-04/boltzmann-hamel-rheonomic.ipynb": "diagram-moving_carriage.png",
    "greenwood-04/euler-rigid-body.ipynb": "diagram-euler_body.png",
    "greenwood-04/general-dynamical-equation.ipynb": "diagram-dumbbell_rigid.png",
    "greenwood-04/methods-compared.ipynb": "diagram-knife_edge.png",
    "greenwood-04/whipple-bicycle.ipynb": "diagram-whipple_bicycle.png",
    "workbench.ipynb": None,
}
GREENWOOD_IDS = list(GREENWOOD)

_DISPLAY = re.compile(r"\$\$.+?\$\$", re.S)
_LINK = re.compile(r"\]\(([^)\s]+?\.ipynb)(#[^)]*)?\)")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")


def _greenwood_notebook(name: str) -> nbformat.NotebookNode:
    return nbformat.read(CHAPTERS / name, as_version=4)


def _greenwood_markdown(name: str) -> list[str]:
    return [c.source for c in _greenwood_notebook(name).cells if c.cell_type == "markdown"]


def displayed_equations(markdown: str) -> int:
    """Displayed equations in a markdown text: ``$$ … $$`` blocks, ``\\begin{…}`` outside them."""
    blocks = _DISPLAY.findall(markdown)
    return len(blocks) + len(re.findall(r"\\begin\{", _DISPLAY.sub("", markdown)))


def prediction_order_errors(tags: list[list[str]]) -> list[str]:
    """What is wrong with the order of prediction cells, given each cell's tags in order.

    The first tagged cell must pose a prediction; every prediction must be answered by at least
    one ``answers-prediction`` cell after it and before the next prediction.
    """
    errors: list[str] = []
    open_at: int | None = None
    answered = True
    for i, cell_tags in enumerate(tags):
        if "predict" in cell_tags:
            if open_at is not None and not answered:
                errors.append(f"the prediction in cell {open_at} is never answered")
            open_at, answered = i, False
        elif "answers-prediction" in cell_tags:
            if open_at is None:
                errors.append(f"cell {i} answers a prediction no earlier cell has posed")
            answered = True
    if open_at is None:
        errors.append("no cell is tagged 'predict'")
    elif not answered:
        errors.append(f"the prediction in cell {open_at} is never answered")
    return errors


def test_greenwood_prediction_order_check_can_fail():
    assert prediction_order_errors([["predict"], [], ["answers-prediction"]]) == []
    assert prediction_order_errors([["answers-prediction"], ["predict"]])
    assert prediction_order_errors([["predict"], ["predict"], ["answers-prediction"]])
    assert prediction_order_errors([[], []])
    assert displayed_equations("a $$x$$ b $$\n y \n$$ c") == 2


@pytest.mark.parametrize("name", GREENWOOD_IDS)
def test_greenwood_shows_the_laws_as_displayed_equations(name):
    counts = [displayed_equations(text) for text in _greenwood_markdown(name)]
    assert sum(counts) >= 3, f"{name}: {sum(counts)} displayed equations in its prose, want ≥ 3"


@pytest.mark.parametrize("name", GREENWOOD_IDS)
def test_greenwood_predictions_precede_their_answers(name):
    tags = [list(c.metadata.get("tags", [])) for c in _greenwood_notebook(name).cells]
    assert prediction_order_errors(tags) == [], name


@pytest.mark.parametrize("name", GREENWOOD_IDS)
def test_greenwood_has_the_shape_of_a_lesson(name):
    markdown = _greenwood_markdown(name)
    headings = [line.lstrip("#").strip().lower() for text in markdown
                for line in text.splitlines() if line.startswith("#")]
    for wanted in ("what you will learn", "what you need", "recap", "where next"):
        assert any(h.startswith(wanted) for h in headings), f"{name}: no heading '{wanted}'"
    folder = (CHAPTERS / name).parent
    links = [m.group(1) for text in markdown for m in _LINK.finditer(text)
             if not m.group(1).startswith(("http:", "https:"))]
    assert links, f"{name}: links to no other notebook"
    broken = [link for link in links if not (folder / link).resolve().is_file()]
    assert not broken, f"{name}: links to notebooks that do not exist: {broken}"


@pytest.mark.parametrize("name", [n for n, image in GREENWOOD.items() if image])
def test_greenwood_shows_the_diagram_of_its_example(name):
    folder = (CHAPTERS / name).parent
    images = {Path(m.group(2)).name: (m.group(1), m.group(2))
              for text in _greenwood_markdown(name) for m in _IMAGE.finditer(text)}
    wanted = GREENWOOD[name]
    assert wanted in images, f"{name}: does not show ../images/{wanted}"
    alt, path = images[wanted]
    assert len(alt.split()) >= 5, f"{name}: the figure {wanted} needs a description, not {alt!r}"
    if not (folder / path).resolve().is_file():
        pytest.skip(f"{wanted} is not generated on this branch yet (helper teachpkg draws it)")


# --- widget predictions (issue 37, §3): a "Predict" exercise sits before the cell answering it ---

ALL_NOTEBOOKS = sorted(str(p.relative_to(CHAPTERS)) for p in CHAPTERS.rglob("*.ipynb")
                       if ".ipynb_checkpoints" not in p.parts)


def literal_calls(source: str, function: str = "show_exercises",
                  module: str = "examples") -> list[tuple[str, dict]]:
    """The ``<module>.<function>(name, …)`` calls of a code cell (``examples.show_exercises``,
    ``examples.explorer``, ``practice.show``), in order, as (name, keyword arguments) with
    literal arguments."""
    import ast

    python = "\n".join(line for line in source.splitlines()
                       if not line.lstrip().startswith(("%", "!")))  # IPython magics
    return [(ast.literal_eval(node.args[0]),
             {k.arg: ast.literal_eval(k.value) for k in node.keywords})
            for node in ast.walk(ast.parse(python))
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == function and isinstance(node.func.value, ast.Name)
                and node.func.value.id == module)]


def shown_exercises(source: str) -> list[tuple[str, list[str] | None, list[str]]]:
    """The ``examples.show_exercises(name, only=…, skip=…)`` calls of a code cell, as
    (name, only, skip)."""
    return [(name, keywords.get("only"), list(keywords.get("skip", ())))
            for name, keywords in literal_calls(source)]


def widget_prediction_errors(cells: list[tuple[list[str], list[str]]]) -> list[str]:
    """What is wrong with where widget predictions sit, given each cell's (tags, keys of the
    "predict" exercises it shows): every such cell must follow a cell tagged ``predict`` with no
    ``answers-prediction`` cell between them, and an ``answers-prediction`` cell must follow it."""
    errors = []
    for i, (_, predicts) in enumerate(cells):
        if not predicts:
            continue
        before = [t for t, _ in cells[:i] if {"predict", "answers-prediction"} & set(t)]
        if not before or "predict" not in before[-1]:
            errors.append(f"cell {i} shows the prediction(s) {predicts} after their answer "
                          "(or with no 'predict' cell before it)")
        if not any("answers-prediction" in t for t, _ in cells[i + 1:]):
            errors.append(f"cell {i} shows the prediction(s) {predicts}, and no cell answers it")
    return errors


def test_widget_prediction_check_can_fail():
    p, a = ["predict"], ["answers-prediction"]
    assert widget_prediction_errors([(p, []), ([], ["k"]), (a, [])]) == []
    assert widget_prediction_errors([(p, []), (a, []), ([], ["k"])])  # after its answer
    assert widget_prediction_errors([([], ["k"]), (a, [])])           # nothing posed before
    assert widget_prediction_errors([(p, []), ([], ["k"])])           # never answered
    assert shown_exercises('examples.show_exercises("x", only=["a"])\nf()') == [("x", ["a"], [])]


@pytest.mark.parametrize("name", ALL_NOTEBOOKS)
def test_widget_predictions_precede_their_answers(name):
    from companion.examples import exercises_for

    cells = []
    for c in nbformat.read(CHAPTERS / name, as_version=4).cells:
        predicts = []
        if c.cell_type == "code":
            for example, only, skip in shown_exercises(c.source):
                predicts += [e.key for e in exercises_for(example)
                             if getattr(e, "kind", "") == "predict"
                             and (only is None or e.key in only) and e.key not in skip]
        cells.append((list(c.metadata.get("tags", [])), predicts))
    assert widget_prediction_errors(cells) == [], name


def test_show_exercises_only_and_skip(monkeypatch):
    from companion import examples

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda box: shown.append(box))
    examples.show_exercises("knife_edge", only=["turning", "backwards"])
    examples.show_exercises("knife_edge", skip=["turning", "backwards"])
    first, rest = ([e.key for e in box.exercise_set] for box in shown)
    assert first == ["turning", "backwards"] and not {"turning", "backwards"} & set(rest)
    assert len(first) + len(rest) == len(examples.exercises_for("knife_edge"))
    with pytest.raises(ValueError, match="'knife_edge' has no exercise 'nope'; known: C1"):
        examples.show_exercises("knife_edge", skip=["nope"])


# --- one sitting per notebook (issue 37, §3): about 1 800 words of prose at most --------------

#: Words of prose a notebook may have: what a student reads in one sitting.
PROSE_WORDS = 1800


def prose_words(markdown: str) -> int:
    """Words of prose in a notebook's markdown: displayed equations (``$$ … $$``) and HTML
    tags do not count, everything else (headings, lists, folded solutions) does."""
    return len(re.sub(r"<[^>]+>", " ", _DISPLAY.sub(" ", markdown)).split())


def test_prose_word_count_can_fail():
    assert prose_words("one two $$x + y = z$$ three <b>four</b>") == 4
    assert prose_words("word " * (PROSE_WORDS + 1)) > PROSE_WORDS


@pytest.mark.parametrize("name", [n for n in ALL_NOTEBOOKS if n != "index.ipynb"])
def test_a_notebook_is_one_sitting(name):
    """A student's sitting: the lecturer's presenter notes (hidden in lecture mode) do not count."""
    words = prose_words("\n".join(c.source for c in _greenwood_notebook(name).cells
                                  if c.cell_type == "markdown"
                                  and "presenter-notes" not in c.metadata.get("tags", [])))
    assert words <= PROSE_WORDS, f"{name}: {words} words of prose, want ≤ {PROSE_WORDS}: split it"


# --- retrieval practice (issue 37, §3): each notebook opens with questions on the notebooks
# before it on its reading paths, checked by the exercise engine.  A retrieval cell declares
# where its questions come from by linking those notebooks in its text (the cell tagged
# ``retrieval`` in markdown); each question must be one a linked, earlier notebook shows. ------

def _shown(name: str, retrieval: bool) -> list[tuple[str, list[str] | None]]:
    """(example, keys) of the exercise sets a notebook shows in its retrieval cells, or in the
    others."""
    return [(example, only)
            for c in nbformat.read(CHAPTERS / name, as_version=4).cells if c.cell_type == "code"
            if ("retrieval" in c.metadata.get("tags", [])) == retrieval
            for example, only, _ in shown_exercises(c.source)]


def notebooks_before(name: str) -> set[str]:
    """The notebooks before ``name`` on every reading path it is on (paths under chapters/)."""
    from tools.chapter_index import READING_PATHS

    return {step for _, steps in READING_PATHS.values() if name in steps
            for step in steps[:steps.index(name)]}


def _taught() -> dict[tuple[str, str], set[str]]:
    """(example, exercise key) → the notebooks that show that exercise outside retrieval cells."""
    from companion.examples import exercises_for

    taught: dict[tuple[str, str], set[str]] = {}
    for name in ALL_NOTEBOOKS:
        for c in nbformat.read(CHAPTERS / name, as_version=4).cells:
            if c.cell_type != "code" or "retrieval" in c.metadata.get("tags", []):
                continue
            for example, only, skip in shown_exercises(c.source):
                for e in exercises_for(example):
                    if (only is None or e.key in only) and e.key not in skip:
                        taught.setdefault((example, e.key), set()).add(name)
    return taught


def retrieval_source_errors(links: list[str], items: list[tuple[str, str]], before: set[str],
                            taught: dict[tuple[str, str], set[str]]) -> list[str]:
    """What is wrong with where a notebook's retrieval questions come from, given the notebooks
    its retrieval text links, the questions (example, key) it asks, the notebooks before it on
    its reading paths, and where each question is taught."""
    errors = [f"links {link}, which is not before it on a reading path it is on"
              for link in links if link not in before]
    for example, key in items:
        sources = taught.get((example, key), set())
        if not sources & set(links) & before:
            errors.append(f"asks {example}.{key}, shown in {sorted(sources)}: none of them is an "
                          "earlier notebook on its path that its retrieval text links")
    return errors


def test_retrieval_source_check_can_fail():
    taught = {("a", "k"): {"one.ipynb"}}
    assert retrieval_source_errors(["one.ipynb"], [("a", "k")], {"one.ipynb"}, taught) == []
    assert retrieval_source_errors(["one.ipynb"], [("a", "k")], set(), taught)  # not before it
    assert retrieval_source_errors(["two.ipynb"], [("a", "k")], {"one.ipynb", "two.ipynb"},
                                   taught)  # links a notebook, asks about another
    assert retrieval_source_errors(["one.ipynb"], [("a", "x")], {"one.ipynb"}, taught)  # untaught
    assert notebooks_before("greenwood-04/boltzmann-hamel.ipynb") == set()
    assert "greenwood-04/knife-edge.ipynb" in notebooks_before("loparo-07/nonholonomic.ipynb")
    assert "greenwood-04/general-dynamical-equation.ipynb" not in \
        notebooks_before("loparo-07/nonholonomic.ipynb")


@pytest.mark.parametrize("name", ALL_NOTEBOOKS)
def test_retrieval_questions_draw_on_earlier_notebooks_of_its_reading_paths(name):
    from companion.examples import exercises_for

    cells = nbformat.read(CHAPTERS / name, as_version=4).cells
    tagged = [j for j, c in enumerate(cells) if "retrieval" in c.metadata.get("tags", [])]
    before = notebooks_before(name)
    if not before:  # first on every path it is on (or on none): nothing to retrieve
        assert not tagged, f"{name} has no notebook before it on a reading path: no retrieval"
        return
    assert tagged and max(tagged) < 6, f"{name}: no retrieval questions at its top"
    items = [(example, key) for example, only in _shown(name, retrieval=True)
             for key in only or ()]
    assert 2 <= len(items) <= 3, f"{name}: {len(items)} retrieval questions, want 2 or 3"
    for example, key in items:
        exercise = exercises_for(example)[key]  # a KeyError names the known keys
        assert getattr(exercise, "kind", "compute") != "predict", (name, key)
    folder = (CHAPTERS / name).parent
    links = [str((folder / m.group(1)).resolve().relative_to(CHAPTERS.resolve()))
             for j in tagged if cells[j].cell_type == "markdown"
             for m in _LINK.finditer(cells[j].source)]
    assert links, f"{name}: its retrieval text links no notebook the questions come from"
    assert retrieval_source_errors(links, items, before, _taught()) == [], name


# --- every derivation in plain view (issue 37, §2): the plain-sympy cells agree with the engine --

PLAIN_CELLS = {  # notebook → (cell id, what its last printed line must say)
    "greenwood-04/euler-rigid-body.ipynb": ("er-byhand", "(4.100)–(4.102): True"),
    "greenwood-04/boltzmann-hamel.ipynb": ("bh-maggi", "of (4.85): [0, 0]"),
    "loparo-07/bridge-constraints.ipynb": ("br-kane", "equal to Kane's M u̇ − f: True"),
    "loparo-07/nonholonomic.ipynb": ("nh-byhand", "minus Xᵀσ(q̈ + Γ̃(q̇, q̇)): [0, 0]"),
    "greenwood-04/whipple-bicycle.ipynb": ("wb-byhand", "engine's M u̇ − f of (4.109): [0, 0]"),
    "loparo-07/disk-link-friction.ipynb": ("dlf-byhand", "they agree to 1e-9 s: True"),
}


@pytest.mark.parametrize("name", PLAIN_CELLS)
def test_plain_sympy_cell_agrees_with_the_engine(name, capsys):
    import sympy as sp

    from companion import examples

    cell_id, wanted = PLAIN_CELLS[name]
    source = next(c.source for c in nbformat.read(CHAPTERS / name, as_version=4).cells
                  if c.get("id") == cell_id)
    system = examples.get("euler_body")
    namespace = {"sp": sp, "Math": str, "display": lambda *a: None, "examples": examples,
                 "system": system, "derivation": system.derive("boltzmann_hamel")}
    exec(compile(source, f"{name}:{cell_id}", "exec"), namespace)
    assert capsys.readouterr().out.strip().splitlines()[-1].endswith(wanted), name
