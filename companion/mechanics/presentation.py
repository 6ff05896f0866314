"""Equations in the books' printed form: terms collected, ordered, named and broken over lines.

sympy prints a sum in its own canonical order, so Euler's equation comes out as
``I_xx ω̇_x − I_yy ω_y ω_z + I_zz ω_y ω_z = M_x`` where Greenwood prints (4.104)
``I_xx ω̇_x + (I_zz − I_yy) ω_y ω_z = M_x``.  Each side is rebuilt the way both books write:

1. the acceleration terms first (a row of the mass matrix, in the order of the speeds), then
   each product of speeds once with its whole coefficient (gyroscopic, centripetal, Coriolis
   terms), then the rest (gravity, applied forces), grouped by their dependence on q;
2. each coefficient simplified on its own (``cancel``, ``factor``, ``trigsimp`` for small
   ones only: never the whole equation), a difference with its positive term first;
3. in the r-th of a set of equations, the speeds of a product in cyclic order starting after
   the r-th speed (Euler's ``ω_y ω_z``, ``ω_z ω_x``, ``ω_x ω_y``);
4. derivatives named from the symbol's base and subscript, ``\\dot{\\omega}_{1}`` (ω̇₁), never
   ``\\dot{omega_1}`` (which MathJax sets as "omėga₁");
5. long results broken over left-aligned lines no wider than :data:`LINE_BUDGET` ems, the
   output area of a notebook in JupyterLab at a 1024 px wide window.

The same terms give the plain text (``python -m companion verify``) and the LaTeX (the
stepper, the notebooks).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

__all__ = [
    "LINE_BUDGET", "Term", "book_terms", "derivative_parts",
    "equations_latex", "equations_text", "expr_latex", "expr_text",
    "latex_width", "object_latex", "printed_form_matches", "symbol_latex", "symbol_text",
]

#: Widest line, in the units of :func:`latex_width`, for a notebook's output area in
#: JupyterLab at a 1024 px window with the file browser open (592 px).  Measured in
#: Chromium: one unit renders as 16–18 px (extremes 13 and 21), so 30 units ≈ 540 px
#: leave a margin; tests/test_browser_equations.py checks every equation of the chapters.
LINE_BUDGET = 30.0

#: A coefficient larger than this (sympy's count_ops) is not trigsimp'ed: too slow.
_TRIGSIMP_OPS = 40

_DERIVATIVE = re.compile(r"^\\(dot|ddot)\{(\\?[A-Za-z]+)(?:_\{?([^{}\n]+)\}?)?\}$")
_BASE_SUB = re.compile(r"^(\\?[A-Za-z]+)(?:_\{?([^{}]+)\}?)?$")

_GREEK_TEXT = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "chi": "χ", "psi": "ψ",
    "omega": "ω", "Omega": "Ω", "Theta": "Θ", "Phi": "Φ", "Psi": "Ψ", "Gamma": "Γ",
}
_DOTS_TEXT = {"dot": "\u0307", "ddot": "\u0308"}


# ----------------------------------------------------------------------------- names
def derivative_parts(name: str) -> tuple[str, str, str | None] | None:
    """``(accent, base, subscript)`` of a derivative symbol's name, else ``None``.

    ``\\dot{\\omega_{1}}`` and ``\\dot{omega_1}`` → ``("dot", "omega", "1")``;
    ``\\ddot{\\theta}`` → ``("ddot", "theta", None)``.
    """
    found = _DERIVATIVE.match(name)
    if not found:
        return None
    accent, base, sub = found.groups()
    return accent, base.lstrip("\\"), sub.lstrip("\\") if sub else None


def symbol_latex(symbol: sp.Symbol) -> str:
    """LaTeX of a symbol, a derivative written over its base only: ``\\dot{\\omega}_{1}``."""
    parts = derivative_parts(symbol.name)
    if parts is None:
        return sp.latex(symbol)
    accent, base, sub = parts
    sub = f"_{{{sp.latex(sp.Symbol(sub))}}}" if sub else ""
    return rf"\{accent}{{{sp.latex(sp.Symbol(base))}}}{sub}"


def symbol_text(symbol: sp.Symbol) -> str:
    """Plain text of a symbol in the books' notation: ``ω̇_1``, ``θ̈``, ``I_xx``."""
    parts = derivative_parts(symbol.name)
    if parts is None:
        base, _, sub = symbol.name.partition("_")
        accent = ""
    else:
        kind, base, sub = parts
        accent = _DOTS_TEXT[kind]
    text = _GREEK_TEXT.get(base, base) + accent
    return text + (f"_{_GREEK_TEXT.get(sub, sub)}" if sub else "")


