"""The general dynamical equation (4.133)/(4.142), Kane's form, with sympy.physics.mechanics.

For particles with velocities v_i = Σ_j γ_ij u_j + γ_it (4.125) and rigid bodies whose mass
centres and frames move with v_i and ω_i = Σ_j β_ij u_j + β_it (4.135)–(4.136),

    Σ_i [m_i v̇_i · γ_ij + (I_i · ω̇_i + ω_i × I_i · ω_i) · β_ij] = Q_j      (j = 1..n−m)

with Q_j = Σ_i (F_i · γ_ij + M_i · β_ij) (4.137); the left side is −Q*_j, the generalized
inertia force (4.130).  A rigid body's reference point P_i is its mass centre unless the model
names another (the knife edge, a pivot); then the terms of ρ_ci, from P_i to the mass centre,
enter as in (4.139)/(4.140):

    Σ_i [m_i (v̇_i + ρ̈_ci)·γ_ij + (I_i·ω̇_i + ω_i × I_i·ω_i + m_i ρ_ci × v̇_i)·β_ij] = Q_j

with I_i about P_i.  For a body the model gives a ``momentum_frames`` entry, the alternate form
(4.144)–(4.146) is shown too: ṗ_i and Ḣ_i from components in a frame not fixed in the body.
Only the n − m independent u's appear: the constraints are built into the
velocities through q̇ = Φ u + Φ_t (4.134), so no constraint force and no unconstrained
kinetic energy is ever needed.

Name clash: γ_ij here are *vectors* (partial velocities) and β_ij partial angular
velocities; they have nothing to do with the Hamel coefficients γ^j_rl of §4.3.
"""

from __future__ import annotations

import cmath
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import sympy as sp

from companion.mechanics.boltzmann_hamel import dot_symbol
from companion.mechanics.derivation import Derivation, LazyStep, Step
from companion.mechanics.lagrange import kinematics_of
from companion.mechanics.methods import Definition, register_method
from companion.mechanics.quadratic import QuadraticForm, linear_coefficients
from companion.mechanics.quasi_velocities import (
    expand_terms,
    expanded_sum,
    polynomial_terms,
    tidy,
    tidy_sum_of_products,
)

if TYPE_CHECKING:
    import sympy.physics.mechanics as me

    from companion.mechanics.model import MechanicsModel


class _Entry(NamedTuple):
    """A measure number and its expanded terms (``None`` when it holds a fraction)."""

    expr: sp.Expr
    terms: list[sp.Expr] | None


