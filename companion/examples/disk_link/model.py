"""Loparo & Vakalis §7.10–7.11 (reconstructed): a disk on a pivoted link.

A worked instance of the chapter's method, not the handbook's own figure: the equations of
every contact mode are pulled back from the two free bodies (see :mod:`companion.contact`);
the contact forces come from the disk's Newton–Euler equations.

* ``disk_link_rolling`` (Example 3): the rolling model in (θ, s) with its validity monitored
  (N > 0 and |F| ≤ μ_s N; the first violation is reported, the model is integrated on).
* ``disk_link_friction`` (Example 4): a hybrid simulation with the modes rolling, slipping
  forward (v_slip > 0), slipping backward (v_slip < 0) and separated (free flight, with a
  plastic impact on re-contact), switched by events located by ``solve_ivp``.

Both share one state layout (θ, s, h, ψ, θ̇, ṡ, ḣ, ψ̇, W_τ, W_f), where W_τ is the work of
the link torque and W_f that of the contact forces (friction while slipping, impulses at
impacts), so that E − W_τ − W_f is conserved on every run.
The link torque is τ = τ₀ + K_θ(θ_ref − θ) − D_θ θ̇ + c_g (M L/2 + m s) g cos θ with
θ_ref = k_p (s − s_ref) + k_d ṡ: τ = 0, a constant torque, or a PD loop on the link angle
(with a fraction c_g of the static gravity torque compensated) that tilts the link to bring
the disk to s_ref.  ``simulate(..., link_held=True)`` instead holds the link fixed at θ₀ (the torque
needed is reported as the series ``tau``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Any

import numpy as np
import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.mechanics.derivation import Derivation
from companion.numerics import Trajectory
from companion.numerics.compile import SingularConfigurationError, lambdify_scalar
from companion.numerics.hybrid import Guard, Mode, Switch, simulate_hybrid
from companion.system import Parameter, System, sample_times

STATE_NAMES = ["theta", "s", "h", "psi", "theta_dot", "s_dot", "h_dot", "psi_dot",
               "W_tau", "W_fric"]
ROLLING, FORWARD, BACKWARD, SEPARATED = ("rolling", "slipping forward", "slipping backward",
                                         "separated")
MODES = (ROLLING, FORWARD, BACKWARD, SEPARATED)
#: Relative tolerance under which a slip velocity counts as zero when a mode is chosen.
SLIP_TOL = 1e-9

mu_s, mu_k = sp.symbols("mu_s mu_k", nonnegative=True)
tau0, K_theta, D_theta, k_p, k_d, s_ref, c_g = sp.symbols(
    "tau_0 K_theta D_theta k_p k_d s_ref c_g")
PARAMETERS = [
    Parameter(ct.g, 9.81, 1.0, 20.0, "m/s²", "gravity", positive=True),
    Parameter(ct.m, 1.0, 0.1, 5.0, "kg", "disk mass", positive=True),
    Parameter(ct.r, 0.1, 0.02, 0.3, "m", "disk radius", positive=True),
    Parameter(ct.kappa, 0.5, 0.1, 1.0, "", "I_D/(m r²): ½ uniform disk, 1 ring", positive=True),
    Parameter(ct.M, 3.0, 0.1, 10.0, "kg", "link mass (uniform link)", positive=True),
    Parameter(ct.L, 1.0, 0.3, 2.0, "m", "link length", positive=True),
    Parameter(mu_s, 0.5, 0.0, 1.5, "", "static friction coefficient"),
    Parameter(mu_k, 0.3, 0.0, 1.5, "", "kinetic friction coefficient (≤ μ_s)"),
    Parameter(tau0, 0.0, -30.0, 30.0, "N·m", "constant link torque τ₀"),
    Parameter(K_theta, 0.0, 0.0, 400.0, "N·m/rad", "link-angle stiffness of the PD loop"),
    Parameter(D_theta, 0.0, 0.0, 60.0, "N·m·s/rad", "link-angle damping of the PD loop"),
    Parameter(k_p, 0.0, 0.0, 3.0, "rad/m", "tilt per metre of position error"),
    Parameter(k_d, 0.0, 0.0, 3.0, "rad·s/m", "tilt per m/s of disk speed"),
    Parameter(s_ref, 0.5, 0.0, 2.0, "m", "target disk position along the link"),
    Parameter(c_g, 0.0, 0.0, 1.0, "", "fraction of the static gravity torque compensated"),
]


@dataclass
class DiskLinkTrajectory(Trajectory):
    """A :class:`Trajectory` with the mode switches of the run (time, source, target,
    reason); the series ``mode`` indexes :data:`MODES`."""

    switches: list[Switch] = field(default_factory=list)


class _ModeNumerics:
    """A mode model compiled for numbers, with the Coulomb closure of the slipping mode.

    In the slipping mode F = λ N with λ = −σ μ_k, and N is linear in the accelerations
    (N = n·q̈ + n₀), so M q̈ = f₀ + b F becomes (M − λ b nᵀ) q̈ = f₀ + λ b n₀; λ is an argument
    of the compiled function (0 in the other modes, where F is not an unknown).
    """

    def __init__(self, model: ct.ModeModel):
        self.model = model
        n = self.n = len(model.q)
        lam = sp.Symbol("lambda_F")
        forcing = model.derivation.forcing
        zero = {ct.N: 0, ct.F: 0}
        acc0 = dict.fromkeys(model.qddot, 0)
        normal = sp.Matrix([model.normal])
        b = forcing.diff(ct.F)
        n_row = normal.jacobian(model.qddot)
        n_0 = normal.subs(acc0)
        A = model.metric - lam * b * n_row
        rhs = forcing.subs(zero) + lam * b * n_0
        args = [*ct.COORDS, *ct.RATES, *ct.PARAMETERS, ct.tau, lam]
        self._fn = lambdify_scalar(args, [*A, *rhs, *model.metric])
        # After the solve: the four contact-coordinate accelerations (through the chart), N,
        # F and the θ-row residual (the torque a held link needs), from q̈.
        qdd = sp.Matrix(model.qddot)
        chart_acc = ct.second_derivative(sp.Matrix(model.chart), model.q, model.qdot,
                                         model.qddot)
        tangential = model.tangential if model.name == "rolling" else lam * model.normal
        post = [*chart_acc, model.normal, tangential, (A[0, :] * qdd)[0] - rhs[0]]
        self._post = lambdify_scalar([*args, *model.qddot], post)
        self._n_solve = n * n + n

    def metric(self, x, p) -> np.ndarray:
        """The mode's metric at state x."""
        n = self.n
        vals = self._fn(*x[:8], *p, 0.0, 0.0)
        return np.array(vals[self._n_solve:], dtype=float).reshape(n, n)

    def solve(self, x, p, tau, lam: float | None, held: bool):
        """Full accelerations (θ̈, s̈, ḧ, ψ̈), N, F and the torque row residual.

        ``lam`` is None for rolling/separated; for slipping F = lam·N (lam = −σ μ_k).
        With ``held`` the link angle is a prescribed constant (θ̈ = 0, first row dropped).
        """
        n = self.n
        vals = self._fn(*x[:8], *p, tau, lam or 0.0)
        k = self._n_solve
        try:
            if held:  # drop the θ row and column
                A = [vals[i * n + j] for i in range(1, n) for j in range(1, n)]
                qdd = [0.0, *_solver(n - 1)(*A, *vals[n * n + 1:k])]
            else:
                qdd = _solver(n)(*vals[:k])
        except ZeroDivisionError as exc:
            raise SingularConfigurationError(f"singular {self.model.name} model at "
                                             f"θ = {x[0]:.4g}, s = {x[1]:.4g}") from exc
        *acc, normal, tangential, torque_residual = self._post(*x[:8], *p, tau, lam or 0.0,
                                                               *qdd)
        return acc, normal, tangential, torque_residual


