"""Loparo & Vakalis §7.11 (reconstructed Example 4): the disk on the link with friction.

Defined in :mod:`companion.examples.disk_link`."""

from companion.examples.disk_link import build_friction as build

__all__ = ["build"]
