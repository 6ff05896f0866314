"""Linear equations about a steady motion (:func:`linearize`), from the Jacobian of the
compiled right-hand side by differences (:func:`jacobian`).

Central differences with one Richardson step, D = (4 D(h/2) − D(h)) / 3, have an error of
order h⁴ (the truncation) plus ε/h (rounding): with h = 1e-3 on quantities of order one,
about 1e-12, enough for eigenvalues to 10 digits without deriving the Jacobian symbolically.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import sympy as sp

from companion.mechanics.definition import key_name
from companion.numerics.simulate import check_tolerance

if TYPE_CHECKING:
    from companion.system import System


def jacobian(f: Callable[[np.ndarray], np.ndarray], x0: np.ndarray) -> np.ndarray:
    """∂f/∂x at ``x0`` by Richardson-extrapolated central differences, the steps h = 1e-3 and
    h/2 scaled by max(1, |x0_j|) per component (``f`` is only called at x0 ± a step along one
    axis); a ``ValueError`` when f is not finite near x0."""
    x0 = np.asarray(x0, dtype=float)
    columns = []
    for j in range(x0.size):
        h = 1e-3 * max(1.0, abs(x0[j]))

        def central(h: float, j: int = j) -> np.ndarray:
            e = np.zeros_like(x0)
            e[j] = h
            return (np.asarray(f(x0 + e), float) - np.asarray(f(x0 - e), float)) / (2 * h)

        columns.append((4 * central(h / 2) - central(h)) / 3)
    out = np.column_stack(columns)
    if not np.all(np.isfinite(out)):
        raise ValueError("the right-hand side is not finite near the point of linearization")
    return out


@dataclass(frozen=True)
class Linearization:
    """δẋ = A δx + B τ about a steady motion ``nominal`` at the values ``params`` (see
    :func:`linearize`): B has one column per independent u (None when the method's speeds are
    not the u's); ``states`` names the independent non-cyclic coordinates, then the u's."""

    A: np.ndarray
    B: np.ndarray | None
    states: list[str]
    nominal: dict[str, float]
    params: dict[str, float]

    def eigenvalues(self) -> np.ndarray:
        """Eigenvalues of A, sorted by real part then imaginary part."""
        ev = np.linalg.eigvals(self.A)
        return ev[np.lexsort((ev.imag, ev.real))]


def linearize(
    system: System,
    nominal: Mapping[Any, Any] | None = None,
    params: Mapping[Any, Any] | None = None,
    *,
    cyclic: Sequence[str | sp.Symbol] | str | sp.Symbol = (),
    method: str | None = None,
    tolerance: float = 1e-9,
) -> Linearization:
    """The linear equations δẋ = A δx + B τ about a steady motion (an equilibrium
    included), τ generalized forces on the independent u's.

    A steady motion keeps every non-cyclic coordinate and every independent speed
    constant while the ``cyclic`` coordinates (ignorable: the equations do not depend on
    them, e.g. a rolling disk's position and heading) may change at constant rates, the
    bicycle rolling upright at speed v.  The state of the linear equations is (non-cyclic
    independent coordinates, independent u's); a perturbed configuration is carried back
    onto the configuration constraints by solving for the dependent coordinates.  A is the
    Jacobian of the compiled right-hand side (:func:`jacobian`, errors about 1e-12), so it
    applies to numeric elimination as to symbolic forms.

    Parameters
    ----------
    nominal, params
        The steady motion (coordinates and independent u's) and the parameter values, by
        name or Symbol (the defaults fill the rest; dependent coordinates are solved).
    cyclic
        Names or Symbols of the coordinates left out of the state (see above).
    tolerance
        Largest rate of a non-cyclic coordinate or u̇ accepted as steady, and largest
        dependence on a cyclic coordinate accepted as none.

    Raises
    ------
    ValueError
        Unknown names, a "cyclic" coordinate the equations depend on, or a nominal motion
        that is not steady (the message gives the offending rates).
    """
    names = [s.name for s in system.q]
    tolerance = check_tolerance("tolerance", tolerance)
    if isinstance(cyclic, (str, sp.Symbol)) or not isinstance(cyclic, Iterable):
        cyclic = [cyclic]  # one coordinate alone, or refused by key_name with its type
    cyclic = [key_name(c, "an entry of cyclic") for c in cyclic]
    unknown = sorted(set(cyclic) - set(names))
    if unknown:
        raise ValueError(f"cyclic names unknown coordinates {unknown}; coordinates: {names}")
    dependent = {s.name for s in system.dependent}
    if set(cyclic) & dependent:
        raise ValueError("a dependent coordinate cannot be cyclic: "
                         f"{sorted(set(cyclic) & dependent)}")
    pv = system.parameter_values(params)
    p = system.parameter_table.vector(pv)
    values = replace(system.initial_table, argument="linearize's nominal").values(nominal)
    f = system.rhs(p, method)
    n = len(system.q)
    kept = [i for i, s in enumerate(system.q) if s.name not in set(cyclic) | dependent]
    rows = [*kept, *range(n, n + len(system.u_independent))]
    free = [*(system.q[i].name for i in kept), *(s.name for s in system.u_independent)]

    def full_state(z: np.ndarray) -> np.ndarray:
        trial = {**values, **{k: float(v) for k, v in zip(free, z, strict=True)}}
        return system.integrator.initial_state(system, trial, pv)

    z0 = np.array([values[k] for k in free], dtype=float)
    x0 = full_state(z0)
    rates = np.asarray(f(0.0, x0), dtype=float)
    if np.max(np.abs(rates[rows]), initial=0.0) > tolerance:
        moving = ", ".join(f"{system.state_names()[i]}' = {rates[i]:.3g}" for i in rows
                           if abs(rates[i]) > tolerance)
        used = ", ".join(f"{k} = {v:g}" for k, v in values.items())
        raise ValueError(f"the nominal motion of {system.name} is not steady: {moving} (at "
                         f"{used}; what nominal leaves out takes the initial values' "
                         "defaults)")
    for name in cyclic:
        i = names.index(name)

        def shifted(c: np.ndarray, i: int = i) -> np.ndarray:
            x = x0.copy()
            x[i] = c[0]
            return np.asarray(f(0.0, x), dtype=float)[rows]

        dependence = np.max(np.abs(jacobian(shifted, x0[[i]])))
        if dependence > tolerance:
            raise ValueError(f"{name} is not cyclic: the equations change with it "
                             f"(∂ẋ/∂{name} up to {dependence:.3g})")
    A = jacobian(lambda z: np.asarray(f(0.0, full_state(z)), dtype=float)[rows], z0)
    B = None  # τ_r added to Q_r of (4.85): M⁻¹ in the u-rows; none for Lagrange's speeds
    if system.derive(method).speeds == "u":
        _, mass, _ = system.compiled(method).parts(0.0, x0[:n].tolist(), x0[n:].tolist(), p)
        B = np.vstack([np.zeros((len(kept), len(system.u_independent))), np.linalg.inv(mass)])
    labels = [system.state_names()[i] for i in rows]
    return Linearization(A=A, B=B, states=labels, nominal=values, params=pv)


__all__ = ["Linearization", "jacobian", "linearize"]
