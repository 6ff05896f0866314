"""Greenwood §4.4 for rigid bodies (issue 14 items 4–5): the general dynamical equation with
the reference point away from the mass centre, the alternate form, d'Alembert's principle."""

from __future__ import annotations

import pytest
import sympy as sp
import sympy.physics.mechanics as me

from companion import examples
from companion.book import printed
from companion.examples.dumbbell_rigid.system import dalembert_steps
from companion.verify import all_checks, run_checks

NEW = ["dumbbell_rigid", "heavy_top_pivot", "rolling_disk_frame"]


@pytest.mark.parametrize("name", NEW)
def test_every_check_of_the_new_slices_matches(name):
    outcomes = run_checks(all_checks([name]))
    assert outcomes and all(o.matched for o in outcomes), [o.detail for o in outcomes]


def test_dumbbell_about_the_knife_edge_gives_4_122_4_123():
    s = examples.get("dumbbell_rigid")
    d = s.derive("kane")
    m, l = s.parameter_symbols
    u1, u2 = s.u_independent
    u1d, u2d = (sp.Symbol(r"\dot{" + sp.latex(v) + "}") for v in (u1, u2))
    lhs = [sp.expand(e.lhs - e.rhs) for e in d.equations]
    assert lhs == [sp.expand(2 * m * u1d - m * l * u2**2),
                   sp.expand(m * l**2 * u2d + m * l * u1 * u2)]
    offset = next(st for st in d.steps if st.eq == "(4.139)/(4.140)")
    assert r"\frac{l}{2}" in offset.latex() and "l^{2} m" in offset.latex()
    assert printed("dumbbell_rigid")["equations"]  # the printed data exists


def test_a_wrong_reference_point_inertia_is_caught():
    """The check can fail: I_P without the parallel-axis share gives other equations, which
    the System refuses, since they disagree with its kinetic energy T."""
    from dataclasses import replace

    from companion.examples.dumbbell_rigid.system import build, rigid_model

    s = build()
    m, l = s.parameter_symbols

    def wrong():
        model = rigid_model(m, l)
        body = model.bodies[0]
        A = body.frame
        lighter = me.RigidBody("dumbbell", body.masscenter, A, body.mass,
                               (me.inertia(A, 0, 0, 0), body.masscenter))
        return replace(model, bodies=[lighter])

    with pytest.raises(ValueError, match=r"inertia of the mechanics model differs from the "
                       r"System's kinetic energy T: the mass matrix entry m_22"):
        s.variant(mechanics_model=wrong).derive("kane")


def test_velocity_coefficients_are_labelled_in_named_frames():
    d = examples.get("knife_edge").derive("kane")
    step = next(st for st in d.steps if st.title.startswith("Velocity coefficients"))
    text = step.latex()
    assert r"\gamma_{22}" in text and r"\text{particle 2: }" in text
    assert "frame A (the rod's frame" in step.explanation and "N (inertial)" in step.explanation
    top = examples.get("heavy_top_pivot").derive("kane")
    beta = next(st for st in top.steps if st.title.startswith("Angular-velocity"))
    assert r"\beta_{13}" in beta.latex() and "B (body" in beta.explanation


def test_alternate_form_uses_a_frame_not_fixed_in_the_disk():
    d = examples.get("rolling_disk_frame").derive("kane")
    step = next(st for st in d.steps if st.eq == "(4.144)–(4.146)")
    assert r"\text{disk, in H: }" in step.latex()
    assert all(r == me.Vector(0) for pair in d.result("alternate_form_residuals") for r in pair)


def test_dalembert_steps_on_the_knife_edge():
    steps = dalembert_steps(examples.get("dumbbell_rigid"))
    eqs = [st.eq for st in steps]
    assert eqs[0] == "(4.124, by position)" and "(4.126)" in eqs
    assert "(4.129)" in eqs and "(4.130)" in eqs
    assert eqs[-1] == "(4.132)"
    work = next(st.expr for st in steps if st.title.startswith("The knife-edge force"))
    assert work == 0
    final = steps[-1].expr
    knife = examples.get("knife_edge").derive("kane").equations
    assert [sp.expand(e.lhs) for e in final] == [sp.expand(e.lhs - e.rhs) for e in knife]


def test_reference_points_must_name_a_body():
    from dataclasses import replace

    from companion.examples.dumbbell_rigid.system import build, rigid_model

    s = build()
    model = rigid_model(*s.parameter_symbols)
    s = s.variant(mechanics_model=lambda: replace(model, reference_points={"rod": me.Point("P")}))
    with pytest.raises(ValueError, match="unknown bodies"):
        s.derive("kane")


def test_kane_cites_the_rigid_body_numbers():
    """Rigid bodies: Q* is (4.138, by position) with F* (4.139) and M* (4.140), the equation
    (4.142); the accelerations carry no number of their own ((4.139) is F* = −m(v̇ + ρ̈_c)).
    Particles only: (4.129), (4.130), (4.133)."""

    rigid = examples.get("dumbbell_rigid").derive("kane")
    assert rigid.step("inertia_forces").eq == "(4.138, by position)–(4.140)"
    assert rigid.step("applied_forces").eq == "(4.137)"
    assert rigid.step("equations").eq == "(4.142)"
    assert rigid.step("accelerations").eq is None
    assert "(4.139)" in rigid.step("accelerations").explanation
    particles = examples.get("knife_edge").derive("kane")
    assert [particles.step(k).eq for k in ("applied_forces", "inertia_forces", "equations")] == [
        "(4.129)", "(4.130)", "(4.133)"]
