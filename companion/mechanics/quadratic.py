"""The kinetic energy as a quadratic form in the speeds, T = ½ vᵀ M v + bᵀ v + T₀, and the
derivatives every method takes of it, computed from its coefficients.

Differentiating the whole of T (or of the momenta) with respect to every speed and every
coordinate is where a derivation's time went: each derivative walks every term of T.  Read
once, term by term, into the coefficients M(q, t), b(q, t), T₀(q, t), the momenta are M v + b
and the inertia coefficients are M itself (no differentiation at all), and ∂T/∂q_l,
(∂p/∂q) q̇ only need ∂M_ij/∂q_l of the small entries that contain q_l (Greenwood (4.87)–(4.88);
Lagrange's equations in the same way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

from companion.mechanics.quasi_velocities import expand_terms


@dataclass
class QuadraticForm:
    """T = ½ vᵀ M v + bᵀ v + T₀ in the speeds v (the u's or the q̇'s), with coefficients free
    of the speeds: M holds the symmetric inertia coefficients m_ij = ∂²T/∂v_i∂v_j."""

    speeds: list[sp.Symbol]
    M: sp.Matrix
    b: sp.Matrix
    T0: sp.Expr
    _dM: dict = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, T: sp.Expr, speeds: Sequence[sp.Symbol]) -> QuadraticForm:
        """Read the coefficients off the expanded ``T`` (``ValueError`` when it is not a
        polynomial of degree ≤ 2 in ``speeds``)."""
        speeds = list(speeds)
        index = {v: i for i, v in enumerate(speeds)}
        n = len(speeds)
        quadratic: dict[tuple[int, ...], list] = {}
        for term in sp.Add.make_args(expand_terms(T)):
            powers: list[int] = []
            rest = []
            for factor in sp.Mul.make_args(term):
                base, exponent = factor.as_base_exp()
                if base in index and exponent.is_Integer and exponent > 0:
                    powers += [index[base]] * int(exponent)
                elif factor.has(*speeds):
                    raise ValueError(
                        f"T must be a polynomial of degree at most 2 in the speeds {speeds}; "
                        f"it is not polynomial in them: {T}")
                else:
                    rest.append(factor)
            if len(powers) > 2:
                raise ValueError(f"T must be quadratic or lower in the speeds {speeds}, but "
                                 f"has degree {len(powers)}")
            quadratic.setdefault(tuple(sorted(powers)), []).append(sp.Mul(*rest))
        coeff = {key: sp.Add(*terms) for key, terms in quadratic.items()}
        M = sp.zeros(n, n)
        b = sp.zeros(n, 1)
        for key, c in coeff.items():  # filled entry by entry: cheaper than a Matrix of a lambda
            if len(key) == 2:
                M[key] = M[key[::-1]] = 2 * c if key[0] == key[1] else c
            elif key:
                b[key[0]] = c
        return cls(speeds, M, b, coeff.get((), sp.S.Zero))

    def momenta(self) -> sp.Matrix:
        """p = ∂T/∂v = M v + b, expanded (M and b are, as read off the expanded T)."""
        return expanded_product(self.M, sp.Matrix(self.speeds)) + self.b

    def _dM_dx(self, x: sp.Symbol) -> sp.Matrix:
        """∂M/∂x, entry by entry, differentiating only the entries that contain x."""
        if x not in self._dM:
            n = len(self.speeds)
            self._dM[x] = out = sp.zeros(n, n)
            for i in range(n):
                for j in range(i, n):
                    if self.M[i, j].has(x):
                        out[i, j] = out[j, i] = derivative(self.M[i, j], x)
        return self._dM[x]

    def gradient(self, coords: Sequence[sp.Symbol]) -> sp.Matrix:
        """∂T/∂x for each x in ``coords`` (coordinates or time): ½ vᵀ ∂M/∂x v + ∂b/∂x·v +
        ∂T₀/∂x, expanded."""
        v, n = self.speeds, len(self.speeds)
        out = []
        for x in coords:
            dM = self._dM_dx(x)
            terms = [(dM[i, i] / 2, v[i] ** 2) for i in range(n)]
            terms += [(dM[i, j], v[i] * v[j]) for i in range(n) for j in range(i + 1, n)]
            terms += [(derivative(self.b[i], x), v[i]) for i in range(n)]
            out.append(_sum_of_products([*terms, (derivative(self.T0, x), sp.S.One)]))
        return sp.Matrix(out)

    def momenta_rates(self, coords: Sequence[sp.Symbol], rates: sp.Matrix,
                      t: sp.Symbol | None = None) -> sp.Matrix:
        """(∂p/∂q) q̇ + ∂p/∂t along ``rates`` = q̇ (the part of ṗ without v̇), expanded."""
        v, n = self.speeds, len(self.speeds)
        along = list(zip(coords, rates, strict=True))
        if t is not None:
            along.append((t, sp.S.One))
        rows = []
        for i in range(n):
            terms = []
            for x, rate in along:
                dM = self._dM_dx(x)
                terms += [(dM[i, j], v[j] * rate) for j in range(n)]
                terms.append((derivative(self.b[i], x), rate))
            rows.append(_sum_of_products(terms))
        return sp.Matrix(rows)


def derivative(expr: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """∂expr/∂x of an expanded expression, term by term by the product rule.

    The factors met in kinetic energies — x, sin x, cos x and their powers — are
    differentiated directly; anything else goes to ``sympy.diff``.  This skips sympy's
    general ``Derivative`` dispatch, which dominated derivation time on large systems.
    """
    out = []
    for term in sp.Add.make_args(expr):
        if not term.has(x):
            continue
        factors = sp.Mul.make_args(term)
        for i, factor in enumerate(factors):
            if factor.has(x):
                out.append(sp.Mul(*factors[:i], _factor_derivative(factor, x),
                                  *factors[i + 1:]))
    return sp.Add(*out)


def _factor_derivative(factor: sp.Expr, x: sp.Symbol) -> sp.Expr:
    base, exponent = factor.as_base_exp()
    if exponent != 1:
        if exponent.is_Integer:
            return exponent * base ** (exponent - 1) * _factor_derivative(base, x)
        return sp.diff(factor, x)
    if factor == x:
        return sp.S.One
    if isinstance(factor, sp.sin) and factor.args[0] == x:
        return sp.cos(x)
    if isinstance(factor, sp.cos) and factor.args[0] == x:
        return -sp.sin(x)
    return sp.diff(factor, x)


def expanded_product(a: sp.Matrix, b: sp.Matrix) -> sp.Matrix:
    """The product a·b with every entry expanded, for a whose entries are expanded.

    Equals ``(a * b).applyfunc(expand)``; each entry is built from its small products in one
    sum (:func:`_sum_of_products`), skipping zeros, where sympy's product would add large
    entries pairwise and ``expand`` walk the result again.
    """
    return sp.Matrix(a.rows, b.cols, lambda i, j: _sum_of_products(
        [(a[i, k], b[k, j]) for k in range(a.cols) if b[k, j] != 0]))


def _sum_of_products(pairs: Sequence[tuple[sp.Expr, sp.Expr]]) -> sp.Expr:
    """Σ c·w expanded, skipping zero coefficients: each small product is expanded on its own
    and the terms added once (no large intermediate sums to flatten and expand again); a
    single c·1 is c itself (a projection on a column of the identity)."""
    pairs = [(c, w) for c, w in pairs if c != 0]
    if len(pairs) == 1 and pairs[0][1] == 1:
        return pairs[0][0]
    return sp.Add(*[term for c, w in pairs for term in _distributed(c, w)])


def _distributed(c: sp.Expr, w: sp.Expr) -> list[sp.Expr]:
    """The terms of c·w expanded, for c expanded: a product w of powers is multiplied into
    each term of c directly (``expand`` would walk both again); sums go through ``expand``."""
    if w.has(sp.Add):
        return list(sp.Add.make_args(sp.expand(c * w)))
    return [t * w for t in sp.Add.make_args(c)]


def linear_coefficients(exprs: Sequence[sp.Expr], symbols: Sequence[sp.Symbol]
                        ) -> tuple[sp.Matrix, sp.Matrix]:
    """A and r of expanded expressions linear in ``symbols``: exprs = A·symbols + r, read
    term by term rather than by differentiating every expression by every symbol
    (``ValueError`` for a term not linear in them)."""
    index = {s: i for i, s in enumerate(symbols)}
    A = sp.zeros(len(exprs), len(symbols))
    rest = []
    for row, expr in enumerate(exprs):
        coeffs: dict[int, list] = {}
        free = []
        for term in sp.Add.make_args(expr):
            factors = sp.Mul.make_args(term)
            found = [f for f in factors if f in index]
            if len(found) > 1:
                raise ValueError(f"{expr} is not linear in {list(symbols)}")
            if found:
                coeffs.setdefault(index[found[0]], []).append(
                    sp.Mul(*[f for f in factors if f is not found[0]]))
            else:
                free.append(term)
        rest.append(sp.Add(*free))
        if rest[-1].has(*symbols):  # once per row, not per term
            raise ValueError(f"{expr} is not linear in {list(symbols)}")
        for col, terms in coeffs.items():
            A[row, col] = sp.Add(*terms)
    return A, sp.Matrix(rest)
