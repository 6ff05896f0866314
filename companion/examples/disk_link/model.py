"""Loparo & Vakalis §7.10–7.11 (reconstructed): a disk on a pivoted link.

A worked instance of the chapter's method, not the handbook's own figure: the equations of
every contact mode are pulled back from the two free bodies (see :mod:`.contact`);
the contact forces come from the disk's Newton–Euler equations.

* ``disk_link_rolling`` (Example 3): the rolling model in (θ, s) with its validity monitored
  (N > 0 and |F| ≤ μ_s N; the first violation is reported, the model is integrated on).
* ``disk_link_friction`` (Example 4): a hybrid simulation with the modes rolling, slipping
  forward (v_slip > 0), slipping backward (v_slip < 0) and separated (free flight, with a
  plastic impact on re-contact), switched by events located by ``solve_ivp``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.compiled import OUTPUTS
from companion.examples.disk_link.modes import MODES, ROLLING, ContactModes
from companion.examples.disk_link.parameters import PARAMETERS
from companion.mechanics.boltzmann_hamel import boltzmann_hamel
from companion.mechanics.derivation import Derivation
from companion.mechanics.methods import METHODS
from companion.numerics import Trajectory
from companion.numerics.simulate import Guards, simulate_model
from companion.system import Parameter, ParameterTable

#: Defaults of each example where they differ from :data:`.parameters.PARAMETERS`.
_DEFAULTS = {
    False: {"mu_s": 0.6, "mu_k": 0.4},
    True: {"mu_s": 0.25, "mu_k": 0.15},
}


class DiskLink:
    """The disk-on-link example as a :class:`~companion.model.Model`: parameters and initial
    values in, the motion of :class:`ContactModes` out, with :meth:`at_state` (the forces of
    one mode at one state) and the main mode's derivations for notebooks and checks.

    Not a :class:`~companion.system.System`: a System integrates the equations of one
    :class:`~companion.mechanics.definition.Definition` in its state (q, u), while this
    motion switches between four mode models, each in coordinates of its own, on a state
    (θ, s, h, ψ, θ̇, ṡ, ḣ, ψ̇, W_τ, W_f) of its own.  Nor is a Definition kept for the
    derivations: the pulled-back forcing holds the link torque τ (a function of the state,
    :func:`.controller.link_torque`) and, while slipping, the friction force F (closed by
    Coulomb's law), which are neither parameters nor state, so a Definition would refuse
    them.  The derivations are built from the mode model itself: ``"pull_back"`` (the mode's
    own, (7.2)) and ``"boltzmann_hamel"`` ((4.85) with u = q̇ on the same kinetic energy and
    forces: Lagrange's equations, the independent cross-check of tests/test_disk_link.py).

    Parameters
    ----------
    hybrid
        False: Example 3, the rolling model monitored; True: Example 4, the hybrid model.

    Attributes
    ----------
    parameters
        :data:`.parameters.PARAMETERS` (the order of ``p`` everywhere) with this example's
        defaults.
    integrator
        The :class:`ContactModes` that integrates it (``simulate(integrator=…)`` takes
        another, e.g. with ``backend="python"``).
    """

    method = "pull_back"
    methods = ("pull_back", "boltzmann_hamel")
    t_final = 1.0
    n_points = 600

    def __init__(self, hybrid: bool):
        self.name = "disk_link_friction" if hybrid else "disk_link_rolling"
        self.title = ("Disk on a pivoted link with Coulomb friction (reconstructed Example 4)"
                      if hybrid else "Disk rolling on a pivoted link (reconstructed Example 3)")
        self.mode_model = ct.mode_model("slipping" if hybrid else "rolling")
        self.parameters = tuple(replace(p, default=_DEFAULTS[hybrid].get(p.name, p.default))
                                for p in PARAMETERS)
        initial = [
            Parameter(ct.theta, 0.6 if hybrid else 0.2, -1.2, 1.2, "rad", "θ₀, link angle"),
            Parameter(ct.s, 0.5, 0.0, 2.0, "m", "s₀, contact point from the pivot"),
            Parameter(sp.Symbol("theta_dot"), -1.0 if hybrid else 0.0, -3.0, 3.0, "rad/s",
                      "θ̇₀"),
            Parameter(sp.Symbol("s_dot"), 0.0, -3.0, 3.0, "m/s", "ṡ₀"),
        ]
        if hybrid:
            initial.append(Parameter(sp.Symbol("psi_dot"), 0.0, -60.0, 60.0, "rad/s",
                                     "ψ̇₀, disk spin (rolling would need θ̇₀ − ṡ₀/r)"))
        self.initial = tuple(initial)
        self.parameter_table = ParameterTable(self.parameters)
        self.initial_table = ParameterTable(self.initial, "initial condition(s)", "initial")
        self.integrator = ContactModes(hybrid=hybrid)
        self._derivations: dict[str, Derivation] = {}

    def __repr__(self) -> str:
        return f"<DiskLink {self.name}: {self.title}>"

    # ----------------------------------------------------------------- values
    @property
    def parameter_symbols(self) -> list[sp.Symbol]:
        """The parameters' Symbols, in the order of ``p``."""
        return [p.symbol for p in self.parameters]

    @property
    def q(self) -> list[sp.Symbol]:
        """The main mode's coordinates ((θ, s) rolling, (θ, s, ψ) slipping)."""
        return list(self.mode_model.q)

    @property
    def u(self) -> list[sp.Symbol]:
        """The main mode's speeds, its q̇."""
        return list(self.mode_model.qdot)

    def parameter_values(self, params: Mapping[Any, Any] | None = None) -> dict[str, float]:
        """Validated parameter values by name (keys names or Symbols, defaults filled in),
        with the model's own conditions: μ_k ≤ μ_s and the target s_ref on the link."""
        values = self.parameter_table.values(params)
        if values["mu_k"] > values["mu_s"]:  # both ≥ 0 by their parameters
            raise ValueError(f"kinetic friction μ_k = {values['mu_k']} exceeds static friction "
                             f"μ_s = {values['mu_s']}; Coulomb's law needs μ_k ≤ μ_s")
        if values["s_ref"] < 0 or values["s_ref"] > values["L"]:
            raise ValueError(f"the target s_ref = {values['s_ref']} m is off the link [0, "
                             f"{values['L']}] m")
        return values

    def parameter_vector(self, params: Mapping[Any, Any] | None = None) -> list[float]:
        """Validated parameter values in the order of ``p`` (:data:`.parameters.SYMBOLS`)."""
        return self.parameter_table.vector(self.parameter_values(params))

    def initial_values(self, initial: Mapping[Any, Any] | None = None) -> dict[str, float]:
        """Validated initial values by name (keys names or Symbols, defaults filled in)."""
        return self.initial_table.values(initial)

    def guards(self, part: ContactModes, method: str, p: list[float],
               params: Mapping[str, float]) -> Guards:
        """The checks of one run: its motion finite (the contact modes watch the rest)."""
        return Guards(self.name, params)

    # ----------------------------------------------------------------- derivations
    def applicable_methods(self) -> list[str]:
        """The derivations this model offers (both apply)."""
        return list(self.methods)

    def derive(self, method: str | None = None) -> Derivation:
        """The main mode's derivation by ``method`` (default ``"pull_back"``), cached.

        Raises
        ------
        ValueError
            An unknown method name.
        NotImplementedError
            Another registered method: its equations are not formed for this model (they
            would need a Definition, see the class docstring).
        """
        method = self.method if method is None else method
        if method not in self._derivations:
            model = self.mode_model
            if method == "pull_back":
                self._derivations[method] = model.derivation
            elif method == "boltzmann_hamel":
                v = sp.Matrix(model.qdot)
                T = sp.expand((v.T * model.metric * v)[0] / 2)
                forces = model.derivation.step("forces").expr.subs(ct.N, 0)
                self._derivations[method] = boltzmann_hamel(
                    T, model.q, model.qdot, sp.eye(len(model.q)), Q=list(forces))
            elif method not in METHODS:
                raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
            else:
                raise NotImplementedError(
                    "its contact modes are pulled back (7.2) and cross-checked by "
                    "Boltzmann–Hamel (4.85) with u = q̇; the other methods read a system's "
                    f"Definition, which this hybrid model has none of ({method!r} asked)")
        return self._derivations[method]

    # ----------------------------------------------------------------- numbers
    def at_state(self, state: Mapping[str, float], params: Mapping[str, Any] | None = None,
                 mode: str = ROLLING, *, link_held: bool = False) -> dict[str, float]:
        """Accelerations, N, F, τ and v_slip of ``mode`` (one of :data:`.modes.MODES`) at one
        contact state (theta, s, theta_dot, s_dot and, for slipping, psi_dot)."""
        pv = self.parameter_values(params)
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
        x = self.integrator.initial_state(state, pv)
        out = dict(zip(OUTPUTS, self.integrator.outputs(
            mode, x, self.parameter_table.vector(pv), pv, link_held), strict=True))
        return {k: out[k] for k in (*OUTPUTS[4:8], "N", "F", "tau", "v_slip")}

    def simulate(self, t_final: float | None = None, params: Mapping[Any, Any] | None = None,
                 initial: Mapping[Any, Any] | None = None, *, n_points: int | None = None,
                 rtol: float | None = None, atol: float | None = None,
                 integrator: ContactModes | None = None, **options: Any) -> Trajectory:
        """The motion (see :meth:`companion.model.Model.simulate`) by ``integrator``, a
        :class:`ContactModes` (default :attr:`integrator`, whose tolerances ``rtol``, ``atol``
        are the defaults); ``options`` are ``link_held`` (hold the link at θ₀) and
        ``max_switches``.

        Raises
        ------
        ValueError
            Refused values (μ_k > μ_s, s_ref or the start off the link, the parameters'
            own rules), unknown options.
        TypeError
            ``integrator`` is not a :class:`ContactModes`.
        """
        if integrator is None:
            integrator = self.integrator
        elif not isinstance(integrator, ContactModes):
            raise TypeError(f"{self.name} is integrated by its ContactModes (e.g. "
                            f"dataclasses.replace(model.integrator, backend='python')), got "
                            f"{integrator!r}")
        return simulate_model(self, integrator, method=self.method, t_final=t_final,
                              n_points=n_points, params=params, initial=initial, rtol=rtol,
                              atol=atol, options=options)


def build_rolling() -> DiskLink:
    """Example 3: the rolling model, monitored."""
    return DiskLink(hybrid=False)


def build_friction() -> DiskLink:
    """Example 4: the hybrid model with Coulomb friction and separation."""
    return DiskLink(hybrid=True)


__all__ = ["DiskLink", "build_friction", "build_rolling"]