class _Symbols:
    """The dictionary between the model's dynamicsymbols and the system's plain Symbols."""

    def __init__(self, system: Definition, model: MechanicsModel):
        import sympy.physics.mechanics as me  # slow to import: on first use
        self.t = me.dynamicsymbols._t
        self.q = list(model.q)
        if len(self.q) != len(system.q):
            raise ValueError(f"the mechanics model has {len(self.q)} "
                             f"coordinates, the system {len(system.q)}")
        u_plain = system.u_independent
        self.u = [me.dynamicsymbols(s.name) for s in u_plain]
        self.udot = [dot_symbol(s) for s in u_plain]
        to_dyn = {**dict(zip(system.q, self.q, strict=True)),
                  **dict(zip(u_plain, self.u, strict=True))}
        if system.t is not None:
            to_dyn[system.t] = self.t
        phi, phi_t = kinematics_of(system)
        #: q̇ = Φ u + Φ_t in the system's Symbols (4.134), each row as the matrix product and
        #: sum leave it (``Matrix.__mul__`` first asks whether every entry is finite)
        self.qdot = sp.Matrix([sp.Add(*[phi[i, j] * s for j, s in enumerate(u_plain)
                                        if phi[i, j] != 0]) + phi_t[i]
                               for i in range(len(system.q))])
        qdot = self.qdot.xreplace(to_dyn)
        #: q̇ → Φ u + Φ_t, in dynamicsymbols (4.134); Derivative(q, t) is what q.diff(t) returns
        #: for an undefined function, built without going through diff
        self.kinematics = {sp.Derivative(qi, self.t): e for qi, e in zip(self.q, qdot, strict=True)}
        self._plain = {**{v: k_ for k_, v in to_dyn.items()}, **{
            sp.Derivative(ui, self.t): s for ui, s in zip(self.u, self.udot, strict=True)}}
        self._dyn = {s: d for d, s in self._plain.items()}
        #: d/dt of each plain Symbol on the motion: q̇ = Φ u + Φ_t, u̇, and 1 for the time
        self._rate_of = {**dict(zip(system.q, self.qdot, strict=True)),
                         **dict(zip(u_plain, self.udot, strict=True)),
                         self._plain.get(self.t, self.t): sp.S.One}
        self._cosines: dict[tuple, _Entry] = {}
        # Results by their input, once each: the bodies of a chain share components (link j's
        # ω_j l_j along its own frame is in the velocity of every body below it).
        self._on_motion, self._entry = cache(self._on_motion), cache(self._entry)
        self._rates = cache(self._rates)
        #: ω_F of a frame F in the inertial frame, resolved in F
        self._omega = cache(lambda F: self.resolved(F.ang_vel_in(model.frame), F))
        #: ``a.dcm(b)`` (``ReferenceFrame.dcm`` multiplies along the path of orientations
        #: each call)
        self.dcm = cache(me.ReferenceFrame.dcm)

    def on_motion(self, vec: me.Vector) -> me.Vector:
        """Replace q̇ by the kinematical equations and tidy each measure number.

        ``xreplace``, not ``subs``: on a velocity or its first derivative the q̇'s appear as
        they are, and ``subs`` costs several times more.
        """
        return _vector({F: [self._on_motion(e) for e in m] for m, F in vec.args})

    def _on_motion(self, expr: sp.Expr) -> sp.Expr:
        return tidy(expr.xreplace(self.kinematics))

    def dt(self, vec: me.Vector) -> me.Vector:
        """``vec.dt(N)`` in the inertial frame N, on the motion: in each frame F of its
        components, the measure numbers differentiated plus ω_F × them, with ω_F resolved in
        F once per frame (``Vector.dt`` resolves it with three dot products per vector)."""
        return _vector({F: self._rates(F, m) for m, F in vec.args})

    def _rates(self, F: me.ReferenceFrame, m: sp.Matrix) -> list[sp.Expr]:
        return [self._on_motion(self._derivative(e) + c)
                for e, c in zip(m, _cross(self._omega(F), m), strict=True)]

    def _derivative(self, expr: sp.Expr) -> sp.Expr:
        """``expr.diff(t)`` with q̇ = Φ u + Φ_t put in, for ``expr`` on the motion: the chain
        rule over the plain Symbols it holds (sympy's ``diff`` by t builds and then replaces a
        ``Derivative`` for every q̇); the time's rate is 1, so a function of t that the model
        prescribes is differentiated by ``diff``."""
        e = expr.xreplace(self._plain)
        return sp.Add(*[e.diff(s) * self._rate_of[s]
                        for s in e.free_symbols & self._rate_of.keys()]).xreplace(self._dyn)

    def partials(self, vec: me.Vector) -> list[me.Vector]:
        """``partial_velocity([vec], u, frame)[0]``: the coefficients of each u read per frame
        with ``linear_eq_to_matrix`` as there, each vector built once (``partial_velocity``
        adds unit vectors times one coefficient at a time)."""
        columns = [(sp.linear_eq_to_matrix(m, self.u)[0].T.tolist(), F) for m, F in vec.args]
        return [_vector({F: c[j] for c, F in columns}) for j in range(len(self.u))]

    def resolved(self, vec: me.Vector, frame: me.ReferenceFrame) -> list[sp.Expr]:
        """``vec.to_matrix(frame)`` as a list, from one direction-cosine matrix per pair of
        frames (``to_matrix`` takes three dot products, each multiplying 3×3 matrices)."""
        out = [sp.S.Zero] * 3
        for m, F in vec.args:
            if F != frame:
                m = self.dcm(frame, F) * m
            out = [a + b for a, b in zip(out, m, strict=True)]
        return out

    def inertia_dot(self, dyadic: me.Dyadic, vec: me.Vector) -> me.Vector:
        """``dyadic.dot(vec)``: Σ c (b·vec) a over the dyadic's terms c a⊗b of unit vectors,
        with ``vec`` resolved once per frame of the b's (``Dyadic.dot`` takes a dot product,
        direction-cosine products included, per term)."""
        parts: dict[me.ReferenceFrame, list[sp.Expr]] = {}
        along: dict[me.ReferenceFrame, list[sp.Expr]] = {}
        for c, a, b in dyadic.args:
            (ea, fa), (eb, fb) = a.args[0], b.args[0]
            if fb not in along:
                along[fb] = self.resolved(vec, fb)
            part = parts.setdefault(fa, [sp.S.Zero] * 3)
            part[list(ea).index(1)] += c * along[fb][list(eb).index(1)]
        return _vector(parts)

    def prepared(self, vec: me.Vector) -> list[tuple[me.ReferenceFrame, list[_Entry]]]:
        """``vec`` per frame, each measure number in plain Symbols with its expanded terms
        (:func:`polynomial_terms`), ready for :meth:`tidy_dot`: a body's inertia force is
        expanded once here, not again in its dot product with every γ_ij."""
        return [(frame, [self._entry(x) for x in m]) for m, frame in vec.args]

    def _entry(self, x: sp.Expr) -> _Entry:
        plain = x.xreplace(self._plain)
        return _Entry(plain, polynomial_terms(plain))

    def tidy_dot(self, a: list, b: list) -> sp.Expr:
        """``tidy(a · b)`` for vectors given by :meth:`prepared`, in plain Symbols.

        As ``Vector.dot``, Σ b_F^T C^{FG} a_G over pairs of frames, but over nonzero entries
        only (``Vector.dot`` multiplies 3×3 symbolic direction-cosine matrices, and a chain's
        vectors are sparse), and with the products distributed from expanded factors
        (:func:`tidy_sum_of_products`) rather than expanded afterwards.
        """
        products = []
        for fa, ma in a:
            for fb, mb in b:
                pairs = [(r, c) for r in range(3) if mb[r].expr != 0
                         for c in range(3) if ma[c].expr != 0]
                products += [(mb[r], cos, ma[c]) for r, c in pairs
                             if (cos := self._cosine(fb, r, fa, c)).expr != 0]
        if any(e.terms is None for p in products for e in p):  # a fraction: tidy cancels
            return tidy(sp.Add(*[sp.Mul(*(e.expr for e in p)) for p in products]))
        return tidy_sum_of_products([[e.terms for e in p] for p in products])

    def _cosine(self, fb: me.ReferenceFrame, r: int, fa: me.ReferenceFrame, c: int) -> _Entry:
        """b_r · a_c, entry (r, c) of ``fb.dcm(fa)``, prepared on first use (a pair of frames
        in either order, and only the entries a product needs)."""
        key = (fb, r, fa, c) if (fb.name, r) <= (fa.name, c) else (fa, c, fb, r)
        if key not in self._cosines:
            self._cosines[key] = self._entry(self.dcm(key[0], key[2])[key[1], key[3]])
        return self._cosines[key]

    def plain(self, obj):
        """Any expression or vector with dynamicsymbols, or a list of them, → the system's
        plain Symbols."""
        import sympy.physics.mechanics as me  # slow to import: on first use
        if isinstance(obj, list):
            return [self.plain(o) for o in obj]
        if isinstance(obj, me.Vector):
            return obj.applyfunc(lambda e: e.xreplace(self._plain))
        return sp.sympify(obj).xreplace(self._plain)


