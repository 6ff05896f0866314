"""Meijaard, Papadopoulos, Ruina & Schwab (2007), "Linearized dynamics equations for the balance
and steer of a bicycle: a benchmark and review", Proc. R. Soc. A 463, 1955–1982: the printed
results of the benchmark bicycle (data only; the checks are in the slice's ``checks.py``).

Table 2: the weave and capsize speeds and the eigenvalues of the upright, straight-ahead motion
at forward speeds v = 0, 1, …, 10 m/s (real eigenvalues, and the weave pair as re ± i im).
§5.3: the coefficient matrices of the linearized equations M q̈ + v C₁ q̇ + (g K₀ + v² K₂) q = f
for q = (φ, δ) with the benchmark parameters.
"""

from __future__ import annotations

PRINTED: dict[str, dict] = {
    "whipple_bicycle": {
        "weave speed": 4.29238253634111,  # m/s, Table 2(a)
        "capsize speed": 6.02426201538837,  # m/s, Table 2(a)
        # §5.3, rows and columns (φ, δ)
        "M": [[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]],
        "C1": [[0.0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]],
        "K0": [[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]],
        "K2": [[0.0, 76.59734589573222], [0.0, 2.65431523794604]],
        # v [m/s] -> eigenvalues [1/s], Table 2(b)/(c); complex pairs written once, im > 0.
        "eigenvalues": {
            0: [-5.53094371765393, -3.13164324790656, 3.13164324790656, 5.53094371765393],
            1: [-7.11008014637442, -3.13423125066578, 3.52696170990070 + 0.8077402751993j],
            2: [-8.67387984831735, -3.07158645641514, 2.68234517512745 + 1.68066296590675j],
            3: [-10.35101467245920, -2.63366137253667, 1.70675605663975 + 2.31582447384325j],
            4: [-12.15861426576450, -1.42944427361326, 0.41325331521125 + 3.07910818603206j],
            5: [-14.07838969279820, -0.32286642900409, -0.77534188219585 + 4.46486771378823j],
            6: [-16.08537123098030, -0.00406690076970, -1.52644486584142 + 5.87673060598709j],
            7: [-18.15788466125262, 0.10268170574766, -2.13875644258362 + 7.19525913329805j],
            8: [-20.27940894394569, 0.14327879765713, -2.69348683581097 + 8.46037971396931j],
            9: [-22.43788559040858, 0.15790184030917, -3.21675402252485 + 9.69377351531791j],
            10: [-24.62459635017404, 0.16105338653172, -3.72016840437287 + 10.90681139476287j],
        },
    },
}
