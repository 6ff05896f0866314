"""The one place an integration starts: :func:`integrate`, for every integrator part, the
hybrid simulator and the slices' own motions.

Three solvers: SciPy's LSODA (``odeint``, its stepping loop in Fortran), SciPy's DOP853
(``solve_ivp``, events located), and ``"dop853-c"``, the same DOP853 steps compiled with a
right-hand side compiled to C (:mod:`companion.numerics.c_dop853`: one call per run).  On the
double pendulum's 20 s run ``"dop853-c"`` takes 2.9 ms against LSODA's 60 ms with the Python
right-hand side (``benchmarks/integrators.py``), so it is kept; it needs a C right-hand side
and refuses a Python one instead of silently taking LSODA.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from companion.numerics.errors import SingularConfigurationError, StepLimitError

#: Default tolerances ``(rtol, atol)`` by solver name (LSODA needs one more digit than DOP853
#: for the same global accuracy).
SOLVERS: dict[str, tuple[float, float]] = {
    "lsoda": (1e-11, 1e-13),
    "dop853": (1e-10, 1e-12),
    "dop853-c": (1e-10, 1e-12),
}

#: Most steps LSODA takes between two samples.
MAX_STEPS = 100_000

#: Steps of LSODA's probe of the first sample interval (:func:`_refuse_long_span`).
PROBE_STEPS = 500


@dataclass
class Solution:
    """What :func:`integrate` returns: as :func:`scipy.integrate.solve_ivp`'s result."""

    t: np.ndarray
    y: np.ndarray
    status: int = 0
    message: str = ""
    t_events: list[np.ndarray] = field(default_factory=list)
    y_events: list[np.ndarray] = field(default_factory=list)


class CompiledEvents(NamedTuple):
    """Events computed in C, for ``"dop853-c"``: the C function at ``address``
    (``int guards(double t, const double *x, const double *p, double *g)``) writes one value
    per entry of ``direction`` (the crossing direction), the ``terminal`` ones stopping the
    run (:meth:`~companion.numerics.c_rhs.CRightHandSide.solve_events`)."""

    address: int
    direction: Sequence[float]
    terminal: Sequence[bool]


def _too_many_steps(t_eval: np.ndarray, limit: str, took: str = "took",
                    reached: tuple | None = None) -> StepLimitError:
    n = len(t_eval)
    return StepLimitError(
        f"the integration {took} too many steps ({limit}) before t_final = {t_eval[-1]:g} s: "
        f"the time span is the cause, not the configuration ({n} samples "
        f"{t_eval[-1] / max(n - 1, 1):.3g} s apart); simulate a shorter time (the examples "
        "run for seconds to minutes) or, with LSODA, take more samples (n_points)", reached)


def _refuse_long_span(probe: dict, t_eval: np.ndarray) -> None:
    """Refuse at once a first sample interval that LSODA's first :data:`PROBE_STEPS` steps
    (``probe``, ``odeint``'s ``full_output`` of that interval) show to need more than ten
    times :data:`MAX_STEPS` (a time span of 10⁹ s), instead of taking MAX_STEPS steps first.
    The steps over the whole interval are extrapolated from the time the probe covered; the
    margin of ten leaves room for steps that grow later."""
    covered = float(probe["tcur"][0]) - t_eval[0]
    if "Excess work" not in probe["message"] or covered <= 0:
        return  # done within the probe, or a failure the full run reports with its cause
    implied = PROBE_STEPS * (t_eval[1] - t_eval[0]) / covered
    if implied > 10 * MAX_STEPS:
        raise _too_many_steps(
            t_eval, f"about {implied:.2g} between two samples, extrapolated from its first "
            f"{PROBE_STEPS}, which covered {covered:.3g} s; LSODA takes {MAX_STEPS}",
            "would take")


def compiled_or_lsoda(rhs: Callable) -> str:
    """``"dop853-c"`` for a right-hand side compiled to C, else ``"lsoda"``: the one fallback,
    for the parts that take C when a compiler is found (``backend="auto"``)."""
    return "dop853-c" if hasattr(rhs, "solve_events") else "lsoda"