def _cross(a: Sequence[sp.Expr], b: Sequence[sp.Expr]) -> list[sp.Expr]:
    """a × b of measure numbers in one frame (as ``Matrix.cross``, without building one); a
    product with a zero factor is zero without asking sympy whether the other is finite."""
    def times(x: sp.Expr, y: sp.Expr) -> sp.Expr:
        return sp.S.Zero if x == 0 or y == 0 else x * y
    return [times(a[1], b[2]) - times(a[2], b[1]), times(a[2], b[0]) - times(a[0], b[2]),
            times(a[0], b[1]) - times(a[1], b[0])]


def _vector(parts: dict[me.ReferenceFrame, Sequence[sp.Expr]]) -> me.Vector:
    """The vector of the measure numbers ``parts[F]`` in each frame F (zero ones dropped)."""
    import sympy.physics.mechanics as me  # slow to import: on first use
    return me.Vector({F: sp.ImmutableMatrix(m) for F, m in parts.items() if any(e != 0 for e in m)})


@dataclass
class _Body:
    """One particle or rigid body on the motion, about its reference point P_i."""

    body: me.Particle | me.RigidBody
    point: me.Point
    v: me.Vector  # velocity of P_i
    w: me.Vector | None  # angular velocity (None for a particle)
    rho: me.Vector  # ρ_ci, from P_i to the mass centre (fixed in the body)
    inertia: me.Dyadic | None  # about P_i

    @property
    def label(self) -> str:
        return self.body.name.replace("_", " ")


