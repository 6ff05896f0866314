"""One :class:`System` contract: a frozen definition plus two parts composed in.

Composed, not subclassed (as pydy's ``System(eom_method, ode_solver)``): the **method** that
forms the equations (a name of :data:`~companion.mechanics.methods.METHODS` or one of the
system's own, returning a :class:`~companion.mechanics.derivation.Derivation`) and the
**integrator** part (:class:`OdeIntegrator`, the plain ODE; attitude on SO(3), by quaternions
and chart atlases are further parts).  A run's plumbing is
:func:`~companion.numerics.simulate.simulate_model`'s, shared with models that are no System.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cached_property, partial
from types import MappingProxyType
from typing import Any

import numpy as np

# Importing the method modules registers their methods (they never import this module).
from companion.geometry import lie, metric, planar  # noqa: F401
from companion.linearize import Linearization, linearize
from companion.mechanics import kane, lagrange, maggi  # noqa: F401
from companion.mechanics.agreement import compiled_form
from companion.mechanics.definition import (
    Definition,
    Parameter,
    ParameterTable,
    assumption_clash,
    key_name,
)
from companion.mechanics.derivation import Derivation
from companion.mechanics.methods import INPUTS as METHOD_INPUTS
from companion.mechanics.methods import METHODS, Given, Method, applicable, register_method
from companion.mechanics.numeric_elimination import boltzmann_hamel_numeric
from companion.model import Evaluation, Observer
from companion.numerics import CompiledEOM, SingularConfigurationError, Trajectory
from companion.numerics.integrate import SOLVERS, compiled_or_lsoda, integrate
from companion.numerics.simulate import (
    MAX_POINTS,
    Guards,
    Setup,
    check_tolerance,
    complete_configuration,
    sample_times,
    simulate_model,
    system_guards,
)


class Integrator:
    """How a system's derived equations are integrated into a :class:`Trajectory`.

    The base class gives the plain state layout x = (q, independent u) and its initial
    values; a part overrides :meth:`integrate` and, when it carries another state (an
    attitude quaternion, a contact gap), :meth:`state_names` and :meth:`initial_state`.
    ``options`` names the extra keyword arguments of ``simulate`` it understands.
    """

    rtol: float = 1e-11
    atol: float = 1e-13
    options: tuple[str, ...] = ()

    def state_names(self, system: System) -> list[str]:
        """Names of the integrated state's components, in order."""
        return [s.name for s in (*system.q, *system.u_independent)]

    def initial_names(self, system: System) -> list[str]:
        """Names that must have an initial value: the state's, less the dependent coordinates
        (a part with another state starts from these: an attitude from the Euler angles)."""
        return [s.name for s in (*system.q, *system.u_independent) if s not in system.dependent]

    def initial_state(self, system: System, values: Mapping[str, float],
                      params: Mapping[str, float]) -> np.ndarray:
        """The state vector at t = 0 from validated initial and parameter values by name
        (dependent coordinates solved from the configuration constraints)."""
        values = system.complete_configuration(values, params)
        return np.array([values[name] for name in self.state_names(system)], dtype=float)

    def integrate(self, system: System, setup: Setup) -> Trajectory:
        """Integrate and return the trajectory with the system's series evaluated."""
        raise NotImplementedError