#: ``\dot{\omega_{1}}`` as sympy prints a derivative symbol (inside vectors too).
_PRINTED_DERIVATIVE = re.compile(r"\\(dot|ddot)\{(\\?[A-Za-z]+)_\{([^{}]+)\}\}")


def expr_latex(expr: Any) -> str:
    """``sympy.latex`` with derivatives named properly (see :func:`symbol_latex`).

    Symbols are renamed through sympy's ``symbol_names``; what sympy prints by other means
    (``sympy.physics.vector`` vectors) is mended in the printed text.
    """
    free = expr.free_symbols if isinstance(expr, (sp.Basic, sp.MatrixBase)) else set()
    names = {s: symbol_latex(s) for s in free if derivative_parts(s.name)}
    return _PRINTED_DERIVATIVE.sub(r"\\\1{\2}_{\3}", sp.latex(expr, symbol_names=names))


def expr_text(expr: sp.Expr) -> str:
    """Plain text of an expression in the books' notation: ``I_xx ω̇_x``, ``sin(θ)``."""
    renamed = expr.xreplace({s: sp.Symbol(symbol_text(s)) for s in expr.free_symbols})
    return sp.sstr(renamed).replace("**", "^").replace("*", " ").replace(" - ", " − ")


# ----------------------------------------------------------------------------- terms
@dataclass(frozen=True)
class Term:
    """One printed term: ``sign`` (+1/−1), ``coefficient`` (positive-looking) and the
    ``factors`` it multiplies, in print order (accelerations, speeds, or functions of q)."""

    sign: int
    coefficient: sp.Expr
    factors: tuple[sp.Expr, ...] = ()

    def latex(self) -> str:
        return _product(self.coefficient, self.factors, expr_latex)


def _product(coefficient: sp.Expr, factors: Sequence[sp.Expr], show) -> str:
    tail = " ".join(show(f) for f in factors)
    if coefficient == 1:
        return tail or show(coefficient)
    functions = coefficient.atoms(sp.Function)
    if tail and functions and coefficient.xreplace(dict.fromkeys(functions, sp.S.One)) == 1:
        # functions alone (cos φ, sin φ / cos θ): the speed first, ẋ = v cos φ (4.134)
        return f"{tail} {show(coefficient)}"
    head = _coefficient(coefficient, show)
    return f"{head} {tail}" if tail else head


def _coefficient(coefficient: sp.Expr, show) -> str:
    """A coefficient, its sums in parentheses with the positive terms first, after the
    number and the other factors: ``g (a₁ m₁ + l₁ m₂)``, ``½ (I_zz − I_yy)``."""
    def parenthesized(total: sp.Expr) -> str:
        inner = " ".join(_tokens(_ordered_sum(total), show))
        return rf"\left({inner}\right)" if show is expr_latex else f"({inner})"

    if coefficient.is_Add:
        return parenthesized(coefficient)
    # a fraction (sympy's \frac reads best), or no product with a sum among its factors
    if sp.denom(coefficient).free_symbols or not (
            coefficient.is_Mul and any(f.is_Add for f in coefficient.args)):
        return show(coefficient)
    number, rest = coefficient.as_coeff_Mul()
    others = [f for f in rest.as_ordered_factors() if not f.is_Add]
    parts = [show(number)] if number != 1 else []
    parts += [show(sp.Mul(*others))] if others else []
    parts += [parenthesized(f) for f in rest.as_ordered_factors() if f.is_Add]
    return " ".join(parts)