def _bodies(model: MechanicsModel, sym: _Symbols) -> list[_Body]:
    """Velocity, angular velocity, ρ_c and inertia about the reference point, per body."""
    import sympy.physics.mechanics as me  # slow to import: on first use
    N = model.frame
    names = {b.name for b in model.bodies}
    unknown = sorted(set(model.reference_points) - names)
    if unknown:
        raise ValueError(f"reference_points names unknown bodies {unknown}; bodies: "
                         f"{sorted(names)}")
    out = []
    for body in model.bodies:
        if isinstance(body, me.RigidBody):
            point = model.reference_points.get(body.name, body.masscenter)
            rho, inertia = me.Vector(0), body.central_inertia
            if point is not body.masscenter:  # parallel axes: the inertia about P_i
                rho = body.masscenter.pos_from(point)
                inertia += me.inertia_of_point_mass(body.mass, rho, body.frame)
            out.append(_Body(body, point, sym.on_motion(point.vel(N)),
                             sym.on_motion(body.frame.ang_vel_in(N)), rho, inertia))
        elif isinstance(body, me.Particle):
            out.append(_Body(body, body.point, sym.on_motion(body.point.vel(N)), None,
                             me.Vector(0), None))
        else:
            raise ValueError(f"bodies must be Particle or RigidBody objects, got {body!r}")
    return out


def _frames_named(model: MechanicsModel, vectors) -> str:
    """'A (rod frame), N (inertial)': the frames whose unit vectors the components use."""
    used = sorted({frame.name for v in vectors for _, frame in v.args})
    if not used:
        return "every coefficient is zero"
    named = [f"{f} ({model.frames[f]})" if f in model.frames else f"{f}" for f in used]
    return "components along the unit vectors of frame " + ", ".join(named)


def _per_body(letter: str, bodies: list[_Body], rows, sym: _Symbols) -> list[str]:
    """One LaTeX line per body: its name and its labelled coefficients."""
    return [rf"\text{{{b.label}: }}" + r",\ ".join(
        rf"{letter}_{{{i}{j}}} = {sp.latex(sym.plain(g))}" for j, g in enumerate(row, start=1))
        for i, (b, row) in enumerate(zip(bodies, rows, strict=True), start=1)]


def _alternate_form(b: _Body, frame: me.ReferenceFrame, N: me.ReferenceFrame,
                    sym: _Symbols, force: me.Vector, moment: me.Vector):
    """ṗ and Ḣ of one body from their components in ``frame`` (4.144)–(4.146).

    Returns the LaTeX lines shown to the reader and the residuals ṗ − m(v̇ + ρ̈_c) and
    Ḣ + m ρ_c × v̇ − (moment of (4.140)), expressed in ``frame`` (zero on the motion).
    """
    omega_f = sym.on_motion(frame.ang_vel_in(N))
    p = sym.on_motion(b.body.mass * (b.v + b.w.cross(b.rho))).express(frame).applyfunc(tidy)
    H = sym.on_motion(b.inertia.dot(b.w)).express(frame).applyfunc(tidy)
    p_dot = sym.on_motion(p.dt(frame) + omega_f.cross(p)).express(frame).applyfunc(tidy)
    H_dot = sym.on_motion(H.dt(frame) + omega_f.cross(H)).express(frame).applyfunc(tidy)
    a = sym.on_motion(b.v.dt(N))
    residual = [sym.on_motion((p_dot - force).express(frame)),
                sym.on_motion((H_dot + b.body.mass * b.rho.cross(a) - moment).express(frame))]
    f = frame.name
    lines = [rf"\text{{{b.label}, in {f}: }} p = {sp.latex(sym.plain(p))},\ "
             rf"H = {sp.latex(sym.plain(H))},\ \omega_{{{f}}} = {sp.latex(sym.plain(omega_f))}",
             rf"\dot p = {sp.latex(sym.plain(p_dot))},\ \dot H = {sp.latex(sym.plain(H_dot))}",
             rf"\text{{residuals: }} {sp.latex(sym.plain(residual[0]))},\ "
             rf"{sp.latex(sym.plain(residual[1]))}"]
    return lines, residual


