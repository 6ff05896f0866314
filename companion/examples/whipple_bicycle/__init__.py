"""The Whipple bicycle benchmark (Meijaard, Papadopoulos, Ruina & Schwab 2007): a research-size
system derived by the Boltzmann–Hamel equations with numeric elimination."""