def _tokens(terms: Sequence[Term], show=expr_latex) -> list[str]:
    """Each term with its sign as a separate token: ``I_xx ω̇_x``, ``+ (I_zz − I_yy) ω_y ω_z``
    (``0`` for no terms)."""
    minus = "-" if show is expr_latex else "−"
    signs = [("" if t.sign > 0 else minus) if k == 0 else ("+ " if t.sign > 0 else f"{minus} ")
             for k, t in enumerate(terms)]
    return [sign + _product(t.coefficient, t.factors, show)
            for sign, t in zip(signs, terms, strict=True)] or ["0"]


def _signed(expr: sp.Expr) -> tuple[int, sp.Expr]:
    """``(−1, −expr)`` when every term of ``expr`` is negative, else ``(1, expr)``: a
    difference keeps its sign inside, ``(I_zz − I_yy)``, not ``−(I_yy − I_zz)``."""
    if expr.is_Mul and expr.could_extract_minus_sign():
        number, rest = expr.as_coeff_Mul()
        sums = [f for f in rest.as_ordered_factors() if f.is_Add]
        mixed = len(sums) == 1 and len({t.could_extract_minus_sign() for t in sums[0].args}) == 2
        if number < 0 and mixed:  # −½ (I_yy − I_zz) is + ½ (I_zz − I_yy)
            others = [f for f in rest.as_ordered_factors() if not f.is_Add]
            return 1, sp.Mul(-number, *others, -sums[0], evaluate=False)
    if all(a.could_extract_minus_sign() for a in sp.Add.make_args(expr)):
        return -1, -expr
    return 1, expr


def _ordered_sum(expr: sp.Expr) -> list[Term]:
    """The terms of a sum of parameters, positive ones first: ``I_zz − I_yy``."""
    terms = [Term(*_signed(a)) for a in expr.as_ordered_terms()]
    return sorted(terms, key=lambda t: -t.sign)  # stable: sympy's print order within a sign


def _simplified(coefficient: sp.Expr) -> sp.Expr:
    """A coefficient, cheaply simplified (small expressions only)."""
    if coefficient.is_number:
        return sp.nsimplify(coefficient) if coefficient.is_Float else coefficient
    if sp.denom(coefficient).free_symbols or coefficient.is_Add:
        coefficient = sp.cancel(coefficient)
    if coefficient.has(sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc) and (
            sp.count_ops(coefficient) <= _TRIGSIMP_OPS):
        coefficient = sp.trigsimp(coefficient)
    factored = sp.factor(coefficient)
    # keep a factorisation when it pulls out a symbol, m r (κ + 1), g (a₁ m₁ + l₁ m₂), or a
    # number from a sum of plain terms, ½ (I_zz − I_yy); (L²M + 3 m s²)/3 reads better as
    # L²M/3 + m s²
    sums = [a for a in factored.args if a.is_Add] if factored.is_Mul else []
    if sums and (any(a.free_symbols and not a.is_Add for a in factored.args) or all(
            abs(t.as_coeff_Mul()[0]) == 1 for total in sums for t in total.args)):
        return factored
    return sp.expand(coefficient)


def _plain_name(base: str, sub: str | None) -> str:
    """``omega_x`` from a base and its subscript: the name a speed and its rate share."""
    return base + (f"_{sub}" if sub else "")


def _unbraced(name: str) -> str | None:
    """``\\omega_{x}`` and ``omega_x`` → ``omega_x``; None for a name of another shape."""
    inner = _BASE_SUB.match(name)
    return _plain_name(inner.group(1).lstrip("\\"), inner.group(2)) if inner else None


def _motion_rank(symbol: sp.Symbol, speed_names: set[str]) -> int:
    """2 for an acceleration, 1 for a speed, 0 for anything else."""
    parts = derivative_parts(symbol.name)
    if parts is not None:
        return 2 if parts[0] == "ddot" or _plain_name(*parts[1:]) in speed_names else 1
    return 1 if symbol.name in speed_names else 0


