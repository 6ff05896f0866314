"""The answer parser: hostile and malformed input is refused cheaply with a clear message;
well-formed answers are read into the right sympy objects without eval/sympify.

"Cheaply" is counted, not timed (a busy machine must not fail a test): the Python calls a
parse makes and the memory it allocates at its peak, both independent of the machine's speed
(benchmarks/checker.py times the same inputs)."""

from __future__ import annotations

import builtins
import sys
import tracemalloc

import pytest
import sympy as sp

from companion import examples
from companion.exercises.parse import MAX_LENGTH, AnswerError, name_table, parse_answer

theta, phi = sp.symbols("theta phi")
I_xx = sp.Symbol("I_xx", positive=True)
NAMES = {"theta": theta, "phi": phi, "I_xx": I_xx, "v": sp.Symbol("u_1")}

HOSTILE = [
    # code execution and introspection
    "__import__('os').system('echo hacked')",
    "().__class__.__bases__[0].__subclasses__()",
    "theta.__class__",
    "sin.__globals__",
    "theta.__dict__",
    "__builtins__",
    "eval('1+1')",
    "exec('x = 1')",
    "open('/etc/passwd')",
    "getattr(theta, 'name')",
    "globals()",
    "Symbol('x')",
    "S('x')",
    "sympify('x')",
    "parse_expr('x')",
    "import os",
    "theta; import os",
    "lambda: 0",
    "[t for t in [1, 2]]",
    "{t: 1 for t in [1]}",
    "(t for t in [1])",
    "await theta",
    "yield theta",
    # strings, keywords, starred, walrus, other syntax
    "'abc'",
    "f'{theta}'",
    "b'x'",
    "sin(x=theta)",
    "sin(*[theta])",
    "(y := 2)",
    "theta[0]",
    "theta if phi else 1",
    "theta and phi",
    "theta < phi",
    "theta == phi",
    "theta = 1",
    "theta // 2",
    "theta % 2",
    "theta @ phi",
    "theta << 2",
    "~theta",
    "not theta",
    "{1, 2}",
    "(1, 2)",
    "None",
    "True",
    "...",
    "1j",
    # huge numbers and powers
    "9**9**9",
    "10**10**10",
    "2**100000",
    "theta**1000000",
    "(2**64)**64",
    "((2**60)**60)**60",
    "1e400",
    "100000000000000000000",
    "1e-300",
    "theta**pi",
    # deep or long input
    "(" * 60 + "theta" + ")" * 60,
    "[" * 60 + "theta" + "]" * 60,
    "-" * 1999 + "theta",
    "-" * 150 + "theta",
    "theta**" * 120 + "theta",
    "1+" * 900 + "1",
    "[" + ",".join(["a*b*c"] * 330) + "]",
    "theta**" * 300 + "theta",
    "theta + " * 300 + "theta",
    "a" * (MAX_LENGTH + 1),
    # non-ASCII tricks and control characters
    "ｓｉｎ(theta)",
    "sin\u200b(theta)",
    "theta\x00",
    "thetа",  # Cyrillic 'а'
    "\\theta",
    # malformed
    "",
    "   ",
    "((theta)",
    "theta)",
    "x",
    "sin()",
    "sin(theta, phi)",
    "sin",
    "sin([1, 2])",
    "[[1, 2], [3]]",
    "[[1, 2], 3]",
    "[]",
    "Matrix(theta)",
    "Matrix([[Matrix([[1]])]])",
    "[[[1]]]",
    "[[1, 2], [3, 4]]**theta",
    "[[1, 2]]**2",
    "[[theta, phi, 1], [1, theta, phi], [phi, 1, theta]]**64",
    "[[theta, phi], [1, theta]] * [[theta, phi], [1, theta]]",
    "1/0",
    "theta/[[1]]",
    "[[1, 2]] + [[1], [2]]",
    "_secret",
]


#: Most Python calls (functions and builtins) a refusal may make: the costliest hostile input
#: makes about 19 000 (a 330-entry list); sympy expanding as short a power as (d + e + 1)**20
#: makes a quarter of a million.
MAX_CALLS = 100_000
#: Most memory a refusal may hold at once: the costliest makes about 1 MB; computing 9**9**9
#: before refusing it would hold 150 MB for its digits alone.
MAX_PEAK_BYTES = 16 * 2**20


