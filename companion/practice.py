"""Faded worked examples (issue 37, §3): after the book's worked example, a new system with the
last steps left to the reader (``faded``), then one with only its set-up given (``unaided``).

Each practice notebook shows one set of this module (:func:`show`); every key is the engine's
result on the system's own definition, never typed.  The systems are ours, beyond the books:

* the Chaplygin sleigh (:func:`companion.workbench.presets.chaplygin_sleigh`), a knife edge
  whose mass centre sits a distance a ahead of the blade;
* a puck (ours): a body sliding freely in the plane with a thrust F along its axis, in the
  body-frame quasi-velocities u₁ (along the axis), u₂ (across it) and u₃ = θ̇.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import sympy as sp

from companion.examples.nonholonomic.connection import constrained_T_first
from companion.exercises import ExerciseSet
from companion.exercises.check import Mistake
from companion.exercises.exercise import Exercise, steps_keyed
from companion.mechanics.derivation import Step
from companion.system import System
from companion.workbench.define import coordinates, define
from companion.workbench.presets import chaplygin_sleigh

__all__ = ["exercise_set", "puck", "set_names", "show", "sleigh"]


@cache
def sleigh() -> System:
    """The Chaplygin sleigh of the workbench's presets (built once)."""
    return chaplygin_sleigh()


@cache
def puck() -> System:
    """A puck of mass m and moment of inertia I sliding on ice, pushed by a thrust F along its
    axis (ours): body-frame speeds u₁ = ẋ cos θ + ẏ sin θ, u₂ = −ẋ sin θ + ẏ cos θ, u₃ = θ̇."""
    (x, y, theta), (xd, yd, thd) = coordinates("x y theta")
    m, I, F = sp.symbols("m I F", positive=True)
    c, s = sp.cos(theta), sp.sin(theta)
    return define(
        "puck", title="Puck with a thrust along its axis", q=[x, y, theta],
        speeds=[xd * c + yd * s, -xd * s + yd * c, thd],
        T=m / 2 * (xd**2 + yd**2) + I / 2 * thd**2, forces=[F * c, F * s, 0],
        points={"C": (x, y), "nose": (x + sp.Rational(1, 5) * c, y + sp.Rational(1, 5) * s)},
        parameters={m: (1.0, 0.2, 5.0, "kg"), I: (0.05, 0.01, 0.5, "kg·m²"),
                    F: (0.2, 0.0, 2.0, "N")},
        initial={x: (0.0, -1.0, 1.0, "m"), y: (0.0, -1.0, 1.0, "m"),
                 theta: (0.0, -1.0, 1.0, "rad"), "u_1": (0.0, -2.0, 2.0, "m/s"),
                 "u_2": (0.5, -2.0, 2.0, "m/s"), "u_3": (1.0, -5.0, 5.0, "rad/s")},
        t_final=10.0,
    ).build()


def _bh(system: System):
    return system.derive("boltzmann_hamel")


def _udot(system: System, r: int) -> Step:
    return Step("Solved for the accelerations", _bh(system).accelerations(), "(4.85)",
                f"Row {r}: u̇_{r}.", r"\dot u")


_SLEIGH_NAMES = ("x", "y", "theta", "u_1", "u_2", "a", "m", "I")
_PUCK_NAMES = ("x", "y", "theta", "u_1", "u_2", "u_3", "m", "I", "F")


