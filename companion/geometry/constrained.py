"""Newton's law in a constrained space (Loparo & Vakalis §7.3) as a :class:`System`.

A constrained system is given by a coordinate map (injection) j: M → N into an ambient space
with a kinetic-energy metric σ and an applied force F.  Everything else is derived: the
induced metric Jᵀσ J and force JᵀF (7.2), the kinetic energy, the reduced law with its
Christoffel symbols (method ``"geometric"``) and the reaction force σ♭(ambient
acceleration) − F, which lies in the null space of Jᵀ.  Where the chart stops being an
immersion (J loses rank, e.g. spherical coordinates at a pole) the simulation refuses to go
on with a :class:`SingularConfigurationError` that says why; close passes are noted in the
trajectory's events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import sympy as sp

from companion.geometry.metric import (
    covariant_equations,
    jacobian,
    pull_back_form,
    pull_back_metric,
    reaction_force,
)
from companion.mechanics.derivation import Derivation, Step
from companion.numerics import SingularConfigurationError, Trajectory
from companion.numerics.compile import lambdify_scalar
from companion.system import Parameter, System, register_method


class ConstrainedSystem(System):
    """A system on a submanifold given by an embedding into a flat (or any) ambient space.

    Parameters
    ----------
    x, xdot
        Coordinates on the submanifold and the symbols of their rates (also the speeds).
    embedding
        j(x): the ambient coordinates as expressions in x.
    ambient_metric
        σ in the ambient coordinates (e.g. m·I₃ for a particle).
    ambient_force
        F in the ambient coordinates (a 1-form).
    min_immersion
        The chart is declared singular where the immersion measure μ of
        :meth:`immersion` falls below this.
    **kwargs
        Passed to :class:`System` (name, title, source, parameters, initial, ...).
    """

    def __init__(self, *, x: Sequence[sp.Symbol], xdot: Sequence[sp.Symbol],
                 embedding: Sequence[sp.Expr], ambient_metric: sp.Matrix,
                 ambient_force: Sequence[sp.Expr], min_immersion: float = 1e-3,
                 series: Mapping[str, sp.Expr] | None = None, **kwargs):
        self.embedding = sp.Matrix(list(embedding))
        self.ambient_metric = sp.Matrix(ambient_metric)
        self.ambient_force = sp.Matrix(list(ambient_force))
        self.J = jacobian(self.embedding, x)
        self.induced_metric = pull_back_metric(self.ambient_metric, self.J)
        self.min_immersion = min_immersion
        xd = sp.Matrix(list(xdot))
        T = sp.expand((xd.T * self.induced_metric * xd)[0] / 2)
        Q = list(pull_back_form(self.ambient_force, self.J))
        position = {f"p_{c}": e for c, e in zip("xyz", self.embedding, strict=False)}
        super().__init__(q=x, qdot=xdot, u=xdot, definitions=list(xdot), T=T, Q=Q,
                         series={**position, **dict(series or {})}, **kwargs)
        args = [*self.q, *self.parameter_symbols]
        self._jacobian = sp.lambdify(args, list(self.J), modules="numpy", cse=True)
        gram = self.J.T * self.J  # det and trace of JᵀJ: a cheap, scale-free rank test
        self._gram = [gram.det(method="berkowitz"), gram.trace()]
        self._gram_scalar = lambdify_scalar(args, self._gram)
        self._gram_numpy = sp.lambdify(args, self._gram, modules="numpy", cse=True)

    def jacobian_at(self, q: Sequence, p: Sequence[float]) -> np.ndarray:
        """The numeric Jacobian J(q), shape (n_ambient, n); for q of shape (n, N) a stack
        of shape (N, n_ambient, n)."""
        q = np.asarray(q, dtype=float)
        entries = np.broadcast_arrays(*self._jacobian(*q, *p), np.empty(q.shape[1:]))[:-1]
        return np.moveaxis(np.array(entries, dtype=float).reshape(*self.J.shape, *q.shape[1:]),
                           (0, 1), (-2, -1))

    def immersion(self, q: Sequence, p: Sequence[float]):
        """μ = det(JᵀJ)^{1/n} / (tr(JᵀJ)/n) at q (a float), or along q of shape (n, N).

        μ is 1 when J stretches every direction equally, and 0 exactly where J loses rank
        (the chart stops being an immersion); for the sphere μ = 2|sin θ|/(1 + sin²θ).
        """
        n = len(self.q)
        if np.ndim(q) == 1:
            det, tr = self._gram_scalar(*q, *p)
            return max(det, 0.0) ** (1 / n) * n / tr if tr > 0 else 0.0
        det, tr = np.broadcast_arrays(*self._gram_numpy(*np.asarray(q, float), *p),
                                      np.empty(np.shape(q)[1:]))[:2]
        return np.maximum(det, 0.0) ** (1 / n) * n / np.maximum(tr, 1e-300)

    def evaluate(self, traj: Trajectory) -> None:
        """Invariants and series, plus the chart's immersion measure along the motion and,
        when the reaction is among the series, its tangential part |JᵀR| (must be 0)."""
        super().evaluate(traj)
        p = [traj.params[s.name] for s in self.parameter_symbols]
        J = self.jacobian_at(traj.states[: len(self.q)], p)
        traj.series["immersion μ"] = imm = self.immersion(traj.states[: len(self.q)], p)
        if np.min(imm) < 50 * self.min_immersion:
            k = int(np.argmin(imm))
            traj.events.append(f"at t = {traj.t[k]:.4g} the motion passes close to where "
                               + self._singular_message(f"(immersion μ = {imm[k]:.2g})"))
        names = [f"reaction_{i}" for i in range(self.J.rows)]
        if all(n in traj.series for n in names):
            R = np.array([traj.series[n] for n in names])
            traj.residuals["JᵀR"] = np.linalg.norm(np.einsum("nij,in->nj", J, R), axis=1)

    def _singular_message(self, where: str) -> str:
        return (f"the chart is singular {where}: "
                "the coordinate map stops being an immersion (J loses rank), so the induced "
                "metric is degenerate and its Christoffel symbols blow up — the coordinates, "
                "not the motion, fail there")

    def rhs(self, p: Sequence[float], method: str = "geometric"):
        """x ↦ ẋ for the state (x, ẋ).  For the geometric method the reduced accelerations
        ẍ = σ̃⁻¹F̃ − Γ̃(ẋ, ẋ) (small systems) are compiled into one scalar function; every
        evaluation first checks the chart and refuses to go on where it is singular."""
        if method != "geometric":
            return super().rhs(p, method)
        if not hasattr(self, "_xddot"):
            args = [*self.q, *self.u, *self.parameter_symbols]
            self._xddot = lambdify_scalar(args, list(self.derive("geometric").extra["xddot"]))
        accel, gram, p, n = self._xddot, self._gram_scalar, list(p), len(self.q)
        floor = self.min_immersion**n / n**n  # μ < min_immersion ⇔ det < floor·trⁿ

        def f(t: float, x: np.ndarray) -> np.ndarray:
            xs = x.tolist()
            det, tr = gram(*xs[:n], *p)
            if det < floor * tr**n:
                raise SingularConfigurationError(self._singular_message(
                    f"at t = {t:.4g}, q = {np.round(xs[:n], 4).tolist()}") + "; the motion "
                    "there needs another chart (e.g. spherical angles about another axis)")
            return np.array([*xs[n:], *accel(*xs, *p)])

        return f

    def simulate(self, t_final: float | None = None, params: Mapping | None = None,
                 initial: Mapping | None = None, *, method: str = "geometric",
                 **kwargs) -> Trajectory:
        """As :meth:`System.simulate`, with the geometric derivation (7.2) by default.

        Raises
        ------
        SingularConfigurationError
            The initial configuration is where the chart is singular.
        """
        pv = self.parameter_values(params)
        x0 = self.initial_state(self.initial_values(initial))[: len(self.q)]
        p = [pv[s.name] for s in self.parameter_symbols]
        if self.immersion(x0, p) <= self.min_immersion:
            raise SingularConfigurationError("cannot start here: " + self._singular_message(
                f"at q = {np.round(x0, 4).tolist()}"))
        return super().simulate(t_final, params, initial, method=method, **kwargs)


@register_method("geometric")
def geometric(system: System) -> Derivation:
    """Newton's law on the constraint manifold σ̃(ẍ + Γ̃(ẋ, ẋ)) = F̃ (7.2), with the reaction
    force R = σ♭(d²j/dt²) − F recovered in ``extra["reaction"]``."""
    if not isinstance(system, ConstrainedSystem):
        raise NotImplementedError(f"{system.name} is not defined by a coordinate map")
    d = covariant_equations(system.induced_metric, system.q, system.u, system.Q)
    xddot = d.accelerations().applyfunc(sp.cancel)
    R = reaction_force(system.ambient_metric, system.embedding, system.q, system.u, xddot,
                       system.ambient_force)
    d.steps[:0] = [
        Step("Coordinate map j", system.embedding, "§7.3",
             "The constraint surface is the image of the coordinates.", "j(x)"),
        Step("Jacobian J = ∂j/∂x", system.J, "(7.2)", "It carries velocities to the ambient "
             "space; its transpose carries forces back.", "J"),
        Step("Induced metric Jᵀ σ J", system.induced_metric, "(7.2)",
             "The ambient kinetic energy seen by constrained velocities.", r"\tilde\sigma"),
        Step("Pulled-back force Jᵀ F", sp.Matrix(system.Q), "(7.2)",
             "Only the force's tangential part survives.", r"\tilde F"),
    ]
    d.steps.append(Step("Reaction force R = σ♭(d²j/dt²) − F", R, "§7.3",
                        "What the surface must push with so the particle stays on it; JᵀR = 0.",
                        "R"))
    d.method = "geometric"
    d.extra.update(reaction=R, J=system.J, xddot=xddot)
    return d


__all__ = ["ConstrainedSystem", "Parameter", "geometric"]