def _forces_once(system: Definition, from_loads: list[sp.Expr], has_loads: bool
                 ) -> list[sp.Expr]:
    """The generalized applied forces, given once: the System's own ``Q``/``Q_q`` (Φᵀ Q_q by
    virtual work), which every method reads, when the model has no loads; the model's loads
    (4.137) only when they agree with them, compared on the motion in q, the free u's and t
    (a load −c q̇ with q̇ = Φ u + Φ_t (4.134)).  Loads that only the model has, or that
    differ, would move Kane's method alone: ``ValueError``.
    """
    given = getattr(system, "Q", None)
    given = [sp.expand(sp.sympify(e)) for e in given or [0] * len(from_loads)]
    if not has_loads:
        return given
    if all(e == 0 for e in given) and any(e != 0 for e in from_loads):
        raise ValueError(
            f"the loads of the mechanics model give Q = {from_loads} but the "
            "System has no forces: every method but Kane's would move without them; give "
            "them to the System (Q or Q_q; in the workbench V or forces), then the model's "
            "loads may stay if they agree or go")
    differ = [j for j, (a, b) in enumerate(zip(given, from_loads, strict=True), start=1)
              if sp.expand(a - b) != 0 and sp.simplify(a - b) != 0]
    if differ:
        j = differ[0]
        raise ValueError(
            "the applied forces are given twice and differ: the System's "
            f"Q_{j} = {given[j - 1]} but its mechanics model's loads give Q_{j} = "
            f"{from_loads[j - 1]}; give them once, as forces of the System (Q, Q_q, or V "
            "and forces in the workbench), with a model without loads (or the same ones)")
    return from_loads


def _value(expr: sp.Expr, point: dict, memo: dict) -> complex:
    """``complex(expr.xreplace(point))`` by Python's complex arithmetic over the tree (sums,
    products, powers, sines, cosines; sympy evaluates the rest), with shared subexpressions
    in ``memo``: ``xreplace`` with Floats rebuilds every node in sympy, several times slower."""
    value = memo.get(expr)
    if value is None:
        if expr in point or expr.is_Number:
            value = complex(point.get(expr, expr))
        elif expr.is_Add:
            value = sum(_value(a, point, memo) for a in expr.args)
        elif expr.is_Mul:
            value = math.prod(_value(a, point, memo) for a in expr.args)
        elif expr.is_Pow:
            value = _value(expr.base, point, memo) ** _value(expr.exp, point, memo)
        elif isinstance(expr, (sp.sin, sp.cos)):
            f = cmath.sin if isinstance(expr, sp.sin) else cmath.cos
            value = f(_value(expr.args[0], point, memo))
        else:
            value = complex(expr.xreplace(point))
        memo[expr] = value
    return value


def _numbers(matrix: sp.Matrix, point: dict, memo: dict, symmetric: bool = False
             ) -> np.ndarray:
    """``matrix`` at ``point``, as complex numbers (:func:`_value`; TypeError when not
    numbers); ``symmetric``: its upper triangle evaluated, the lower one mirrored."""
    rows, cols = matrix.shape
    out = np.zeros((rows, cols), dtype=complex)
    for r in range(rows):
        for c in range(r if symmetric else 0, cols):
            out[r, c] = _value(matrix[r, c], point, memo)
            if symmetric:
                out[c, r] = out[r, c]
    return out


