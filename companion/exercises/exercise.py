"""Exercises on a worked example, testable headless (no widgets here): a typed answer
(:class:`Exercise`), a prediction or a conceptual choice (:class:`ChoiceExercise`), the sets
they come in (:class:`ExerciseSet`) and the short form a slice declares them in
(:class:`Declare`)."""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from companion.exercises.check import FULL_TURN, NOT_EQUAL, PROVEN, UNREADABLE, Feedback, Mistake
from companion.exercises.graded import graded, protect, withhold
from companion.exercises.parse import Answer, name_table
from companion.exercises.variant import Variant, seeded
from companion.exercises.worker import Request, grade, grader
from companion.mechanics.derivation import Derivation, Step
from companion.model import Model
from companion.system import System


@dataclass
class _OnTheEngine:
    """What every exercise shares (see :class:`Exercise`): its system (attached by the
    catalog), the engine's results cached per system, the hints and the solution steps."""

    key: str
    example: str
    title: str
    prompt: str
    #: The fields that compute an answer: refused in graded mode (:mod:`.graded`).
    _ANSWERS = ("answer", "mistakes", "solution", "right")
    #: The exercise set it belongs to (set by :class:`ExerciseSet`): graded mode may be on
    #: for this set only.
    scope: str | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        protect(self)

    def _withhold(self, what: str) -> None:
        withhold(f"exercise {self.key!r}: its {what}", self.scope)

    def graded(self) -> bool:
        """Whether graded mode is on for this exercise's set."""
        return graded(self.scope)

    def system(self) -> System:
        """The worked example's shared system, attached by the catalog
        (:func:`companion.examples.exercises_for`)."""
        if self.system_of is None:
            raise ValueError(f"exercise {self.key!r} is not attached to a system: get it from "
                             "companion.examples.exercises_for(...) or pass system=...")
        return self.system_of()

    def _cached(self, name: str, system: Model | None, compute: Callable[[Any], Any]) -> Any:
        """``compute(system)``, computed once per system (the shared system when None)."""
        system = self.system() if system is None else system
        cache = self.__dict__.setdefault("_cache", {})  # the system kept: its id stays unique
        results = cache.setdefault(id(system), (system, {}))[1]
        if name not in results:
            results[name] = compute(system)
        return results[name]

    def solution_steps(self, system: System | None = None) -> list[Step]:
        """The engine's derivation steps that lead to the answer (none for some choices);
        withheld in graded mode."""
        self._withhold("solution")
        if self.solution is None:
            return []
        return list(self.solution(self.system() if system is None else system))

    def hint(self, k: int) -> str:
        """The k-th progressive hint (0-based); past the last, a pointer to the solution."""
        if 0 <= k < len(self.hints):
            return self.hints[k]
        if self.graded():
            return "No more hints."
        return "No more hints: use “Reveal solution” to see the derivation."


