"""Systems built for the §4.4 efficiency study, not worked examples of the books.

* :func:`snakeboard` — the snakeboard (a board on two wheel sets steered by ±φ, with a rotor),
  typed either with angle sums sin(θ ± φ) or with them expanded: the two typings of one
  system, which must derive at the same cost (no expression swell).
* :func:`chain_system` — the planar n-link pendulum chain (the double pendulum's builder)
  with the mechanics model the general dynamical equation needs, for the scaling study.
* :class:`Entry` and :func:`measure` — one system of the study and its figures for every
  method against sympy's ``KanesMethod`` in the same run (``benchmarks/efficiency.py`` runs
  the whole family; the §4.4 notebook a small part of it).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import sympy as sp

from companion.examples.double_pendulum.chain import chain, chain_model, kanes_method
from companion.geometry.planar_system import MechanismSystem
from companion.mechanics.comparison import (
    BOOK_METHODS,
    kanes_method_derivation,
    operation_count,
    rhs_evaluations_per_second,
)
from companion.mechanics.derivation import Derivation
from companion.mechanics.lagrange import kinematics_of
from companion.mechanics.methods import METHODS
from companion.mechanics.model import MechanicsModel
from companion.numerics import CompiledEOM
from companion.numerics.c_rhs import compiler
from companion.system import Parameter, System


def chain_system(n: int) -> MechanismSystem:
    """The n-link planar pendulum chain (speeds ω_i = θ̇_i, gravity, no joint torques), built
    from its mechanism like the double pendulum, with the bodies of
    :func:`~companion.examples.double_pendulum.chain.chain_model` for Kane's method."""
    return chain(n).variant(mechanics_model=partial(chain_model, n))


def snakeboard_model(m: sp.Symbol, J: sp.Symbol, J_r: sp.Symbol, J_w: sp.Symbol) -> MechanicsModel:
    """The snakeboard's bodies for the general dynamical equation: the board (m, J) at (x, y)
    turned by θ, and about its centre the rotor (J_r, turned by ψ on the board) and the two
    wheel sets (J_w each, steered by ±φ); rotor and wheels carry no mass of their own."""
    import sympy.physics.mechanics as me

    x, y, theta, psi, phi = me.dynamicsymbols("x y theta psi phi")
    N = me.ReferenceFrame("N")
    board = N.orientnew("B", "Axis", (theta, N.z))
    O = me.Point("O")
    O.set_vel(N, 0)
    centre = O.locatenew("C", x * N.x + y * N.y)
    bodies = [me.RigidBody("board", centre, board, m, (me.inertia(board, 0, 0, J), centre))]
    for name, angle, inertia in (("rotor", psi, J_r), ("front_wheels", phi, J_w),
                                 ("back_wheels", -phi, J_w)):
        frame = board.orientnew(name, "Axis", (angle, board.z))
        bodies.append(me.RigidBody(name, centre, frame, 0,
                                   (me.inertia(frame, 0, 0, inertia), centre)))
    return MechanicsModel(frame=N, q=[x, y, theta, psi, phi], bodies=bodies,
                          frames={"N": "inertial", "B": "the board's frame"})