def boltzmann_hamel() -> list[Exercise]:
    """Faded: the sleigh's u̇₁ from the given Ψ, γ's and T; unaided: the puck's u̇₁, u̇₂."""
    too_early = ("That is what the constrained T gives: put u_3 = 0 only after "
                 "differentiating, because p_3 = ∂T/∂u_3 feeds the γ terms (Greenwood's "
                 "warning at (4.108)).")
    return [
        Exercise(
            key="sleigh_u1dot", example="chaplygin_sleigh",
            title="Faded: the sleigh's forward acceleration u̇₁",
            prompt=(r"The steps above give $\Psi$, the $\gamma$'s and $T$ of the sleigh "
                    r"(with $u_3$, the speed across the blade, kept in $T$ until the end). "
                    r"Finish (4.85) for $r = 1$: form $p_j = \partial T/\partial u_j$, the "
                    r"term $\sum_{j,l} p_j\gamma^j_{1l}u_l$, put $u_3 = 0$ and give "
                    r"$\dot u_1$ in terms of $a$, $u_1$ and $u_2$."),
            answer=lambda s: _bh(s).accelerations()[0],
            names=_SLEIGH_NAMES,
            given_steps=lambda s: steps_keyed(_bh(s), "psi", "gamma", "kinetic_energy"),
            hints=("T does not depend on x, y or θ, so ∂T/∂θ₁ = 0 and Q₁ = 0.",
                   "p_3 = m(u_3 + a u_2) is not zero when u_3 = 0: it carries the term.",
                   "Row 1 reads m u̇₁ − (something) u₂² = 0."),
            solution=lambda s: [*steps_keyed(_bh(s), "momenta", "gyroscopic", "equations"),
                                _udot(s, 1)],
            mistakes=lambda s: [Mistake(constrained_T_first(s).accelerations()[0], too_early,
                                        "constraint_too_early")],
            example_answer="an expression in a, u_1 and u_2",
        ),
        Exercise(
            key="puck_u1dot", example="puck",
            title="Unaided: the puck's acceleration u̇₁ along its axis",
            prompt=(r"A puck of mass $m$ and moment of inertia $I$ about its centre "
                    r"$(x, y)$ slides on ice at heading $\theta$, pushed by a thrust $F$ "
                    r"along its axis. Take $u_1 = \dot x\cos\theta + \dot y\sin\theta$, "
                    r"$u_2 = -\dot x\sin\theta + \dot y\cos\theta$, $u_3 = \dot\theta$. From "
                    r"(4.85) give $\dot u_1$ in terms of $m$, $F$, $u_1$, $u_2$, $u_3$."),
            answer=lambda s: _bh(s).accelerations()[0],
            names=_PUCK_NAMES,
            hints=("T = m(u₁² + u₂²)/2 + I u₃²/2; Q_u = Φᵀ Q_q gives the thrust to u₁ alone.",
                   "Only the rows of u₁ and u₂ depend on θ: compute γ¹ and γ² from them.",
                   "The γ term of row 1 comes from p₂ = m u₂ and u₃."),
            solution=lambda s: [*steps_keyed(_bh(s), "psi", "gamma", "momenta", "gyroscopic",
                                             "equations"), _udot(s, 1)],
            mistakes=lambda s: [Mistake(
                _bh(s).accelerations()[0].subs(s.u[2], 0),
                "That is Newton's law along a fixed axis: the axis turns at u₃, so the γ "
                "term p₂ u₃ is missing.", "gamma_missing")],
            example_answer="an expression in m, F, u_1, u_2 and u_3",
        ),
        Exercise(
            key="puck_u2dot", example="puck",
            title="Unaided: the puck's acceleration u̇₂ across its axis",
            prompt=r"From the same equations give $\dot u_2$ in terms of $u_1$, $u_2$, $u_3$.",
            answer=lambda s: _bh(s).accelerations()[1],
            names=_PUCK_NAMES,
            hints=("The thrust has no share in u₂: Q₂ = 0.",
                   "Row 2's γ term comes from p₁ = m u₁ and u₃; mind its sign."),
            solution=lambda s: [*steps_keyed(_bh(s), "gamma", "gyroscopic", "equations"),
                                _udot(s, 2)],
            mistakes=lambda s: [Mistake(-_bh(s).accelerations()[1],
                                        "The sign: here γ²₁₃ = −γ¹₂₃, so row 2's γ term has "
                                        "the opposite sign of row 1's.", "sign")],
            example_answer="an expression in u_1, u_2 and u_3",
        ),
    ]


#: name → (title, exercises, system): the exercise sets of the practice notebooks.
_SETS: dict[str, tuple[str, Callable[[], list[Exercise]], dict[str, Callable[[], System]]]] = {
    "boltzmann_hamel": ("Practice: the Boltzmann–Hamel equation", boltzmann_hamel,
                        {"chaplygin_sleigh": sleigh, "puck": puck}),
}


def set_names() -> list[str]:
    """Names of the practice sets."""
    return list(_SETS)


def exercise_set(name: str) -> ExerciseSet:
    """A practice set, each exercise attached to its system."""
    if name not in _SETS:
        raise ValueError(f"no practice set {name!r}; known: {', '.join(_SETS)}")
    title, builder, systems = _SETS[name]
    exercises = builder()
    for exercise in exercises:
        exercise.system_of = systems[exercise.example]
    return ExerciseSet(example=name, title=title, exercises=exercises)


def show(name: str, *, only: Sequence[str], title: str | None = None) -> None:
    """Display the exercises ``only`` of a practice set in a notebook (works in Voilà too)."""
    from IPython.display import display

    chosen = exercise_set(name)
    known = [exercise.key for exercise in chosen]
    unknown = [key for key in only if key not in known]
    if unknown:
        raise ValueError(f"practice set {name!r} has no exercise {', '.join(map(repr, unknown))};"
                         f" known: {', '.join(known)}")
    display(ExerciseSet(name, title or chosen.title,
                        [e for e in chosen if e.key in only]).widget())