@dataclass
class Exercise(_OnTheEngine):
    """One self-study exercise tied to a worked example.

    Parameters
    ----------
    key
        Short identifier, unique within its example (e.g. ``"C2"``).
    example
        Registry name of the worked example's :class:`~companion.system.System`.
    prompt
        The question, plain text with inline LaTeX (``$...$``), in our own words.
    answer
        ``answer(system)``: the expected expression or matrix, taken from the engine (the
        system's derivation).  Never a typed result.
    names, aliases
        The symbol names the reader may type (each a symbol of the system or of the
        engine's answer), and extra names for the same symbols, ``{"v": "u_1"}``.
    hints, solution
        Progressive hints, from a nudge to the method to the last step before the answer;
        ``solution(system)``: the engine's derivation steps that produce the answer.
    mistakes
        ``mistakes(system) -> [Mistake]``: likely wrong answers, each computed by the engine.
    skew_hint
        What to say about the index order when the answer is minus a skew matrix.
    example_answer
        The shape of an answer to show in the input box, e.g. ``"[[a, b], [c, d]]"`` —
        never the answer itself (a test checks it is not equivalent).
    given_steps
        ``given_steps(system)``: steps shown with the prompt; the reader supplies the next.
    system_of
        Returns the worked example's shared system; set by the catalog (the exercise layer
        does not import the catalog).
    """

    answer: Callable[[System], Answer]
    names: Sequence[str]
    hints: Sequence[str]
    solution: Callable[[System], Sequence[Step]]
    aliases: Mapping[str, str] = field(default_factory=dict)
    mistakes: Callable[[System], Sequence[Mistake]] | None = None
    skew_hint: str = ""
    example_answer: str = ""
    given_steps: Callable[[System], Sequence[Step]] | None = None
    system_of: Callable[[], System] | None = field(default=None, repr=False, compare=False)

    def symbols(self, system: System | None = None, expected: Answer | None = None
                ) -> dict[str, sp.Symbol]:
        """Typed name → the system's symbol, aliases included.

        The answer may hold symbols the system does not list (a contact force, an
        acceleration): they are taken from ``expected`` (an :class:`AnswerKey`'s), else from
        the engine's answer; in graded mode without ``expected`` such a name is shown as a
        plain symbol (for the widget's list of names, never for judging).
        """
        if expected is None and not self.graded():
            return self._cached("symbols", system, lambda s: self._table(s, self.expected(s)))
        return self._table(self.system() if system is None else system, expected)

    def _table(self, system: System, answer: Answer | None) -> dict[str, sp.Symbol]:
        free = [x for x in getattr(answer, "free_symbols", ()) if isinstance(x, sp.Symbol)]
        known = {s.name: s for s in [*free, *system.q, *system.u, *system.parameter_symbols,
                                     *(p.symbol for p in system.initial)]}
        table = {}
        for name in [*self.names, *self.aliases]:
            target = self.aliases.get(name, name)
            if target not in known and answer is not None:
                raise ValueError(f"exercise {self.key!r}: {target!r} is not a symbol of "
                                 f"the system {system.name!r}")
            table[name] = known.get(target, sp.Symbol(target))
        return name_table(table)

    def expected(self, system: System | None = None) -> Answer:
        """The expected answer, computed by the engine from the system (cached per system);
        withheld in graded mode."""
        self._withhold("expected answer")
        # sympify makes a matrix immutable
        return self._cached("expected", system, lambda s: sp.sympify(self.answer(s)))

    def known_mistakes(self, system: System | None = None) -> list[Mistake]:
        """Likely wrong answers computed by the engine (they give the answer away: withheld
        in graded mode)."""
        self._withhold("known mistakes")
        return self._cached("mistakes", system,
                            lambda s: [] if self.mistakes is None else list(self.mistakes(s)))

    def steps_before(self, system: System | None = None) -> list[Step]:
        """The derivation steps shown with the prompt (a derivation-step exercise)."""
        if self.given_steps is None:
            return []
        return list(self.given_steps(self.system() if system is None else system))

    def ranges(self, system: Model | None = None) -> dict[sp.Symbol, tuple[float, float]]:
        """Where each of the system's symbols is sampled: its slider range, a full turn for
        an angle (unit rad), an initial rate ``theta_dot``'s also for the rate symbol
        ``\\dot{\\theta}`` the derivation uses; other symbols get the checker's defaults (both
        signs).  Only the model's parameters and initial values are read (any
        :class:`~companion.model.Model`)."""
        return self._cached("ranges", system, _sample_ranges)

    def check(self, text: str, system: System | None = None, *,
              key: AnswerKey | None = None) -> Feedback:
        """Read and judge an answer in the grading worker, against ``key`` when given (an
        autograder's), else the engine's answer (withheld in graded mode); unreadable input
        gets the parser's message, an answer too costly to judge a "could not decide"."""
        if not isinstance(text, str):
            return Feedback(False, "Type the answer as text, e.g. \"m*g*cos(theta)\".",
                            "unreadable", UNREADABLE)
        text = str.__str__(text)  # a plain str: a subclass's methods never reach the checker
        if key is None:
            expected, mistakes = self.expected(system), tuple(self.known_mistakes(system))
        elif key.expected is None:
            raise ValueError(f"exercise {self.key!r}: its answer key has no expected answer")
        else:
            expected, mistakes = key.expected, key.mistakes
        return grade(Request(text=text, names=self.symbols(system, expected),
                             expected=expected, mistakes=mistakes,
                             skew_hint=self.skew_hint, ranges=self.ranges(system)))

    def allowed_names(self) -> str:
        """The names the reader may type, as HTML with math: each alias is shown with the
        symbol it stands for (``v`` for $u_{1}$, ``u_1dot`` for $\\dot{u}_{1}$)."""
        names = ", ".join(f"<code>{html.escape(n)}</code>" for n in self.names)
        if self.aliases:
            table = self.symbols()
            names += " (also " + ", ".join(
                f"<code>{html.escape(a)}</code> for ${sp.latex(table[a])}$"
                for a in self.aliases) + ")"
        return names


