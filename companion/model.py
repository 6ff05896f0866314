"""The numeric model protocol: what the explorer, :func:`companion.explore` and the scenes use.

A widget needs a system's numbers, not its derivation: a name and a title, the parameters
and initial values it may set (each a :class:`~companion.system.Parameter`, with its default,
slider range and unit), and a ``simulate`` that turns chosen values into a
:class:`~companion.numerics.Trajectory`.  :class:`Model` is that contract and nothing more, so
a model that is not a :class:`~companion.system.System` — a closed-form motion, a hybrid
simulator with its own modes — drives the same widgets.  Parts are composed, not subclassed,
as pydy's ``System(eom_method, ode_solver)`` composes its method and its solver: a System is
one way to satisfy the protocol (its derivation gives the right-hand side), not the only one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from companion.numerics import Trajectory
    from companion.system import Parameter


@runtime_checkable
class Model(Protocol):
    """Something the widgets can explore: named numbers in, a simulated motion out.

    Attributes
    ----------
    name
        Short identifier (registry name, key of the explorers' lifecycle).
    title
        Human-readable title (figure alt text, headings).
    parameters
        The physical parameters, each with default, slider range, unit and sign rule.
    initial
        The initial conditions, named like the states of the trajectory they start.

    Notes
    -----
    ``isinstance(x, Model)`` checks that the members exist, not their types or
    ``simulate``'s signature (a limit of :func:`typing.runtime_checkable`).
    """

    name: str
    title: str
    parameters: Sequence[Parameter]
    initial: Sequence[Parameter]

    def simulate(self, t_final: float | None = None,
                 params: Mapping[Any, Any] | None = None,
                 initial: Mapping[Any, Any] | None = None, *,
                 n_points: int | None = None, **options: Any) -> Trajectory:
        """The motion from chosen values.

        Parameters
        ----------
        t_final, n_points
            Simulated time (from t = 0) and number of samples; ``None``: the model's own.
        params, initial
            Parameter and initial values keyed by name or by Symbol (``{"l": 2.0}`` or
            ``{l: 2.0}``); the ones not given keep their defaults.
        **options
            Options the model documents (an integrator's, for instance); unknown ones are
            refused, never ignored.

        Returns
        -------
        Trajectory
            The samples from t = 0 to ``t_final``, states by name, the parameter values used
            in ``params``.

        Raises
        ------
        ValueError
            A value refused (unknown name, not a finite real number, outside the sign its
            :class:`~companion.system.Parameter` allows) or a motion that cannot be computed;
            the message names what to change.
        """
        ...


__all__ = ["Model"]
