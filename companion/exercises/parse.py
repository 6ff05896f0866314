"""A safe reader for answers typed in sympy syntax.

The answer text never reaches ``eval``, ``exec``, ``sympify`` or ``parse_expr``.  It is
checked for size and nesting *before* Python's :func:`ast.parse` sees it (the parser itself
recurses), parsed in ``mode="eval"``, and the syntax tree is walked against a whitelist; the
sympy object is built node by node by this module.  Allowed:

- numbers: integer and decimal literals of bounded size (decimals are read exactly, so
  ``0.5`` is ``1/2``);
- the exercise's own names (``theta``, ``I_xx``, ``omega_x``, ``u_1``, aliases such as ``v``)
  and the constants ``pi`` and ``E``;
- ``+ - * / **``, unary ``-`` and ``+``, parentheses;
- calls of :data:`FUNCTIONS` with one positional argument;
- matrices as nested lists ``[[a, b], [c, d]]`` or ``Matrix([[a, b], [c, d]])``; a flat list
  ``[a, b, c]`` is a column, as in sympy.  Matrices may be added, subtracted, negated and
  multiplied or divided by scalars; products and powers of matrices are refused, since their
  symbolic entries grow exponentially with the length of the input.

Reader conveniences: ``^`` means ``**`` (in Python it is a bitwise xor, which never makes sense
in an answer, so reading it as a power is what every reader means); the Greek letters of
:data:`GREEK` may be typed as themselves (``θ`` for ``theta``); the Unicode minus ``−``, ``×``,
``·``, ``²`` and ``³`` are read as ``-``, ``*``, ``*``, ``**2`` and ``**3``.  Any other
non-ASCII character is refused, so look-alike letters cannot smuggle names in.

Everything else (attributes, subscripts, dunder names, lambda, comprehensions, strings, keyword
or starred arguments, calls of other names, comparisons, huge powers such as ``9**9**9``,
deeply nested input, exponentials nested more than :data:`MAX_EXP_DEPTH` deep or with
numbers above :data:`MAX_GROWTH_NUMBER` in their exponent) raises :class:`AnswerError` with a
message saying what is wrong.
"""

from __future__ import annotations

import ast
import keyword
import math
import operator
from collections.abc import Callable, Iterable, Mapping

import sympy as sp

#: Longest answer accepted, in characters.
MAX_LENGTH = 2000
#: Deepest bracket nesting accepted (scanned before parsing).
MAX_BRACKET_DEPTH = 50
#: Deepest syntax tree accepted (a chain of unary minus signs nests without brackets).
MAX_TREE_DEPTH = 100
#: Most syntax-tree nodes accepted.
MAX_NODES = 1500
#: Largest magnitude of an integer literal; decimals must lie in [MIN_DECIMAL, MAX_NUMBER].
MAX_NUMBER = 10**15
MIN_DECIMAL = 1e-12
#: Largest |numerator| or denominator of a numeric exponent.
MAX_EXPONENT = 64
#: Largest bit length of any exact number built along the way.
MAX_BITS = 4096
#: Deepest nesting of exponentials (exp, sinh, cosh, a power with a symbolic exponent):
#: ``exp(exp(exp(theta)))`` has more digits than any computer can hold.
MAX_EXP_DEPTH = 2
#: Largest magnitude of a number inside an exponent or the argument of an exponential:
#: ``exp(10**15)`` is an integer of 4·10¹⁴ digits, ``sin`` of it unanswerable.
MAX_GROWTH_NUMBER = 100

#: Functions a reader may call, by the name typed.
FUNCTIONS: dict[str, Callable[[sp.Expr], sp.Expr]] = {
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sec": sp.sec, "csc": sp.csc, "cot": sp.cot,
    "asin": sp.asin, "acos": sp.acos, "atan": sp.atan,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
    "sqrt": sp.sqrt, "exp": sp.exp, "log": sp.log, "ln": sp.log, "Abs": sp.Abs, "abs": sp.Abs,
}
#: Constants a reader may use (unless the exercise has a symbol of the same name).
CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}
#: Name of the matrix constructor.
MATRIX = "Matrix"

#: Greek letters typed as themselves, read as their names.
GREEK: dict[str, str] = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "theta", "κ": "kappa", "λ": "lamda", "μ": "mu", "ν": "nu",
    "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma", "τ": "tau", "φ": "phi", "ϕ": "phi",
    "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta",
    "Λ": "Lamda", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
