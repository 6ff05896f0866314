"""n-link planar pendulum chains built the way of Loparo & Vakalis §7.7–7.8.

Link i (mass m_i, central inertia J_i, length l_i, mass centre at a_i from its upper pin)
hangs from the previous link's lower end; θ_i is its absolute angle from the downward
vertical.  Every link is a free body in SE(2) until the pins tie it to its neighbours: the
constraint map puts link i's mass centre at pivot_i + a_i (sin θ_i, −cos θ_i), with
pivot_{i+1} = pivot_i + l_i (sin θ_i, −cos θ_i).  The double pendulum of §7.8 is n = 2.
"""

from __future__ import annotations

import sympy as sp

from companion.geometry.planar import GROUND, Mechanism
from companion.geometry.planar_system import MechanismSystem
from companion.mechanics.model import MechanicsModel
from companion.system import Parameter


def joint_names(n: int) -> list[str]:
    """Pins from the base outwards: O and E (elbow) for two links, else O, P2, …, Pn."""
    return ["O", "E"] if n == 2 else ["O", *(f"P{i}" for i in range(2, n + 1))]


def link_symbols(n: int, torques: bool = False) -> tuple[list, list, list, list, list]:
    """m_i, J_i, a_i, l_i and τ_i (zeros without ``torques``) of links 1 … n."""
    idx = range(1, n + 1)
    return (sp.symbols([f"m_{i}" for i in idx], positive=True),
            sp.symbols([f"J_{i}" for i in idx], nonnegative=True),
            sp.symbols([f"a_{i}" for i in idx], positive=True),
            sp.symbols([f"l_{i}" for i in idx], positive=True),
            sp.symbols([f"tau_{i}" for i in idx]) if torques else [0] * n)


def chain_mechanism(n: int, *, torques: bool = False) -> Mechanism:
    """The mechanism of an n-link chain with symbols m_i, J_i, a_i, l_i, g (and τ_i)."""
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"a chain needs a positive whole number of links, got {n!r}")
    theta = sp.symbols([f"theta_{i}" for i in range(1, n + 1)])
    omega = sp.symbols([f"omega_{i}" for i in range(1, n + 1)])
    m, J, a, l, tau = link_symbols(n, torques)
    mech = Mechanism(theta, omega, g=sp.Symbol("g", positive=True))
    pivot = sp.Matrix([0, 0])
    parent = GROUND
    for i, name in enumerate(joint_names(n)):
        down = sp.Matrix([sp.sin(theta[i]), -sp.cos(theta[i])])
        centre = pivot + a[i] * down
        body = f"link {i + 1}"
        mech.add_body(body, m[i], J[i], (centre[0], centre[1], theta[i]))
        mech.add_joint(name, parent, body, tuple(pivot), torque=tau[i])
        pivot, parent = pivot + l[i] * down, body
    return mech


def chain(n: int, *, torques: bool = False, name: str | None = None,
          title: str | None = None) -> MechanismSystem:
    """An n-link chain as a System (defaults: equal point masses, m = 1 kg, l = a = 1 m)."""
    mech = chain_mechanism(n, torques=torques)
    m, J, a, l, tau = link_symbols(n, torques)
    params = []
    for i in range(1, n + 1):
        params += [
            Parameter(m[i - 1], 1.0, 0.1, 5.0, "kg", f"mass of link {i}", positive=True),
            Parameter(J[i - 1], 0.0, 0.0, 1.0, "kg·m²", f"central inertia of link {i}",
                      nonnegative=True),
            Parameter(a[i - 1], 1.0, 0.1, 2.0, "m",
                      f"pin-to-mass-centre distance of link {i}", positive=True),
            Parameter(l[i - 1], 1.0, 0.1, 2.0, "m",
                      f"length of link {i}" + (" (drawing only)" if i == n else ""),
                      positive=True),
        ]
    params.append(Parameter(mech.g, 9.81, 0.0, 20.0, "m/s²", "gravity"))
    if torques:
        params += [Parameter(t, 0.0, -10.0, 10.0, "N·m", f"joint torque at pin {k} on link {i}")
                   for i, (t, k) in enumerate(zip(tau, joint_names(n), strict=True), start=1)]
    initial = []
    for i, (th, om) in enumerate(zip(mech.q, mech.qdot, strict=True), start=1):
        initial += [
            Parameter(th, 1.8 if i == 1 else 2.4, -3.14, 3.14, "rad",
                      f"θ{i}(0), angle of link {i} from the downward vertical"),
            Parameter(om, 0.0, -10.0, 10.0, "rad/s", f"θ̇{i}(0)"),
        ]
    return MechanismSystem(
        mech,
        name=name or f"chain_{n}",
        title=title or f"{n}-link planar pendulum chain (pull-back of Loparo & Vakalis §7.3)",
        parameters=params, initial=initial,
    )


