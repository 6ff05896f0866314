"""Exercises on Loparo & Vakalis §7.2–7.3: the induced metric, Γ^θ_φφ and the normal reaction
of a particle on a sphere, from the ``geometric`` derivation.
"""

from __future__ import annotations

from operator import methodcaller

import numpy as np
import sympy as sp

from companion.examples.sphere_particle.system import SENT_SIDEWAYS
from companion.exercises.check import Mistake
from companion.exercises.exercise import ChoiceExercise, Declare, Exercise, keyed, parameter_symbol
from companion.exercises.outcomes import decided_by
from companion.mechanics.derivation import Step
from companion.system import System

_EX = Declare("sphere_particle", names=("theta", "phi", "m", "R", "g"))
_geometric = methodcaller("derive", "geometric")


def _radial_reaction(system: System) -> sp.Expr:
    """The outward component R·j/|j| of the sphere's reaction force, from the engine."""
    reaction = _geometric(system).result("reaction")
    radius = parameter_symbol(system, "R")
    return sp.trigsimp(sp.expand((reaction.T * system.embedding)[0] / radius))


def sphere_particle() -> list[Exercise | ChoiceExercise]:
    """The induced metric, Γ^θ_φφ and the normal reaction for the particle on a sphere; the
    height of a particle sent sideways, and what stays constant."""
    metric_steps = ("embedding", "jacobian", "metric")
    theta0, thetad0, phid0 = (SENT_SIDEWAYS[k] for k in ("theta", r"\dot{\theta}", r"\dot{\phi}"))
    return [
        _EX.typed("metric", "The induced metric JᵀσJ", (
            r"The sphere of radius $R$ is the image of $j(\theta, \phi) = R(\sin\theta"
            r"\cos\phi, \sin\theta\sin\phi, \cos\theta)$, $\theta$ measured from the "
            r"upward vertical; the ambient metric of the particle is $\sigma = m I_3$. "
            r"Give the $2\times 2$ induced metric $J^T\sigma J$ in the coordinates "
            r"$(\theta, \phi)$."),
            answer=lambda s: s.induced_metric,
            hints=("J has the two columns ∂j/∂θ and ∂j/∂φ; the metric's entries are m times "
                   "their dot products.",
                   "The two columns are perpendicular, so the metric is diagonal.",
                   "∂j/∂φ is tangent to a circle of latitude: how large is that circle?"),
            solution=keyed(*metric_steps, method="geometric"),
            mistakes=lambda s: [Mistake(
                s.induced_metric.subs(s.q[0], sp.pi / 2 - s.q[0]),
                "θ is measured from the vertical, not from the equator: the circle of latitude "
                "has radius R sin θ.")],
            example_answer="[[a, 0], [0, b]]",
        ),
        _EX.typed("Gamma", "The Christoffel symbol Γᶿᵩᵩ", (
            r"From the induced metric, compute the Christoffel symbol "
            r"$\Gamma^\theta_{\phi\phi} = \tfrac12 \sigma^{\theta\theta}(2\,\partial_\phi"
            r"\sigma_{\theta\phi} - \partial_\theta \sigma_{\phi\phi})$."),
            answer=lambda s: _geometric(s).result("christoffel")[0][1, 1],
            hints=("The metric does not depend on φ and is diagonal: only −∂σ_φφ/∂θ survives.",
                   "σᶿᶿ = 1/(m R²), and σ_φφ = m R² sin²θ."),
            solution=keyed(*metric_steps, "christoffel", method="geometric"),
            mistakes=lambda s: [Mistake(
                _geometric(s).result("christoffel")[1][0, 1],
                r"That is $\Gamma^\phi_{\theta\phi}$: the upper index (θ here) is the component of "
                "the acceleration, "
                "the lower two are the velocities (φ, φ).")],
            example_answer="-sin(theta)*...",
        ),
        _EX.typed("N", "The sphere's normal reaction", (
            r"The reaction $R = \sigma^\flat(\ddot j) - F$ is normal to the sphere. "
            r"Give its outward component $R\cdot j/R$ in terms of $\theta$, "
            r"$\dot\theta$, $\dot\phi$ (type theta_dot, phi_dot), $m$, $R$ and $g$."),
            answer=_radial_reaction,
            aliases={"theta_dot": r"\dot{\theta}", "phi_dot": r"\dot{\phi}"},
            hints=("Only the normal part of the ambient acceleration j̈ counts: the tangential "
                   "part is what the reduced equations already balance.",
                   "The normal acceleration of a point moving on a sphere is −v²/R, inward.",
                   "Gravity −m g ĵ_z contributes m g cos θ after the sign of −F."),
            solution=lambda s: [
                *_geometric(s).steps,
                Step("Outward component R·j/R", _radial_reaction(s), "§7.3",
                     "Gravity's normal part minus the centripetal term m v²/R.", r"R_n"),
            ],
            mistakes=lambda s: [Mistake(
                _radial_reaction(s).subs({u: 0 for u in s.u}),
                "That is the reaction of a particle at rest: a moving particle also needs the "
                "centripetal force m v²/R, v² = R²(θ̇² + sin²θ φ̇²).")],
            example_answer="m*g*cos(theta) - ...",
        ),
        _EX.predict("height", "Predict: a particle sent sideways", (
            "The explorer opens on its “sent sideways” preset: the particle at "
            rf"$\theta_0 = {theta0:g}$ (above the equator, $\theta$ from the upward vertical) "
            rf"moving sideways with $\dot\phi_0 = {phid0:g}$ rad/s and "
            rf"$\dot\theta_0 = {thetad0:g}$. What does its height do?"),
            ("It stays on its circle of latitude",
             "That needs exactly the right φ̇ for the height (a conical pendulum); "
             "here gravity is not balanced at the start."),
            ("It dips below the equator and comes back up, again and again",
             "Gravity pulls it down; the conserved sin²θ φ̇ sets its turning rate at "
             "each height (slowest at the equator, faster low down) and, with the "
             "energy, bounds the swing: it oscillates between two circles of "
             "latitude."),
            ("It slides down to the bottom and stays there",
             "No friction: energy is conserved, so it comes back up to θ₀."),
            ("It climbs towards the top",
             "At the start θ̇ = 0 and gravity pulls it down."),
            right=decided_by(_height_outcome,
                             {"level": 0, "oscillates": 1, "falls": 2, "climbs": 3}),
            then=("Now press ▶ in the explorer below, opened on sent sideways, and watch the "
                  "path on the sphere."),
        ),
        _EX.choice("conserved", "What stays constant?",
            r"Along the motion on the sphere, which of these is conserved?",
            ("sin²θ φ̇, the momentum of φ divided by m R²",
             "The metric and the potential do not depend on φ: φ is cyclic and "
             "its momentum m R² sin²θ φ̇ is conserved."),
            ("φ̇ itself",
             "φ̇ changes with the height: the particle turns faster near the "
             "bottom."),
            ("Nothing: gravity changes every rate",
             "Gravity has no moment about the vertical axis."),
            right=decided_by(_conserved, {"p_phi": 0, "phi_dot": 1, "none": 2}),
        ),
    ]


# --------------------------------------------------------------------------- understanding
def _height_outcome(system: System) -> str:
    run = system.simulate(initial=SENT_SIDEWAYS)
    theta = run["theta"]
    if np.ptp(theta) < 1e-3:
        return "level"
    if theta.max() > np.pi / 2 > theta[0] and np.abs(theta[1:] - theta[0]).min() < 0.05:
        return "oscillates"
    return "falls" if theta[-1] > theta[0] else "climbs"


def _conserved(system: System) -> str:
    run = system.simulate()
    theta, phi_dot = run["theta"], run[r"\dot{\phi}"]
    p_phi = np.sin(theta) ** 2 * phi_dot
    if np.ptp(p_phi) < 1e-6 * abs(p_phi[0]):
        return "p_phi"
    return "phi_dot" if np.ptp(phi_dot) < 1e-6 * abs(phi_dot[0]) else "none"