@dataclass(frozen=True)
class OdeIntegrator(Integrator):
    """The plain first-order ODE ẋ = (Φ u + Φ_t, M⁻¹ f) in x = (q, u).

    Parameters
    ----------
    solver
        ``"lsoda"`` (scipy ``odeint``, its loop in Fortran: several times faster than
        ``"dop853"``, ``solve_ivp``, on these small systems), ``"dop853"``, or ``"dop853-c"``,
        DOP853 compiled with the C right-hand side (:mod:`companion.numerics.integrate`), which
        needs ``backend="c"`` or ``"auto"``: under ``"auto"`` without a C compiler LSODA is
        the one fallback.
    rtol, atol
        Default tolerances (``None``: the solver's own of :data:`SOLVERS`).
    backend
        ``"python"``; ``"c"``: the same program compiled to C (:mod:`companion.numerics.
        c_rhs`; an error without a C compiler), faster from about ten coordinates on;
        ``"auto"``: C when a compiler is found, else Python.
    """

    solver: str = "lsoda"
    rtol: float | None = None
    atol: float | None = None
    backend: str = "python"

    def __post_init__(self):
        if self.solver not in SOLVERS:
            raise ValueError(f"unknown integrator {self.solver!r}; known: {', '.join(SOLVERS)}")
        if self.backend not in ("python", "c", "auto"):
            raise ValueError(f"backend must be 'python', 'c' or 'auto', got {self.backend!r}")
        if self.solver == "dop853-c" and self.backend == "python":
            raise ValueError("the integrator 'dop853-c' runs DOP853 compiled with a right-hand "
                             "side compiled to C: give backend='c' (or 'auto': C when a "
                             "compiler is found, else LSODA), or choose 'lsoda' or 'dop853'")
        rtol, atol = SOLVERS[self.solver]
        object.__setattr__(self, "rtol", rtol if self.rtol is None else self.rtol)
        object.__setattr__(self, "atol", atol if self.atol is None else self.atol)

    def rhs(self, system: System, p: Sequence[float] | Mapping[Any, Any] | None,
            method: str | None = None):
        """The right-hand side ``f(t, x) = ẋ`` in x = (q, u) that this part integrates, for
        ``p`` as :meth:`System.parameter_vector` takes them: the one place where the backend
        of :meth:`System.compiled`'s one program is chosen."""
        compiled, p = system.compiled(method), system.parameter_vector(p)
        if self.backend != "python":
            from companion.numerics.c_rhs import compiler

            if self.backend == "c" or compiler() is not None:
                return compiled.c_rhs(p)
        return compiled.rhs(p)

    def integrate(self, system: System, setup: Setup) -> Trajectory:
        guards = setup.guards
        x0 = self.initial_state(system, setup.initial, setup.params)
        guards.regular(setup.t[:1], x0[:, None], "at the start")
        f = self.rhs(system, setup.params, setup.method)
        guards.start(f, x0)
        # dop853-c needs a C f: under backend="auto" without a compiler, LSODA
        solver = compiled_or_lsoda(f) if self.solver == "dop853-c" else self.solver
        states = integrate(f, x0, setup.t, solver=solver, rtol=setup.rtol, atol=setup.atol).y
        guards.finite(setup.t, states)
        guards.regular(setup.t, states, "along the motion")
        traj = Trajectory(t=setup.t, states=states, names=self.state_names(system),
                          params=setup.params)
        traj.residuals.update(guards.residuals(f, traj.t, states))
        guards.evaluate(traj)
        return traj


def _choose(current: Integrator, integrator: Integrator | str | None,
            name: str) -> Integrator:
    """The part ``integrator`` names for the system ``name`` integrated by ``current``:
    ``current`` (None), ``current`` with another ODE solver (a solver's name), or itself."""
    if integrator is None:
        return current
    if isinstance(integrator, str):  # a solver name for the system's own part
        if integrator not in SOLVERS:
            raise ValueError(f"unknown integrator {integrator!r}; known: {', '.join(SOLVERS)}")
        if not hasattr(current, "solver"):
            raise ValueError(f"{name} is integrated by {type(current).__name__}, which has no "
                             f"choice of ODE solver: integrator={integrator!r} does not apply")
        rtol, atol = SOLVERS[integrator]
        changes = {"solver": integrator, "rtol": rtol, "atol": atol}
        if integrator == "dop853-c" and getattr(current, "backend", "") == "python":
            changes["backend"] = "c"  # asked for by name: DOP853 compiled with C
        return replace(current, **changes)
    if not isinstance(integrator, Integrator):
        raise TypeError(f"integrator must be an Integrator or a solver name, got {integrator!r}")
    return integrator