@dataclass(frozen=True)
class Option:
    """One answer of a multiple-choice exercise, with the reason it is right or wrong."""

    label: str
    explanation: str


@dataclass
class ChoiceExercise(_OnTheEngine):
    """A conceptual question or a prediction, answered by choosing one option.

    Parameters
    ----------
    key, example, title, prompt, hints, solution, system_of
        As for :class:`Exercise` (``solution`` may be None).
    options
        The choices shown, each with the explanation given when it is chosen.
    right
        ``right(system) -> index`` of the right option, decided by the engine (a derivation,
        a simulation), never typed.
    then
        For a prediction: what to run to see it happen, shown once the reader has committed.
    kind
        ``"predict"`` (predict, then run) or ``"concept"``.
    """

    options: Sequence[Option]
    right: Callable[[System], int]
    hints: Sequence[str] = ()
    solution: Callable[[System], Sequence[Step]] | None = None
    then: str = ""
    kind: str = "concept"
    system_of: Callable[[], System] | None = field(default=None, repr=False, compare=False)

    def right_index(self, system: System | None = None) -> int:
        """The index of the right option, as the engine decides it (cached per system);
        withheld in graded mode."""
        self._withhold("right option")
        index = self._cached("right", system, self.right)
        if not 0 <= index < len(self.options):
            raise ValueError(f"exercise {self.key!r}: the engine chose no option")
        return index

    def check(self, choice: int | None, system: System | None = None, *,
              key: AnswerKey | None = None, then: bool = True) -> Feedback:
        """Judge a choice against ``key`` when given (an autograder's), else the engine's
        (withheld in graded mode): the chosen option's explanation, and for a prediction what
        to run (unless ``then`` is False: a handout has no explorer to run)."""
        # a plain int: an int subclass's own __eq__ never decides the verdict
        plain = isinstance(choice, int) and not isinstance(choice, bool)
        choice = int.__index__(choice) if plain else None
        if choice is None or not 0 <= choice < len(self.options):
            return Feedback(False, "Choose one of the options first.", "unreadable", UNREADABLE)
        if key is not None and key.right is None:
            raise ValueError(f"exercise {self.key!r}: its answer key has no right option")
        right = choice == int(self.right_index(system) if key is None else key.right)
        message = self.options[choice].explanation
        if self.then and then:
            message += " " + self.then
        return Feedback(right, message, "correct" if right else "choice",
                        PROVEN if right else NOT_EQUAL)


@dataclass(frozen=True)
class AnswerKey:
    """What an autograder judges against, kept outside the student's kernel (in the keys
    file of :mod:`.assignment`): the expected answer and the known mistakes of a typed
    exercise, or the index of the right option of a choice."""

    expected: Answer | None = None
    mistakes: tuple[Mistake, ...] = ()
    right: int | None = None


def _sample_ranges(model: Model) -> dict[sp.Symbol, tuple[float, float]]:
    ranges: dict[sp.Symbol, tuple[float, float]] = {}
    for p in [*model.parameters, *model.initial]:
        span = ranges[p.symbol] = FULL_TURN if p.unit == "rad" else (p.low, p.high)
        if p.name.endswith("_dot"):
            base = sp.latex(sp.Symbol(p.name.removesuffix("_dot")))
            ranges[sp.Symbol(rf"\dot{{{base}}}")] = span
    return ranges


