"""The equation numbers the books print, each with the object it names (data only).

Built from the project's fact sheets on Greenwood §4.3–4.4 and Loparo & Vakalis ch. 7.  A
label the companion cites, in a derivation step, a ``verify`` row, a docstring or a notebook,
must be one of these (``tests/test_statements.py``).  Our copy of Greenwood §4.3 starts at
(4.82): the definition u = Ψ q̇ + Ψ_t before it has no number we can cite, while (4.81), the
kinematical equations, is cited by the book itself later on.  Seven numbers our fact sheet does
not print are placed by their position in the text, between two printed numbers (:data:`PLACED`);
wherever a reader sees one it is written with :data:`BY_POSITION`, e.g. "(4.131, by position)".
"""

from __future__ import annotations

#: Greenwood, *Advanced Dynamics* (2003), §4.3–4.4.
GREENWOOD: dict[str, str] = {
    "(4.81)": "kinematical equations q̇ = Φ u + Φ_t, Φ = Ψ⁻¹, Φ_t = −Φ Ψ_t (cited by the book "
              "later; before our copy starts)",
    "(4.82)": "the Boltzmann–Hamel equation with its coupling terms as triple sums over j, i, k "
              "(before γʲᵣₗ and γʲᵣ are named; placed)",
    "(4.83)": "γʲᵣₗ = Σ_i Σ_k Cʲᵢₖ Φ_ir Φ_kl, with Cʲᵢₖ = ∂Ψ_ji/∂q_k − ∂Ψ_jk/∂q_i",
    "(4.84)": "rheonomic coefficients γʲᵣ",
    "(4.85)": "the Boltzmann–Hamel equation",
    "(4.86)": "∂T/∂θ_r = Σ_i (∂T/∂q_i) Φ_ir",
    "(4.87)": "generalized momenta p_j = ∂T/∂u_j = Σ_i m_ji u_i + a_j",
    "(4.88)": "inertia coefficients m_ij = ∂²T/∂u_i∂u_j",
    "(4.89)": "Ex 4.3: body rates ω_x, ω_y, ω_z in type I Euler-angle rates",
    "(4.90)": "Ex 4.3: Ψ",
    "(4.91)": "Ex 4.3: Φ",
    "(4.92)": "the scleronomic, unconstrained Boltzmann–Hamel equation",
    "(4.93)": "Ex 4.3: T = ½(I_xx ω_x² + I_yy ω_y² + I_zz ω_z²)",
    "(4.94)": "Ex 4.3: ∂T/∂ω",
    "(4.95)": "Ex 4.3: γʲᵣₗ = Σ_i Σ_k Cʲᵢₖ Φ_ir Φ_kl (Cʲ unnumbered just before it)",
    "(4.96)": "Ex 4.3: γʲ = Φᵀ Cʲ Φ",
    "(4.97)": "Ex 4.3: C¹", "(4.98)": "Ex 4.3: C²", "(4.99)": "Ex 4.3: C³",
    "(4.100)": "Ex 4.3: γ¹", "(4.101)": "Ex 4.3: γ²", "(4.102)": "Ex 4.3: γ³",
    "(4.103)": "Ex 4.3: Σ_j (∂T/∂u_j) γʲ",
    "(4.104)": "Ex 4.3: Euler's equations",
    "(4.105)": "Ex 4.4: u₁ = v = ẋ cos φ + ẏ sin φ",
    "(4.106)": "Ex 4.4: u₂ = φ̇",
    "(4.107)": "Ex 4.4: u₃ = −ẋ sin φ + ẏ cos φ = 0, the knife-edge constraint",
    "(4.108)": "Ex 4.4: the unconstrained T",
    "(4.109)": "the scleronomic, nonholonomic Boltzmann–Hamel equation",
    "(4.110)": "Ex 4.4: Ψ", "(4.111)": "Ex 4.4: Φ",
    "(4.112)": "Ex 4.4: Cʲᵢₖ", "(4.113)": "Ex 4.4: γʲᵣₗ as a double sum",
    "(4.114)": "Ex 4.4: γʲ = Φᵀ Cʲ Φ",
    "(4.115)": "Ex 4.4: C¹", "(4.116)": "Ex 4.4: C³",
    "(4.117)": "Ex 4.4: γ¹", "(4.118)": "Ex 4.4: γ² = 0", "(4.119)": "Ex 4.4: γ³",
    "(4.120)": "Ex 4.4: ∂T/∂u_j", "(4.121)": "Ex 4.4: Σ_j (∂T/∂u_j) γʲ with u₃ = 0",
    "(4.122)": "Ex 4.4: 2m u̇₁ − m l u₂² = 0", "(4.123)": "Ex 4.4: m l² u̇₂ + m l u₁ u₂ = 0",
    "(4.124)": "d'Alembert's principle Σ_i (F_i − m_i v̇_i)·δr_i = 0 (placed)",
    "(4.125)": "particle velocities v_i = Σ_j γ_ij u_j + γ_it",
    "(4.126)": "virtual displacements δr_i = Σ_j γ_ij δθ_j",
    "(4.127)": "the principle with δr_i of (4.126) put in (placed)",
    "(4.128)": "the principle in the independent δθ_j (placed)",
    "(4.129)": "generalized applied force Q_j = Σ_i F_i·γ_ij",
    "(4.130)": "generalized inertia force Q*_j = −Σ_i m_i v̇_i·γ_ij",
    "(4.131)": "Σ_j (Q_j + Q*_j) δθ_j = 0 (placed)",
    "(4.132)": "Q_j + Q*_j = 0, Kane's equations",
    "(4.133)": "the general dynamical equation Σ_i m_i v̇_i·γ_ij = Q_j",
    "(4.134)": "kinematical equations with the constraints applied, q̇ = Σ_{j≤n−m} Φ_ij u_j + Φ_it",
    "(4.135)": "rigid bodies: v_i = Σ_j γ_ij u_j + γ_it",
    "(4.136)": "rigid bodies: ω_i = Σ_j β_ij u_j + β_it",
    "(4.137)": "Q_j = Σ_i (F_i·γ_ij + M_i·β_ij)",
    "(4.138)": "rigid bodies: Q*_j = Σ_i (F*_i·γ_ij + M*_i·β_ij) (placed)",
    "(4.139)": "F*_i = −m_i (v̇_i + ρ̈_ci)",
    "(4.140)": "M*_i = −(I_i·ω̇_i + ω_i × I_i·ω_i + m_i ρ_ci × v̇_i)",
    "(4.141)": "rigid bodies: Q_j + Q*_j = 0 (placed)",
    "(4.142)": "the general dynamical equation for rigid bodies",
    "(4.143)": "its general form m(q, t) u̇ + f(q, u, t) = Q",
    "(4.144)": "the alternate form of (4.142), with ṗ_i and Ḣ_i",
    "(4.145)": "ṗ_i = m_i (v̇_i + ρ̈_ci)",
    "(4.146)": "Ḣ_i = I_i·ω̇_i + ω_i × I_i·ω_i",
}