#: The :class:`Definition`'s attributes a :class:`System` reads through: its fields and these.
_READ_THROUGH = (*Definition.FIELDS, "u_independent", "psi", "Q_qdot", "parameter_symbols",
                 "parameter_table", "initial_table", "constraint_exprs")


#: The methods' own inputs, keywords of ``System`` beside the definition's fields (Kane's
#: bodies, the geometric methods' mechanism, how Boltzmann–Hamel eliminates Φ = Ψ⁻¹).
INPUTS = (*METHOD_INPUTS, "elimination")

#: The fields of an :class:`Evaluation`, each a part of a ``System`` of its own too.
EVALUATION = tuple(f.name for f in fields(Evaluation))

#: Keywords of ``System.variant`` that are parts, not fields of the definition (``System``
#: takes the evaluation's as ``evaluation=Evaluation(…)``, and a worked example's
#: ``citations`` come from its record).
PARTS = ("name", "title", "citations", "method", "integrator", "methods", "evaluation",
         *EVALUATION, *INPUTS)

#: What each part is, by the attribute that reads it (``own_methods`` is the keyword
#: ``methods``: the attribute ``methods`` lists the registered ones too).
_PART_DOCS = {
    **{k: f"the system's ``{k}`` (see :class:`System`)" for k in (
        "name", "title", "method", "integrator", "evaluation")},
    "citations": "a worked example's own equation numbers of its derivations' steps, by "
                 "method and step key",
    "own_methods": "the system's own derivation methods by name (keyword ``methods``)",
    **{k: f"the evaluation's ``{k}`` (:class:`Evaluation`)" for k in EVALUATION},
    **METHOD_INPUTS,
    "elimination": "``\"symbolic\"`` (Φ = Ψ⁻¹ formed symbolically, every method) or "
                   "``\"numeric\"``: the Boltzmann–Hamel equations with Φ and the solve for "
                   "u̇ left to the compiled right-hand side (:mod:`companion.mechanics."
                   "numeric_elimination`), T read from the bodies of ``mechanics_model``",
}


def _refuse(name: str, part: bool = True) -> None:
    keyword = "methods" if name in ("own_methods", "methods") else name
    what = "parts are fixed when it is built" if part else "definition is frozen"
    raise AttributeError(f"a system's {what} (setting {name}): make a variant, "
                         f"system.variant({keyword}=…)")


def _attribute(name: str, what: str | None) -> property:
    """A read-only attribute of a :class:`System`: one of its parts (documented by ``what``),
    set when it is built, or else its definition's ``name`` (another is a
    :meth:`System.variant`)."""
    def read(self) -> Any:
        if what is None:
            return getattr(self._definition, name)
        value = self._parts[name]
        return MappingProxyType(value) if isinstance(value, dict) else value  # stored: pickles

    own = vars(Definition).get(name)  # a derived attribute's own docstring, else the field's
    doc = own.__doc__ if isinstance(own, (property, cached_property)) else (
        f"The definition's ``{name}`` (see :class:`Definition`).")
    return property(read, lambda self, value: _refuse(name, what is not None),
                    doc=doc if what is None else f"{what[0].upper()}{what[1:]}.")


def _definition(definition: Any, fields: Mapping[str, Any]) -> Definition:
    """``definition``, or one from ``System``'s keywords ``fields``; a ``TypeError`` naming
    the keywords it does not know (with the nearest known ones), or both given."""
    known = Definition.FIELDS
    unknown = sorted(set(fields) - set(known))
    if unknown:
        def hint(k: str) -> str | None:
            if k in EVALUATION:
                return f"{k}: give evaluation=Evaluation({k}=…)"
            if k == "citations":
                return ("citations: a worked example's citations are on its record "
                        "(WorkedExample), or system.variant(citations=…)")
            if k in ("source", "reconstruction"):
                return f"{k}: a worked example's {k} is on its record (WorkedExample)"
            near = difflib.get_close_matches(k, [*known, *PARTS], n=1)
            return f"{k}: did you mean {near[0]}?" if near else None

        hints = "; ".join(h for h in map(hint, unknown) if h)
        parts = [k for k in PARTS if k not in (*EVALUATION, "citations")]
        raise TypeError(f"System got unknown keyword(s) {', '.join(unknown)}"
                        + (f" ({hints})" if hints else "")
                        + f". Parts: {', '.join(parts)}; fields of the definition: "
                        f"{', '.join(known)}")
    if definition is None:
        return Definition(**fields)
    if fields:
        raise TypeError(f"give the definition once: a Definition, or its fields "
                        f"({', '.join(sorted(fields))}), not both (for a definition with "
                        "other fields: System(definition.replace(...)) or system.variant(...))")
    if not isinstance(definition, Definition):
        raise TypeError(f"definition must be a Definition, got {type(definition).__name__} "
                        "(or give its fields as keywords)")
    return definition



