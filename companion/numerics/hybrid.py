"""Event-driven simulation of hybrid systems: continuous modes joined by guarded switches.

Each :class:`Mode` has its own right-hand side and guard functions.  A segment is integrated
with :func:`scipy.integrate.solve_ivp` until a *terminal* guard falls through zero (located to
machine precision by the solver's root finder); a ``transition`` callback then chooses the next
mode and the state to restart from (a reset map, e.g. an impact).  Non-terminal guards are only
recorded (monitors).  No smoothing of the switching laws is used.

Hysteresis and chattering
-------------------------
A guard fires only when its value *crosses* zero in its ``direction`` (−1: from positive to
negative).  A segment that starts exactly on a guard's zero and moves away from it therefore
does not re-trigger it, so a switch caused by one guard is never undone at the same instant by
the same guard.  ``max_switches`` bounds the number of switches; a run that needs more (a Zeno
sequence) stops with a message instead of chattering.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from companion.numerics.compile import SingularConfigurationError
from companion.numerics.integrate import CompiledEvents, integrate


@dataclass(frozen=True)
class Guard:
    """A switching surface g(t, x) = 0, crossed in ``direction`` (−1: falling, +1: rising);
    an event function of ``solve_ivp`` as it is (called, ``terminal`` and ``direction``)."""

    name: str
    fn: Callable[[float, np.ndarray], float]
    direction: float = -1.0
    terminal: bool = True

    def __call__(self, t: float, x: np.ndarray) -> float:
        return self.fn(t, x)


@dataclass(frozen=True)
class Mode:
    """A continuous mode: right-hand side and guards; with ``events`` (the guards computed in
    C, in the same order, and ``rhs`` compiled) a segment is integrated in one call as DOP853
    with the guards would (``"dop853-c"``: :meth:`companion.numerics.c_rhs.CRightHandSide.
    solve_events`).
    """

    name: str
    rhs: Callable[[float, np.ndarray], np.ndarray]
    guards: tuple[Guard, ...] = ()
    events: CompiledEvents | None = None


@dataclass(frozen=True)
class Switch:
    """One mode switch: when, from which mode to which (``None``: the run stopped), and why."""

    t: float
    source: str
    target: str | None
    reason: str


@dataclass
class HybridRun:
    """Samples of a hybrid motion."""

    t: np.ndarray  # the uniform samples and both sides of every switch
    y: np.ndarray
    modes: list[str]  # the mode of each sample
    switches: list[Switch] = field(default_factory=list)
    #: (time, guard name) of the non-terminal guards' crossings.
    crossings: list[tuple[float, str]] = field(default_factory=list)
    stopped: str | None = None


#: transition(mode, guard, t, x) -> (next mode name or None to stop, new state, message)
Transition = Callable[[str, str, float, np.ndarray], tuple[str | None, np.ndarray, str]]


def simulate_hybrid(
    modes: Mapping[str, Mode],
    mode: str,
    x0: np.ndarray,
    t_final: float,
    transition: Transition,
    *,
    n_points: int = 600,
    max_switches: int = 200,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    max_step: float = np.inf,
) -> HybridRun:
    """Integrate from ``mode`` and ``x0`` until ``t_final``, switching at guard crossings.

    Guards are looked at the ends of steps: one that crosses zero and comes back within a step
    goes unseen, so ``max_step`` bounds the step (a smooth, nearly polynomial motion otherwise
    takes steps as long as the run)."""
    if mode not in modes:
        raise ValueError(f"unknown mode {mode!r}; known: {', '.join(modes)}")
    grid = np.linspace(0.0, t_final, n_points)
    ts: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    run = HybridRun(np.empty(0), np.empty((len(x0), 0)), [])
    t0, x = 0.0, np.asarray(x0, dtype=float)
    while True:
        current = modes[mode]
        t_eval = np.concatenate([[t0], grid[(grid > t0) & (grid <= t_final)]])
        try:
            sol = integrate(current.rhs, x, t_eval,
                            solver="dop853" if current.events is None else "dop853-c",
                            events=current.events or current.guards, rtol=rtol, atol=atol,
                            max_step=max_step, strict=False)
        except SingularConfigurationError as exc:
            run.stopped = f"stopped in mode {mode}: {exc}"
            break
        ts.append(sol.t)
        ys.append(sol.y)
        run.modes.extend([mode] * sol.t.size)
        fired = None
        for guard, te, ye in zip(current.guards, sol.t_events or [], sol.y_events or [],
                                 strict=False):
            if guard.terminal and te.size and (fired is None or te[0] < fired[1]):
                fired = (guard, te[0], ye[0])  # the earliest terminal crossing wins
            elif te.size:
                run.crossings.extend((float(t), guard.name) for t in te)
        if sol.status < 0:
            run.stopped = f"integration failed in mode {mode}: {sol.message}"
            break
        if fired is None:
            break
        guard, te, ye = fired
        ts.append(np.array([te]))
        ys.append(ye[:, None])
        run.modes.append(mode)
        target, x, message = transition(mode, guard.name, float(te), np.array(ye))
        run.switches.append(Switch(float(te), mode, target, message))
        if target is None:
            run.stopped = message
            break
        if len(run.switches) >= max_switches:
            run.stopped = (f"stopped after {max_switches} mode switches at t = {te:.6g} s "
                           "(a Zeno sequence of switches; raise max_switches to go on)")
            break
        mode, t0 = target, float(te)
        if t0 >= t_final:
            break
    run.t = np.concatenate(ts)
    run.y = np.concatenate(ys, axis=1)
    run.crossings.sort()
    return run