def integrate(rhs: Callable, x0: np.ndarray, t_eval: np.ndarray, *, solver: str = "lsoda",
              rtol: float | None = None, atol: float | None = None,
              events: Sequence[Callable] | CompiledEvents = (), max_step: float = np.inf,
              t_start: float | None = None, strict: bool = True) -> Solution:
    """Integrate ẋ = rhs(t, x) from ``x0`` at ``t_start`` (default ``t_eval[0]``, ``"dop853"``
    only), sampled at ``t_eval``, by ``solver`` (:data:`SOLVERS`: its tolerances are the
    defaults).

    ``"dop853-c"`` takes a C right-hand side (:class:`~companion.numerics.c_rhs.
    CRightHandSide`) and :class:`CompiledEvents`; ``"dop853"`` event functions
    (``terminal``/``direction`` attributes, as for ``solve_ivp``) and ``strict=False``: the
    samples so far with a negative ``status`` and the reason in ``message`` instead of an
    error (the hybrid simulator records them).

    Raises
    ------
    ValueError
        An unknown solver, ``"dop853-c"`` with a Python right-hand side, or events for LSODA.
    StepLimitError
        Too many steps between two samples (a time span too long for the samples); with
        LSODA refused before integrating when its first steps imply ten times the limit.
    SingularConfigurationError
        Any other failure (a step size that shrinks to nothing near a singularity).
    """
    if solver not in SOLVERS:
        raise ValueError(f"unknown integrator {solver!r}; known: {', '.join(SOLVERS)}")
    default_rtol, default_atol = SOLVERS[solver]
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    t_eval = np.asarray(t_eval, dtype=float)
    x0 = np.asarray(x0, dtype=float)
    if solver == "dop853-c":
        if not hasattr(rhs, "solve_events"):
            raise ValueError("the integrator 'dop853-c' runs DOP853 compiled with a right-hand "
                             "side compiled to C, and this one is Python: give the integrator "
                             "backend='c' (or 'auto'), or choose 'lsoda' or 'dop853'")
        if events and not isinstance(events, CompiledEvents):
            raise ValueError("'dop853-c' locates events computed in C (CompiledEvents); "
                             "for events in Python use 'dop853'")
        try:
            return rhs.solve_events(x0, t_eval, rtol, atol, *(events or ()), max_step=max_step)
        except StepLimitError as exc:
            raise _too_many_steps(t_eval, "DOP853 compiled: 10⁶ in all") from exc
    if solver == "lsoda":
        if events or np.isfinite(max_step):
            raise ValueError("LSODA here locates no events and takes no max_step: use 'dop853'")
        from scipy.integrate import ODEintWarning, odeint  # ~0.5 s to import: on first use

        with warnings.catch_warnings():  # its failure is raised below, with its cause
            warnings.simplefilter("ignore", ODEintWarning)
            _refuse_long_span(odeint(rhs, x0, t_eval[:2], tfirst=True, rtol=rtol, atol=atol,
                                     mxstep=PROBE_STEPS, full_output=True)[1], t_eval)
            y, info = odeint(rhs, x0, t_eval, tfirst=True, rtol=rtol, atol=atol,
                             mxstep=MAX_STEPS, full_output=True)
        if info["message"] == "Integration successful.":
            return Solution(t_eval, y.T)
        if "Excess work" in info["message"]:
            good = 1 + int(np.sum(np.cumprod(info["tcur"] >= t_eval[1:])))  # samples reached
            raise _too_many_steps(t_eval, f"LSODA: {MAX_STEPS} between two samples",
                                  reached=(t_eval[:good], y[:good].T))
        raise SingularConfigurationError(f"integration failed: {info['message']}")
    from scipy.integrate import solve_ivp

    start = t_eval[0] if t_start is None else t_start
    sol = solve_ivp(rhs, (start, t_eval[-1]), x0, method="DOP853", t_eval=t_eval,
                    events=list(events) or None, rtol=rtol, atol=atol, max_step=max_step)
    if sol.status < 0 and strict:
        raise SingularConfigurationError(f"integration failed: {sol.message}")
    return Solution(sol.t, sol.y, sol.status, sol.message, list(sol.t_events or []),
                    list(sol.y_events or []))


__all__ = ["MAX_STEPS", "SOLVERS", "CompiledEvents", "Solution", "compiled_or_lsoda",
           "integrate"]