def _speed_names(speeds: Iterable[sp.Symbol]) -> set[str]:
    """The speeds' names, each also unbraced: omega_x and \\omega_{x} are the same speed."""
    return {s.name for s in speeds} | {n for s in speeds if (n := _unbraced(s.name))}


def _with_implied(speeds: Sequence[sp.Symbol], expr: Any) -> list[sp.Symbol]:
    """``speeds`` and the speeds an equation tells by itself: ``u`` when its rate
    ``\\dot{u}`` appears, ``u`` appears outside any function and ``\\ddot{u}`` does not (then
    u is a coordinate and ``\\dot{u}`` the speed); none when some ``\\dot{q}`` has its q
    inside a function (``sin θ``): then every dotted symbol is a coordinate's speed."""
    expr = sp.sympify(expr)
    free = expr.free_symbols
    outside = expr.xreplace({f: sp.Dummy() for f in expr.atoms(sp.Function)}).free_symbols
    bare = {_canonical(s) for s in outside if not derivative_parts(s.name)}
    derivatives = [parts for s in free if (parts := derivative_parts(s.name))]
    dotted = {_plain_name(b, u) for kind, b, u in derivatives if kind == "dot"}
    ddotted = {_plain_name(b, u) for kind, b, u in derivatives if kind == "ddot"}
    inside = {_canonical(s) for f in expr.atoms(sp.Function) for s in f.free_symbols}
    if dotted & inside:  # a dotted symbol is a coordinate (sin θ, θ̇): the set is in q̇ form
        return list(speeds)
    implied = sorted((dotted & bare) - ddotted - _speed_names(speeds))
    return [*speeds, *(sp.Symbol(name) for name in implied)]


def _canonical(symbol: sp.Symbol) -> str:
    """A derivative's base and subscript (``omega_x``), for ordering accelerations like their
    speeds."""
    parts = derivative_parts(symbol.name)
    return _unbraced(symbol.name) or symbol.name if parts is None else _plain_name(*parts[1:])


def book_terms(expr: sp.Expr, speeds: Sequence[sp.Symbol] = (), own: int | None = None,
               coordinates: Sequence[sp.Symbol] = (), *, infer: bool = True) -> list[Term]:
    """The terms of one side of an equation, collected and ordered as the books print them:
    accelerations first, then products of speeds (lower degree first), then the rest, grouped
    by their dependence on the ``coordinates``.

    Parameters
    ----------
    speeds
        The speeds (u, or q̇), in order; with ``infer``, also those ``expr`` tells by itself
        (``\\dot{q}`` is a speed, ``\\ddot{q}`` an acceleration, and ``u`` a speed whenever
        ``\\dot{u}`` appears): off when the caller did so for the whole set.
    own
        Index of this equation within its set: the speeds of a product are then written in
        cyclic order starting after speed ``own`` (Euler's ``ω_z ω_x`` in the second one).
    """
    expr = sp.sympify(expr)
    speeds = _with_implied(speeds, expr) if infer else list(speeds)
    names = _speed_names(speeds)
    motion = {s: r for s in expr.free_symbols if (r := _motion_rank(s, names))}
    order = {n: k for k, n in enumerate(_canonical(s) for s in speeds)}
    n = max(len(order), 1)

    def position(symbol: sp.Symbol, in_product: bool = True) -> tuple[int, str]:
        """Accelerations and lone speeds in the order of the speeds (a row of the mass
        matrix); the speeds of a product cyclically after the equation's own."""
        if not isinstance(symbol, sp.Symbol):  # a function of a speed: after the speeds
            return (len(order) + 1, "")
        name = _canonical(symbol)
        k = order.get(name, len(order))
        cyclic = (in_product and own is not None and k < len(order)
                  and motion.get(symbol) == 1)
        return ((k - own - 1) % n if cyclic else k, name)

    groups: dict[sp.Expr, sp.Expr] = {}
    rest: list[sp.Expr] = []
    for term in sp.Add.make_args(sp.expand(expr)):
        coefficient, monomial = term.as_independent(*motion, as_Add=False)
        if monomial == 1:
            rest.append(term)
        else:
            groups[monomial] = groups.get(monomial, 0) + coefficient

    def key(monomial: sp.Expr) -> tuple:
        powers = monomial.as_powers_dict()
        product = sum(powers.values()) > 1
        accelerations = sorted(position(s) for s in powers if motion.get(s) == 2)
        speeds_in = sorted(position(s, product) for s in powers if motion.get(s) == 1)
        return (0 if accelerations else 1, sum(powers.values()), accelerations, speeds_in)

    terms = []
    for monomial in sorted(groups, key=key):
        coefficient = _simplified(groups[monomial])
        if coefficient != 0:
            powers = sorted(monomial.as_powers_dict().items(),
                            key=lambda f: (motion.get(f[0]) != 2, position(f[0])))
            terms.append(Term(*_signed(coefficient), tuple(b**e for b, e in powers)))
    terms.extend(_rest_terms(rest, coordinates))
    return terms


