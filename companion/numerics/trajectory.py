"""A simulated motion (:class:`Trajectory`: time samples, states by name, invariants and
constraint residuals); what a system evaluates along it is
:class:`companion.model.Evaluation`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from companion.numerics.hybrid import Switch


@dataclass(repr=False)
class Trajectory:
    """Result of :meth:`companion.system.System.simulate`: N samples, the quantities by
    name."""

    t: np.ndarray  # sample times, shape (N,)
    states: np.ndarray  # shape (n_states, N), rows named by ``names``
    names: list[str]  # the q's and independent u's, or a system's own layout
    params: dict[str, float]  # parameter values used
    #: What physics says is conserved (energy, |H|, ...), shape (N,).
    invariants: dict[str, np.ndarray] = field(default_factory=dict)
    #: What must stay zero (constraint residuals, normalisation).
    residuals: dict[str, np.ndarray] = field(default_factory=dict)
    #: Other derived quantities (constraint forces, positions for plots).
    series: dict[str, np.ndarray] = field(default_factory=dict)
    #: Notes for a reader: singularities met, mode switches, first violations.
    events: list[str] = field(default_factory=list)
    #: Rotation matrices (body → space) of an attitude integrated on SO(3), (N, 3, 3).
    rotations: np.ndarray | None = None
    #: Mode switches of a hybrid run (time, source, target, reason), in order.
    switches: list[Switch] = field(default_factory=list)

    def __repr__(self) -> str:
        def listed(names) -> str:
            return ", ".join(names) or "none"

        return (f"<Trajectory: {self.t.size} samples, t = {self.t[0]:g}…{self.t[-1]:g} s; "
                f"states {listed(self.names)}; invariants {listed(self.invariants)}; "
                f"series {listed(self.series)}; {len(self.events)} event(s)>")

    def __getitem__(self, name: str) -> np.ndarray:
        """A state, series, invariant or residual by name (a sympy Symbol stands for its
        name: ``traj[theta]`` is ``traj["theta"]``)."""
        name = getattr(name, "name", name)
        if name in self.names:
            return self.states[self.names.index(name)]
        for table in (self.series, self.invariants, self.residuals):
            if name in table:
                return table[name]
        known = self.names + list(self.series) + list(self.invariants) + list(self.residuals)
        raise KeyError(f"no series named {name!r}; known: {', '.join(known)}")

    def drift(self, name: str) -> float:
        """Largest change of an invariant, max |I − I(0)|, relative to |I(0)|.

        An invariant that starts at zero (an angular-momentum component of a planar start,
        say) has no scale of its own: its drift is then the absolute change.
        """
        values = np.atleast_2d(self.invariants[name])  # a scalar's samples as one row
        ref = np.linalg.norm(values[:, 0])
        dev = np.linalg.norm(values - values[:, :1], axis=0)
        return float(np.max(dev) / (ref if ref > 1e-12 else 1.0))

    def max_residual(self, name: str) -> float:
        """Largest absolute value of a residual along the motion."""
        return float(np.max(np.abs(self.residuals[name])))


def sampled(values: Sequence, shape: tuple[int, ...]) -> np.ndarray:
    """Values of numpy-lambdified expressions at samples (constants come back as scalars) as
    one array of shape (len(values), *shape)."""
    return np.array([np.broadcast_to(np.asarray(v, dtype=float), shape) for v in values])


__all__ = ["Trajectory", "sampled"]
