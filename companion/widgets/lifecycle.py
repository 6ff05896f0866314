"""Freeing widgets: ipywidgets keeps every widget in its registry until it is closed, and a
notebook cell run again leaves what its earlier run built alive (IPython's output history
``_5``, ``Out[5]`` keeps the object its last line showed) unless it is closed."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as w
from IPython import get_ipython  # None outside IPython
from matplotlib._pylab_helpers import Gcf  # pyplot's list of figures (its documented helper)
from matplotlib.figure import Figure


def close_tree(widget: w.Widget) -> None:
    """Close a widget and every widget inside it (frees them in the front end and in the
    kernel's widget registry, which otherwise keeps them for the whole session).  An ipympl
    canvas's toolbar is a widget of its own, not a child, that refers back to the canvas and
    so to the figure: it is closed too.  So are each widget's ``layout`` and ``style``, which
    ipywidgets registers as widgets of their own and does not close with their owner (56 of
    them stayed registered per rebuilt disk–link explorer, about 0.6 MB each time)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    for part in ("toolbar", "layout", "style"):
        owned = getattr(widget, part, None)
        if isinstance(owned, w.Widget):
            close_tree(owned)  # the toolbar has a layout of its own
    widget.close()


@contextmanager
def quietly(owner: Any) -> Iterator[None]:
    """``owner._quiet`` true until the block ends: the widget changes made in it are the
    owner's own, which its observers let pass."""
    owner._quiet = True
    try:
        yield
    finally:
        owner._quiet = False


# ------------------------------------------------------------------ owned by a notebook cell
#: What each notebook cell built that must go when the cell runs again, by cell id: weak
#: references to the ``close`` methods of its explorers and scenes, and to the pyplot
#: figures it opened.
_BUILT_BY: dict[str, list[weakref.ref]] = {}
#: The execution counts of each cell's earlier runs, whose results IPython's output history
#: keeps (``Out[5]``, ``_5``): a canvas shown there keeps its figure after it is closed.
_RUNS_OF: dict[str, list[int]] = {}
#: The shells watched (by id), and the pyplot figures open when the running cell started.
_watched: set[int] = set()
_figures_before: set[int] = set()


def running_cell() -> str | None:
    """The id of the notebook cell that runs now (JupyterLab, Notebook 7 and VS Code send it
    with the request to execute), or None outside a kernel or without one (a script, a test,
    nbclient)."""
    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return None
    cell = (kernel.get_parent() or {}).get("metadata", {}).get("cellId")
    return str(cell) if cell else None


def close_when_rerun(close: Callable[[], None]) -> str | None:
    """Call ``close`` (a bound method, held weakly) when the cell running now runs again, its
    earlier output replaced (what other cells built stays); return that cell's id (None
    outside a notebook cell: nothing is registered).  See :func:`watch_cells`."""
    cell = running_cell()
    if cell is None or not watch_cells():
        return None
    _BUILT_BY.setdefault(cell, []).append(weakref.WeakMethod(close))
    return cell


def watch_cells() -> bool:
    """Close what a notebook cell built when it runs again (:func:`close_when_rerun`), the
    pyplot figures it opened included (a re-run ``fig, ax = plt.subplots()`` cell otherwise
    keeps every earlier figure in pyplot's list), and drop its earlier results from IPython's
    output history (``Out[5]`` and ``_5``; the page has replaced them): a ``fig.canvas``
    kept there would keep its figure.  Idempotent; False outside IPython."""
    shell = get_ipython()
    if shell is None:
        return False
    if id(shell) not in _watched:
        shell.events.register("pre_run_cell", _cell_starts)
        shell.events.register("post_run_cell", _cell_ended)
        _watched.add(id(shell))
    return True


def _cell_starts(info: Any) -> None:
    import matplotlib.pyplot as plt  # here: importing pyplot early would fix its backend

    cell = getattr(info, "cell_id", None) or ""
    shell = get_ipython()
    history = getattr(getattr(shell, "history_manager", None), "output_hist", {})
    for n in _RUNS_OF.pop(cell, []):
        history.pop(n, None)
        for names in (shell.user_ns, shell.user_ns_hidden):  # IPython puts ``_5`` in both
            names.pop(f"_{n}", None)
    for ref in _BUILT_BY.pop(cell, []):
        built = ref()
        if isinstance(built, Figure):
            if isinstance(built.canvas, w.Widget):  # ipympl's: its toolbar holds it
                close_tree(built.canvas)
            plt.close(built)
        elif built is not None:
            built()  # a close method
    _figures_before.clear()
    _figures_before.update(id(f) for f in _pyplot_figures())


def _cell_ended(result: Any) -> None:
    cell = getattr(getattr(result, "info", None), "cell_id", None)
    if cell:
        if result.execution_count is not None:
            _RUNS_OF.setdefault(cell, []).append(result.execution_count)
        _BUILT_BY.setdefault(cell, []).extend(
            weakref.ref(f) for f in _pyplot_figures() if id(f) not in _figures_before)


def _pyplot_figures() -> list[Figure]:
    """The figures in pyplot's list (by object: a figure's number is reused once closed)."""
    return [manager.canvas.figure for manager in Gcf.get_all_fig_managers()]


watch_cells()  # from the first import in a notebook: its figures are watched from then on