def chain_model(n: int, *, torques: bool = False) -> MechanicsModel:
    """The chain's frames, bodies and loads in ``sympy.physics.mechanics``: link i is a rigid
    body turned by θ_i about n̂_z, its mass centre a_i below its upper pin along the link, with
    gravity (and the joint torques τ_i, acting on link i and back on link i − 1).

    The speeds are ω_i = θ̇_i, set as the links' angular velocities.  Shared by our general
    dynamical equation (``System.mechanics_model``) and sympy's KanesMethod (:func:`kane_chain`).
    """
    from sympy.physics import mechanics as me

    th = me.dynamicsymbols([f"theta_{i}" for i in range(1, n + 1)])
    om = me.dynamicsymbols([f"omega_{i}" for i in range(1, n + 1)])
    m, J, a, l, tau = link_symbols(n, torques)
    g = sp.Symbol("g", positive=True)
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    pivot, bodies, loads, frames = O, [], [], []
    for i in range(n):
        A = N.orientnew(f"A{i + 1}", "Axis", [th[i], N.z])  # link axis is −A.y
        A.set_ang_vel(N, om[i] * N.z)
        G = pivot.locatenew(f"G{i + 1}", -a[i] * A.y)
        G.v2pt_theory(pivot, N, A)
        body = me.RigidBody(f"B{i + 1}", G, A, m[i], (me.inertia(A, 0, 0, J[i]), G))
        bodies.append(body)
        frames.append(A)
        loads.append((G, -m[i] * g * N.y))
        if torques:
            loads.append((A, tau[i] * N.z))
            if i > 0:
                loads.append((frames[i - 1], -tau[i] * N.z))
        nxt = pivot.locatenew(f"P{i + 2}", -l[i] * A.y)
        nxt.v2pt_theory(pivot, N, A)
        pivot = nxt
    return MechanicsModel(frame=N, q=th, bodies=bodies, loads=loads,
                          frames={"N": "inertial", **{f.name: f"link {i} frame"
                                                      for i, f in enumerate(frames, 1)}})


def kanes_method(n: int, *, torques: bool = False, model: MechanicsModel | None = None):
    """sympy's KanesMethod on the chain of :func:`chain_model` (or on ``model``, one built
    already), with its equations formed.

    Returns the ``KanesMethod`` object (``mass_matrix``, ``forcing`` in dynamicsymbols).
    """
    from sympy.physics import mechanics as me

    model = chain_model(n, torques=torques) if model is None else model
    th = list(model.q)
    om = [me.dynamicsymbols(f"omega_{i}") for i in range(1, n + 1)]
    kane = me.KanesMethod(model.frame, q_ind=th, u_ind=om,
                          kd_eqs=[th[i].diff() - om[i] for i in range(n)])
    kane.kanes_equations(list(model.bodies), list(model.loads))
    return kane


def kane_chain(n: int, *, torques: bool = False) -> tuple[sp.Matrix, sp.Matrix, list, list]:
    """The same chain derived independently with sympy.physics.mechanics' KanesMethod.

    Returns (mass matrix, forcing, θ symbols, ω symbols) in the plain Symbols of
    :func:`chain_mechanism`, so the two derivations can be compared number for number.
    """
    kane = kanes_method(n, torques=torques)
    th, om = list(kane.q), list(kane.u)
    plain = {f: sp.Symbol(f.func.__name__) for f in (*th, *om)}
    M = kane.mass_matrix.subs(plain)
    F = kane.forcing.subs(plain)
    return M, F, [plain[f] for f in th], [plain[f] for f in om]