def _rest_terms(rest: list[sp.Expr], coordinates: Sequence[sp.Symbol]) -> list[Term]:
    """Terms free of speeds and accelerations, grouped by their factor in the coordinates
    (``(a₁ m₁ + l₁ m₂) g sin θ₁``); what depends on no coordinate comes last, term by term."""
    if not rest:
        return []
    q = set(coordinates) or {s for t in rest for f in t.atoms(sp.Function)
                             for s in f.free_symbols}
    groups: dict[sp.Expr, sp.Expr] = {}
    for term in rest:
        coefficient, dependence = term.as_independent(*q, as_Add=False)
        groups[dependence] = groups.get(dependence, 0) + coefficient
    terms = []
    for dependence in sorted(groups, key=lambda d: (d == 1, sp.default_sort_key(d))):
        coefficient = _simplified(groups[dependence])
        if coefficient == 0:
            continue
        if dependence == 1:
            terms.extend(_ordered_sum(coefficient))
        elif sp.denom(dependence).free_symbols:  # one fraction, not "(…) 1/D"
            terms.append(Term(*_signed(_simplified(coefficient * dependence))))
        else:
            terms.append(Term(*_signed(coefficient), (dependence,)))
    return terms


# ----------------------------------------------------------------------------- widths
_WIDE = {r"\quad": 1.0, r"\qquad": 2.0, r"\,": 0.17, r"\ ": 0.25, r"\;": 0.28, r"\!": -0.17,
         r"\\": 0.0, r"\left": 0.0, r"\right": 0.0, r"\displaystyle": 0.0, r"\cdot": 0.8,
         r"\times": 0.9, r"\partial": 0.6, r"\sum": 1.2, r"\infty": 1.0}
_FUNCTIONS = {r"\sin", r"\cos", r"\tan", r"\cot", r"\sec", r"\csc", r"\log", r"\exp",
              r"\operatorname", r"\det"}
_CHARACTERS = {**dict.fromkeys("{} ", 0.0), **dict.fromkeys("+-=<>", 1.0),
               **dict.fromkeys("(),[]|;:.&", 0.35)}
_ARGUMENT = {r"\dot", r"\ddot", r"\tilde", r"\hat", r"\bar", r"\mathbf", r"\mathrm",
             r"\boldsymbol", r"\vec", r"\mathit"}


def _group(text: str, start: int) -> tuple[str, int]:
    """The braced group (or single token) at ``start``: its content and the index after."""
    while start < len(text) and text[start] == " ":
        start += 1
    if start >= len(text):
        return "", start
    if text[start] != "{":
        if text[start] == "\\":
            end = start + 1
            while end < len(text) and text[end].isalpha():
                end += 1
            return text[start:max(end, start + 2)], max(end, start + 2)
        return text[start], start + 1
    depth = 0
    for k in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[k], 0)
        if depth == 0:
            return text[start + 1:k], k + 1
    return text[start + 1:], len(text)