_OPERATORS = {"−": "-", "×": "*", "·": "*", "²": "**2", "³": "**3"}
#: The reader conveniences, character by character (a tab or a newline is a space).
_REPLACE = str.maketrans({**GREEK, **_OPERATORS, "\n": " ", "\r": " ", "\t": " "})

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv}
_REFUSED_BINOPS = {
    ast.FloorDiv: "//", ast.Mod: "%", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
    ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^",
}
_WHAT = {
    ast.Attribute: "attribute access (a '.' after a name)",
    ast.Subscript: "indexing with [...] after a name",
    ast.Lambda: "lambda",
    ast.ListComp: "comprehensions", ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions", ast.GeneratorExp: "comprehensions",
    ast.JoinedStr: "strings", ast.FormattedValue: "strings",
    ast.Compare: "comparisons (write only the expression, not an equation or inequality)",
    ast.BoolOp: "'and'/'or'", ast.IfExp: "'if ... else'", ast.NamedExpr: "':='",
    ast.Dict: "dictionaries", ast.Set: "sets", ast.Tuple: "tuples (use [...] for a matrix)",
    ast.Starred: "starred arguments", ast.Await: "'await'", ast.Slice: "slices",
}

Answer = sp.Expr | sp.ImmutableMatrix

# Products and powers of symbolic matrices grow exponentially with the input's length.
_NO_MATRIX_PRODUCTS = ("products and powers of matrices are not supported: type the matrix "
                       "entry by entry (a number times a matrix, sums and differences are fine)")


class AnswerError(ValueError):
    """The answer text cannot be read; the message says why, in the reader's terms."""


def normalize(text: str) -> str:
    """Apply the reader conveniences, then refuse what is left of non-ASCII or control text."""
    if not isinstance(text, str):
        raise AnswerError(f"the answer must be text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise AnswerError(f"the answer is too long ({len(text)} characters; at most {MAX_LENGTH})")
    text = text.translate(_REPLACE)
    bad = next((ch for ch in text if not " " <= ch <= "~"), None)
    if bad is not None:
        raise AnswerError(
            f"the character {bad!r} (U+{ord(bad):04X}) is not allowed; type answers in plain "
            "ASCII (Greek letters may be typed as such or by name, e.g. theta)"
        )
    text = text.replace("^", "**")
    if len(text) > MAX_LENGTH:
        raise AnswerError(f"the answer is too long (at most {MAX_LENGTH} characters)")
    if "\\" in text:
        raise AnswerError("backslashes are not allowed: write theta, not \\theta")
    if not text.strip():
        raise AnswerError("the answer is empty")
    _check_brackets(text)
    return text


def _check_brackets(text: str) -> None:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[str] = []
    for i, ch in enumerate(text):
        if ch in "([{":
            stack.append(ch)
            if len(stack) > MAX_BRACKET_DEPTH:
                raise AnswerError(
                    f"brackets are nested too deeply (more than {MAX_BRACKET_DEPTH} levels)"
                )
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                raise AnswerError(f"unbalanced bracket {ch!r} at position {i + 1}")
    if stack:
        raise AnswerError(f"{len(stack)} bracket(s) opened but never closed")


def _check_tree_size(tree: ast.AST) -> None:
    """Bound depth and node count iteratively (no recursion on untrusted depth)."""
    count = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise AnswerError(f"the answer is too large (more than {MAX_NODES} syntax nodes)")
        if depth > MAX_TREE_DEPTH:
            raise AnswerError(
                f"the answer is nested too deeply (more than {MAX_TREE_DEPTH} levels)"
            )
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _bits(number: sp.Rational) -> int:
    return max(int(number.p).bit_length(), int(number.q).bit_length())


def _max_bits(obj: sp.Basic) -> int:
    return max((_bits(r) for r in obj.atoms(sp.Rational)), default=0)


def _check_growth(obj: sp.Basic) -> None:
    """Refuse towers of exponentials and huge numbers in exponents, which no evaluation
    can finish (``E**E**E**E**theta``, ``sin(2**(10**15*theta))``); iterative, post-order."""
    depth: dict[sp.Basic, int] = {}
    stack: list[tuple[sp.Basic, bool]] = [(obj, False)]
    while stack:
        node, done = stack.pop()
        if node in depth:
            continue
        if not done:
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args if arg not in depth)
            continue
        inner = max((depth[arg] for arg in node.args), default=0)
        # what an exponential raises to a power: exp/sinh/cosh's argument, a symbolic exponent
        argument = (node.args[0] if isinstance(node, (sp.exp, sp.sinh, sp.cosh))
                    else node.exp if isinstance(node, sp.Pow) and not node.exp.is_Number
                    else None)
        if argument is not None:
            inner += 1
            if inner > MAX_EXP_DEPTH:
                raise AnswerError(f"exponentials are nested too deeply (at most "
                                  f"{MAX_EXP_DEPTH} levels of exp, sinh, cosh or symbolic "
                                  "powers): their values have more digits than can be computed")
            big = [n for n in argument.atoms(sp.Number) if abs(n) > MAX_GROWTH_NUMBER]
            if big:
                raise AnswerError(f"the number {big[0]} is too large inside an exponent or "
                                  f"exponential (at most {MAX_GROWTH_NUMBER} there)")
        depth[node] = inner


