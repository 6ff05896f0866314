"""The numeric model protocol: what the explorer, :func:`companion.explore` and the scenes use.

A widget needs a system's numbers, not its derivation: a name and a title, the parameters
and initial values it may set (each a :class:`~companion.system.Parameter`, with its default,
slider range and unit), and a ``simulate`` that turns chosen values into a
:class:`~companion.numerics.Trajectory`.  :class:`Model` is that contract and nothing more, so
a model that is not a :class:`~companion.system.System` — a closed-form motion, a hybrid
simulator with its own modes (the disk on the link,
:class:`~companion.examples.disk_link.model.DiskLink`) — drives the same widgets.  Parts
are composed, not subclassed, as pydy's ``System(eom_method, ode_solver)`` composes its
method and its solver: a System is one way to satisfy the protocol (its derivation gives the
right-hand side), not the only one.
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

    Notes
    -----
    The four data members are read-only properties here, so that plain attributes satisfy
    them, a list where a sequence is asked too.  ``isinstance(x, Model)`` checks that the
    members exist, not their types or ``simulate``'s signature (a limit of
    :func:`typing.runtime_checkable`).
    """

    @property
    def name(self) -> str:
        """Short identifier (registry name, key of the explorers' lifecycle)."""
        ...

    @property
    def title(self) -> str:
        """Human-readable title (figure alt text, headings)."""
        ...

    @property
    def parameters(self) -> Sequence[Parameter]:
        """The physical parameters, each with default, slider range, unit and sign rule."""
        ...

    @property
    def initial(self) -> Sequence[Parameter]:
        """The initial conditions, each with default, slider range and unit."""
        ...

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


def as_model(obj: Any, who: str) -> Model:
    """``obj``, or a ``TypeError`` saying that ``who`` (e.g. "an Explorer") needs a
    :class:`Model` and what one is."""
    if not isinstance(obj, Model):
        raise TypeError(f"{who} needs a Model: a System, or any object with name, title, "
                        "parameters, initial and simulate (companion.Model); got "
                        f"{type(obj).__name__} {obj!r}")
    return obj


__all__ = ["Model", "as_model"]
