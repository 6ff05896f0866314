"""Entry points for a reader's own system that reach above the system layer: the §4.4 cost
comparison by example name or system, and a generic explorer (``from companion import
compare_methods, explore``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion import examples
from companion.mechanics.comparison import ComparisonTable
from companion.mechanics.comparison import compare_methods as _compare
from companion.model import Model, as_model
from companion.system import ParameterTable, System


def compare_methods(systems: Sequence[System | str] | None = None,
                    methods: Sequence[str] | None = None) -> ComparisonTable:
    """The §4.4 comparison (:func:`companion.mechanics.comparison.compare_methods`) of
    ``methods`` on ``systems``: any :class:`System`, or worked examples by name (default:
    every worked example that is a System), or one of them alone.

    Raises
    ------
    TypeError
        A worked example named that is a model of its own, not a System (the disk on the
        link, whose ``derive`` has its own cross-check), or neither a System nor a name.
    """
    if isinstance(systems, (System, str)):  # one system alone
        systems = [systems]
    if systems is None:
        chosen = [s for s in map(examples.get, examples.names()) if isinstance(s, System)]
    else:
        chosen = [examples.get(s) if isinstance(s, str) else s for s in systems]
    for given, system in zip(systems or chosen, chosen, strict=True):
        if isinstance(given, str) and not isinstance(system, System):
            raise TypeError(
                f"{given} is a model of its own ({type(system).__name__}), not a System: the "
                "§4.4 comparison forms every method from a System's definition; "
                f"examples.get({given!r}).derive(…) gives its own derivations")
    return _compare(chosen, methods)


def explore(system: Model, params: Mapping[Any, Any] | None = None,
            initial: Mapping[Any, Any] | None = None, **simulate_kwargs):
    """A generic :class:`~companion.widgets.Explorer` of ``system``, a :class:`System` or any
    other :class:`~companion.model.Model`: a slider for every parameter and initial value,
    the coordinates against time (every state, for a model that is not a System; and the
    path when there are ``x``/``y`` coordinates or series) and the drift of its invariants.

    ``params`` and ``initial`` (by name or Symbol, as for :meth:`System.simulate`) are where
    the sliders start; the other keywords (``t_final``, ``method`` …) go to every simulation.

    Raises
    ------
    TypeError
        ``system`` is not a :class:`~companion.model.Model`.
    ValueError
        Unknown names, or start values the explorer refuses (outside a slider's range).
    """
    from companion.widgets.explorer import Explorer
    from companion.widgets.timeseries import TimeSeriesView, first_controls

    system = as_model(system, "explore")
    start = {**ParameterTable(tuple(system.parameters)).by_name(params),
             **ParameterTable(tuple(system.initial), "initial condition(s)",
                              "initial").by_name(initial)}
    # a System names its coordinates; another model's states are all shown
    if isinstance(system, System):
        view, essential = TimeSeriesView.for_system(system), first_controls(system)
    else:
        view, essential = TimeSeriesView(), None
    explorer = Explorer(system, view, essential=essential, simulate_kwargs=simulate_kwargs)
    if start and explorer.update(**start) is None:
        explorer.close()
        raise ValueError(f"explore({system.name}): {explorer.error}")
    return explorer


__all__ = ["compare_methods", "explore"]