def cost(work) -> tuple[int, int]:
    """Python calls made and peak bytes allocated while ``work()`` runs (an AnswerError it
    raises is re-raised after the counting stopped)."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    tracemalloc.start()
    sys.setprofile(count)
    try:
        work()
    finally:
        sys.setprofile(None)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return calls, peak


def test_cost_counts_work():
    """The counter bites: an expansion the parser never does is far over both bounds."""
    d, e = sp.Dummy(), sp.Dummy()  # symbols of their own: nothing in sympy's cache
    calls, peak = cost(lambda: sp.expand((d + e + 1) ** 20))
    assert calls > MAX_CALLS
    calls, peak = cost(lambda: 1 << 2**28)  # a 32 MB number
    assert peak > MAX_PEAK_BYTES


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_input_is_refused_cheaply_with_a_message(text):
    raised: list[AnswerError] = []

    def parse():
        try:
            parse_answer(text, NAMES)
        except AnswerError as exc:
            raised.append(exc)

    calls, peak = cost(parse)
    assert raised, f"{text!r} was accepted"
    assert calls < MAX_CALLS and peak < MAX_PEAK_BYTES, f"{calls} calls, {peak} bytes at peak"
    message = str(raised[0])
    assert len(message) > 10 and "Traceback" not in message


def test_at_least_thirty_hostile_inputs():
    assert len(set(HOSTILE)) >= 30


def test_non_string_input_is_refused():
    with pytest.raises(AnswerError, match="text"):
        parse_answer(12345, NAMES)


def test_messages_say_what_is_wrong():
    cases = {
        "theta.__class__": "attribute",
        "9**9**9": "exponent",
        "x": "unknown name 'x'",
        "eval('1')": "not an allowed function",
        "sin(x=theta)": "keyword",
        "[[1, 2], [3]]": "different lengths",
        "(" * 60 + "theta" + ")" * 60: "nested too deeply",
        "-" * 150 + "theta": "nested too deeply",
        "[" + ",".join(["a*b*c"] * 330) + "]": "syntax nodes",
        "ｓｉｎ(theta)": "U+FF53",
        "\\theta": "not \\theta",
        "theta = 1": "without '='",
    }
    for text, fragment in cases.items():
        with pytest.raises(AnswerError, match=None) as info:
            parse_answer(text, NAMES)
        assert fragment in str(info.value), (text, str(info.value))


VALID = {
    "theta^2 - phi": theta**2 - phi,
    "θ**2 − φ": theta**2 - phi,
    "theta²·I_xx": theta**2 * I_xx,
    "0.5*theta": theta / 2,
    "-(+theta)": -theta,
    "sqrt(I_xx)*sec(theta)/Abs(phi)": sp.sqrt(I_xx) * sp.sec(theta) / sp.Abs(phi),
    "pi/2 + E": sp.pi / 2 + sp.E,
    "2*v": 2 * sp.Symbol("u_1"),
    "exp(log(theta))": theta,
    "theta**(1/2)": sp.sqrt(theta),
    "2**64": sp.Integer(2) ** 64,
    "sin(" * 40 + "theta" + ")" * 40: sp.Function("dummy")(theta),  # only checked to parse
}


@pytest.mark.parametrize("text", list(VALID))
def test_valid_answers_are_read(text):
    result = parse_answer(text, NAMES)
    if "sin(sin(" not in text:
        assert sp.simplify(result - VALID[text]) == 0


def test_matrices():
    a = parse_answer("[[theta, 1], [0, phi]]", NAMES)
    b = parse_answer("Matrix([[theta, 1],\n [0, phi]])", NAMES)
    assert isinstance(a, sp.ImmutableMatrix) and a == b == sp.Matrix([[theta, 1], [0, phi]])
    assert parse_answer("[1, 2, 3]", NAMES).shape == (3, 1)
    assert parse_answer("-[[1, 2], [3, 4]]/2", NAMES) == -sp.Matrix([[1, 2], [3, 4]]) / 2
    assert parse_answer("2*[[theta]] + [[phi]]", NAMES) == sp.Matrix([[2 * theta + phi]])


def test_symbols_keep_their_assumptions():
    assert parse_answer("I_xx", NAMES).is_positive


def test_never_uses_eval_or_sympify(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the parser must not call eval/exec/sympify/parse_expr")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    monkeypatch.setattr(sp, "sympify", forbidden)
    monkeypatch.setattr(sp, "parse_expr", forbidden)
    monkeypatch.setattr(sp.parsing.sympy_parser, "parse_expr", forbidden)
    # sympify reads strings through sympy_parser.parse_expr, patched above
    assert parse_answer("[[sin(theta)**2, 1/2], [0.25*phi, theta^3]]", NAMES).shape == (2, 2)


def test_name_table_refuses_untypeable_names():
    with pytest.raises(ValueError):
        name_table({"\\dot{x}": theta})
    with pytest.raises(ValueError):
        name_table({"sin": theta})
    with pytest.raises(ValueError):
        name_table({"lambda": theta})
    assert name_table([theta, phi]) == {"theta": theta, "phi": phi}


def test_exercises_report_hostile_input_as_feedback_not_exceptions():

    exercise = examples.exercises_for("euler_body")["C2"]
    exercise.symbols()  # resolve the names once, outside the timing
    for text in HOSTILE:  # refused by the parser, before anything is evaluated
        feedback = exercise.check(text)
        assert (feedback.correct, feedback.hint_kind, feedback.verdict) == (
            False, "unreadable", "unreadable"), text