def snakeboard(angle_sums: bool = True) -> System:
    """The snakeboard: n = 5 coordinates, m = 2 rolling constraints.

    q = (x, y, θ, ψ, φ): the board's centre, its heading, the rotor angle relative to the
    board and the steering angle (front wheels at +φ, back wheels at −φ).  Neither wheel set
    slides sideways: −sin(θ ± φ) ẋ + cos(θ ± φ) ẏ ∓ l cos φ θ̇ = 0, the last two
    quasi-velocities.  The unconstrained kinetic energy is that of the board (m, J), the
    rotor (J_r, turned by θ + ψ) and the two wheel sets (J_w each, turned by θ ± φ).

    Parameters
    ----------
    angle_sums
        Type the constraints with sin(θ ± φ), cos(θ ± φ) (default) or with the angle sums
        expanded into products of sin θ, cos θ, sin φ, cos φ.
    """
    x, y, theta, psi, phi = sp.symbols("x y theta psi phi")
    q = [x, y, theta, psi, phi]
    xd, yd, thetad, psid, phid = qdot = [sp.Symbol(r"\dot{" + sp.latex(s) + "}") for s in q]
    u = list(sp.symbols("u_1:6"))
    m, J, J_r, J_w, l = sp.symbols("m J J_r J_w l", positive=True)

    def side_slip(sign: int) -> sp.Expr:
        angle = theta + sign * phi
        slip = -sp.sin(angle) * xd + sp.cos(angle) * yd - sign * l * sp.cos(phi) * thetad
        return slip if angle_sums else sp.expand_trig(slip)

    half = sp.Rational(1, 2)
    T_qdot = (half * m * (xd**2 + yd**2) + half * J * thetad**2 + half * J_r * (thetad + psid)**2
              + half * J_w * ((thetad + phid)**2 + (thetad - phid)**2))
    return System(
        name="snakeboard" if angle_sums else "snakeboard_expanded",
        title="Snakeboard (angle sums typed " + ("as sums)" if angle_sums else "expanded)"),
        q=q, qdot=qdot, u=u,
        definitions=[thetad, psid, phid, side_slip(+1), side_slip(-1)],
        T_qdot=T_qdot, n_constraints=2,
        mechanics_model=partial(snakeboard_model, m, J, J_r, J_w),
        parameters=[
            Parameter(m, 1.0, 0.1, 5.0, "kg", "board mass", positive=True),
            Parameter(J, 0.2, 0.01, 1.0, "kg m²", "board moment of inertia", positive=True),
            Parameter(J_r, 0.1, 0.01, 1.0, "kg m²", "rotor moment of inertia", positive=True),
            Parameter(J_w, 0.01, 0.001, 0.1, "kg m²", "wheel set moment of inertia",
                      positive=True),
            Parameter(l, 0.5, 0.1, 1.0, "m", "half the wheel base", positive=True),
        ],
        initial=[
            Parameter(x, 0.0, -1.0, 1.0, "m", "x of the board's centre"),
            Parameter(y, 0.0, -1.0, 1.0, "m", "y of the board's centre"),
            Parameter(theta, 0.3, -3.0, 3.0, "rad", "heading of the board"),
            Parameter(psi, 0.0, -3.0, 3.0, "rad", "rotor angle relative to the board"),
            Parameter(phi, 0.5, 0.2, 1.2, "rad", "steering angle (away from φ = 0, π/2)"),
            Parameter(u[0], 0.5, -2.0, 2.0, "rad/s", "turning rate θ̇"),
            Parameter(u[1], 0.3, -2.0, 2.0, "rad/s", "rotor rate ψ̇"),
            Parameter(u[2], 0.2, -2.0, 2.0, "rad/s", "steering rate φ̇"),
        ],
    )


#: The name of the baseline in the figures.
BASELINE = "KanesMethod"


@dataclass(frozen=True)
class Entry:
    """One system of the efficiency study: its ``name`` in the figures, its ``size`` on the
    plots' abscissa (the chain's number of links; coordinates otherwise), ``build()``, a fresh
    :class:`System` (derivations are timed on fresh ones), and ``baseline(system)``, which
    builds the same system for sympy's ``KanesMethod``, forms its equations and returns
    ``(kanes_method, dynamicsymbol → Symbol, dependent speeds)``."""

    name: str
    size: int
    build: Callable[[], System]
    baseline: Callable[[System], tuple]


def _chain_with_model(n: int) -> MechanismSystem:
    """The chain with its mechanics model built now, with the system: frames, points and
    bodies are the input of both forms of Kane's method (ours and KanesMethod), as T is of
    the other methods, so no derivation is timed building them."""
    model = chain_model(n)
    return chain(n).variant(mechanics_model=lambda: model)


def _chain_baseline(n: int, system: System) -> tuple:
    """KanesMethod on the model built with ``system`` (:func:`_chain_with_model`)."""
    kane = kanes_method(n, model=system.mechanics_model())
    return kane, {f: sp.Symbol(f.func.__name__) for f in (*kane.q, *kane.u)}, ()


def chain_entry(n: int) -> Entry:
    """The n-link chain: ours and sympy's from the same bodies, built with the system."""
    return Entry(f"chain_{n}", n, partial(_chain_with_model, n), partial(_chain_baseline, n))


@dataclass
class Measure:
    """One method on one system: its equations, their size and the times it took.

    ``derive`` excludes the construction of the fresh system (``build``), which all our
    methods share, the chain's mechanics model included; KanesMethod's is its construction
    and ``kanes_equations`` on that model (a worked example's independent model is built in
    its timing).  ``derive`` is a median over interleaved rounds (:func:`measure`) and ``ratio``
    its ratio to KanesMethod's median in the same run.  Times are CPU seconds of this process,
    except ``c_compile``: wall seconds, for the C compiler runs in a process of its own.
    ``c_per_second`` is 0 without a C compiler.
    """

    system: str
    size: int
    method: str
    equations: str
    first_order: int
    ops: int
    ops_cse: int
    derive: float
    build: float = 0.0
    compile: float = 0.0
    per_second: float = 0.0
    c_compile: float = 0.0
    c_per_second: float = 0.0
    ratio: float = float("nan")


