"""Loparo & Vakalis §7.10–7.11 (reconstructed): a disk on a pivoted link.

A worked instance of the chapter's method, not the handbook's own figure: the equations of
every contact mode are pulled back from the two free bodies (see :mod:`.contact`);
the contact forces come from the disk's Newton–Euler equations.

* ``disk_link_rolling`` (Example 3): the rolling model in (θ, s) with its validity monitored
  (N > 0 and |F| ≤ μ_s N; the first violation is reported, the model is integrated on).
* ``disk_link_friction`` (Example 4): a hybrid simulation with the modes rolling, slipping
  forward (v_slip > 0), slipping backward (v_slip < 0) and separated (free flight, with a
  plastic impact on re-contact), switched by events located by ``solve_ivp``.

The system is a :class:`~companion.system.System` whose own method ``"pull_back"`` gives the
main mode's derivation, integrated by the :class:`~.modes.ContactModes` part (modes, guards
and switches), with the resets of :mod:`.impacts` and the link torque of :mod:`.controller`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.controller import check_target
from companion.examples.disk_link.modes import ROLLING, ContactModes
from companion.examples.disk_link.parameters import PARAMETERS
from companion.system import Parameter, System


def check_friction(pv: Mapping[str, float]) -> None:
    """Coulomb's law needs μ_k ≤ μ_s (both ≥ 0 by their parameters)."""
    if pv["mu_k"] > pv["mu_s"]:
        raise ValueError(f"kinetic friction μ_k = {pv['mu_k']} exceeds static friction "
                         f"μ_s = {pv['mu_s']}; Coulomb's law needs μ_k ≤ μ_s")


class DiskLink(System):
    """The disk-on-link example: a :class:`System` integrated by :class:`ContactModes`, with
    :meth:`at_state` (the forces of one mode at one state) for notebooks and checks."""

    def at_state(self, state: Mapping[str, float], params: Mapping[str, Any] | None = None,
                 mode: str = ROLLING, *, link_held: bool = False) -> dict[str, float]:
        """See :meth:`ContactModes.at_state`."""
        return self.integrator.at_state(self, state, params, mode, link_held=link_held)


def build_rolling() -> DiskLink:
    """Example 3: the rolling model, monitored."""
    return _system(hybrid=False)


def build_friction() -> DiskLink:
    """Example 4: the hybrid model with Coulomb friction and separation."""
    return _system(hybrid=True)


#: Defaults of each example where they differ from :data:`.parameters.PARAMETERS`.
_DEFAULTS = {
    False: {"mu_s": 0.6, "mu_k": 0.4},
    True: {"mu_s": 0.25, "mu_k": 0.15},
}


def _system(hybrid: bool) -> DiskLink:
    model = ct.mode_model("slipping" if hybrid else "rolling")
    q, qdot = model.q, model.qdot
    v = sp.Matrix(qdot)
    T = sp.expand((v.T * model.metric * v)[0] / 2)
    forces = model.derivation.step("forces").expr  # the pulled-back forces Jᵀ F
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
        name="disk_link_friction" if hybrid else "disk_link_rolling",
        title=("Disk on a pivoted link with Coulomb friction (reconstructed Example 4)" if hybrid
               else "Disk rolling on a pivoted link (reconstructed Example 3)"),
        source="Loparo & Vakalis §7.11 (reconstruction)" if hybrid
        else "Loparo & Vakalis §7.9–7.10 (reconstruction)",
        q=q, qdot=qdot, T=T, Q=list(forces.subs(ct.N, 0)), inputs=[ct.tau, ct.F],
        parameters=parameters, initial=initial, parameter_checks=[check_friction, check_target],
        t_final=1.0, reconstruction=True, method="pull_back",
        methods={"pull_back": lambda system: model.derivation},
        integrator=ContactModes(hybrid=hybrid),
    )


__all__ = ["DiskLink", "build_friction", "build_rolling"]
