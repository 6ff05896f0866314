"""Newton's law in a constrained space (Loparo & Vakalis §7.3) as a :class:`System`.

A constrained system is given by a coordinate map (injection) j: M → N into an ambient space
with a kinetic-energy metric σ and an applied force F.  Everything else is derived: the
induced metric Jᵀσ J and force JᵀF (7.2), the kinetic energy, the reduced law with its
Christoffel symbols (method ``"geometric"``) and the reaction force σ♭(ambient
acceleration) − F, which lies in the null space of Jᵀ.  Where the chart stops being an
immersion (J loses rank, e.g. spherical coordinates at a pole) the simulation refuses to go
on with a :class:`SingularConfigurationError` that says why (close passes are noted in the
trajectory's events), unless a second chart is given: then the simulation changes chart
near the singular set and reports the motion in the first chart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

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
from companion.system import Parameter, System, register_method, sample_times


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
    ambient, inverse
        Optional: symbols of the ambient point and x as expressions in them (the chart's
        inverse), needed to change charts.
    second_chart
        Optional ``{"embedding": ..., "inverse": ...}``: another chart of the same surface in
        the same symbols x.  The simulation then changes chart whenever the current one comes
        near its singular set (μ < ``SWITCH``) and reports the motion in the first chart.
    **kwargs
        Passed to :class:`System` (name, title, source, parameters, initial, ...).
    """

    #: With two charts, the simulation changes chart when μ of the current one falls below.
    SWITCH = 0.3

    def __init__(self, *, x: Sequence[sp.Symbol], xdot: Sequence[sp.Symbol],
                 embedding: Sequence[sp.Expr], ambient_metric: sp.Matrix,
                 ambient_force: Sequence[sp.Expr], min_immersion: float = 1e-3,
                 series: Mapping[str, sp.Expr] | None = None,
                 ambient: Sequence[sp.Symbol] | None = None,
                 inverse: Sequence[sp.Expr] | None = None,
                 second_chart: Mapping[str, Sequence[sp.Expr]] | None = None, **kwargs):
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
        self._embed = lambdify_scalar(args, list(self.embedding))
        self._inverse = (None if inverse is None else lambdify_scalar(
            [*ambient, *self.parameter_symbols], list(inverse)))
        self.second_chart = None
        if second_chart is not None:
            if inverse is None or ambient is None:
                raise ValueError("changing charts needs the first chart's inverse too")
            self.second_chart = ConstrainedSystem(
                x=x, xdot=xdot, embedding=second_chart["embedding"],
                ambient_metric=ambient_metric, ambient_force=ambient_force,
                min_immersion=min_immersion, ambient=ambient, inverse=second_chart["inverse"],
                **{**kwargs, "name": f"{self.name} (second chart)"})

    def to_ambient(self, x: Sequence[float], p: Sequence[float]) -> np.ndarray:
        """The state (x, ẋ) as the ambient point and velocity (j(x), J ẋ), concatenated."""
        n = len(self.q)
        J = self.jacobian_at(x[:n], p)
        return np.concatenate([self._embed(*x[:n], *p), J @ np.asarray(x[n:])])

    def from_ambient(self, y: np.ndarray, p: Sequence[float]) -> np.ndarray:
        """The state (x, ẋ) of an ambient point and tangent velocity y = (j, v)."""
        m = self.J.rows
        x = np.array(self._inverse(*y[:m], *p), dtype=float)
        xdot = np.linalg.lstsq(self.jacobian_at(x, p), y[m:], rcond=None)[0]
        return np.concatenate([x, xdot])

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
        if self.second_chart is None and np.min(imm) < 50 * self.min_immersion:
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
        if self.immersion(x0, p) <= self.min_immersion:  # the initial values are in this chart
            raise SingularConfigurationError("cannot start here: " + self._singular_message(
                f"at q = {np.round(x0, 4).tolist()}"))
        if self.second_chart is not None:
            return self._simulate_with_atlas(t_final, pv, initial, **kwargs)
        return super().simulate(t_final, params, initial, method=method, **kwargs)

    def _simulate_with_atlas(self, t_final: float | None, pv: dict, initial,
                             n_points: int = 600, rtol: float | None = None,
                             atol: float | None = None) -> Trajectory:
        """Integrate in whichever chart is far from its singular set, changing chart at
        μ = SWITCH (events of DOP853), and report every sample in the first chart."""
        t_eval = sample_times(self.t_final if t_final is None else t_final, n_points)
        t_final = float(t_eval[-1])
        rtol, atol = (1e-10 if rtol is None else rtol), (1e-12 if atol is None else atol)
        p = [pv[s.name] for s in self.parameter_symbols]
        n, charts = len(self.q), (self, self.second_chart)
        state = self.initial_state(self.initial_values(initial))
        current = 0
        if self.immersion(state[:n], p) < self.SWITCH:
            state, current = self.second_chart.from_ambient(self.to_ambient(state, p), p), 1
        out, k, t0, notes = np.empty((2 * n, n_points)), 0, 0.0, []
        while True:
            chart = charts[current]

            def leave(t, x, chart=chart):
                return chart.immersion(x[:n], p) - self.SWITCH

            leave.terminal, leave.direction = True, -1
            sol = solve_ivp(chart.rhs(p), (t0, t_final), state, method="DOP853",
                            t_eval=t_eval[k:], events=leave, rtol=rtol, atol=atol)
            if sol.status < 0:
                raise SingularConfigurationError(f"integration failed: {sol.message}")
            for j in range(sol.y.shape[1]):
                y = sol.y[:, j]
                out[:, k + j] = y if current == 0 else self.from_ambient(
                    chart.to_ambient(y, p), p)
            k += sol.y.shape[1]
            if sol.status == 0 or k >= n_points:
                break
            t0 = float(sol.t_events[0][0])
            other = charts[1 - current]
            state = other.from_ambient(chart.to_ambient(sol.y_events[0][0], p), p)
            current = 1 - current
            notes.append(t0)
        traj = Trajectory(t=t_eval, states=out, names=self.state_names(), params=pv)
        self.evaluate(traj)
        if notes:
            traj.events.append(
                f"changed chart {len(notes)} time(s) (first at t = {notes[0]:.3g}) to stay "
                "away from where the angles are singular; samples are reported in the first "
                "chart")
        return traj


