"""The disk–link's contact modes printed as C: what :mod:`.modes` evaluates at a state, in one
call.

For each mode, the Coulomb-closed equations A q̈ = b and the quantities read off q̈
(:func:`.contact.closed_mode`), the link torque of :mod:`.controller` and the energy, slip
velocity and disk centre are printed with common subexpressions shared; q̈ comes from the
Gaussian elimination of :mod:`companion.numerics.c_rhs` (the θ row and column dropped for a
held link).  The library (compiled once, cached on disk by :func:`~companion.numerics.c_rhs.
load`) exports

* ``contact_many(n, xs, modes, p, held, out)``: :data:`OUTPUTS` at n states (rows of xs),
  each in its mode (``contact`` does one);
* ``rhs(t, x, p, out)``: ẋ of the mode given by p[NP] (held if p[NP + 1]), for
  :class:`~companion.numerics.c_rhs.CRightHandSide`;
* ``guards(t, x, p, g)``: the values of that mode's guards, in the order of
  :meth:`.modes.ContactModes._modes`, so that a whole segment up to its first switch is one
  call (:meth:`~companion.numerics.c_rhs.CRightHandSide.solve_events`).

Modes are indexed as :data:`.modes.MODES`; a singular mode model returns status 1.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from functools import cache

import numpy as np
import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.controller import link_torque
from companion.examples.disk_link.parameters import BY_NAME, SYMBOLS, mu_k, mu_s
from companion.numerics import c_rhs
from companion.numerics.errors import SingularConfigurationError
from companion.numerics.hybrid import Guard
from companion.numerics.integrate import CompiledEvents

#: What ``contact`` writes, in order: the state's rate (10), then these.
OUTPUTS = ["theta_dot", "s_dot", "h_dot", "psi_dot", "theta_ddot", "s_ddot", "h_ddot",
           "psi_ddot", "W_tau_dot", "W_fric_dot", "N", "F", "tau", "v_slip", "energy", "x_D",
           "y_D"]
#: Each mode's model (:func:`.contact.closed_mode`, its C function) and σ′ of its Coulomb
#: closure λ = σ′ μ_k (F = −μ_k N slipping forward, +μ_k N backward), by mode index.
MODE_MODELS = (("rolling", 0.0), ("slipping", -1.0), ("slipping", 1.0), ("separated", 0.0))


def _names() -> dict[sp.Symbol, sp.Symbol]:
    names = c_rhs.c_names([*ct.COORDS, *ct.RATES], SYMBOLS)
    names.update({ct.tau: sp.Symbol("tau"), ct.LAMBDA_F: sp.Symbol("lam")})
    return names


def _mode_source(name: str) -> str:
    """``static int mode_<name>(x, p, tau, lam, held, res)``: res = (the four contact
    accelerations, N, F, the θ-row residual)."""
    A, b, post = ct.closed_mode(name)
    qddot = ct.mode_model(name).qddot
    n = len(qddot)
    names = _names()
    after = {**names, **{a: sp.Symbol(f"qdd[{i}]") for i, a in enumerate(qddot)}}
    return "\n".join([
        f"static int mode_{name}(const double *x, const double *p, double tau, double lam,",
        "                        int held, double *res) {",
        f"    double v[{n * n + n}], qdd[{n}];",
        "    {", c_rhs.block([*A, *b], "v", names, "a"), "    }",
        "    if (held) {  /* θ is held: drop its row and column, θ̈ = 0 */",
        f"        double m[{(n - 1) ** 2}], r[{n - 1}];",
        f"        for (int i = 1; i < {n}; i++) {{ r[i - 1] = v[{n * n} + i];",
        f"            for (int j = 1; j < {n}; j++)",
        f"                m[(i - 1) * {n - 1} + j - 1] = v[i * {n} + j]; }}",
        "        qdd[0] = 0.0;",
        f"        if (!solve({n - 1}, 1, m, r, qdd + 1)) return 1;",
        f"    }} else if (!solve({n}, 1, v, v + {n * n}, qdd)) return 1;",
        "    {", c_rhs.block(post, "res", after, "b"), "    }",
        "    return 0;",
        "}",
    ])


def source() -> str:
    """The library's C source (see the module's docstring)."""
    names = _names()
    state = [*ct.COORDS, *ct.RATES]
    torque = link_torque(state, BY_NAME, cos=sp.cos)
    extras = [ct.relative_velocity()[0], ct.energy(), *ct.CENTRE]
    np_, mu = len(SYMBOLS), SYMBOLS.index(mu_k)
    calls = ", ".join(f"mode_{f}" for f, _ in MODE_MODELS)
    return "\n".join([
        c_rhs.LINEAR_ALGEBRA,
        *(_mode_source(name) for name in dict.fromkeys(f for f, _ in MODE_MODELS)),
        f"#define NP {np_}",
        "typedef int (*mode_fn)(const double *, const double *, double, double, int, double *);",
        f"static const mode_fn MODE[4] = {{{calls}}};",
        f"static const double SIGN[4] = {{{', '.join(str(sg) for _, sg in MODE_MODELS)}}};",
        "int contact(const double *x, const double *p, int mode, int held, double *out) {",
        "    double tq[1], res[7], e[4];",
        "    if (mode < 0 || mode > 3) return 3;",
        "    {", c_rhs.block([torque], "tq", names, "t"), "    }",
        "    const double tau = held ? 0.0 : tq[0];",
        "    /* F = lam N while slipping: lam = -sigma mu_k, sigma = +1 forward, -1 backward */",
        f"    const double lam = SIGN[mode] * p[{mu}];",
        "    if (MODE[mode](x, p, tau, lam, held, res)) return 1;",
        "    if (mode == 3) res[4] = res[5] = 0.0;  /* separated: no contact force */",
        "    {", c_rhs.block(extras, "e", names, "c"), "    }",
        "    const double torque = held ? res[6] : tau;",
        "    for (int i = 0; i < 4; i++) { out[i] = x[4 + i]; out[4 + i] = res[i]; }",
        "    out[8] = torque * x[4]; out[9] = res[5] * e[0];",
        "    out[10] = res[4]; out[11] = res[5]; out[12] = torque;",
        "    for (int i = 0; i < 4; i++) out[13 + i] = e[i];",
        "    return 0;",
        "}",
        "int contact_many(int n, const double *xs, const int *modes, const double *p, int held,",
        "                 double *out) {",
        "    for (int k = 0; k < n; k++) { int s = contact(xs + 10 * k, p, modes[k], held,",
        f"                                                 out + {len(OUTPUTS)} * k);",
        "        if (s) return s; }",
        "    return 0;",
        "}",
        "int guards(double t, const double *x, const double *p, double *g) {",
        f"    double o[{len(OUTPUTS)}];",
        "    const int mode = (int)p[NP];",
        f"    const double L = p[{SYMBOLS.index(ct.L)}], mus = p[{SYMBOLS.index(mu_s)}];",
        "    (void)t;",
        "    if (mode == 3) { g[0] = x[2]; g[1] = x[1]; g[2] = L - x[1]; return 0; }",
        "    const int s = contact(x, p, mode, (int)p[NP + 1], o);",
        "    if (s) return s;",
        "    const double N = o[10], F = o[11], v_slip = o[13];",
        "    if (mode == 0) {  /* N = 0, F = +mu_s N, F = -mu_s N, pivot, tip */",
        "        g[0] = N; g[1] = mus * N - F; g[2] = mus * N + F; g[3] = x[1]; g[4] = L - x[1];",
        "    } else {  /* v_slip = 0 (sigma v_slip falls), N = 0, pivot, tip */",
        "        g[0] = (mode == 1 ? v_slip : -v_slip); g[1] = N; g[2] = x[1]; g[3] = L - x[1];",
        "    }",
        "    return 0;",
        "}",
        "int rhs(double t, const double *x, const double *p, double *out) {",
        f"    double o[{len(OUTPUTS)}];",
        "    (void)t;",
        "    const int s = contact(x, p, (int)p[NP], (int)p[NP + 1], o);",
        "    if (s) return s;",
        "    for (int i = 0; i < 10; i++) out[i] = o[i];",
        "    return 0;",
        "}",
    ])


@cache
def library() -> ctypes.CDLL:
    """The compiled library (``RuntimeError`` without a C compiler)."""
    text = source()  # hashed whole: its hand-written parts (guards, contact) count too
    lib = c_rhs.load(c_rhs.fingerprint([text]), lambda: text)
    lib.guards.restype = ctypes.c_int
    lib.guards.argtypes = [ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.contact_many.restype = ctypes.c_int
    lib.contact_many.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    return lib


class CompiledContact:
    """The compiled modes for one run: ``p`` the parameter values in the order of
    :data:`.parameters.PARAMETERS` (the model's ``parameter_vector``, or ``Setup.p``), as the C
    code indexes them; ``held`` whether the link is held at its initial angle."""

    def __init__(self, p: Sequence[float], held: bool):
        if len(p) != len(SYMBOLS):
            raise ValueError(f"the compiled disk–link modes take {len(SYMBOLS)} parameter "
                             f"values in the order {', '.join(s.name for s in SYMBOLS)}; "
                             f"got {len(p)}")
        self._lib = library()
        self.held = int(held)
        self._p = np.array([*p, 0.0, float(held)], dtype=float)

    def rhs(self, mode: int) -> c_rhs.CRightHandSide:
        """ẋ = f(t, x) in mode number ``mode``."""
        p = self._p.copy()
        p[-2] = mode
        return c_rhs.CRightHandSide(self._lib, 4, 6, p, singular="a singular contact model")

    def events(self, guards: Sequence[Guard]) -> CompiledEvents:
        """The ``guards`` as events of ``"dop853-c"``, their functions computed by the C
        ``guards`` in this order: a run until the first terminal one is one call."""
        return CompiledEvents(ctypes.cast(self._lib.guards, ctypes.c_void_p).value,
                              [g.direction for g in guards], [g.terminal for g in guards])

    def along(self, states: np.ndarray, modes: Sequence[int]) -> np.ndarray:
        """:data:`OUTPUTS` (rows) at each column of ``states`` (10 × n) in its mode."""
        xs = np.ascontiguousarray(states.T, dtype=float)
        index = np.ascontiguousarray(modes, dtype=np.int32)
        out = np.empty((len(index), len(OUTPUTS)))
        if self._lib.contact_many(len(index), xs.ctypes.data, index.ctypes.data,
                                  self._p.ctypes.data, self.held, out.ctypes.data):
            raise SingularConfigurationError("singular contact model along the motion")
        return out.T
