"""Disk on a pivoted link (Loparo & Vakalis §7.9–7.10, reconstructed Example 3): the
pulled-back models, an independent Newton–Euler check, energy and bad input."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.book import loparo_contact as book
from companion.examples.disk_link import contact as ct
from companion.examples.disk_link import newton_euler as ne
from companion.examples.disk_link.parameters import SYMBOLS


@pytest.fixture(scope="module")
def rolling():
    return examples.get("disk_link_rolling")


@pytest.fixture(scope="module")
def friction():
    return examples.get("disk_link_friction")


def _random_case(rng):
    p = {"g": 9.81, "m": rng.uniform(0.2, 3), "r": rng.uniform(0.03, 0.3),
         "kappa": rng.uniform(0.2, 1.0), "M": rng.uniform(0.5, 5), "L": rng.uniform(0.5, 2),
         "mu_s": 1.0, "mu_k": 0.4, "tau_0": rng.uniform(-5, 5)}
    st = {"theta": rng.uniform(-1, 1), "s": rng.uniform(0, p["L"]),
          "theta_dot": rng.uniform(-2, 2), "s_dot": rng.uniform(-2, 2)}
    return p, st


def test_slip_velocity_from_contact_kinematics():
    assert sp.expand(ct.relative_velocity()[0].subs(ct.h, 0)
                     - (ct.s_d - ct.r * ct.theta_d + ct.r * ct.psi_d)) == 0


def test_reaction_forces_drop_out_of_the_rolling_model():
    forces = ct.mode_model("rolling").derivation.step("forces").expr
    assert not forces.free_symbols & {ct.N, ct.F}
    slip = ct.mode_model("slipping").derivation.step("forces").expr
    assert ct.N not in slip.free_symbols and ct.F in slip.free_symbols


def test_rolling_metric_determinant():
    sigma = ct.mode_model("rolling").metric
    k = ct.m * (1 + ct.kappa)
    assert sp.simplify(sigma.det() - k * (ct.M * ct.L**2 / 3 + ct.m * ct.s**2)) == 0


@pytest.mark.parametrize("seed", range(3))
def test_rolling_agrees_with_newton_euler(rolling, seed):
    rng = np.random.default_rng(seed)
    for _ in range(5):
        p, st = _random_case(rng)
        got = rolling.at_state(st, p)
        st["psi_dot"] = st["theta_dot"] - st["s_dot"] / p["r"]
        ref = ne.solve(st, p, p["tau_0"], "rolling")
        for key in ("theta_ddot", "s_ddot", "psi_ddot", "N", "F"):
            assert got[key] == pytest.approx(ref[key], rel=1e-12, abs=1e-12), key


@pytest.mark.parametrize("seed", range(3))
def test_slipping_agrees_with_newton_euler(friction, seed):
    rng = np.random.default_rng(10 + seed)
    for _ in range(5):
        p, st = _random_case(rng)
        st["psi_dot"] = rng.uniform(-30, 30)
        vslip = st["s_dot"] - p["r"] * st["theta_dot"] + p["r"] * st["psi_dot"]
        mode = "slipping forward" if vslip > 0 else "slipping backward"
        got = friction.at_state(st, p, mode)
        ref = ne.solve(st, p, p["tau_0"], "slipping", np.sign(vslip))
        for key in ("theta_ddot", "s_ddot", "psi_ddot", "N", "F"):
            assert got[key] == pytest.approx(ref[key], rel=1e-12, abs=1e-12), key


def test_lagrange_style_derivation_agrees(rolling):
    """Boltzmann–Hamel with u = q̇ on the same T and forces: same accelerations."""
    other = rolling.derive("boltzmann_hamel")
    mine = rolling.derive("pull_back")
    rng = np.random.default_rng(5)
    p, st = _random_case(rng)
    subs = {ct.theta: st["theta"], ct.s: st["s"], ct.theta_d: st["theta_dot"],
            ct.s_d: st["s_dot"], ct.tau: p["tau_0"], ct.N: 0}
    subs.update(zip(SYMBOLS, rolling.parameter_vector(p), strict=True))
    a = np.array(mine.accelerations().subs(subs), dtype=float)
    b = np.array(other.accelerations().subs(subs), dtype=float)
    np.testing.assert_allclose(a, b, rtol=1e-12)


def test_energy_conserved_with_zero_torque(rolling):
    tr = rolling.simulate()
    assert np.all(tr["tau"] == 0)
    assert tr.drift("energy") < 1e-8


def test_energy_balance_with_feedback(rolling):
    pd = {"K_theta": 40, "D_theta": 10, "k_p": 0.6, "k_d": 0.3, "s_ref": 0.6, "c_g": 1}
    tr = rolling.simulate(8.0, pd, {"theta": 0.0, "s": 0.2})
    assert tr.drift("energy balance") < 1e-8
    assert abs(tr["s"][-1] - 0.6) < 0.03  # the PD loop brings the disk near its target
    assert tr.events[0].startswith("the rolling model stays valid")


def test_first_violation_is_reported(rolling):
    tr = rolling.simulate()
    violations = [e for e in tr.events if "first violation" in e]
    assert len(violations) == 1 and "μ_s N" in violations[0]
    t_bad = float(violations[0].split("t = ")[1].split(" s")[0])
    i = np.searchsorted(tr.t, t_bad)
    assert np.all(tr["rolling valid"][: i - 1] == 1) and tr["rolling valid"][i + 1] == 0


def test_held_link_threshold(rolling):
    theta_star = ct.fixed_link_threshold(0.3)
    assert np.tan(theta_star) == pytest.approx(book.fixed_link_tan_threshold(0.3), rel=1e-12)
    p = {"mu_s": 0.3, "mu_k": 0.2, "L": 2.0}
    for theta, stays in ((theta_star - 0.02, True), (theta_star + 0.02, False)):
        tr = rolling.simulate(0.3, p, {"theta": theta, "s": 1.5}, link_held=True)
        assert bool(np.all(tr["rolling valid"] == 1)) == stays


@pytest.mark.parametrize(("params", "initial", "match"), [
    ({"mu_s": 0.2, "mu_k": 0.3}, {}, "μ_k"),
    ({"m": -1.0}, {}, "m"),
    ({"r": 0.0}, {}, "r"),
    ({"M": -2.0}, {}, "M"),
    ({}, {"s": 1.5}, "off the link"),
    ({}, {"s": -0.1}, "off the link"),
    ({"mu_s": -0.1, "mu_k": -0.2}, {}, "mu_s"),
])
def test_bad_input(rolling, friction, params, initial, match):
    for system in (rolling, friction):
        with pytest.raises(ValueError, match=match):
            system.simulate(0.1, params, initial)


def test_unknown_mode(rolling):
    with pytest.raises(ValueError, match="unknown mode"):
        rolling.at_state({"theta": 0, "s": 0.5, "theta_dot": 0, "s_dot": 0}, mode="gliding")


def test_the_disk_link_has_one_parameter_order():
    """Only :mod:`.parameters` lists the parameters (the order of p): no other module of the
    slice defines, at module level, a PARAMETERS list or friction symbols of its own, or
    builds p from names in an order of its own (``[pv[s.name] for s in ...]``)."""
    package = Path(ne.__file__).parent
    modules = sorted(package.glob("*.py"))
    assert package / "parameters.py" in modules
    for path in modules:
        text = path.read_text(encoding="utf-8")
        stored = {node.id for statement in ast.parse(text).body  # module level
                  if isinstance(statement, (ast.Assign, ast.AnnAssign))
                  for node in ast.walk(statement)
                  if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
        if path.name != "parameters.py":
            assert not stored & {"PARAMETERS", "SYMBOLS", "MU_K", "MU_S", "mu_k", "mu_s"}, \
                path.name
        assert not re.search(r"\[(float\()?\w+\[\w+\.name\]\)?\s+for\b", text), path.name


def test_the_models_parameters_are_the_one_list(rolling, friction):
    """The order of p is that of parameters.PARAMETERS, whatever the example's defaults."""
    for model in (rolling, friction):
        assert model.parameter_symbols == SYMBOLS
        assert model.parameter_table.names == [s.name for s in SYMBOLS]