def _check_size(obj: sp.Basic) -> sp.Basic:
    if isinstance(obj, sp.Rational) and _bits(obj) > MAX_BITS:
        raise AnswerError("a number in the answer grows too large")
    return obj


class _Builder:
    """Builds the sympy object from a syntax tree already bounded in size and depth."""

    def __init__(self, names: Mapping[str, sp.Basic]):
        self.names = names

    def build(self, node: ast.AST) -> Answer:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            what = _WHAT.get(type(node), f"'{type(node).__name__}' expressions")
            raise AnswerError(f"not allowed in an answer: {what}")
        return method(node)

    def _Constant(self, node: ast.Constant) -> sp.Expr:
        value = node.value
        if value is Ellipsis:
            raise AnswerError("'...' marks a gap in the example answer: fill it in with your "
                              "own expression")
        if isinstance(value, bool) or value is None:
            raise AnswerError(f"{value!r} is not a number")
        if isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                raise AnswerError(f"the number {value} is too large (at most {MAX_NUMBER:.0e})")
            return sp.Integer(value)
        if isinstance(value, float):
            if not math.isfinite(value) or abs(value) > MAX_NUMBER or (
                value != 0 and abs(value) < MIN_DECIMAL
            ):
                raise AnswerError(f"the number {value!r} is out of range")
            return sp.Rational(repr(value))
        if isinstance(value, complex):
            raise AnswerError("complex literals such as 1j are not allowed")
        raise AnswerError("strings are not allowed in an answer")  # str or bytes: all that is left

    def _Name(self, node: ast.Name) -> sp.Basic:
        name = node.id
        if name.startswith("_"):
            raise AnswerError(f"names starting with '_' such as {name!r} are not allowed")
        if name in self.names:
            return self.names[name]
        if name in CONSTANTS:
            return CONSTANTS[name]
        if name in FUNCTIONS or name == MATRIX:
            raise AnswerError(f"{name} is a function: call it with parentheses, e.g. {name}(x)")
        allowed = ", ".join(sorted(self.names)) or "none"
        raise AnswerError(f"unknown name {name!r}; the names you may use here are: {allowed}")

    def _UnaryOp(self, node: ast.UnaryOp) -> Answer:
        operand = self.build(node.operand)
        if isinstance(node.op, ast.USub):
            return _check_size(-operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        raise AnswerError("only unary '-' and '+' are allowed ('~' and 'not' are not)")

    def _BinOp(self, node: ast.BinOp) -> Answer:
        op = type(node.op)
        if op in _REFUSED_BINOPS:
            raise AnswerError(f"the operator {_REFUSED_BINOPS[op]!r} is not allowed; "
                              "use + - * / ** (or ^ for a power)")
        left, right = self.build(node.left), self.build(node.right)
        both = isinstance(left, sp.MatrixBase) and isinstance(right, sp.MatrixBase)
        if op is ast.Mult and both:
            raise AnswerError(_NO_MATRIX_PRODUCTS)
        if op is ast.Div and isinstance(right, sp.MatrixBase):
            raise AnswerError("cannot divide by a matrix")
        if op is ast.Div and right == 0:
            raise AnswerError("division by zero")
        try:
            if op is ast.Pow:
                return self._power(left, right)
            return _check_size(_BINOPS[op](left, right))
        except AnswerError:
            raise
        except (sp.ShapeError, sp.NonSquareMatrixError, TypeError, ValueError) as exc:
            raise AnswerError(f"the matrices do not fit together: {exc}") from exc

    def _power(self, base: Answer, exponent: Answer) -> Answer:
        if isinstance(exponent, sp.MatrixBase):
            raise AnswerError("an exponent cannot be a matrix")
        if isinstance(exponent, sp.Rational):
            if max(abs(int(exponent.p)), int(exponent.q)) > MAX_EXPONENT:
                raise AnswerError(
                    f"the exponent {exponent} is too large (at most {MAX_EXPONENT} in size)"
                )
            if _max_bits(base) * abs(int(exponent.p)) > MAX_BITS:
                raise AnswerError("a power in the answer produces a number too large to handle")
            if base == 0 and exponent < 0:
                raise AnswerError("division by zero (0 to a negative power)")
        elif exponent.is_number:
            raise AnswerError("numeric exponents must be rational numbers such as 2 or 1/2")
        if isinstance(base, sp.MatrixBase):
            raise AnswerError(_NO_MATRIX_PRODUCTS)
        return _check_size(base**exponent)

    def _Call(self, node: ast.Call) -> Answer:
        if not isinstance(node.func, ast.Name):
            raise AnswerError("only the functions " + ", ".join(FUNCTIONS) + " and Matrix "
                              "may be called")
        name = node.func.id
        if name != MATRIX and name not in FUNCTIONS:
            if name.startswith("_"):
                raise AnswerError(f"names starting with '_' such as {name!r} are not allowed")
            raise AnswerError(f"{name!r} is not an allowed function; allowed: "
                              + ", ".join(FUNCTIONS) + ", Matrix")
        if node.keywords:
            raise AnswerError(f"keyword arguments are not allowed in {name}(...)")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise AnswerError(f"starred arguments are not allowed in {name}(...)")
        if len(node.args) != 1:
            raise AnswerError(f"{name} takes exactly one argument, got {len(node.args)}")
        if name == MATRIX:
            if not isinstance(node.args[0], ast.List):
                raise AnswerError("Matrix takes a list of rows, e.g. Matrix([[a, b], [c, d]])")
            return self.build(node.args[0])
        arg = self.build(node.args[0])
        if isinstance(arg, sp.MatrixBase):
            raise AnswerError(f"{name} takes a scalar, not a matrix")
        return _check_size(FUNCTIONS[name](arg))

    def _List(self, node: ast.List) -> sp.ImmutableMatrix:
        if not node.elts:
            raise AnswerError("empty matrices are not allowed")
        nested = [isinstance(e, ast.List) for e in node.elts]
        if any(nested) and not all(nested):
            raise AnswerError("a matrix must be a list of rows, each row a list [a, b, ...]")
        if all(nested):
            rows = [[self._entry(e) for e in row.elts] for row in node.elts]
            widths = {len(r) for r in rows}
            if 0 in widths:
                raise AnswerError("a matrix row is empty")
            if len(widths) != 1:
                raise AnswerError(
                    "the rows of the matrix have different lengths: "
                    + ", ".join(str(len(r)) for r in rows)
                )
            return sp.ImmutableMatrix(rows)
        return sp.ImmutableMatrix([self._entry(e) for e in node.elts])

    def _entry(self, node: ast.AST) -> sp.Expr:
        if isinstance(node, ast.List):
            raise AnswerError("a matrix entry cannot itself be a list")
        value = self.build(node)
        if isinstance(value, sp.MatrixBase):
            raise AnswerError("a matrix entry cannot itself be a matrix")
        return value


def name_table(symbols: Mapping[str, sp.Basic] | Iterable[sp.Symbol]) -> dict[str, sp.Basic]:
    """The names a reader may type: ``{name: symbol}`` as given, or each Symbol by its name."""
    table = dict(symbols) if isinstance(symbols, Mapping) else {s.name: s for s in symbols}
    for name in table:
        if (not name.isidentifier() or not name.isascii() or name.startswith("_")
                or keyword.iskeyword(name)):
            raise ValueError(f"{name!r} cannot be typed as a name in an answer")
        if name in FUNCTIONS or name == MATRIX:
            raise ValueError(f"{name!r} clashes with an allowed function")
    return table


def parse_answer(text: str, symbols: Mapping[str, sp.Basic] | Iterable[sp.Symbol]) -> Answer:
    """Read what the reader typed safely into a sympy expression or immutable matrix (see the
    module docstring for what is allowed).

    Parameters
    ----------
    symbols
        The names the reader may use: a mapping ``{typed name: sympy object}`` (aliases
        allowed, e.g. ``{"v": u_1}``) or an iterable of Symbols, typed by their names.

    Raises
    ------
    AnswerError
        If the text is not a well-formed answer built only from the allowed pieces.
    """
    table = name_table(symbols)
    source = normalize(text)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        where = f" near column {exc.offset}" if exc.offset else ""
        hint = " (write only an expression, without '=')" if "=" in source else ""
        raise AnswerError(f"the answer is not a valid expression{where}{hint}") from None
    except (RecursionError, MemoryError, ValueError):
        raise AnswerError("the answer is nested too deeply or too large to read") from None
    _check_tree_size(tree)
    try:
        result = _Builder(table).build(tree.body)
    except RecursionError:
        raise AnswerError("the answer is nested too deeply to read") from None
    if _max_bits(result) > MAX_BITS:
        raise AnswerError("a number in the answer is too large")
    _check_growth(result)
    if isinstance(result, sp.MatrixBase):
        return sp.ImmutableMatrix(result)
    if not isinstance(result, sp.Expr):
        raise AnswerError("the answer is not an expression")
    return result