def _timed(fn: Callable[[], object]) -> tuple[object, float]:
    """The result of ``fn`` and the CPU time it took: the time this process ran, which other
    processes on a shared machine inflate far less than wall time.

    The run starts from an empty sympy cache and a collected heap, so that no method is
    timed on results another method left in the cache (the order of the runs would decide),
    and runs with the garbage collector off, as ``timeit`` does: a collection's cost depends
    on everything else alive in the process, not on the method.
    """
    sp.core.cache.clear_cache()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.process_time()
        result = fn()
        return result, time.process_time() - start
    finally:
        if enabled:
            gc.enable()


def _compiled(m: Measure, d: Derivation, system: System, rhs_seconds: float,
              with_c: bool) -> Measure:
    start = time.process_time()
    eom = CompiledEOM(d, system.parameter_symbols)
    m.compile = time.process_time() - start
    p = system.parameter_vector()
    m.per_second = rhs_evaluations_per_second(eom, p, rhs_seconds)
    if with_c and compiler() is not None:
        start = time.perf_counter()
        eom.c_rhs(p)  # builds the library (or loads it from the cache)
        m.c_compile = time.perf_counter() - start
        m.c_per_second = rhs_evaluations_per_second(eom, p, rhs_seconds, c=True)
    return m


def measure(entry: Entry, methods: Sequence[str] = BOOK_METHODS, repeat: int = 1,
            rhs_seconds: float = 0.3, with_c: bool = False) -> list[Measure]:
    """KanesMethod and every method of ``methods`` on one system, all in this run.

    The derivations are interleaved: ``repeat`` rounds, each deriving once by KanesMethod and
    once by every method, so that a change in the machine's load falls on all of them alike;
    times are medians over the rounds and ``ratio`` is the ratio of the medians.  Every
    derivation starts from a fresh system built outside its timing, with Φ = Ψ⁻¹ recomputed.
    Each compiled right-hand side is run for ``rhs_seconds`` of CPU time.
    Operation counts cover the complete first-order system, kinematical
    equations included (:func:`~companion.mechanics.comparison.operation_count`).
    ``with_c``: also build and time the C right-hand side (when a C compiler is found).
    """
    system = entry.build()

    def derive(method: str, fresh: System) -> object:
        if method == BASELINE:  # its own model is timed, the System it reads symbols from not
            return entry.baseline(fresh)
        kinematics_of.cache_clear()  # every method pays for its own Φ = Ψ⁻¹
        return METHODS[method](fresh)

    names = [BASELINE, *methods]
    runs: dict[str, list[float]] = {name: [] for name in names}
    builds, results = [], {}
    for _ in range(repeat):
        builds.append(_timed(entry.build)[1])
        for name in names:
            fresh = entry.build()
            results[name], seconds = _timed(partial(derive, name, fresh))
            runs[name].append(seconds)
    seconds = {name: statistics.median(times) for name, times in runs.items()}
    kane, plain, dependent = results[BASELINE]
    d = kanes_method_derivation(kane, plain, dependent, system.t)
    k = len(d.u) - len(dependent)
    eqs = f"{k} × order 1" + (f" + {len(dependent)} differentiated constraint"
                              if dependent else "")
    out = [_compiled(Measure(entry.name, entry.size, BASELINE, eqs, len(d.q) + k,
                             *operation_count(d, first_order=True), seconds[BASELINE]), d, system,
                     rhs_seconds, with_c)]
    for method in methods:
        d = results[method]
        eqs = f"{d.n_dynamical} × order {d.order}"
        if d.n_constraint_equations:
            eqs += f" + {d.n_constraint_equations} constraint"
        out.append(_compiled(Measure(entry.name, entry.size, method, eqs, d.n_first_order,
                                     *operation_count(d, first_order=True), seconds[method],
                                     statistics.median(builds)), d, system, rhs_seconds, with_c))
    for m in out:
        m.ratio = m.derive / out[0].derive
    return out


def markdown_table(measures: Sequence[Measure]) -> str:
    """The figures of :func:`measure` as a narrow markdown table (the §4.4 notebook shows it):
    first-order ODEs, count_ops (after cse), CPU seconds to derive and their ratio to
    KanesMethod's, right-hand-side evaluations per second."""
    lines = ["| system | method | ODEs | ops (cse) | derive [s] | ÷ Kanes | rhs/s |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {m.system} | {m.method} | {m.first_order} | {m.ops} ({m.ops_cse}) | "
              f"{m.derive:.2f} | {m.ratio:.2f} | {m.per_second:,.0f} |" for m in measures]
    return "\n".join(lines)
