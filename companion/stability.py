"""Stability of a steady motion against one number: where it changes (critical values).

The general form of the bicycle's self-stable speeds (Meijaard et al. 2007, Table 2): for any
:class:`~companion.system.System`, linearize about a steady motion
(:meth:`~companion.system.System.linearize`: δẋ = A δx, cyclic coordinates left out) at each
value of a parameter or of a nominal value (a spin rate, a forward speed), take the
eigenvalues of A, call the motion stable when no eigenvalue has a real part above
``tolerance``, and locate each change of stability between two sampled values by Brent's
method on the largest real part (ours: the companion's own tool, not a result of the books).

A conservative system (the rolling disk) is at best marginally stable, its eigenvalues on the
imaginary axis; ``tolerance`` (default 1e-6, far above the linearization's errors of about
1e-12) tells that from growth.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import sympy as sp

from companion.system import System, key_name

#: A steady motion as a function of the varied value (the bicycle's u₃ = v / r_R, say).
Nominal = Mapping[Any, Any] | Callable[[float], Mapping[Any, Any]]


@dataclass(frozen=True)
class StabilitySweep:
    """Eigenvalues of a steady motion (one row per sampled value of ``varied``, sorted by real
    then imaginary part), whether it is ``stable`` there (no real part above the tolerance),
    and the ``critical`` values between the samples where stability changes."""

    varied: str
    values: np.ndarray
    eigenvalues: np.ndarray
    stable: np.ndarray
    critical: list[float]


def eigenvalues_at(system: System, vary: str | sp.Symbol, value: float, *,
                   nominal: Nominal | None = None, params: Mapping[Any, Any] | None = None,
                   cyclic: Sequence[str | sp.Symbol] = (),
                   states: Sequence[str | sp.Symbol] | None = None,
                   method: str | None = None) -> np.ndarray:
    """Eigenvalues of the linear equations about the steady motion with ``vary`` = ``value``,
    sorted by real then imaginary part (see :func:`stability_sweep` for the arguments)."""
    varied, value = _varied(system, vary), float(value)
    steady = dict(system.initial_table.by_name(nominal(value) if callable(nominal)
                                               else nominal))
    pv = dict(system.parameter_table.by_name(params))
    (pv if varied in system.parameter_table.names else steady)[varied] = value
    lin = system.linearize(steady, pv, cyclic=cyclic, method=method)
    if states is not None:
        names = [key_name(s, "an entry of states") for s in states]
        unknown = sorted(set(names) - set(lin.states))
        if unknown:
            raise ValueError(f"states names {', '.join(unknown)}, not states of the linear "
                             f"equations of {system.name}: {', '.join(lin.states)}")
        index = [lin.states.index(n) for n in names]
        lin = replace(lin, A=lin.A[np.ix_(index, index)])
    return lin.eigenvalues()


def _varied(system: System, vary: str | sp.Symbol) -> str:
    name = key_name(vary, "vary")
    known = [*system.parameter_table.names, *system.initial_table.names]
    if name not in known:
        raise ValueError(f"vary names {name}, neither a parameter nor a coordinate or speed of "
                         f"{system.name}: {', '.join(known)}")
    return name


def stability_sweep(system: System, vary: str | sp.Symbol, values: Sequence[float], *,
                    nominal: Nominal | None = None, params: Mapping[Any, Any] | None = None,
                    cyclic: Sequence[str | sp.Symbol] = (),
                    states: Sequence[str | sp.Symbol] | None = None,
                    tolerance: float = 1e-6, method: str | None = None) -> StabilitySweep:
    """The stability of a steady motion at each of ``values`` of one number, and the critical
    values between them where it changes.

    Parameters
    ----------
    vary
        The number varied, by name or Symbol: a parameter, or a coordinate or speed of the
        steady motion (the rolling disk's spin rate).
    values
        Increasing values to sample; each change of stability between two neighbours is
        located to about 1e-12 of the value.
    nominal, params, cyclic, method
        As for :meth:`System.linearize`; ``nominal`` may also be a function of the value
        returning the steady motion (the bicycle's ``lambda v: {"u_3": v / r_R}``).
    states
        Only these states' block of A (names of :attr:`Linearization.states`), e.g. the
        bicycle's lean and steer when its forward speed's own zero eigenvalue is not of
        interest; default all.
    tolerance
        Largest real part taken as no growth (≥ 0).

    Raises
    ------
    ValueError
        Fewer than two values, values not increasing, a negative tolerance, unknown names,
        or a nominal motion that is not steady.
    """
    from scipy.optimize import brentq

    varied = _varied(system, vary)
    try:
        grid = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"values must be numbers, got {values!r}") from exc
    if grid.ndim != 1 or grid.size < 2 or not np.all(np.diff(grid) > 0):
        raise ValueError(f"values must be at least two increasing numbers, got {values!r}")
    if not (isinstance(tolerance, numbers.Real) and np.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"tolerance must be a number ≥ 0, got {tolerance!r}")

    def spectrum(v: float) -> np.ndarray:
        return eigenvalues_at(system, varied, v, nominal=nominal, params=params,
                              cyclic=cyclic, states=states, method=method)

    def growth(v: float) -> float:
        return float(np.max(spectrum(v).real)) - tolerance

    eigenvalues = np.array([spectrum(v) for v in grid])
    stable = np.max(eigenvalues.real, axis=1) <= tolerance
    critical = [brentq(growth, a, b, xtol=1e-13 * max(1.0, abs(a)), rtol=4 * np.finfo(float).eps)
                for a, b, sa, sb in zip(grid[:-1], grid[1:], stable[:-1], stable[1:],
                                        strict=True) if sa != sb]
    return StabilitySweep(varied, grid, eigenvalues, stable, critical)


__all__ = ["StabilitySweep", "eigenvalues_at", "stability_sweep"]
