"""Issue 15 items 5 and 6: no expression swell, lazy multipliers, and the §4.4 scaling family
(the n-link chain against sympy's KanesMethod, the rolling disk by Kane's method).

Every check counts operations or compares numbers; none depends on wall-clock time.
"""

import zlib

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.examples.double_pendulum.chain import kanes_method
from companion.examples.families import chain_system, snakeboard
from companion.mechanics.agreement import independent_accelerations, max_disagreement
from companion.mechanics.comparison import operation_count
from companion.mechanics.derivation import LazyStep
from companion.mechanics.quasi_velocities import (
    expand_angle_sums,
    expand_terms,
    polynomial_terms,
    tidy,
    tidy_sum_of_products,
)

METHODS = ("boltzmann_hamel", "lagrange_multipliers", "maggi", "kane")


@pytest.fixture(scope="module")
def snakeboards():
    return snakeboard(angle_sums=True), snakeboard(angle_sums=False)


def test_angle_sums_expand_to_single_angles():
    a, b, c = sp.symbols("a b c")
    e = sp.sin(a + b) * sp.cos(a - sp.cos(b + c))
    out = expand_angle_sums(e)
    assert not any(f.args[0].is_Add for f in out.atoms(sp.sin, sp.cos))
    assert sp.simplify(out - e) == 0
    assert expand_angle_sums(sp.sin(a) * sp.cos(2 * b)) == sp.sin(a) * sp.cos(2 * b)


def test_products_distributed_from_expanded_factors_equal_tidy_of_their_sum():
    """Kane's dot products distribute expanded factors instead of expanding afterwards: the
    result must be tidy's, term for term, sin² + cos² fold and angle sums included."""
    a, b, m, l, u = sp.symbols("a b m l u")
    factors = [
        (m * (l * sp.cos(a) * u + sp.sin(a + b)), sp.sin(a), 2 * sp.sin(a) + u ** 2),
        (l * sp.cos(a), sp.cos(a), l * (sp.cos(a) - u)),
        (sp.Rational(1, 2), sp.Integer(3), sp.Integer(1)),
    ]
    expected = tidy(sp.Add(*[sp.Mul(*f) for f in factors]))
    got = tidy_sum_of_products([[polynomial_terms(x) for x in f] for f in factors])
    assert got == expected
    pythagoras = [[[l * sp.sin(a)], [sp.sin(a)]], [[l * sp.cos(a)], [sp.cos(a)]]]
    assert tidy_sum_of_products(pythagoras) == l  # l sin²a + l cos²a folded
    assert polynomial_terms(u / (1 + sp.cos(a))) is None  # fractions are left to cancel


@pytest.mark.parametrize("method", METHODS)
def test_snakeboard_with_angle_sums_does_not_swell(snakeboards, method):
    """The snakeboard typed with sin(θ ± φ) derives to equations as short as typed expanded:
    before the tidy step expanded angle sums, Maggi's forcing held ~300 000 operations
    against ~80."""
    sums, expanded = (s.derive(method) for s in snakeboards)
    ops_sums, ops_expanded = operation_count(sums)[0], operation_count(expanded)[0]
    assert ops_sums <= 1.5 * ops_expanded, (ops_sums, ops_expanded)
    kin_sums = sum(sp.count_ops(e) for e in sums.kinematics)
    kin_expanded = sum(sp.count_ops(e) for e in expanded.kinematics)
    assert kin_sums <= 1.5 * kin_expanded


def test_snakeboard_methods_agree(snakeboards):
    for system in snakeboards:
        worst = max_disagreement(system, n_states=5)
        assert set(worst) == {"lagrange_multipliers", "maggi", "kane"}
        assert max(worst.values()) < 1e-10, worst


def test_multipliers_are_solved_only_when_shown():
    system = examples.build("knife_edge")  # fresh: nothing read yet
    d = system.derive("lagrange_multipliers")
    step = d.step("multipliers")
    assert isinstance(step, LazyStep) and not step.computed
    p = [system.parameter_values()[s.name] for s in system.parameter_symbols]
    rhs = system.rhs(p, "lagrange_multipliers")
    assert np.all(np.isfinite(rhs(0.0, np.array([0.1, 0.2, 0.3, 1.0, 0.5]))))
    assert not step.computed  # numerics never ask
    m, u1, u2 = (next(s for s in step.expr.free_symbols if s.name == n)
                 for n in ("m", "u_1", "u_2"))
    assert step.computed
    assert sp.simplify(step.expr[0] - m * u1 * u2) == 0