def _without_loads(build: Callable) -> Any:
    """The mechanics model ``build()`` with its bodies and no loads (see :meth:`System.variant`)."""
    return replace(build(), loads=[])

class System:
    """A system's :class:`Definition` composed with a derivation method and an integrator: the
    numbers of the book's equations (simulation, linearization, the checks along a motion).

    Either pass a :class:`Definition`, or its fields as keywords (``System(name=…, q=…, T=…)``
    builds one): the definition's attributes (``q``, ``u``, ``T``, ``Q``, ``parameters`` …)
    read through, and a variant is :meth:`variant`.

    Parameters
    ----------
    definition
        The system as the book defines it (frozen).
    name, title, method, integrator
        The system's name, display title (default: the name), default derivation method and
        :class:`Integrator` part (default: :class:`OdeIntegrator`).
    methods
        The system's own methods by name (used before the registered ones); each is called
        with the system, not only its definition, so it may build on another derivation.
    evaluation
        What each simulation evaluates along the motion and its default samples, e.g.
        ``Evaluation(invariants={"energy": T + V}, t_final=10.0)``; each field reads through
        (``system.series``), and ``variant(series=…)`` changes one.  A worked example's
        ``citations`` come from its record: ``variant(citations=…)``.
    **fields
        The methods' own inputs (:data:`INPUTS`: ``mechanics_model``, Kane's bodies;
        ``geometry``, a mechanism or an embedding; ``elimination``), and instead of
        ``definition`` the keyword arguments of :class:`Definition`.

    Raises
    ------
    ValueError
        The definition's (see :class:`Definition`), no kinetic energy in it (T or T_qdot;
        only ``elimination="numeric"`` reads it from a ``mechanics_model``), an initial value
        missing for the integrator's state, or one the motion never reads.
    TypeError
        A keyword that is neither one of these nor a field of :class:`Definition`.
    """

    def __init__(
        self,
        definition: Definition | None = None,
        *,
        name: str = "system",
        title: str = "",
        method: str = "boltzmann_hamel",
        integrator: Integrator | None = None,
        methods: Mapping[str, Method] | None = None,
        evaluation: Evaluation | None = None,
        **fields: Any,
    ):
        inputs = {k: fields.pop(k) for k in INPUTS if k in fields}
        self._definition = _definition(definition, fields)
        self._parts: dict[str, Any] = {"integrator": OdeIntegrator()}
        self._set_parts(name=name, title=title, method=method, integrator=integrator,
                        methods=methods, evaluation=evaluation, **inputs)
        self._derivations: dict[str, Derivation] = {}
        self._forget_compiled(self.__dict__)

    def _set_parts(self, *, name: str, title: str, method: str,
                   integrator: Integrator | str | None, methods: Mapping[str, Method] | None,
                   evaluation: Evaluation | None,
                   citations: Mapping[str, Mapping] | None = None,
                   mechanics_model: Callable | None = None, geometry: Any = None,
                   elimination: str = "symbolic") -> None:
        """Validate the parts and set them (here and in :meth:`variant` only)."""
        if not isinstance(evaluation, Evaluation | None):
            raise TypeError(f"evaluation must be an Evaluation(invariants=…, series=…, "
                            f"t_final=…), got {type(evaluation).__name__}")
        evaluation = (evaluation or Evaluation()).checked(self.definition)
        if elimination not in ("symbolic", "numeric"):
            raise ValueError(f"elimination must be 'symbolic' or 'numeric', got {elimination!r}")
        if mechanics_model is not None and not callable(mechanics_model):
            raise TypeError("mechanics_model must be a function returning the MechanicsModel "
                            "(built on first use by Kane's method), e.g. build_model, not "
                            f"build_model(); got {type(mechanics_model).__name__}")
        d = self.definition
        if d.given["T"] is None and d.T_qdot is None and not (
                elimination == "numeric" and mechanics_model is not None):
            raise ValueError("give the kinetic energy: T (in the u's) or T_qdot (in q̇) (with "
                             "elimination='numeric', a mechanics_model instead)")
        part = _choose(self._parts["integrator"], integrator, name)
        self._parts = {"name": name, "title": title or name, "evaluation": evaluation,
                       **vars(evaluation), "own_methods": dict(methods or {}),
                       "mechanics_model": mechanics_model, "geometry": geometry,
                       "elimination": elimination, "integrator": part}
        if method not in self.methods:
            raise self._unknown_method(method)
        for key, numbers in (citations or {}).items():
            if key not in self.methods or not isinstance(numbers, Mapping):
                raise TypeError("citations map a method to its steps' numbers, e.g. {'boltzmann_"
                                f"hamel': {{'gyroscopic': '(4.121)'}}}}; got {key!r}: {numbers!r}")
        self._parts.update(method=method, citations={k: dict(v) for k, v in
                                                     (citations or {}).items()})
        self._check_initial()

    @property
    def definition(self) -> Definition:
        """The system as the book defines it (frozen; a system with another one is a
        :meth:`variant` or a new ``System``)."""
        return self._definition

    @definition.setter
    def definition(self, value: Any) -> None:
        raise AttributeError("a system's definition is frozen: make a variant, "
                             "system.variant(...), or a new System(definition.replace(...))")

    def _forget_compiled(self, state: dict[str, Any]) -> None:
        """Drop from ``state`` what is computed from the derivations: compiled equations,
        every class's cached properties (rebuilt on first use)."""
        state["_compiled"], state["_checks"] = {}, {}
        for klass in type(self).__mro__:
            for name, value in vars(klass).items():
                if isinstance(value, cached_property):
                    state.pop(name, None)

    def __getstate__(self) -> dict[str, Any]:
        """The definition, the parts and the derivations: generated code does not pickle, so
        a system pickled after a simulation compiles again on its first use."""
        state = self.__dict__.copy()
        self._forget_compiled(state)
        return state

    def __repr__(self) -> str:
        return f"<System {self.name}: {self.title}>"

    def variant(self, **changes: Any) -> System:
        """A copy of this system with other parts (``name``, ``method``, ``integrator``, more
        ``series``, ``t_final``, another ``mechanics_model`` …) or other fields of its
        definition (``initial`` values, or ``Q_q=…, parameters=[…, c]``: the book's example
        plus a damper, its parts and Kane's bodies kept; :meth:`Definition.replace`); a
        ``TypeError`` for an unknown keyword.  With new forces the invariants become series
        (a damper's work changes the energy) unless ``invariants=`` is given again.

        The derivations already made are kept unless the equations (a field other than
        ``initial``), the methods, their inputs or ``citations`` change."""
        parts = {k: changes.pop(k) for k in PARTS if k in changes}
        unknown = sorted(set(changes) - set(Definition.FIELDS))
        if unknown:
            near = {k: difflib.get_close_matches(k, [*PARTS, *Definition.FIELDS], n=1)
                    for k in unknown}
            hints = "; ".join(f"{k}: did you mean {n[0]}?" for k, n in near.items() if n)
            raise TypeError(f"unknown keyword(s) {', '.join(unknown)} of variant"
                            + (f" ({hints})" if hints else "") + "; it takes "
                            f"the parts {', '.join(PARTS)} and the fields of the definition "
                            f"{', '.join(Definition.FIELDS)}")
        if {"Q", "Q_q"} & set(changes) and self.mechanics_model is not None \
                and "mechanics_model" not in parts:
            # Kane's check (4.137) made the model's loads equal the old forces: with new ones
            # its bodies stay and the loads go, so Kane reads the new forces as every method does
            parts["mechanics_model"] = partial(_without_loads, self.mechanics_model)
        if {"Q", "Q_q"} & set(changes) and "invariants" not in parts and self.invariants:
            # new forces may do work: what was conserved is still plotted, no longer claimed
            parts["series"] = {**(parts.get("series", self.series) or {}), **self.invariants}
            parts["invariants"] = {}
        new = copy.copy(self)
        new._definition = self._definition.replace(**changes)
        current = {**{k: v for k, v in self._parts.items()
                      if k not in ("own_methods", *EVALUATION)},
                   "methods": self.own_methods, "integrator": None}
        evaluation = parts.pop("evaluation", self.evaluation)
        parts["evaluation"] = replace(evaluation, **{k: parts.pop(k) for k in EVALUATION
                                                     if k in parts})
        new._set_parts(**{**current, **parts})
        kept = {} if {"methods", "citations", *INPUTS} & set(parts) or set(changes) - {
            "initial"} else dict(self._derivations)
        new._forget_compiled(new.__dict__)
        new._derivations = kept
        return new

    # ----------------------------------------------------------------- validation
    def _check_initial(self) -> None:
        """Every value the integrator's state needs has an initial value, and every initial
        value is read."""
        needed = self.integrator.initial_names(self)
        missing = [n for n in needed if n not in {p.name for p in self.initial}]
        if missing:
            raise ValueError(f"no initial value for {', '.join(missing)} in {self.name}: add "
                             f"initial=[…, Parameter({missing[0]}, default, low, high)]")
        read = {*needed, *(s.name for s in self.dependent)}  # a dependent q: Newton's start
        unread = [p.name for p in self.initial if p.name not in read]
        if unread:
            raise ValueError(f"initial of {self.name} holds {', '.join(unread)}, which the "
                             f"motion never reads (its start values are those of "
                             f"{', '.join(needed)}): remove it, or make it a parameter")

    def complete_configuration(self, values: Mapping[str, float],
                               params: Mapping[Any, Any] | None = None,
                               t: float = 0.0) -> dict[str, float]:
        """``values`` with the dependent coordinates solved from f(q, t) = 0, ``params`` as
        :meth:`parameter_vector` takes them."""
        return complete_configuration(self, values, self.parameter_vector(params), t)

    def parameter_values(self, params: Mapping[Any, Any] | None = None) -> dict[str, float]:
        """Validated parameter values by name (keys given as names or Symbols), defaults
        filled in."""
        return self.parameter_table.values(params)

    def parameter_vector(self, params: Mapping[Any, Any] | Sequence[float] | None = None
                         ) -> list[float]:
        """Validated parameter values in the order of :attr:`parameter_symbols` (the ``p`` of
        :meth:`rhs`) from a mapping by name or Symbol (defaults filled in), ``None`` or a
        sequence of every value in that order."""
        if params is not None and not isinstance(params, Mapping):  # every value, in order
            names = self.parameter_table.names
            order = ", ".join(names) or "none"
            sequence = not isinstance(params, str) and isinstance(params, Iterable)
            values = list(params) if sequence else None
            if sequence and len(values) != len(names):
                raise ValueError(f"p holds {len(values)} value(s) but {self.name} has "
                                 f"{len(names)} parameters, in this order: {order} "
                                 "(or give a mapping by name or Symbol)")
            try:
                list(map(float, values))  # not a sequence (None) or not numbers: refused alike
            except (TypeError, ValueError) as exc:
                raise TypeError(f"p must be the parameter values of {self.name} in the order "
                                f"{order}, or a mapping by name; got {params!r}") from exc
            params = dict(zip(names, values, strict=True))
        return self.parameter_table.vector(self.parameter_values(params))

    def initial_values(self, initial: Mapping[Any, Any] | None = None) -> dict[str, float]:
        """Validated initial conditions by name (keys given as names or Symbols), defaults
        filled in."""
        return self.initial_table.values(initial)

    # ----------------------------------------------------------------- derivations
    @property
    def methods(self) -> list[str]:
        """Names of every method known to this system (not all apply: see
        :meth:`applicable_methods`)."""
        return [*self.own_methods, *(m for m in METHODS if m not in self.own_methods)]

    @methods.setter
    def methods(self, value: Any) -> None:
        _refuse("methods")

    def applicable_methods(self) -> list[str]:
        """The methods that apply to this system (each derived once, then cached)."""
        return applicable(self, self.methods)

    def derive(self, method: str | None = None) -> Derivation:
        """The derivation by ``method`` (default: the system's ``method``), cached.

        Raises
        ------
        ValueError
            Unknown method name.
        NotImplementedError
            The method does not apply to this system (the message says why).
        """
        method = self.method if method is None else method
        if method not in self._derivations:
            if method not in self.methods:
                raise self._unknown_method(method)
            if method != "kane" and "kane" in METHODS and self.mechanics_model is not None \
                    and self.mechanics_model().loads:
                # Kane's method checks the model's loads against the System's forces (4.137):
                # no other method may move without them, or with other ones.
                with contextlib.suppress(NotImplementedError):
                    self.derive("kane")
            if self.elimination == "numeric" and method not in self.own_methods:
                if method != "boltzmann_hamel":
                    raise NotImplementedError(
                        f"{self.name} leaves Φ = Ψ⁻¹ to the numbers (elimination='numeric'): "
                        f"only the Boltzmann–Hamel equations are formed that way, not {method}")
                d = boltzmann_hamel_numeric(self._given, list(self.holonomic))
            elif method in self.own_methods:  # the system's own: may build on other derivations
                d = self.own_methods[method](self)
            else:  # a registered method: the definition and its inputs
                d = METHODS[method](self._given)
            numbers = self.citations.get(method)
            self._derivations[method] = d if numbers is None else d.cited(numbers)
        return self._derivations[method]

    def _unknown_method(self, method: Any) -> ValueError:
        """The error for a method name this system does not know, with the nearest names."""
        near = ([m for m in self.methods if m.startswith(str(method))]
                or difflib.get_close_matches(str(method), self.methods, n=2))
        return ValueError(f"unknown method {method!r}; known: {', '.join(self.methods)}"
                          + (f"; did you mean {' or '.join(map(repr, near))}?" if near else ""))

    @property
    def _given(self) -> Given:
        """The definition with the methods' own inputs, as a registered method reads it."""
        return Given(self.definition, self.mechanics_model, self.geometry)

    def compiled(self, method: str | None = None) -> CompiledEOM:
        """The derivation compiled for numbers in the state (q, u) (cached; see
        :func:`~companion.mechanics.agreement.compiled_form`)."""
        method = self.method if method is None else method
        if method not in self._compiled:
            self._compiled[method] = compiled_form(self, method)
        return self._compiled[method]

    # ----------------------------------------------------------------- simulation
    def state_names(self) -> list[str]:
        """Names of the integrated state (the integrator's layout)."""
        return self.integrator.state_names(self)

    def initial_state(self, values: Mapping[str, float],
                      params: Mapping[str, float] | None = None) -> np.ndarray:
        """The integrator's state at t = 0 from initial values by name or Symbol (and
        parameter values)."""
        values = self.initial_table.by_name(values)
        return self.integrator.initial_state(self, values, self.parameter_values(params))

    def rhs(self, p: Sequence[float] | Mapping[Any, Any] | None = None,
            method: str | None = None):
        """The right-hand side ``f(t, x) = ẋ`` in x = (q, u) that :meth:`simulate` integrates
        with the plain ODE (another part: the default :class:`OdeIntegrator`'s), for ``p`` as
        :meth:`parameter_vector` takes them, by ``method`` (default: the system's).  Methods
        whose speeds are not the independent u's (Lagrange with multipliers) are mapped to the
        same state through the kinematics (4.134).  A ``ValueError`` for a ``p`` of the wrong
        length or invalid values."""
        part = self.integrator if isinstance(self.integrator, OdeIntegrator) else OdeIntegrator()
        f = part.rhs(self, p, method)

        def rhs(t: float, x: Any) -> np.ndarray:  # a list or tuple as well as an array
            return f(t, np.asarray(x, dtype=float))

        return rhs

    def linearize(self, nominal: Mapping[Any, Any] | None = None,
                  params: Mapping[Any, Any] | None = None, **options: Any) -> Linearization:
        """δẋ = A δx + B τ about a steady motion: :func:`companion.linearize.
        linearize` of this system (``cyclic``, ``method``, ``tolerance`` as there)."""
        return linearize(self, nominal, params, **options)

    def simulate(
        self,
        t_final: float | None = None,
        params: Mapping[Any, Any] | None = None,
        initial: Mapping[Any, Any] | None = None,
        *,
        n_points: int | None = None,
        rtol: float | None = None,
        atol: float | None = None,
        method: str | None = None,
        integrator: Integrator | str | None = None,
        **options: Any,
    ) -> Trajectory:
        """Integrate the derived equations and evaluate invariants, residuals and series.

        Parameters
        ----------
        t_final, n_points
            Simulated time and number of samples (default: the system's; at most
            :data:`MAX_POINTS`).
        params, initial
            Values by name or Symbol, ``{"l": 2.0}`` or ``{l: 2.0}`` (defaults filled in).
        rtol, atol, method, integrator
            Default: the integrator's tolerances, the system's method and part;
            ``integrator`` may name an ODE solver for the plain ODE (``"lsoda"``,
            ``"dop853"``, ``"dop853-c"``).
        **options
            Options of the integrator (e.g. ``link_held`` of the disk–link's modes).

        Raises
        ------
        ValueError
            Unknown or invalid parameter/initial values, tolerances or options; a motion that
            leaves the floating-point range; an integration that fails with values a million
            times beyond their slider ranges (the values, not the configuration, are the
            cause).
        TypeError
            ``params`` or ``initial`` not a mapping.
        SingularConfigurationError
            The motion reaches a configuration where the equations cannot be evaluated.
        """
        return simulate_model(self, _choose(self.integrator, integrator, self.name),
                              method=self.method if method is None else method,
                              t_final=t_final, n_points=n_points, params=params,
                              initial=initial, rtol=rtol, atol=atol, options=options)

    def guards(self, part: Integrator, method: str, p: list[float],
               params: Mapping[str, float]) -> Guards:
        """The checks of one simulation by ``part`` at the parameter values ``p`` (``params``
        by name), built before the run (:func:`~companion.numerics.simulate.system_guards`)."""
        return system_guards(self, part.state_names(self), method, p, params,
                             lambda traj: self._evaluate(traj), self._checks)

    @cached_property
    def _evaluate(self) -> Callable[[Trajectory], None]:
        """The evaluation compiled for this system (:meth:`Evaluation.compile`)."""
        return self.evaluation.compile(self)


# The definition's attributes, read through: a System is used where a Definition is.
for _field in _READ_THROUGH:
    setattr(System, _field, _attribute(_field, None))
for _field, _what in _PART_DOCS.items():
    setattr(System, _field, _attribute(_field, _what))
del _field, _what


__all__ = [
    "MAX_POINTS", "METHODS", "Definition", "Evaluation", "Integrator", "Linearization", "Observer",
    "OdeIntegrator", "Parameter", "ParameterTable", "SOLVERS", "Setup",
    "SingularConfigurationError", "System", "assumption_clash", "check_tolerance", "key_name",
    "register_method", "sample_times",
]