@cache
def _solver(n: int):
    """x = A⁻¹ b for an n×n matrix, unrolled once by sympy (LU) into scalar code:
    ``_solver(n)(*A_row_major, *b) -> list``; singular A raises ZeroDivisionError."""
    a = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"a{i}{j}"))
    b = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"b{i}"))
    return lambdify_scalar([*a, *b], list(a.LUsolve(b)))


class DiskLink(System):
    """The disk-on-link example: rolling only (Example 3) or hybrid with friction (Example 4)."""

    def __init__(self, *, hybrid: bool, **kwargs):
        super().__init__(**kwargs)
        self.hybrid = hybrid

    # ------------------------------------------------------------------ models
    @cached_property
    def _compiled_modes(self) -> dict[str, _ModeNumerics]:
        return {}

    def _numeric(self, name: str) -> _ModeNumerics:
        """A mode model compiled for numbers, derived and compiled on first use."""
        if name not in self._compiled_modes:
            self._compiled_modes[name] = _ModeNumerics(ct.mode_model(name))
        return self._compiled_modes[name]

    @cached_property
    def _extras(self):
        args = [*ct.COORDS, *ct.RATES, *ct.PARAMETERS]
        rel = ct.KIN.relative_velocity()
        exprs = [ct.energy(), rel[0], *ct.KIN.centre, *rel.jacobian(ct.RATES)]
        return lambdify_scalar(args, exprs)

    @cached_property
    def _slip(self):
        """v_slip as a function of the state and parameters."""
        return sp.lambdify([*ct.COORDS, *ct.RATES, *ct.PARAMETERS],
                           ct.KIN.slip_velocity(), modules="math")

    def derive(self, method: str = "pull_back") -> Derivation:
        """The pull-back derivation of the main mode (rolling or slipping), or another
        registered method applied to the same kinetic energy and forces."""
        if method == "pull_back":
            return ct.mode_model("slipping" if self.hybrid else "rolling").derivation
        return super().derive(method)

    # ------------------------------------------------------------------ inputs
    def state_names(self) -> list[str]:
        return list(STATE_NAMES)

    def parameter_values(self, params: Mapping[str, Any] | None = None) -> dict[str, float]:
        pv = super().parameter_values(params)
        for name in ("mu_s", "mu_k"):
            if pv[name] < 0:
                raise ValueError(f"{name} must be ≥ 0, got {pv[name]}")
        if pv["mu_k"] > pv["mu_s"]:
            raise ValueError(f"kinetic friction μ_k = {pv['mu_k']} exceeds static friction "
                             f"μ_s = {pv['mu_s']}; Coulomb's law needs μ_k ≤ μ_s")
        if pv["s_ref"] < 0 or pv["s_ref"] > pv["L"]:
            raise ValueError(f"the target s_ref = {pv['s_ref']} m is off the link [0, "
                             f"{pv['L']}] m")
        return pv

    def initial_state(self, values: Mapping[str, float], pv: Mapping[str, float] | None = None
                      ) -> np.ndarray:
        pv = pv or self.parameter_values()
        th, sv, thd, sd = (values[k] for k in ("theta", "s", "theta_dot", "s_dot"))
        if not 0 <= sv <= pv["L"]:
            raise ValueError(f"the disk starts off the link: s = {sv} m is outside [0, "
                             f"{pv['L']}] m (the link length L)")
        r = pv["r"]
        # ψ̇ from the rolling constraint, or the given spin for the friction example.
        psid = values["psi_dot"] if "psi_dot" in values else thd - sd / r
        return np.array([th, sv, 0.0, 0.0, thd, sd, 0.0, psid, 0.0, 0.0])

    # ------------------------------------------------------------------ mode physics
    def _tau(self, x: np.ndarray, pv: Mapping[str, float]) -> float:
        theta_ref = pv["k_p"] * (x[1] - pv["s_ref"]) + pv["k_d"] * x[5]
        gravity = (pv["M"] * pv["L"] / 2 + pv["m"] * x[1]) * pv["g"] * math.cos(x[0])
        return (pv["tau_0"] + pv["K_theta"] * (theta_ref - x[0]) - pv["D_theta"] * x[4]
                + pv["c_g"] * gravity)

    def _accelerations(self, mode: str, x, p, pv, held):
        """(θ̈, s̈, ḧ, ψ̈), N, F, τ at state x in ``mode``."""
        if isinstance(x, np.ndarray):
            x = x.tolist()  # Python floats: much cheaper than numpy scalars here
        tau = 0.0 if held else self._tau(x, pv)
        if mode == ROLLING:
            acc, n, f, res = self._numeric("rolling").solve(x, p, tau, None, held)
        elif mode == SEPARATED:
            acc, n, f, res = self._numeric("separated").solve(x, p, tau, None, held)
            n = f = 0.0
        else:
            sigma = 1.0 if mode == FORWARD else -1.0
            acc, n, f, res = self._numeric("slipping").solve(
                x, p, tau, -sigma * pv["mu_k"], held)
        return acc, n, f, (res if held else tau)

    def at_state(self, state: Mapping[str, float], params: Mapping[str, Any] | None = None,
                 mode: str = ROLLING, *, link_held: bool = False) -> dict[str, float]:
        """Accelerations, N, F and τ of ``mode`` at one contact state (theta, s, theta_dot,
        s_dot and, for slipping, psi_dot)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
        pv = self.parameter_values(params)
        p = [pv[s.name] for s in ct.PARAMETERS]
        x = self.initial_state({k: state[k] for k in ("theta", "s", "theta_dot", "s_dot",
                                                      "psi_dot") if k in state}, pv)
        acc, n, f, tau = self._accelerations(mode, x, p, pv, link_held)
        return {"theta_ddot": acc[0], "s_ddot": acc[1], "h_ddot": acc[2], "psi_ddot": acc[3],
                "N": n, "F": f, "tau": tau, "v_slip": self._extras(*x[:8], *p)[1]}

    def _rhs(self, mode: str, p, pv, held):
        slip = self._slip

        def f(t: float, x: np.ndarray) -> np.ndarray:
            x = x.tolist()
            acc, _n, fr, tau = self._accelerations(mode, x, p, pv, held)
            return np.array([*x[4:8], *acc, tau * x[4], fr * slip(*x[:8], *p)])

        return f

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

    def _project(self, x: np.ndarray, pv) -> np.ndarray:
        """Put a contact state exactly on h = 0, ḣ = 0, v_slip = 0 (rolling)."""
        x = x.copy()
        x[2] = x[6] = 0.0
        x[7] = x[4] - x[5] / pv["r"]
        return x

    def _impact(self, x: np.ndarray, p, pv, held) -> tuple[np.ndarray, str]:
        """Plastic impact on re-contact with the Coulomb cone on the impulse."""
        x = x.copy()
        x[2] = 0.0
        Mm = self._numeric("separated").metric(x, p)
        vals = self._extras(*x[:8], *p)
        a = np.array(vals[4:]).reshape(2, 4)  # rows: ∂v_slip/∂q̇, ∂v_n/∂q̇ (= contact 1-forms)
        free = slice(1, None) if held else slice(None)
        Mf, af, v = Mm[free, free], a[:, free], x[4:8][free]
        Minv_a = np.linalg.solve(Mf, af.T)
        # Sticking impulse (Λ_F, Λ_N): a (v + M⁻¹ aᵀ Λ) = 0.
        lam = np.linalg.solve(af @ Minv_a, -af @ v)
        if abs(lam[0]) > pv["mu_s"] * lam[1]:
            dirn = np.array([-np.sign(lam[0]) * pv["mu_k"], 1.0])
            col = Minv_a @ dirn
            lam_n = -(af[1] @ v) / (af[1] @ col)
            lam = dirn * lam_n
        energy_before = self._extras(*x[:8], *p)[0]
        x[4:8][free] = v + Minv_a @ lam
        x[6] = 0.0
        lost = energy_before - self._extras(*x[:8], *p)[0]
        x[9] -= lost  # the impulses' work joins the work of the contact forces
        msg = (f"plastic impact, normal impulse {lam[1]:.4g} N·s, tangential {lam[0]:.4g} N·s,"
               f" energy lost {lost:.4g} J")
        return x, msg

    # ------------------------------------------------------------------ simulation
    def simulate(
        self,
        t_final: float | None = None,
        params: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        *,
        n_points: int = 600,
        rtol: float = 1e-10,
        atol: float = 1e-12,
        method: str = "pull_back",
        link_held: bool = False,
        max_switches: int = 100,
    ) -> DiskLinkTrajectory:
        """Simulate the example (rolling model monitored, or the hybrid friction model).

        Raises
        ------
        ValueError
            Bad parameters (μ_k > μ_s, non-positive masses or radius) or a start off the link.
        """
        if method != "pull_back":
            raise ValueError("the disk-link simulation uses the pulled-back mode models "
                             f"(method='pull_back'), got {method!r}")
        t_final = float(sample_times(self.t_final if t_final is None else t_final, n_points)[-1])
        pv = self.parameter_values(params)
        p = [pv[s.name] for s in ct.PARAMETERS]
        x0 = self.initial_state(self.initial_values(initial), pv)
        held = bool(link_held)
        if held:
            x0[4] = 0.0
        modes = self._modes(p, pv, held)
        events: list[str] = []
        if self.hybrid:
            mode0, why = self.contact_mode(x0, p, pv, held)
            if mode0 == ROLLING:
                x0 = self._project(x0, pv)
            events.append(f"t = 0: starts {mode0} ({why})")
        else:
            mode0 = ROLLING

        def transition(mode, guard, t, x):
            if guard in ("pivot", "tip"):
                where = "the pivot (s = 0)" if guard == "pivot" else "the tip (s = L)"
                return None, x, f"t = {t:.6g} s: the disk reaches {where}; the run stops"
            if guard == "re-contact":
                x, msg = self._impact(x, p, pv, held)
                nxt, why = self.contact_mode(x, p, pv, held)
                return nxt, x, f"t = {t:.6g} s: re-contact, {msg}; then {nxt} ({why})"
            if guard == "N = 0":
                nxt, why = SEPARATED, "N reaches 0: the disk leaves the link (free flight)"
            elif mode == ROLLING:  # the static limit is reached: slip opposite to F
                x = self._project(x, pv)
                nxt = BACKWARD if guard == "F = +μ_s N" else FORWARD
                why = f"{guard}: the static friction is exhausted"
            else:  # v_slip = 0: Coulomb's law decides between rolling and reversed slip
                nxt, why = self.contact_mode(self._project(x, pv), p, pv, held)
                if nxt == ROLLING:
                    x = self._project(x, pv)
            return nxt, x, f"t = {t:.6g} s: {mode} → {nxt} ({why})"

        run = simulate_hybrid(modes, mode0, x0, t_final, transition, n_points=n_points,
                              max_switches=max_switches, rtol=rtol, atol=atol)
        traj = DiskLinkTrajectory(t=run.t, states=run.y, names=self.state_names(), params=pv,
                                  events=events, switches=run.switches)
        traj.events.extend(sw.reason for sw in run.switches)
        if run.stopped and (not run.switches or run.stopped != run.switches[-1].reason):
            traj.events.append(run.stopped)
        traj.series["mode"] = np.array([MODES.index(m) for m in run.modes], dtype=float)
        self._evaluate(traj, run.modes, p, pv, held)
        if not self.hybrid:
            self._report_validity(traj, run.crossings)
        return traj

    def _modes(self, p, pv, held) -> dict[str, Mode]:
        def along(i, offset=0.0, sign=1.0):
            return lambda t, x: sign * (x[i] - offset)

        ends = (Guard("pivot", along(1)), Guard("tip", along(1, pv["L"], -1.0)))
        mus = pv["mu_s"]
        cache: dict = {}

        def forces(mode, x):
            key = (mode, x.tobytes())
            if key not in cache:
                cache.clear()
                cache[key] = self._accelerations(mode, x, p, pv, held)
            return cache[key]

        def slip(x):
            return self._slip(*x[:8].tolist(), *p)

        terminal = self.hybrid
        rolling = (
            Guard("N = 0", lambda t, x: forces(ROLLING, x)[1], terminal=terminal),
            Guard("F = +μ_s N", lambda t, x: mus * forces(ROLLING, x)[1]
                  - forces(ROLLING, x)[2], terminal=terminal),
            Guard("F = −μ_s N", lambda t, x: mus * forces(ROLLING, x)[1]
                  + forces(ROLLING, x)[2], terminal=terminal),
        )
        modes = {ROLLING: Mode(ROLLING, self._rhs(ROLLING, p, pv, held), (*rolling, *ends))}
        if self.hybrid:
            for mode, sigma in ((FORWARD, 1.0), (BACKWARD, -1.0)):
                modes[mode] = Mode(mode, self._rhs(mode, p, pv, held), (
                    Guard("v_slip = 0", lambda t, x, sg=sigma: sg * slip(x)),
                    Guard("N = 0", lambda t, x, md=mode: forces(md, x)[1]),
                    *ends))
            modes[SEPARATED] = Mode(SEPARATED, self._rhs(SEPARATED, p, pv, held), (
                Guard("re-contact", along(2)), *ends))
        return modes

    def _evaluate(self, traj: Trajectory, modes: list[str], p, pv, held) -> None:
        cols = traj.states.T
        acc = [self._accelerations(md, x, p, pv, held) for md, x in zip(modes, cols,
                                                                         strict=True)]
        ext = np.array([self._extras(*x[:8], *p) for x in cols]).T
        traj.series["N"] = np.array([a[1] for a in acc])
        traj.series["F"] = np.array([a[2] for a in acc])
        traj.series["tau"] = np.array([a[3] for a in acc])
        traj.series["mu_s N"] = pv["mu_s"] * traj.series["N"]
        traj.series["v_slip"] = ext[1]
        traj.series["x_D"], traj.series["y_D"] = ext[2], ext[3]
        for i, name in enumerate(("theta_ddot", "s_ddot", "h_ddot", "psi_ddot")):
            traj.series[name] = np.array([a[0][i] for a in acc])
        traj.invariants["energy"] = ext[0]
        # E − W_τ − W_f: conserved on every run (W_f: friction and impulses).
        traj.invariants["energy balance"] = (
            ext[0] - traj["W_tau"] - traj["W_fric"])
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


def build_rolling() -> DiskLink:
    """Example 3: the rolling model, monitored."""
    return _system(hybrid=False)


def build_friction() -> DiskLink:
    """Example 4: the hybrid model with Coulomb friction and separation."""
    return _system(hybrid=True)


#: Defaults of each example where they differ from :data:`PARAMETERS`.
_DEFAULTS = {
    False: {"mu_s": 0.6, "mu_k": 0.4},
    True: {"mu_s": 0.25, "mu_k": 0.15},
}


def _system(hybrid: bool) -> DiskLink:
    model = ct.mode_model("slipping" if hybrid else "rolling")
    q, qdot = model.q, model.qdot
    v = sp.Matrix(qdot)
    T = sp.expand((v.T * model.metric * v)[0] / 2)
    forces = model.derivation.steps[3].expr  # the pulled-back forces Jᵀ F
    parameters = [replace(p, default=_DEFAULTS[hybrid].get(p.name, p.default))
                  for p in PARAMETERS]
    initial = [
        Parameter(ct.theta, 0.6 if hybrid else 0.2, -1.2, 1.2, "rad", "θ₀, link angle"),
        Parameter(ct.s, 0.5, 0.0, 2.0, "m", "s₀, contact point from the pivot"),
        Parameter(sp.Symbol("theta_dot"), -1.0 if hybrid else 0.0, -3.0, 3.0, "rad/s", "θ̇₀"),
        Parameter(sp.Symbol("s_dot"), 0.0, -3.0, 3.0, "m/s", "ṡ₀"),
    ]
    if hybrid:
        initial.append(Parameter(sp.Symbol("psi_dot"), 0.0, -60.0, 60.0, "rad/s",
                                 "ψ̇₀, disk spin (rolling would need θ̇₀ − ṡ₀/r)"))
    return DiskLink(
        hybrid=hybrid,
        name="disk_link_friction" if hybrid else "disk_link_rolling",
        title=("Disk on a pivoted link with Coulomb friction (reconstructed Example 4)" if hybrid
               else "Disk rolling on a pivoted link (reconstructed Example 3)"),
        source="Loparo & Vakalis §7.11 (reconstruction)" if hybrid
        else "Loparo & Vakalis §7.9–7.10 (reconstruction)",
        q=q, qdot=qdot, u=qdot, definitions=qdot, T=T,
        Q=list(forces.subs(ct.N, 0)),
        parameters=parameters, initial=initial,
        t_final=1.0,
        reconstruction=True,
    )