def test_large_systems_show_no_multipliers(snakeboards):
    d = snakeboards[0].derive("lagrange_multipliers")  # n − m = 3 free speeds
    assert not d.shows_multipliers
    with pytest.raises(KeyError, match="multipliers"):
        d.step("multipliers")


def test_rolling_disk_by_kane_agrees():
    system = examples.get("rolling_disk")
    assert "kane" in system.applicable_methods()
    worst = max_disagreement(system, n_states=10)
    assert worst["kane"] < 1e-12, worst


@pytest.mark.parametrize("n", [2, 3, 4])
def test_chain_agrees_with_kanes_method(n):
    """Every method on the n-link chain gives sympy KanesMethod's accelerations at random
    states (seeded by crc32 of the case, so the points are the same in every run)."""
    system = chain_system(n)
    kane = kanes_method(n)
    plain = {f: sp.Symbol(f.func.__name__) for f in (*kane.q, *kane.u)}
    args = [*system.q, *system.u, *system.parameter_symbols]
    reference = sp.lambdify(args, [kane.mass_matrix.xreplace(plain),
                                   kane.forcing.xreplace(plain)], modules="numpy", cse=True)
    rng = np.random.default_rng(zlib.crc32(f"chain {n}".encode()))
    for _ in range(4):
        q, u = rng.uniform(-3, 3, n), rng.uniform(-2, 2, n)
        params = {p.name: float(rng.uniform(max(p.low, 0.1), p.high))
                  for p in system.parameters}
        values = [params[s.name] for s in system.parameter_symbols]
        M, f = reference(*q, *u, *values)
        expected = np.linalg.solve(np.array(M, float), np.array(f, float).ravel())
        for method in METHODS:
            got = independent_accelerations(system, method, 0.0, q, u, params)
            assert np.max(np.abs(got - expected)) < 1e-9 * max(1.0, np.max(np.abs(expected))), \
                method


def test_expand_terms_is_sympys_expand():
    """The shortcut that skips terms expand would leave alone gives expand's result, term for
    term, on expanded sums, products to distribute, and factors expand changes without an
    Add in sight (a product under a root of positive symbols, sin 2θ's argument kept)."""
    a, b, m, k = sp.symbols("a b m k", positive=True)
    x, y, th = sp.symbols("x y theta")
    cases = [
        a * x**2 * sp.sin(th) + b * y * sp.cos(th) ** 2 / 2,  # expanded already
        a * (x + y) ** 2 + b * x * (y - 1) + sp.sin(th) ** 2,
        sp.sqrt(m * k) * x + x / (a + b) + sp.sin(2 * th) * y + sp.I * x,
        chain_system(3).definition.T.xreplace({sp.Symbol("omega_1"): x + y}),
        sp.Integer(3),
    ]
    for expr in cases:
        assert sp.srepr(expand_terms(expr)) == sp.srepr(sp.expand(expr))


def test_measure_interleaves_rounds_and_takes_the_ratio_of_medians(monkeypatch):
    """The benchmark derives KanesMethod and each method in turn, round after round, so that a
    change in the machine's load falls on all alike; each ratio is of the medians."""
    from companion.examples import families
    from companion.mechanics.methods import METHODS

    order = []
    entry = families.chain_entry(2)

    def baseline(system):
        order.append("KanesMethod")
        return entry.baseline(system)

    def kane(system, derive=METHODS["kane"]):
        order.append("kane")
        return derive(system)

    monkeypatch.setitem(METHODS, "kane", kane)
    recorded = families.Entry(entry.name, entry.size, entry.build, baseline)
    base, ours = families.measure(recorded, ["kane"], repeat=3, rhs_seconds=0.01)
    assert order == ["KanesMethod", "kane"] * 3
    assert (base.method, ours.method) == (families.BASELINE, "kane")
    assert base.ratio == 1 and ours.ratio == ours.derive / base.derive
    assert ours.first_order == base.first_order == 4
