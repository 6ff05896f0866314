"""An exercise on a worked example: prompt, allowed names, the engine's answer, hints and the
engine's derivation as the solution.  No widgets here: everything is testable headless."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from companion.exercises.check import Feedback, Mistake, compare
from companion.exercises.parse import Answer, AnswerError, name_table, parse_answer
from companion.mechanics.derivation import Derivation, Step
from companion.system import System


@dataclass
class Exercise:
    """One self-study exercise tied to a worked example.

    Parameters
    ----------
    key
        Short identifier, unique within its example (e.g. ``"C2"``).
    example
        Registry name of the worked example's :class:`~companion.system.System`.
    title
        One line shown as the exercise's heading.
    prompt
        The question, plain text with inline LaTeX (``$...$``), in our own words.
    answer
        ``answer(system) -> expression or matrix``: the expected answer, taken from the
        engine (the system's derivation).  Never a typed result.
    names
        The symbol names the reader may type; each must be a symbol of the system or of the
        engine's answer.
    aliases
        Extra typed names for the same symbols, ``{"v": "u_1"}``.
    hints
        Progressive hints, from a nudge to the method to the last step before the answer.
    solution
        ``solution(system) -> steps``: the engine's derivation steps that produce the answer.
    mistakes
        ``mistakes(system) -> [Mistake]``: likely wrong answers, each computed by the engine.
    skew_hint
        What to say about the index order when the answer is minus a skew matrix.
    example_answer
        The shape of an answer to show in the input box, e.g. ``"[[a, b], [c, d]]"``.
    system_of
        Returns the worked example's shared system; set by the catalog when it hands out the
        exercise set (the exercise layer does not import the catalog).
    """

    key: str
    example: str
    title: str
    prompt: str
    answer: Callable[[System], Answer]
    names: Sequence[str]
    hints: Sequence[str]
    solution: Callable[[System], Sequence[Step]]
    aliases: Mapping[str, str] = field(default_factory=dict)
    mistakes: Callable[[System], Sequence[Mistake]] | None = None
    skew_hint: str = ""
    example_answer: str = ""
    system_of: Callable[[], System] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._cache: dict[int, tuple[System, dict[str, Any]]] = {}

    # ----------------------------------------------------------------- engine results
    def system(self) -> System:
        """The worked example's shared system, attached by the catalog
        (:func:`companion.examples.exercises_for`)."""
        if self.system_of is None:
            raise ValueError(f"exercise {self.key!r} is not attached to a system: get it from "
                             "companion.examples.exercises_for(...) or pass system=...")
        return self.system_of()

    def _results(self, system: System | None) -> dict[str, Any]:
        system = self.system() if system is None else system
        if id(system) not in self._cache:  # keep the system alive so its id stays unique
            self._cache[id(system)] = (system, {})
        return self._cache[id(system)][1]

    def symbols(self, system: System | None = None) -> dict[str, sp.Symbol]:
        """Typed name → the system's symbol, aliases included."""
        results = self._results(system)
        if "symbols" not in results:
            system = self.system() if system is None else system
            # The engine's answer may hold symbols the system does not list (a contact force,
            # an acceleration): the reader may type those too.
            answer = self.expected(system)
            known = {**{x.name: x for x in answer.free_symbols if isinstance(x, sp.Symbol)},
                     **_system_symbols(system)}
            table = {}
            for name in [*self.names, *self.aliases]:
                target = self.aliases.get(name, name)
                if target not in known:
                    raise ValueError(f"exercise {self.key!r}: {target!r} is not a symbol of "
                                     f"the system {system.name!r}")
                table[name] = known[target]
            results["symbols"] = name_table(table)
        return results["symbols"]

    def expected(self, system: System | None = None) -> Answer:
        """The expected answer, computed by the engine from the system (cached per system)."""
        results = self._results(system)
        if "expected" not in results:
            value = self.answer(self.system() if system is None else system)
            results["expected"] = (sp.ImmutableMatrix(value)
                                   if isinstance(value, sp.MatrixBase) else sp.sympify(value))
        return results["expected"]

    def known_mistakes(self, system: System | None = None) -> list[Mistake]:
        results = self._results(system)
        if "mistakes" not in results:
            found = [] if self.mistakes is None else list(
                self.mistakes(self.system() if system is None else system))
            results["mistakes"] = found
        return results["mistakes"]

    def solution_steps(self, system: System | None = None) -> list[Step]:
        """The engine's derivation steps that lead to the answer."""
        return list(self.solution(self.system() if system is None else system))

    # ----------------------------------------------------------------- reader actions
    def check(self, text: str, system: System | None = None) -> Feedback:
        """Read and judge an answer; unreadable input gets the parser's message."""
        try:
            given = parse_answer(text, self.symbols(system))
        except AnswerError as exc:
            return Feedback(False, f"Cannot read the answer: {exc}.", "unreadable")
        return compare(self.expected(system), given,
                       mistakes=self.known_mistakes(system), skew_hint=self.skew_hint)

    def hint(self, k: int) -> str:
        """The k-th progressive hint (0-based); past the last, a pointer to the solution."""
        if 0 <= k < len(self.hints):
            return self.hints[k]
        return "No more hints: use “Reveal solution” to see the derivation."

    def allowed_names(self) -> str:
        """The names the reader may type, for the prompt."""
        names = ", ".join(self.names)
        if self.aliases:
            names += " (also " + ", ".join(f"{a} for {t}" for a, t in self.aliases.items()) + ")"
        return names


def _system_symbols(system: System) -> dict[str, sp.Symbol]:
    symbols = [*system.q, *system.u, *system.parameter_symbols,
               *(p.symbol for p in system.initial)]
    return {s.name: s for s in symbols}


@dataclass
class ExerciseSet:
    """The exercises closing one worked-example notebook; ``example`` is the set's name."""

    example: str
    title: str
    exercises: list[Exercise]

    def __iter__(self):
        return iter(self.exercises)

    def __len__(self) -> int:
        return len(self.exercises)

    def __getitem__(self, key: int | str) -> Exercise:
        if isinstance(key, str):
            for ex in self.exercises:
                if ex.key == key:
                    return ex
            raise KeyError(f"no exercise {key!r}; known: {[e.key for e in self.exercises]}")
        return self.exercises[key]

    def widget(self):
        """The ipywidgets box of every exercise (see :mod:`companion.exercises.widget`)."""
        from companion.exercises.widget import exercise_set_widget

        return exercise_set_widget(self)


def steps_by_eq(steps: Sequence[Step], *eqs: str) -> list[Step]:
    """The derivation's steps whose equation number is one of ``eqs``, in derivation order."""
    return [s for s in steps if s.eq in eqs]


def steps_keyed(derivation: Derivation, *keys: str) -> list[Step]:
    """The derivation's steps with one of the stable ``keys``, in derivation order (for
    derivations whose steps carry no equation number).

    Raises
    ------
    KeyError
        A key that no step of the derivation has (via :meth:`Derivation.step`).
    """
    for key in keys:
        derivation.step(key)  # every key names exactly one step
    return [s for s in derivation.steps if s.key in keys]


def parameter_symbol(system: System, name: str) -> sp.Symbol:
    """The system's parameter symbol called ``name`` (with its assumptions)."""
    return next(p for p in system.parameter_symbols if p.name == name)
