"""The disk–link's contact modes and the integrator part that switches between them.

Modes: rolling, slipping forward (v_slip > 0), slipping backward (v_slip < 0) and separated
(free flight).  Each mode's equations are the pulled-back mode model of :mod:`.contact`,
compiled for numbers (:class:`_ModeNumerics`, with the Coulomb closure of slipping);
:class:`ContactModes` integrates them with guards located by ``solve_ivp`` (rolling only and
monitored for Example 3, hybrid for Example 4), the resets of :mod:`.impacts` and the link
torque of :mod:`.controller`.

State layout (θ, s, h, ψ, θ̇, ṡ, ḣ, ψ̇, W_τ, W_f), where W_τ is the work of the link torque
and W_f that of the contact forces (friction while slipping, impulses at impacts), so that
E − W_τ − W_f is conserved on every run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

import numpy as np

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.compiled import MODE_MODELS, OUTPUTS, CompiledContact
from companion.examples.disk_link.controller import link_torque
from companion.examples.disk_link.impacts import plastic_impact, project_on_rolling
from companion.examples.disk_link.parameters import SYMBOLS
from companion.numerics import Trajectory, c_rhs
from companion.numerics.compile import SingularConfigurationError, lambdify_scalar, solve_linear
from companion.numerics.hybrid import Guard, Mode, simulate_hybrid
from companion.numerics.simulate import Setup

STATE_NAMES = ["theta", "s", "h", "psi", "theta_dot", "s_dot", "h_dot", "psi_dot",
               "W_tau", "W_fric"]
ROLLING, FORWARD, BACKWARD, SEPARATED = ("rolling", "slipping forward", "slipping backward",
                                         "separated")
MODES = (ROLLING, FORWARD, BACKWARD, SEPARATED)
_MODE_MODELS = dict(zip(MODES, MODE_MODELS, strict=True))
#: Relative tolerance under which a slip velocity counts as zero when a mode is chosen.
SLIP_TOL = 1e-9
#: The longest integration step, as a share of the run: guards are looked at step ends, and
#: a held link's nearly polynomial motion took steps of 0.7 s, over which the disk could pass
#: the pivot and come back unseen.
MAX_STEP_SHARE = 1 / 50


class _ModeNumerics:
    """A mode's closed equations (:func:`.contact.closed_mode`) compiled for numbers in Python,
    with every parameter in the order of ``p`` (:data:`.parameters.SYMBOLS`): λ of the Coulomb
    closure is an argument (0 outside the slipping mode)."""

    def __init__(self, name: str):
        self.model = model = ct.mode_model(name)
        self.n = len(model.q)
        A, b, post = ct.closed_mode(name)
        args = [*ct.COORDS, *ct.RATES, *SYMBOLS, ct.tau, ct.LAMBDA_F]
        self._fn = lambdify_scalar(args, [*A, *b])
        self._post = lambdify_scalar([*args, *model.qddot], post)

    def metric(self, x, p) -> np.ndarray:
        """The mode's metric at state x: A without the Coulomb closure (λ = 0)."""
        n = self.n
        return np.array(self._fn(*x[:8], *p, 0.0, 0.0)[:n * n], dtype=float).reshape(n, n)

    def solve(self, x, p, tau, lam: float, held: bool):
        """Full accelerations (θ̈, s̈, ḧ, ψ̈), N, F and the torque row residual.

        ``lam``: for slipping F = lam·N (lam = −σ μ_k), unused by rolling and separated.
        With ``held`` the link angle is a prescribed constant (θ̈ = 0, first row dropped).
        """
        n = self.n
        vals = self._fn(*x[:8], *p, tau, lam)
        try:
            if held:  # drop the θ row and column
                A = [vals[i * n + j] for i in range(1, n) for j in range(1, n)]
                qdd = [0.0, *solve_linear(A, vals[n * n + 1:])]
            else:
                qdd = solve_linear(vals[:n * n], vals[n * n:])
        except SingularConfigurationError as exc:
            raise SingularConfigurationError(f"singular {self.model.name} model at "
                                             f"θ = {x[0]:.4g}, s = {x[1]:.4g}") from exc
        *acc, normal, tangential, torque_residual = self._post(*x[:8], *p, tau, lam, *qdd)
        return acc, normal, tangential, torque_residual


