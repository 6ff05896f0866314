"""Independent derivations of worked examples with ``sympy.physics.mechanics``: the shared part.

Each model is set up from the physics (frames, points, bodies, forces) with
:class:`~sympy.physics.mechanics.KanesMethod`, using the same quasi-velocities as speeds, so
its accelerations can be compared number for number with the Boltzmann–Hamel engine.  Nothing
here uses the engine, the systems' kinetic energies or their Ψ: only the symbols (by name), so
that states and parameters line up.  Each slice with such a model has ``independent.py``
with ``kane_model(system)``; used by tests and ``benchmarks/derivation_time.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp
from sympy.physics import mechanics as me

from companion.system import System


@dataclass
class KaneModel:
    """A KanesMethod formulation and the map from its dynamicsymbols to the system's Symbols."""

    kane: me.KanesMethod
    loads: list
    bodies: list
    plain: dict  # dynamicsymbol -> plain Symbol of the System (and t -> t)
    dependent: Sequence = ()  # dependent speeds, which the velocity constraints set to zero

    def derive(self) -> tuple[sp.Matrix, sp.Matrix]:
        """Kane's equations; returns (M, f) with M u̇ = f for the independent speeds."""
        self.kane.kanes_equations(self.bodies, self.loads)
        return self.kane.mass_matrix, self.kane.forcing

    def accelerations_function(self, system: System) -> Callable:
        """``f(t, q, u, p) -> u̇`` numerically, after :meth:`derive`."""
        # The velocity constraints of every model here are u_dependent = 0.
        on_motion = {ud: 0 for ud in self.dependent}
        M = me.msubs(me.msubs(self.kane.mass_matrix, on_motion), self.plain)
        f = me.msubs(me.msubs(self.kane.forcing, on_motion), self.plain)
        t = system.t if system.t is not None else sp.Dummy("t")
        args = [t, *system.q, *system.u_independent, *system.parameter_symbols]
        fn = sp.lambdify(args, [M, f], modules="numpy", cse=True)

        k = len(system.u_independent)

        def udot(t: float, q: Sequence[float], u: Sequence[float], p: Sequence[float]):
            # With constraints, KanesMethod appends the differentiated constraints as rows,
            # so the solve also yields the dependent u̇'s; keep the independent ones.
            Mn, fn_ = fn(t, *q, *u, *p)
            sol = np.linalg.solve(np.asarray(Mn, float), np.asarray(fn_, float).ravel())
            return sol[:k]

        return udot


def symbols_by_name(system: System) -> dict[str, sp.Symbol]:
    return {s.name: s for s in (*system.q, *system.u, *system.parameter_symbols)}


def dynamic_symbols(system: System, *names: Sequence[str]):
    """dynamicsymbols named like the system's coordinates/speeds, one list for each list of
    ``names``, and their plain map: ``q, u, plain = dynamic_symbols(system, q_names, u_names)``."""
    by_name = symbols_by_name(system)
    lists = [[me.dynamicsymbols(n) for n in group] for group in names]
    plain = {d: by_name[n] for group, out in zip(names, lists, strict=True)
             for d, n in zip(out, group, strict=True)}
    return (*lists, plain)