def test_the_disk_link_is_a_model_of_its_own(rolling, friction):
    """A Model, no System: its own integrator part, its two derivations, clear refusals."""
    from companion.model import Model
    from companion.system import System

    for model in (rolling, friction):
        assert isinstance(model, Model) and not isinstance(model, System)
        assert model.applicable_methods() == ["pull_back", "boltzmann_hamel"]
        with pytest.raises(NotImplementedError, match="Definition"):
            model.derive("maggi")
        with pytest.raises(ValueError, match="unknown method 'newton'"):
            model.derive("newton")
        with pytest.raises(TypeError, match="integrated by its ContactModes"):
            model.simulate(0.1, integrator="lsoda")
        with pytest.raises(ValueError, match="unknown keyword.*held: did you mean link_held"
                                             ".*options: link_held, max_switches"):
            model.simulate(0.1, held=True)
        with pytest.raises(ValueError, match="off the link"):
            model.at_state({"theta": 0, "s": 0.5, "theta_dot": 0, "s_dot": 0}, {"s_ref": 3.0})


def test_system_and_definition_keep_no_disk_link_arguments():
    """parameter_checks (of System) and inputs (of Definition) served only the disk–link."""
    from companion.system import System

    q = sp.Symbol("q")
    for keyword in ("parameter_checks", "inputs"):
        with pytest.raises(TypeError, match=f"unknown keyword.*{keyword}"):
            System(name="x", q=[q], T=sp.Symbol("q_dot") ** 2, **{keyword: ()})