def _inertia_once(system: Definition, mass: sp.Matrix, kinematics: sp.Matrix) -> None:
    """``ValueError`` naming the entry and both values when the bodies carry another inertia
    than the System's T, which every method but Kane's reads.

    On the motion T*(u) = ½ uᵀ m u + b·u + T₀ over the free u's, m Kane's mass matrix (4.143):
    with T in q̇, m = Φᵀ (∂²T/∂q̇²) Φ over the free columns of Φ (4.81).  Compared by numbers
    at one generic point (q, t and the parameters inside their ranges); a T that comes from
    the model (numeric elimination) is not compared.
    """
    free = list(system.u_independent)
    if getattr(system, "T_qdot", None) is not None:
        T, rates = system.T_qdot, list(system.qdot)
        phi = kinematics.jacobian(free)
    else:
        try:
            T = system.T.xreplace({u: sp.S.Zero for u in system.u if u not in set(free)})
        except NotImplementedError:
            return
        rates, phi = free, sp.eye(len(free))
    # a fixed generic point: q, t and the parameters inside their ranges, away from the
    # defaults and from zero
    point = {p.symbol: sp.Float(p.low + 0.37 * (p.high - p.low)) for p in system.parameters}
    point.update({qi: sp.Float(0.3 + 0.41 * i * (-1) ** i) for i, qi in enumerate(system.q)})
    if system.t is not None:
        point[system.t] = sp.Float(0.5)
    memo = {}
    try:
        at = _numbers(phi, point, memo)
        from_T = at.T @ _numbers(QuadraticForm.of(T, rates).M, point, memo, symmetric=True) @ at
        from_model = _numbers(mass, point, memo, symmetric=True)  # as Kane's m is
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return  # not numbers at this point (a parameter outside a function's domain)
    gap = np.abs(from_T - from_model)
    if np.all(gap <= 1e-8 * (1 + np.abs(from_T) + np.abs(from_model))):
        return
    r, c = np.unravel_index(np.argmax(gap), gap.shape)
    at_text = ", ".join(f"{s} = {float(v):.3g}" for s, v in point.items())
    raise ValueError(
        "the inertia of the mechanics model differs from the System's "
        f"kinetic energy T: the mass matrix entry m_{r + 1}{c + 1} (the coefficient of "
        f"d{free[c]}/dt in the equation of {free[r]}) is {sp.expand(mass[r, c])} from the "
        f"model's bodies (= {from_model[r, c].real:.6g}) but {from_T[r, c].real:.6g} "
        f"from T (at {at_text}); every method but Kane's reads T: make the bodies' masses "
        "and inertias those of T (or correct T)")