def _environment(text: str, start: int, name: str) -> tuple[str, int]:
    """The body of ``\\begin{name}…\\end{name}`` from ``start`` (after the \\begin{name})."""
    depth = 1
    for found in re.compile(rf"\\(begin|end)\{{{re.escape(name)}\}}").finditer(text, start):
        depth += 1 if found.group(1) == "begin" else -1
        if depth == 0:
            return text[start:found.start()], found.end()
    return text[start:], len(text)


def _split_top(text: str, separator: str, brackets: str = "{}") -> list[str]:
    """``text`` split at ``separator`` outside braces (and ``brackets``) and nested
    environments."""
    opening, closing = brackets[::2], brackets[1::2]
    parts, depth, env, k, start = [], 0, 0, 0, 0
    while k < len(text):
        if text.startswith(r"\begin{", k):
            env += 1
        elif text.startswith(r"\end{", k):
            env -= 1
        char = text[k]
        if char in opening:
            depth += 1
        elif char in closing:
            depth -= 1
        elif depth == 0 and env == 0 and text.startswith(separator, k) and not (
                separator == "," and text[k - 1:k] == "\\"):  # \, is a thin space
            parts.append(text[start:k])
            k += len(separator)
            start = k
            continue
        k += 1
    parts.append(text[start:])
    return parts


def _rows_width(body: str, column_gap: float) -> float:
    rows = [_split_top(row, "&") for row in _split_top(body, r"\\")]
    columns = max(len(r) for r in rows)
    widths = [max((latex_width(r[c]) for r in rows if c < len(r)), default=0.0)
              for c in range(columns)]
    return sum(widths) + column_gap * (columns - 1)


def latex_width(text: str) -> float:
    """Estimated width of typeset LaTeX in ems (MathJax's TeX fonts, display style).

    A rough, deliberately generous count: letters ≈ 0.55 em, binary operators with their
    spaces ≈ 0.8 em, sub/superscripts at 70 %, a fraction as wide as its wider part, a matrix
    as its widest row, ``aligned`` as its widest line.  Used to break lines, and checked in
    Chromium (tests/test_browser_equations.py).
    """
    width, k = 0.0, 0
    while k < len(text):
        char = text[k]
        if char == "\\":
            if text.startswith(r"\begin{", k):
                name, after = _group(text, k + len(r"\begin"))
                body, k = _environment(text, after, name)
                # columns as wide as their widest cells; a matrix's with gaps, and its brackets
                matrix = name in ("matrix", "pmatrix", "bmatrix")
                width += _rows_width(body, 1.0 if matrix else 0.0) + (0.8 if matrix else 0.0)
                continue
            command, k = _group(text, k)
            if command in (r"\frac", r"\dfrac"):
                top, k = _group(text, k)
                bottom, k = _group(text, k)
                width += max(latex_width(top), latex_width(bottom)) + 0.3
            elif command == r"\text":
                content, k = _group(text, k)
                width += 0.5 * len(content)
            elif command in _ARGUMENT:
                content, k = _group(text, k)
                width += latex_width(content)
            elif command in _FUNCTIONS:
                width += 0.5 * (len(command) - 1) + 0.2
            elif command in _WIDE:
                width += _WIDE[command]
            else:  # a Greek letter or another symbol
                width += 0.6
        elif char in "_^":
            content, k = _group(text, k + 1)
            width += 0.7 * latex_width(content)
        else:  # a letter or digit 0.55
            width += _CHARACTERS.get(char, 0.55)
            k += 1
    return width


# ----------------------------------------------------------------------------- lines
def _fill(tokens: Sequence[str], budget: float, indent: str = r"\qquad ") -> list[str]:
    """Tokens joined greedily into lines no wider than ``budget`` ems (a token wider than
    the budget gets a line of its own)."""
    lines: list[str] = []
    current = ""
    for token in tokens:
        trial = f"{current} {token}" if current else (indent + token if lines else token)
        if current and latex_width(trial) > budget:
            lines.append(current)
            current = indent + token
        else:
            current = trial
    lines.append(current)
    return lines


def _equation_tokens(lhs: sp.Expr, rhs: sp.Expr, speeds, own, coordinates,
                     show=expr_latex) -> list[str]:
    left, right = (_tokens(book_terms(side, speeds, own, coordinates, infer=False), show)
                   for side in (lhs, rhs))
    return [*left[:-1], f"{left[-1]} = {right[0]}", *right[1:]]


