"""The command line: ``python -m companion --help`` and ``python -m companion verify``."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

from companion import verify
from companion.__main__ import main
from companion.verify import Check


def _install_book(monkeypatch, checks: list[Check]) -> None:
    """Make the verify table consist of ``checks`` only, through a stand-in book module."""
    module = types.ModuleType("companion_test_book")
    module.checks = lambda: list(checks)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(verify, "BOOK_MODULES", (module.__name__,))


def _fail() -> tuple[bool, str]:
    raise ZeroDivisionError("derivation blew up")


MATCH = Check("Greenwood", "(4.99)", "a result that matches", lambda: (True, "ok"))
MISMATCH = Check("Loparo", "(7.99)", "a result that differs", lambda: (False, "off by 2"))
CRASH = Check("Greenwood", "(4.98)", "a derivation that raises", _fail)


def test_help_explains_the_commands():
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "verify" in proc.stdout and "list" in proc.stdout


def test_no_command_prints_help(capsys):
    assert main([]) == 0
    assert "verify" in capsys.readouterr().out


def test_verify_with_empty_table_exits_zero(monkeypatch, capsys):
    monkeypatch.setattr(verify, "BOOK_MODULES", ())
    assert main(["verify"]) == 0
    assert "No book results" in capsys.readouterr().out


def test_verify_all_matched_exits_zero(monkeypatch, capsys):
    _install_book(monkeypatch, [MATCH])
    assert main(["verify"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "(4.99)" in line)
    assert "Greenwood" in line and "matched" in line and "a result that matches" in line
    assert "1 of 1" in out


@pytest.mark.parametrize("bad", [MISMATCH, CRASH], ids=["mismatch", "raises"])
def test_verify_mismatch_exits_nonzero(monkeypatch, capsys, bad):
    _install_book(monkeypatch, [MATCH, bad])
    assert main(["verify"]) == 1
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if bad.eq in line)
    assert "MISMATCH" in line and bad.what in line
    assert ("off by 2" if bad is MISMATCH else "derivation blew up") in line
    assert "1 of 2" in out


def test_verify_k_selects_lines(monkeypatch, capsys):
    _install_book(monkeypatch, [MATCH, MISMATCH])
    assert main(["verify", "-k", "matches"]) == 0
    out = capsys.readouterr().out
    assert "(4.99)" in out and "(7.99)" not in out