#: Loparo & Vakalis, ch. 7 of the *Robotics and Automation Handbook* (2005); our copy stops
#: inside §7.4 (the text's "(6.2)" is a misprint for (7.2)).
LOPARO: dict[str, str] = {
    "(7.1)": "Newton's law σ♭(∇_{c′} c′) = F",
    "(7.2)": "Newton's law on a submanifold σ̃♭(∇̃_{c̃′} c̃′) = F̃, σ̃ = j*σ, F̃ = j*F",
}

#: The numbers placed by their position in the text, with the evidence for each placement.
PLACED: dict[str, str] = {
    "(4.82)": "the one equation between (4.81) and (4.83); (4.83) names γʲᵣₗ, so the equation "
              "before it writes the coupling terms without γ",
    "(4.124)": "the one equation between Example 4.4's last, (4.123), and (4.125), the first of "
               "§4.4 that uses the velocity coefficients; the principle they are put into",
    "(4.127)": "the first of the two equations between (4.126) (δr_i) and (4.129) (Q_j)",
    "(4.128)": "the second of the two equations between (4.126) and (4.129)",
    "(4.131)": "the one equation between (4.130) (Q*_j) and (4.132) (Q_j + Q*_j = 0)",
    "(4.138)": "the one equation between (4.137) (Q_j) and (4.139) (F*_i): Q*_j follows Q_j as "
               "(4.130) follows (4.129), F*_i and M*_i then defined by (4.139)–(4.140); the "
               "other order (Q*_j at (4.141)) would leave no object for (4.138)",
    "(4.141)": "the one equation between (4.140) (M*_i) and (4.142): Q_j + Q*_j = 0 before the "
               "substitution, as (4.132) precedes (4.133)",
}

#: How a placed number is written wherever a reader sees it: "(4.131, by position)".
BY_POSITION = ", by position"

#: Every number either book prints or the text places, with its object.
NUMBERS: dict[str, str] = {**GREENWOOD, **LOPARO}

#: No worked example's printed results here (``companion.book`` merges every module's).
PRINTED: dict[str, dict[str, object]] = {}