def _prepared(equations: Sequence[Any], speeds: Sequence[sp.Symbol]
              ) -> tuple[list[tuple[sp.Expr, sp.Expr]], list[sp.Symbol], list[int | None]]:
    """Each equation's sides (an expression counts as ``expr = 0``), the speeds with those
    the set tells by itself, and each equation's ``own`` index (r for the r-th of three
    equations in three speeds, Euler's cyclic ω_z ω_x; else None)."""
    sides = [(e.lhs, e.rhs) if isinstance(e, sp.Equality) else (sp.sympify(e), sp.S.Zero)
             for e in equations]
    speeds = _with_implied(speeds, sp.Matrix([lhs - rhs for lhs, rhs in sides]))
    cyclic = len(sides) == len(speeds) == 3
    return sides, speeds, [k if cyclic else None for k in range(len(sides))]


def equations_latex(equations: Sequence[Any], speeds: Sequence[sp.Symbol] = (),
                    coordinates: Sequence[sp.Symbol] = (), *, budget: float = LINE_BUDGET
                    ) -> str:
    """A set of dynamical equations in the books' form (:func:`book_terms`), one ``aligned``
    block: aligned on ``=`` when every equation fits the budget, as Greenwood prints (4.104),
    else each broken over left-aligned lines, the continuations indented."""
    if not equations:
        raise ValueError("no equations to show")
    sides, speeds, owns = _prepared(equations, speeds)
    token_sets = [_equation_tokens(lhs, rhs, speeds, own, coordinates)
                  for (lhs, rhs), own in zip(sides, owns, strict=True)]
    one_line = [" ".join(tokens) for tokens in token_sets]
    if all(latex_width(line) <= budget for line in one_line):
        if len(one_line) == 1:
            return one_line[0]
        rows = [line.replace(" = ", " &= ", 1) for line in one_line]
    else:
        rows = ["&" + line for tokens in token_sets for line in _fill(tokens, budget)]
    return r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}"


def equations_text(equations: Sequence[Any], speeds: Sequence[sp.Symbol] = (),
                   coordinates: Sequence[sp.Symbol] = ()) -> list[str]:
    """Each equation of a set as plain text in the books' form, ``I_xx ω̇_x + (I_zz − I_yy)
    ω_y ω_z = M_x`` (equation r with ``own=r``, cyclic products)."""
    sides, speeds, owns = _prepared(equations, speeds)
    # each with the speeds this equation tells alone
    return [" ".join(_equation_tokens(lhs, rhs, _with_implied(speeds, lhs - rhs), own,
                                      coordinates, expr_text))
            for (lhs, rhs), own in zip(sides, owns, strict=True)]


# ----------------------------------------------------------------------------- objects
def _entry_lines(name: str, matrix: sp.MatrixBase, speeds, coordinates,
                 budget: float) -> list[str]:
    """A matrix too wide for one line, one equation per entry with its terms collected:
    ``R_{1} = …`` for a column, ``σ_{12} = …`` (upper triangle of a symmetric matrix; zero
    entries left out, as the books do) for a square one."""
    symmetric = matrix.is_square and matrix == matrix.T
    name = rf"\left({name}\right)" if "_" in name or "^" in name else name
    cells = [(i, j) for i in range(matrix.rows) for j in range(matrix.cols)
             if not (symmetric and j < i) and (matrix.cols == 1 or matrix[i, j] != 0)]
    return [line for i, j in cells for line in _named_lines(
        f"{name}_{{{i + 1}{'' if matrix.cols == 1 else j + 1}}}", matrix[i, j], speeds,
        coordinates, budget)]


def _named_lines(name: str, expr: sp.Expr, speeds, coordinates, budget: float) -> list[str]:
    """``name = expr``, its terms collected, over lines no wider than ``budget``."""
    tokens = _tokens(book_terms(expr, speeds, None, coordinates))
    tokens[0] = f"{name} = {tokens[0]}"
    return _fill(tokens, budget)