@register_method("geometric")
def geometric(system: System) -> Derivation:
    """Newton's law on the constraint manifold σ̃(ẍ + Γ̃(ẋ, ẋ)) = F̃ (7.2), with the reaction
    force R = σ♭(d²j/dt²) − F recovered in ``extra["reaction"]``."""
    if not isinstance(system, ConstrainedSystem):
        raise NotImplementedError(f"{system.name} is not defined by a coordinate map")
    d = covariant_equations(system.induced_metric, system.q, system.u, system.Q,
                            pulled_back=True)
    xddot = d.accelerations().applyfunc(sp.cancel)
    R = reaction_force(system.ambient_metric, system.embedding, system.q, system.u, xddot,
                       system.ambient_force)
    d.steps[:0] = [
        Step("Coordinate map j", system.embedding, "§7.3",
             "The constraint surface is the image of the coordinates.", "j(x)"),
        Step("Jacobian J = ∂j/∂x", system.J, "(7.2)", "It carries velocities to the ambient "
             "space; its transpose carries forces back.", "J"),
        Step("Induced metric σ̃ = j*σ = Jᵀ σ J", system.induced_metric, "(7.2), Thm. 7.3",
             "The ambient kinetic energy seen by constrained velocities; j is an immersion, so "
             "σ̃ is positive definite.", r"\tilde\sigma"),
        Step("Pulled-back force F̃ = j*F = Jᵀ F", sp.Matrix(system.Q), "(7.2)",
             "Only the force's tangential part survives.", r"\tilde F"),
    ]
    d.steps.append(Step("Reaction force R = σ♭(d²j/dt²) − F", R, "§7.3",
                        "What the surface must push with so the particle stays on it; JᵀR = 0.",
                        "R"))
    d.method = "geometric"
    d.extra.update(reaction=R, J=system.J, xddot=xddot)
    return d


__all__ = ["ConstrainedSystem", "Parameter", "geometric"]
