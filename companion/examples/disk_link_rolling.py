"""Loparo & Vakalis §7.10 (reconstructed Example 3): a disk rolling on a pivoted link.

Defined in :mod:`companion.examples.disk_link`."""

from companion.examples.disk_link import build_rolling as build

__all__ = ["build"]