@dataclass
class ExerciseSet:
    """The exercises closing one worked-example notebook; ``example`` is the set's name.

    ``draw(seed)``, set by the catalog for a slice that declares variants of its system
    (:mod:`companion.exercises.variant`), builds the same set on the variant a student id
    draws; ``variant`` is the variant a set was built on (None: the book's system).

    A set with a typed exercise starts the grading worker (unless graded mode is on for it):
    it imports sympy and warms up while the reader reads, so the first check finds it ready.
    """

    example: str
    title: str
    exercises: list[Exercise]
    draw: Callable[[str], ExerciseSet] | None = field(default=None, repr=False, compare=False)
    variant: Variant | None = None

    def __post_init__(self) -> None:
        for exercise in self.exercises:  # graded mode may be on for this set only
            exercise.scope = self.example
            protect(exercise)
        if not graded(self.example) and any(isinstance(e, Exercise) for e in self.exercises):
            grader().start()

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

    def for_student(self, seed: str) -> ExerciseSet:
        """The set a student with id ``seed`` answers: on the variant of the system their id
        draws where the slice declares variants, else on this set's system; each choice's
        options in an order drawn from ``seed`` (:func:`shuffled`), so that the right option's
        number differs between students even where the right option does not."""
        own = self if self.draw is None else self.draw(seed)
        return ExerciseSet(own.example, own.title,
                           [shuffled(ex, f"{own.example}:{seed}") for ex in own],
                           variant=own.variant)

    def chosen(self, only: Sequence[str] | None = None, skip: Sequence[str] = (),
               title: str | None = None) -> ExerciseSet:
        """The exercises with the keys ``only`` (all when None) but not ``skip``, under
        ``title`` (the set's own when None); a key the set does not have is a ValueError."""
        known = [ex.key for ex in self]
        unknown = [key for key in (*(only or ()), *skip) if key not in known]
        if unknown:
            raise ValueError(f"{self.example!r} has no exercise {', '.join(map(repr, unknown))}"
                             f"; known: {', '.join(known)}")
        return ExerciseSet(self.example, self.title if title is None else title, [
            ex for ex in self if (only is None or ex.key in only) and ex.key not in skip])

    def system(self) -> System:
        """The system the set's exercises are posed on (the variant's, for a drawn set)."""
        return self.exercises[0].system()

    def widget(self, first: int = 1):
        """The ipywidgets box of every exercise, numbered from ``first`` (see
        :mod:`companion.exercises.widget`)."""
        from companion.exercises.widget import ExerciseSetBox

        return ExerciseSetBox(self, first)


def shuffled(exercise: Exercise | ChoiceExercise, seed: str) -> Exercise | ChoiceExercise:
    """A choice exercise with its options in an order drawn from ``seed`` (the engine still
    decides the right one); a typed exercise as it is."""
    if not isinstance(exercise, ChoiceExercise):
        return exercise
    order = list(range(len(exercise.options)))
    seeded(seed, exercise.key, "options").shuffle(order)
    right = exercise.right
    return dataclasses.replace(exercise, options=[exercise.options[k] for k in order],
                               right=lambda system: order.index(right(system)))


@dataclass(frozen=True)
class Declare:
    """The short form of one set's exercises: what they share — the worked example and the
    names a reader may type with their aliases — is said once, each exercise by its key,
    title and prompt (the other fields as for :class:`Exercise` and :class:`ChoiceExercise`,
    where a field given per exercise wins)::

        ex = Declare("knife_edge", names=("x", "y", "phi"))
        ex.typed("C1", "The coefficients C¹", r"Compute $C^1_{ik}$ …", answer=…, hints=(…),
                 solution=…)
        ex.choice("which_C", "Which C^j vanish", "Which …?", ("Only C²", "Its row …"),
                  ("None of them", "Look at …"), right=…)
    """

    example: str
    names: Sequence[str] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)

    def typed(self, key: str, title: str, prompt: str, **fields: Any) -> Exercise:
        """A typed-answer exercise (:class:`Exercise`)."""
        fields = {"names": self.names, "aliases": self.aliases, **fields}
        return Exercise(key=key, example=self.example, title=title, prompt=prompt, **fields)

    def choice(self, key: str, title: str, prompt: str, *options: tuple[str, str],
               **fields: Any) -> ChoiceExercise:
        """A choice (:class:`ChoiceExercise`), each option a pair (label, explanation)."""
        return ChoiceExercise(key=key, example=self.example, title=title, prompt=prompt,
                              options=[Option(*o) for o in options], **fields)

    def predict(self, key: str, title: str, prompt: str, *options: tuple[str, str],
                **fields: Any) -> ChoiceExercise:
        """A prediction: a choice of ``kind="predict"``, with ``then`` saying what to run."""
        return self.choice(key, title, prompt, *options, kind="predict", **fields)


def keyed(*keys: str, method: str | None = None) -> Callable[[System], list[Step]]:
    """An exercise's ``solution`` or ``given_steps``: the steps ``keys`` (:func:`steps_keyed`)
    of the system's derivation by ``method`` (its default derivation when None)."""
    return lambda system: steps_keyed(
        system.derive() if method is None else system.derive(method), *keys)


def steps_keyed(derivation: Derivation, *keys: str) -> list[Step]:
    """The derivation's steps with one of the stable ``keys``, in derivation order (for
    derivations whose steps carry no equation number)."""
    for key in keys:
        derivation.step(key)  # a KeyError unless the key names exactly one step
    return [s for s in derivation.steps if s.key in keys]


def parameter_symbol(system: System, name: str) -> sp.Symbol:
    """The system's parameter symbol called ``name`` (with its assumptions)."""
    return next(p for p in system.parameter_symbols if p.name == name)