@register_method("kane", "Kane / general dynamical equation (4.142)")
def from_system(system: Definition) -> Derivation:
    """The general dynamical equation (4.142) for a :class:`System` with a mechanics model
    (``NotImplementedError`` without one: T alone gives no velocities of points and bodies)."""
    import sympy.physics.mechanics as me  # slow to import: on first use
    if getattr(system, "mechanics_model", None) is None:
        raise NotImplementedError(
            "the general dynamical equation needs the system's geometry (points, "
            "bodies, frames, loads): give the System a mechanics_model (in the workbench: "
            "define(..., mechanics_model=...))"
        )
    model = system.mechanics_model()
    sym = _Symbols(system, model)
    N, u = model.frame, sym.u
    k = len(u)
    kinematics = sym.qdot
    steps: list[Step] = [Step(
        "Kinematical equations q̇ = Φ u + Φ_t",
        [sp.Eq(dot_symbol(qi), e, evaluate=False) for qi, e in
         zip(system.q, kinematics, strict=True)], "(4.134)",
        "Only the independent u's appear; the constraints are built in here once and for all.",
        None, key="kinematical_equations")]
    bodies = _bodies(model, sym)
    offset = [b for b in bodies if b.rho != me.Vector(0)]
    # The steps below are only ever shown: converted to plain Symbols when first read.
    steps.append(LazyStep("Velocities v_i of the reference points P_i on the motion",
                          partial(sym.plain, [b.v for b in bodies]), "(4.125)/(4.135)",
                          "Particles, and each rigid body's reference point P_i (its mass centre "
                          "unless another point is chosen); differentiate in the inertial frame, "
                          "then replace q̇ by the kinematical equations.", None, key="velocities"))
    gam = [sym.partials(b.v) for b in bodies]
    steps.append(LazyStep("Velocity coefficients γ_ij = ∂v_i/∂u_j, per body",
                          partial(_per_body, r"\gamma", bodies, gam, sym), "(4.125)/(4.135)",
                          "Partial velocities of the reference points: vectors, not the Hamel "
                          "symbols γ^j_rl of §4.3 (same letter, different object); "
                          + _frames_named(model, [g for row in gam for g in row]) + ".", None,
                          key="velocity_coefficients"))
    drift = [sym.on_motion(b.v.xreplace(dict.fromkeys(u, 0))) for b in bodies]  # v is linear in u
    if any(d != me.Vector(0) for d in drift):
        steps.append(LazyStep("Rheonomic terms γ_it = v_i − Σ_j γ_ij u_j",
                              partial(sym.plain, drift), "(4.125)",
                              "The part of each velocity present even when every u is zero "
                              "(explicit time dependence).", None, key="rheonomic_terms"))
    rigid = [b for b in bodies if b.w is not None]
    beta = [sym.partials(b.w) for b in rigid]  # per rigid body
    if rigid:
        steps.append(LazyStep("Angular velocities ω_i on the motion",
                              partial(sym.plain, [b.w for b in rigid]), "(4.136)",
                              "Angular velocity of each rigid body's frame in the inertial frame.",
                              None, key="angular_velocities"))
        steps.append(LazyStep("Angular-velocity coefficients β_ij = ∂ω_i/∂u_j, per body",
                              partial(_per_body, r"\beta", rigid, beta, sym), "(4.136)",
                              "Partial angular velocities: how each u turns each body; "
                              + _frames_named(model, [x for row in beta for x in row])
                              + ".", None, key="angular_velocity_coefficients"))
    if offset:
        steps.append(Step("Reference points away from the mass centre: ρ_ci and I_i about P_i",
                          [rf"\text{{{b.label}: }}\rho_c = {sp.latex(sym.plain(b.rho))},\ "
                           rf"I_P = {sp.latex(sym.plain(b.inertia.to_matrix(b.body.frame)))}"
                           rf"\ \text{{(in {b.body.frame.name})}}" for b in offset],
                          "(4.139)/(4.140)", "ρ_ci runs from P_i to the mass centre and is "
                          "fixed in the body; the inertia dyadic about P_i follows from the "
                          "central one by parallel axes.", None, key="reference_points"))

    partials = {**{b.point: g for b, g in zip(bodies, gam, strict=True)},
                **{b.body.frame: row for b, row in zip(rigid, beta, strict=True)}}

    @cache
    def coefficients(where: me.Point | me.ReferenceFrame) -> list:
        """γ_ij of a point or β_ij of a frame, prepared for ``tidy_dot``, once each."""
        if where not in partials:
            vel = where.ang_vel_in(N) if isinstance(where, me.ReferenceFrame) else where.vel(N)
            partials[where] = sym.partials(sym.on_motion(vel))
        return [sym.prepared(c) for c in partials[where]]

    Q = [sp.S.Zero] * k
    for where, load in model.loads:
        load = sym.prepared(sym.on_motion(load))  # a damper's q̇ = Φ u + Φ_t (4.134)
        Q = [Q[j] + sym.tidy_dot(load, c) for j, c in enumerate(coefficients(where))]
    Q = _forces_once(system, [expand_terms(e) for e in Q], bool(model.loads))
    steps.append(Step("Generalized applied forces Q_j = Σ (F_i·γ_ij + M_i·β_ij)" if rigid
                      else "Generalized applied forces Q_j = Σ_i F_i·γ_ij", sp.Matrix(Q),
                      "(4.137)" if rigid else "(4.129)", "Only working loads contribute: a "
                      "constraint force is perpendicular to every γ_ij.", "Q",
                      key="applied_forces"))

    lhs: list[list[sp.Expr]] = [[] for _ in range(k)]  # terms, summed once at the end
    accelerations, alternate = [], []
    for b in bodies:
        a = sym.dt(b.v)
        accelerations.append(a)
        # Each body's share is tidied on its own (small), never the whole equation.
        if b.w is None:
            inertia_force = sym.prepared(b.body.mass * a)
            for j, g in enumerate(coefficients(b.point)):
                lhs[j].append(sym.tidy_dot(inertia_force, g))
            continue
        alpha = sym.dt(b.w)
        rho_ddot = sym.on_motion(alpha.cross(b.rho) + b.w.cross(b.w.cross(b.rho)))
        force = b.body.mass * (a + rho_ddot)  # −F*_i (4.139)
        moment = sym.inertia_dot(b.inertia, alpha) + _vector(  # −M*_i (4.140), ω resolved
            {F: _cross(sym.resolved(b.w, F), m)               # once per frame
             for m, F in sym.inertia_dot(b.inertia, b.w).args})
        if b.rho != me.Vector(0):
            moment += b.body.mass * b.rho.cross(a)
        force_terms, moment_terms = sym.prepared(force), sym.prepared(moment)
        for j, (g, beta_j) in enumerate(zip(coefficients(b.point), coefficients(b.body.frame),
                                            strict=True)):
            lhs[j] += [sym.tidy_dot(force_terms, g), sym.tidy_dot(moment_terms, beta_j)]
        frame = model.momentum_frames.get(b.body.name)
        if frame is not None:
            alternate.append(_alternate_form(b, frame, N, sym, force, moment))
    steps.append(LazyStep("Accelerations v̇_i of the reference points",
                          partial(sym.plain, accelerations), None,
                          "Differentiated in the inertial frame; the u̇'s appear linearly. They "
                          "enter " + ("the inertia force F*_i = −m_i(v̇_i + ρ̈_ci) (4.139) and the "
                                      "moment M*_i (4.140)." if rigid
                                      else "the inertia forces −m_i v̇_i of (4.130)."),
                          None, key="accelerations"))
    if alternate:
        steps.append(Step("Alternate form: ṗ_i and Ḣ_i written in a frame not fixed in the body",
                          [line for lines, _ in alternate for line in lines], "(4.144)–(4.146)",
                          "The alternate form (4.144) with ṗ_i (4.145) and Ḣ_i (4.146): "
                          "p_i = m_i(v_i + ω_i × ρ_ci) and "
                          "H_i = I_i·ω_i are resolved in the "
                          "chosen frame F and differentiated there, Ḣ = (dH/dt)_F + ω_F × H; "
                          "the last column shows ṗ_i − m_i(v̇_i + ρ̈_ci) and Ḣ_i + m_i ρ_ci × v̇_i "
                          "− (the moment of (4.140)), both zero.", None, key="alternate_form"))
    lhs = sp.Matrix([expanded_sum(terms) for terms in lhs])
    steps.append(LazyStep("Generalized inertia forces Q*_j = −Σ [m(v̇ + ρ̈_c)·γ_ij + "
                          "(I·ω̇ + ω×I·ω + m ρ_c × v̇)·β_ij]" if rigid
                          else "Generalized inertia forces Q*_j = −Σ_i m_i v̇_i·γ_ij",
                          partial(operator.neg, lhs),
                          "(4.138, by position)–(4.140)" if rigid else "(4.130)",
                          "The inertia forces projected on the same velocity coefficients as "
                          "the applied loads: Q*_j = Σ_i (F*_i·γ_ij + M*_i·β_ij) (4.138, by "
                          "position) with F*_i (4.139) and M*_i (4.140) (ρ_c = 0 when P_i is "
                          "the mass centre)." if rigid else "The inertia forces −m_i v̇_i "
                          "projected on the same velocity coefficients as the applied loads.",
                          "Q^*", key="inertia_forces"))
    mass, rest = linear_coefficients(lhs, sym.udot)  # lhs = mass·u̇ + rest, expanded
    forcing = sp.Matrix(Q) - rest
    equations = [sp.Eq(lhs[j], Q[j], evaluate=False) for j in range(k)]
    steps.append(Step("General dynamical equation Σ_i [m_i(v̇_i + ρ̈_ci)·γ_ij + …·β_ij] = Q_j"
                      if rigid else "General dynamical equation Σ_i m_i v̇_i·γ_ij = Q_j",
                      equations,
                      "(4.142)" if rigid else "(4.133)",
                      f"{k} first-order equations in the independent u's: Q_j + Q*_j = 0 "
                      + ("(4.141, by position)" if rigid else "(4.132)")
                      + ", of the form m(q,t) u̇ + f = Q (4.143).", None,
                      key="equations"))
    _inertia_once(system, mass, kinematics)
    if system.t is None and sym.t in set().union(mass.free_symbols, forcing.free_symbols):
        raise ValueError("the mechanics model depends on time but the "
                         "system declares no time symbol")
    return Derivation(
        method="kane", q=list(system.q), u=list(system.u_independent), mass_matrix=mass,
        forcing=forcing, kinematics=kinematics.applyfunc(sp.expand), equations=equations,
        steps=steps, t=system.t,
        needs_unconstrained_T=False,
        extra={"velocity_coefficients": gam, "angular_velocity_coefficients": beta,
               "alternate_form_residuals": [r for _, r in alternate]},
    )
