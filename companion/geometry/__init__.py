"""Loparo & Vakalis §7.2–7.4: the kinetic-energy metric, pull-back to constraint manifolds,
the covariant derivative, and Euler's equations as a geodesic on SO(3)."""