@dataclass(frozen=True, eq=False)
class ContactModes:
    """The disk–link's integrator part: the rolling model monitored (``hybrid=False``), or
    the hybrid model whose modes (rolling, slipping either way, separated) are switched by
    events, with plastic impacts on re-contact.

    An :class:`~companion.numerics.simulate.IntegratorPart` with a state of its own,
    :data:`STATE_NAMES`, not a System's (q, u).

    The trajectory's ``switches`` list the mode switches (time, source, target, reason); the
    series ``mode`` indexes :data:`MODES`.  Options of ``simulate``: ``link_held`` (hold the
    link at θ₀) and ``max_switches``.

    ``backend``: ``"python"`` evaluates the modes through lambdified SymPy; ``"c"`` through
    the modes printed as C (:mod:`.compiled`: each segment with its guards located, and the
    series along the motion, one call each; an error without a C compiler); ``"auto"``: C
    when a compiler is found.
    """

    hybrid: bool = False
    rtol: float = 1e-10
    atol: float = 1e-12
    backend: str = "auto"
    options: tuple[str, ...] = ("link_held", "max_switches")

    def __post_init__(self):
        if self.backend not in ("python", "c", "auto"):
            raise ValueError(f"backend must be 'python', 'c' or 'auto', got {self.backend!r}")

    @staticmethod
    @cache
    def _numeric(name: str) -> _ModeNumerics:
        """A mode model compiled for numbers, derived and compiled on first use."""
        return _ModeNumerics(name)

    @cached_property
    def _extras(self):
        """The energy, v_slip, the disk centre and the contact 1-forms at (x[:8], p)."""
        args = [*ct.COORDS, *ct.RATES, *SYMBOLS]
        rel = ct.relative_velocity()
        exprs = [ct.energy(), rel[0], *ct.CENTRE, *rel.jacobian(ct.RATES)]
        return lambdify_scalar(args, exprs)

    # ------------------------------------------------------------------ inputs
    @staticmethod
    def initial_state(values: Mapping[str, float], pv: Mapping[str, float]) -> np.ndarray:
        """The state (:data:`STATE_NAMES`) at t = 0 from initial values by name; ψ̇ from the
        rolling constraint unless given (the friction example's spin)."""
        th, sv, thd, sd = (values[k] for k in ("theta", "s", "theta_dot", "s_dot"))
        if not 0 <= sv <= pv["L"]:
            raise ValueError(f"the disk starts off the link: s = {sv} m is outside [0, "
                             f"{pv['L']}] m (the link length L)")
        psid = values["psi_dot"] if "psi_dot" in values else thd - sd / pv["r"]
        return np.array([th, sv, 0.0, 0.0, thd, sd, 0.0, psid, 0.0, 0.0])

    # ------------------------------------------------------------------ mode physics
    def _accelerations(self, mode: str, x, p, pv, held):
        """(θ̈, s̈, ḧ, ψ̈), N, F, τ at state x in ``mode``."""
        if isinstance(x, np.ndarray):
            x = x.tolist()  # Python floats: much cheaper than numpy scalars here
        tau = 0.0 if held else link_torque(x, pv)
        name, sign = _MODE_MODELS[mode]
        acc, n, f, res = self._numeric(name).solve(x, p, tau, sign * pv["mu_k"], held)
        if mode == SEPARATED:
            n = f = 0.0
        return acc, n, f, (res if held else tau)

    def outputs(self, mode: str, x, p: Sequence[float], pv: Mapping[str, float],
                held: bool) -> list[float]:
        """:data:`.compiled.OUTPUTS` at state x in ``mode``, as the C ``contact`` gives them,
        for the validated parameter values ``pv`` and ``p`` (in the order of
        :data:`.parameters.SYMBOLS`)."""
        if isinstance(x, np.ndarray):
            x = x.tolist()  # Python floats: much cheaper than numpy scalars here
        acc, n, f, tau = self._accelerations(mode, x, p, pv, held)
        energy, slip, x_d, y_d = self._extras(*x[:8], *p)[:4]
        return [*x[4:8], *acc, tau * x[4], f * slip, n, f, tau, slip, energy, x_d, y_d]

    def _rhs(self, mode: str, p, pv, held, compiled: CompiledContact | None = None):
        if compiled is not None:
            return compiled.rhs(MODES.index(mode))
        return lambda t, x: np.array(self.outputs(mode, x, p, pv, held)[:10])

    def contact_mode(self, x: np.ndarray, p, pv, held) -> tuple[str, str]:
        """The mode a contact state (h = 0) starts in, by Coulomb's law, and why."""
        vslip = self._extras(*x[:8], *p)[1]
        scale = max(abs(x[5]), pv["r"] * abs(x[7]), pv["r"] * abs(x[4]), 1e-3)
        if abs(vslip) > SLIP_TOL * scale:
            mode = FORWARD if vslip > 0 else BACKWARD
            _, n, _, _ = self._accelerations(mode, x, p, pv, held)
            if n <= 0:
                return SEPARATED, f"N = {n:.4g} N ≤ 0 while slipping: contact is lost"
            return mode, f"v_slip = {vslip:.4g} m/s ≠ 0"
        _, n, f, _ = self._accelerations(ROLLING, x, p, pv, held)
        if n <= 0:
            return SEPARATED, f"N = {n:.4g} N ≤ 0: contact is lost"
        if abs(f) <= pv["mu_s"] * n:
            return ROLLING, (f"v_slip = 0 and rolling needs |F| = {abs(f):.4g} N ≤ μ_s N = "
                             f"{pv['mu_s'] * n:.4g} N")
        mode = BACKWARD if f > 0 else FORWARD
        return mode, (f"rolling would need |F| = {abs(f):.4g} N > μ_s N = "
                      f"{pv['mu_s'] * n:.4g} N")

    # ------------------------------------------------------------------ simulation
    def integrate(self, model: Any, setup: Setup) -> Trajectory:
        """Simulate the example (rolling model monitored, or the hybrid friction model) from
        the values ``setup`` holds (``model``, the :class:`~.model.DiskLink`, adds none).

        Raises
        ------
        ValueError
            A start off the link.
        """
        t_final, pv, p = float(setup.t[-1]), setup.params, setup.p
        x0 = self.initial_state(setup.initial, pv)
        held = bool(setup.options.get("link_held", False))
        if held:
            x0[4] = 0.0
        python = self.backend == "python" or (self.backend == "auto" and c_rhs.compiler() is None)
        compiled = None if python else CompiledContact(p, held)
        modes = self._modes(p, pv, held, compiled)
        mode0, events = ROLLING, []
        if self.hybrid:
            mode0, why = self.contact_mode(x0, p, pv, held)
            if mode0 == ROLLING:
                x0 = project_on_rolling(x0, pv)
            events.append(f"t = 0: starts {mode0} ({why})")

        def transition(mode, guard, t, x):
            if guard in ("pivot", "tip"):
                where = "the pivot (s = 0)" if guard == "pivot" else "the tip (s = L)"
                return None, x, f"t = {t:.6g} s: the disk reaches {where}; the run stops"
            if guard == "re-contact":
                x, msg = plastic_impact(x, p, pv, held, self._numeric("separated").metric,
                                         self._extras)
                nxt, why = self.contact_mode(x, p, pv, held)
                return nxt, x, f"t = {t:.6g} s: re-contact, {msg}; then {nxt} ({why})"
            if guard == "N = 0":
                nxt, why = SEPARATED, "N reaches 0: the disk leaves the link (free flight)"
            elif mode == ROLLING:  # the static limit is reached: slip opposite to F
                x = project_on_rolling(x, pv)
                nxt = BACKWARD if guard == "F = +μ_s N" else FORWARD
                why = f"{guard}: the static friction is exhausted"
            else:  # v_slip = 0: Coulomb's law decides between rolling and reversed slip
                nxt, why = self.contact_mode(project_on_rolling(x, pv), p, pv, held)
                if nxt == ROLLING:
                    x = project_on_rolling(x, pv)
            return nxt, x, f"t = {t:.6g} s: {mode} → {nxt} ({why})"

        run = simulate_hybrid(modes, mode0, x0, t_final, transition, n_points=len(setup.t),
                              max_switches=setup.options.get("max_switches", 100),
                              rtol=setup.rtol, atol=setup.atol, max_step=MAX_STEP_SHARE * t_final)
        traj = Trajectory(t=run.t, states=run.y, names=list(STATE_NAMES), params=pv,
                          events=events, switches=run.switches)
        traj.events.extend(sw.reason for sw in run.switches)
        if run.stopped and (not run.switches or run.stopped != run.switches[-1].reason):
            traj.events.append(run.stopped)
        traj.series["mode"] = np.array([MODES.index(m) for m in run.modes], dtype=float)
        self._evaluate(traj, run.modes, p, pv, held, compiled)
        if not self.hybrid:
            self._report_validity(traj, run.crossings)
        return traj

    def _modes(self, p, pv, held, compiled: CompiledContact | None) -> dict[str, Mode]:
        def along(i, offset=0.0, sign=1.0):
            return lambda t, x: sign * (x[i] - offset)

        ends = (Guard("pivot", along(1)), Guard("tip", along(1, pv["L"], -1.0)))
        mus = pv["mu_s"]
        cache: dict = {}

        def out(mode, x):
            """:data:`OUTPUTS` by name: the guards ask at the same state in a row."""
            key = (mode, x.tobytes())
            if key not in cache:
                cache.clear()
                cache[key] = dict(zip(OUTPUTS, self.outputs(mode, x, p, pv, held), strict=True))
            return cache[key]

        terminal = self.hybrid
        rolling = (
            Guard("N = 0", lambda t, x: out(ROLLING, x)["N"], terminal=terminal),
            Guard("F = +μ_s N", lambda t, x: mus * out(ROLLING, x)["N"] - out(ROLLING, x)["F"],
                  terminal=terminal),
            Guard("F = −μ_s N", lambda t, x: mus * out(ROLLING, x)["N"] + out(ROLLING, x)["F"],
                  terminal=terminal),
        )
        guards = {ROLLING: (*rolling, *ends)}
        if self.hybrid:
            for mode, sigma in ((FORWARD, 1.0), (BACKWARD, -1.0)):
                guards[mode] = (Guard("v_slip = 0",
                                      lambda t, x, md=mode, sg=sigma: sg * out(md, x)["v_slip"]),
                                Guard("N = 0", lambda t, x, md=mode: out(md, x)["N"]), *ends)
            guards[SEPARATED] = (Guard("re-contact", along(2)), *ends)
        # compiled, a segment up to its first switch is one call, its guards computed in C
        # in this same order (compiled.source's guards): these Python ones are then unused
        return {mode: Mode(mode, self._rhs(mode, p, pv, held, compiled), these,
                           None if compiled is None else
                           compiled.events(these))
                for mode, these in guards.items()}

    def _evaluate(self, traj: Trajectory, modes: list[str], p, pv, held,
                  compiled: CompiledContact | None) -> None:
        rows = (compiled.along(traj.states, [MODES.index(m) for m in modes]) if compiled else
                np.array([self.outputs(md, x, p, pv, held)
                          for md, x in zip(modes, traj.states.T, strict=True)]).T)
        out = dict(zip(OUTPUTS, rows, strict=True))
        for name in ("N", "F", "tau", *OUTPUTS[4:8]):
            traj.series[name] = out[name]
        traj.series["mu_s N"] = pv["mu_s"] * traj.series["N"]
        for name in ("v_slip", "x_D", "y_D"):
            traj.series[name] = out[name]
        traj.invariants["energy"] = out["energy"]
        # E − W_τ − W_f: conserved on every run (W_f: friction and impulses).
        traj.invariants["energy balance"] = out["energy"] - traj["W_tau"] - traj["W_fric"]
        if held:
            traj.events.append("the link is held at θ₀: the series tau is the torque needed")

    def _report_validity(self, traj: Trajectory, crossings) -> None:
        n, f, mus = traj.series["N"], traj.series["F"], traj.params["mu_s"]
        bad = (n <= 0) | (np.abs(f) > mus * n)
        traj.series["rolling valid"] = (~bad).astype(float)
        if bad[0]:
            why = ("N ≤ 0: no contact" if n[0] <= 0 else
                   f"|F| = {abs(f[0]):.4g} N > μ_s N = {mus * n[0]:.4g} N")
            traj.events.insert(0, f"t = 0: the rolling model is not valid at the start ({why})")
            return
        for t, name in crossings:
            cause = ("N reaches 0: the disk would leave the link" if name == "N = 0" else
                     f"{name}: the friction needed for rolling reaches the static limit, "
                     "the disk would slip")
            traj.events.insert(0, f"t = {t:.6g} s: first violation of the rolling model — "
                               f"{cause}")
            return
        traj.events.insert(0, "the rolling model stays valid (N > 0, |F| ≤ μ_s N) all along")


__all__ = ["MODES", "STATE_NAMES", "ContactModes"]