def _pairs(symbol: str | None, items: Sequence[Any]) -> list[tuple[str | None, Any]]:
    """``γ¹, γ², γ³ = A, B, C`` → ``[(γ¹, A), (γ², B), (γ³, C)]`` when the counts agree."""
    names = _split_top(symbol, ",", "{}[]()") if symbol else []
    if len(names) == len(items) > 1:
        return [(n.strip(), item) for n, item in zip(names, items, strict=True)]
    return [(None, item) for item in items]


def object_latex(obj: Any, symbol: str | None = None, speeds: Sequence[sp.Symbol] = (),
                 coordinates: Sequence[sp.Symbol] = (), *,
                 budget: float = LINE_BUDGET) -> str:
    """LaTeX of a derivation step's object, ``symbol = obj``, within ``budget`` ems per line:
    equations by :func:`equations_latex`; a list paired with a list of symbols
    (``\\gamma^{1}, \\gamma^{2}``) and broken between items; a matrix or scalar too wide for a
    line one entry or term at a time; else sympy's LaTeX with derivatives named properly."""
    items = list(obj) if isinstance(obj, (list, tuple)) else [obj]
    if items and all(isinstance(i, sp.Equality) for i in items):
        body = equations_latex(items, speeds, coordinates, budget=budget)
        return f"{symbol} = {body}" if symbol else body
    pairs = _pairs(symbol, items) if len(items) > 1 else [(symbol, items[0] if items else obj)]
    pieces: list[str] = []
    for name, item in pairs:
        text = item if isinstance(item, str) else expr_latex(item)
        piece = f"{name} = {text}" if name else text
        if name and isinstance(item, (sp.MatrixBase, sp.Expr)) and latex_width(piece) > budget:
            # over lines: a matrix entry by entry, a scalar (a kinetic energy) term by term
            lines = _entry_lines if isinstance(item, sp.MatrixBase) else _named_lines
            pieces.extend(lines(name, item, speeds, coordinates, budget))
        else:
            pieces.append(piece)
    if symbol and pairs[0][0] is None:  # a list under one symbol: ``p = a,\quad b``
        pieces[0] = f"{symbol} = {pieces[0]}"
    joined = r",\quad ".join(pieces)
    if len(pieces) == 1 or latex_width(joined) <= budget:
        return joined
    return r"\begin{aligned}" + r" \\ ".join("&" + p for p in pieces) + r"\end{aligned}"


# ----------------------------------------------------------------------------- printed form
def _printed_terms(side: str) -> list[tuple[str, tuple[str, ...]]]:
    """The terms of one side of an equation as text: ``(sign, factors)`` each, a
    parenthesized sum one factor and a leading ``-`` inside a factor (``-I_yy``) kept; the
    factors sorted (a product's order is the printer's choice; grouping and term order are
    not)."""
    terms, sign, factors = [], "+", []
    for token in _split_top(side.replace("−", "-"), " ", "()") + ["+"]:
        if token in ("+", "-"):
            if factors:
                terms.append((sign, tuple(sorted(factors))))
            sign, factors = token, []
        elif token:
            factors.append(token.replace(" ", ""))
    return terms


def printed_form_matches(derived: Sequence[str], printed: Sequence[str]) -> tuple[bool, str]:
    """Whether derived equations (plain text, :func:`equations_text`) are in the printed form,
    and the derived equations (or the first that differs) as text: the same terms in the same
    order on each side, each grouped the same way (``(I_zz − I_yy) ω_y ω_z`` is one term); the
    factors of a product may come in any order (that is typesetting, not form)."""
    if len(derived) != len(printed):
        return False, f"{len(derived)} equations derived, {len(printed)} printed"
    for mine, book in zip(derived, printed, strict=True):
        sides = [tuple(_printed_terms(side) for side in text.split("=")) for text in (mine,
                                                                                    book)]
        if sides[0] != sides[1]:
            return False, f"derived «{mine}», printed «{book}»"
    return True, "; ".join(derived)
