"""The frozen Definition, System composed from it, variant() and the one right-hand side."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.mechanics.definition import Definition
from companion.mechanics.methods import METHODS
from companion.system import Evaluation, OdeIntegrator, Parameter, System

theta, thetad = sp.symbols(r"theta \dot{\theta}")
m, l, g = sp.symbols("m l g", positive=True)


def pendulum_fields(**changes):
    fields = dict(
        q=[theta], qdot=[thetad], T_qdot=m * l**2 * thetad**2 / 2,
        Q_q=[-m * g * l * sp.sin(theta)],
        parameters=[Parameter(m, 1.0, 0.1, 5.0, positive=True),
                    Parameter(l, 1.0, 0.1, 5.0, positive=True),
                    Parameter(g, 9.81, 0.0, 20.0)],
        initial=[Parameter(theta, 0.5, -3.0, 3.0), Parameter(thetad, 0.0, -5.0, 5.0)])
    fields.update(changes)
    return fields


def test_a_definition_is_frozen_and_keeps_copies_of_what_it_was_given():
    forces = [-m * g * l * sp.sin(theta)]
    d = Definition(**pendulum_fields(Q_q=forces))
    forces.append(theta)  # the caller's list, changed afterwards
    assert len(d.Q_q) == 1 and len(d.replace(T=d.T).Q_q) == 1 and d.given["Q_q"] == d.Q_q
    with pytest.raises(AttributeError, match="frozen"):
        d.q = (theta,)
    with pytest.raises(AttributeError, match="frozen"):
        del d.q
    series = {"x": l * sp.sin(theta)}
    # what a model evaluates along a motion is the model's
    s = System(d, evaluation=Evaluation(series=series))
    series["junk"] = theta
    assert set(s.series) == {"x"} and not hasattr(d, "series")
    with pytest.raises(TypeError):
        s.series["x"] = theta
    assert isinstance(d.Q, tuple) and isinstance(d.psi[0], sp.ImmutableMatrix)
    with pytest.raises(TypeError):
        d.psi[0][0, 0] = 7
    assert d.q == (theta,) and d.u == (thetad,)


def test_replace_gives_the_energy_one_way_and_refuses_unknown_fields():
    d = Definition(**pendulum_fields())
    in_u = d.replace(T=d.T)  # T given: T_qdot cleared, not "given twice"
    assert in_u.T_qdot is None and sp.simplify(in_u.T - d.T) == 0
    with pytest.raises(TypeError, match="unknown field.*colour"):
        d.replace(colour="red")


def test_parameters_must_be_parameter_entries():
    with pytest.raises(TypeError, match="initial must be a list of Parameter"):
        Definition(**pendulum_fields(initial={theta: 0.5, thetad: 0.0}))
    with pytest.raises(TypeError, match="each entry of parameters must be a Parameter"):
        Definition(**pendulum_fields(parameters=[m, l, g]))


def test_a_system_from_a_definition_or_from_its_fields_is_the_same():
    by_fields = System(**pendulum_fields())
    by_definition = System(Definition(**pendulum_fields()))
    a, b = by_fields.simulate(2.0), by_definition.simulate(2.0)
    np.testing.assert_array_equal(a.states, b.states)
    with pytest.raises(TypeError, match="give the definition once"):
        System(by_fields.definition, q=[theta])
    with pytest.raises(TypeError, match="metod: did you mean method"):
        System(**pendulum_fields(), metod="maggi")
    with pytest.raises(ValueError, match="unknown method 'maggy'"):
        System(**pendulum_fields(), method="maggy")
    with pytest.raises(ValueError, match="t_final must be a positive number"):
        System(**pendulum_fields(), evaluation=Evaluation(t_final=-3.0))
    assert System(**pendulum_fields(), integrator="dop853").integrator.solver == "dop853"


def test_the_definition_cannot_be_swapped_under_a_system():
    s = System(**pendulum_fields())
    with pytest.raises(AttributeError, match="variant"):
        s.definition = s.definition.replace(Q_q=[0])
    with pytest.raises(AttributeError, match="variant"):
        s.name = "other"


def test_registered_methods_receive_the_definition_and_their_inputs_own_methods_the_system():
    seen = {}

    def probe(d):
        seen["registered"] = d
        return METHODS["boltzmann_hamel"](d)

    def own(system):
        seen["own"] = system
        return system.derive("boltzmann_hamel")

    METHODS["_probe"] = probe
    try:
        s = System(**pendulum_fields(), methods={"own": own})
        s.derive("_probe"), s.derive("own")
    finally:
        del METHODS["_probe"]
    assert seen["registered"].definition is s.definition and seen["own"] is s
    assert seen["registered"].mechanics_model is None and seen["registered"].T is s.T


def test_a_method_reads_its_inputs_beside_the_definition_and_shares_its_caches():
    from companion.mechanics.lagrange import kinematics_of
    from companion.mechanics.methods import Given

    s = examples.get("knife_edge")
    given = Given(s.definition, s.mechanics_model)
    assert given == s.definition and hash(given) == hash(s.definition)
    assert kinematics_of(given) is kinematics_of(s.definition)  # Φ = Ψ⁻¹ formed once
    assert given.mechanics_model is s.mechanics_model and given.geometry is None
    assert given.q == s.q and given.T is s.T
    assert copy.deepcopy(given).q == s.q


def test_the_methods_inputs_are_the_systems_not_fields_of_the_definition():
    """Kane's bodies, a mechanism and the elimination are given to System beside the
    definition (issue 36): a definition holds physics only."""
    assert not {"mechanics_model", "geometry", "elimination"} & set(Definition.FIELDS)
    with pytest.raises(TypeError, match="unknown field"):
        System(**pendulum_fields()).definition.replace(mechanics_model=None)
    s = System(System(**pendulum_fields()).definition, mechanics_model=lambda: None)
    assert s.variant(elimination="symbolic").mechanics_model is s.mechanics_model
    with pytest.raises(ValueError, match="elimination must be 'symbolic' or 'numeric'"):
        s.variant(elimination="fast")
    with pytest.raises(TypeError, match="mechanics_model must be a function"):
        System(s.definition, mechanics_model=3)
    with pytest.raises(ValueError, match="give the kinetic energy: T"):
        System(s.definition.replace(T=None))


def test_a_system_survives_pickle_and_deepcopy():
    s = System(**pendulum_fields())
    pickled = pickle.loads(pickle.dumps(s))  # before its compiled functions exist
    motion = s.simulate(1.0)
    # after: generated code does not pickle, so it is left behind and compiled again
    for other in (pickled, copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        np.testing.assert_allclose(other.simulate(1.0).states, motion.states, rtol=1e-12)
    # the subclasses' own compiled helpers too (the chart's maps, the mechanism's M and f)
    for name in ("knife_edge", "double_pendulum", "sphere_particle"):
        system = examples.get(name)
        moved = system.simulate(1.0)
        again = pickle.loads(pickle.dumps(system)).simulate(1.0)
        np.testing.assert_allclose(again.states, moved.states, rtol=1e-12)


@pytest.mark.parametrize("name", ["double_pendulum", "sphere_particle", "knife_edge"])
def test_a_variant_with_more_series_has_the_same_motion_and_the_new_series(name):
    s = examples.get(name)
    original = s.simulate(1.0)
    v = s.variant(name=f"{name} (again)", series={**s.series, "twice q0": 2 * s.q[0]})
    motion = v.simulate(1.0)
    np.testing.assert_array_equal(motion.states, original.states)
    np.testing.assert_allclose(motion.series["twice q0"], 2 * original[s.q[0].name])
    for key in original.invariants:
        np.testing.assert_allclose(motion.invariants[key], original.invariants[key])
    assert s.name == name and "twice q0" not in s.series  # the original is untouched


def test_a_variant_copies_its_parts_and_derives_again_for_other_equations():
    s = System(**pendulum_fields())
    reordered = s.variant(parameters=list(reversed(s.parameters)))
    assert reordered.derive() is not s.derive() and reordered.name == s.name
    assert s.variant(initial=s.initial).derive() is s.derive()  # where it starts only
    with pytest.raises(TypeError, match="unknown keyword.*colour"):
        s.variant(colour="red")
    v = s.variant(method="maggi", t_final=3.0)
    assert (v.method, v.t_final, s.method, s.t_final) == ("maggi", 3.0, "boltzmann_hamel", 20.0)
    with pytest.raises(AttributeError, match=r"parts are fixed.*variant\(t_final=…\)"):
        v.t_final = 5.0
    for name in ("own_methods", "methods"):  # the attribute, and the keyword's name
        with pytest.raises(AttributeError, match=r"variant\(methods=…\)"):
            setattr(v, name, {})
    assert v.variant(methods=None, observers=None).own_methods == {}  # None as in System
    with pytest.raises(TypeError):
        v.own_methods["mine"] = lambda system: None  # read-only
    w = v.variant(observers=[lambda system, traj: None])
    assert len(w.observers) == 1 and s.observers == v.observers == ()
    assert w.t_final == 3.0 and w.method == "maggi"  # the parts it was not given are kept
    kept = s.derive()
    assert s.variant(title="t").derive() is kept  # names only: the derivation holds
    cited = s.variant(citations={"boltzmann_hamel": {"gyroscopic": "(9.9)"}}).derive()
    assert cited is not kept and cited.step("gyroscopic").eq == "(9.9)"
    assert kept.step("gyroscopic").eq == "(4.92)"  # the general equation, still
    with pytest.raises(TypeError, match="citations map a method to its steps' numbers"):
        s.variant(citations={"gyroscopic": "(9.9)"})
    with pytest.raises(ValueError, match=r"unknown steps \['Psi'\] of the boltzmann_hamel"):
        s.variant(citations={"boltzmann_hamel": {"Psi": "(4.90)"}}).derive()
    with pytest.raises(TypeError, match="source: a worked example's source is on its record"):
        System(**pendulum_fields(), source="Greenwood")


def test_rhs_is_what_simulate_integrates_and_validates_p():
    s = examples.get("double_pendulum")
    p = s.parameter_vector()
    x = np.array([1.8, 2.4, 0.3, -0.2])
    np.testing.assert_array_equal(s.rhs(p)(0.0, x), s.integrator.rhs(s, p)(0.0, x))
    # every form of the same equations agrees
    forms = [OdeIntegrator().rhs(s, p), OdeIntegrator(backend="auto").rhs(s, p)]
    for f in forms:
        np.testing.assert_allclose(f(0.0, x), s.rhs(p)(0.0, x), rtol=1e-10)
    with pytest.raises(ValueError, match=r"p holds 1 value\(s\)"):
        OdeIntegrator().rhs(s, [1.0])
    with pytest.raises(TypeError, match="p must be the parameter values"):
        OdeIntegrator().rhs(s, ["a"] * len(p))


def test_no_module_maps_parameter_names_to_positions_by_hand():
    """One identity per parameter: p is built by a ParameterTable (parameter_vector), never
    by a list comprehension over names of its own (benchmarks/core_size.py counts them)."""
    import re
    from pathlib import Path

    by_name = re.compile(r"\[\s*\w+\[\s*\w+\.name\s*\]\s+for\s+\w+\s+in\s+[\w.]*"
                         r"(?:parameter_symbols|PARAMETERS|SYMBOLS|parameters)\b")
    root = Path(__file__).resolve().parent.parent / "companion"
    found = [f"{p.relative_to(root)}: {m.group(0)}" for p in root.glob("**/*.py")
             for m in by_name.finditer(p.read_text())]
    assert found == []


def test_series_and_invariants_are_checked_when_the_system_is_built():
    z = sp.Symbol("z")
    with pytest.raises(ValueError, match="a series uses z"):
        System(**pendulum_fields(), evaluation=Evaluation(series={"bad": z}))
    sleigh = examples.get("knife_edge")
    with pytest.raises(ValueError, match=r"an invariant uses the constrained "
                                         r"speed\(s\) u_3"):
        sleigh.variant(invariants={"E": sleigh.T})


def test_what_a_new_user_types_gets_a_clear_answer():
    s = System(**pendulum_fields())
    f = s.rhs()
    np.testing.assert_array_equal(f(0.0, [0.5, 0.0]), f(0.0, np.array([0.5, 0.0])))
    with pytest.raises(ValueError, match="parms: did you mean params"):
        s.simulate(2.0, parms={"m": 2.0})
    with pytest.raises(TypeError, match="of variant; it takes the parts name, title"):
        s.variant(colour="red")
    with pytest.raises(ValueError, match=r"not steady: .* \(at theta = 0.5"):
        s.linearize()
    text = repr(s.simulate(1.0, n_points=11))
    assert text.startswith("<Trajectory: 11 samples, t = 0…1 s; states theta") and "\n" not in text


def test_what_a_run_evaluates_is_one_evaluation_part_and_the_old_keywords_say_where_it_went():
    """Issue 36: ``System`` takes what a simulation evaluates and its default samples as one
    :class:`Evaluation`; a keyword of it given alone, or a record's citations, is named with
    where it goes (with a definition or without), and ``variant`` changes one field."""
    s = System(**pendulum_fields(),
               evaluation=Evaluation(series={"x": l * sp.sin(theta)}, t_final=3.0))
    assert (dict(s.series), s.t_final, s.evaluation.t_final) == ({"x": l * sp.sin(theta)},
                                                                 3.0, 3.0)
    traj = s.simulate(n_points=5)
    np.testing.assert_allclose(traj.series["x"], np.sin(traj["theta"]))  # l = 1
    for given in (pendulum_fields(), {"definition": s.definition}):
        with pytest.raises(TypeError, match=r"series: give evaluation=Evaluation\(series=…\)"):
            System(**given, series={"x": theta})
        with pytest.raises(TypeError, match=r"citations: a worked example's citations are on "
                                            r"its record .*variant\(citations=…\)"):
            System(**given, citations={})
    with pytest.raises(TypeError, match=r"evaluation must be an Evaluation\(invariants=…"):
        System(**pendulum_fields(), evaluation={"t_final": 3.0})
    v = s.variant(evaluation=Evaluation(t_final=5.0), n_points=50)
    assert (v.t_final, v.n_points, dict(v.series), s.t_final) == (5.0, 50, {}, 3.0)
