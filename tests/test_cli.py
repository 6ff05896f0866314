"""The command line: ``python -m companion --help`` and ``python -m companion verify``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from companion import verify
from companion.__main__ import main
from companion.checks import CONSISTENCY, RECONSTRUCTION, Check


def _install_book(monkeypatch, checks: list[Check]) -> None:
    """Make the verify table consist of ``checks`` only."""
    monkeypatch.setattr(verify, "all_checks", lambda: list(checks))


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
    _install_book(monkeypatch, [])
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


def test_verify_k_that_matches_nothing_says_so_and_fails(monkeypatch, capsys):
    _install_book(monkeypatch, [MATCH])
    assert main(["verify", "-k", "no such result"]) == 2
    assert "no check matches 'no such result'" in capsys.readouterr().err


def test_printed_reconstructed_and_consistency_checks_are_counted_apart(monkeypatch, capsys):
    added = Check("Greenwood", "(4.85)", "methods agree", lambda: (True, ""), CONSISTENCY)
    ours = Check("Loparo & Vakalis", "§7.8", "our example", lambda: (False, "no"), RECONSTRUCTION)
    _install_book(monkeypatch, [added, MATCH, ours, MISMATCH])
    assert main(["verify"]) == 1
    out = capsys.readouterr().out
    assert out.index("Results the books print") < out.index("(4.99)") < out.index(
        "(7.99)") < out.index("Reconstructions") < out.index("our example") < out.index(
        "Checks the companion adds") < out.index("methods agree")
    assert ("1 of 2 printed results matched; 0 of 1 reconstructions matched; "
            "1 of 1 consistency checks matched.") in out


def test_a_check_of_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="kind"):
        Check("Greenwood", "(4.1)", "x", lambda: (True, ""), "opinion")


def _cli(*args: str, encoding: str = "utf-8") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          env=env, timeout=120)


def test_list_works_on_an_ascii_only_terminal():
    proc = _cli("list", encoding="ascii")
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode("ascii")
    assert "knife_edge" in out and "Greenwood \\xa74.3" in out  # § escaped, not a crash


def test_output_into_a_closed_pipe_stops_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "companion", "list"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader (`| head`) goes away before anything is written
    proc.wait(timeout=120)
    assert b"Traceback" not in proc.stderr.read()


def test_no_reconstruction_is_counted_as_a_printed_result():
    """Our copy of Loparo & Vakalis stops inside §7.4: what it does not print (Lemma 7.1 as
    restored, §7.5 onward) is listed with the reconstructions, never as printed."""
    import re

    from companion.checks import PRINTED

    for check in verify.all_checks():
        if check.kind != PRINTED:
            continue
        assert "reconstruct" not in check.what, check
        if check.book.startswith("Loparo"):
            sections = [float(s) for s in re.findall(r"7\.(\d+)", check.eq)]
            assert "Lemma" not in check.eq and all(s <= 4 for s in sections), check


def test_help_works_on_an_ascii_only_terminal():
    proc = _cli("--help", encoding="ascii")
    assert proc.returncode == 0, proc.stderr.decode()
    assert "Greenwood \\xa74.3" in proc.stdout.decode("ascii")  # § escaped, not a crash


def test_a_closed_standard_output_is_said_not_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "companion", "list"], stderr=subprocess.PIPE,
                          preexec_fn=lambda: os.close(1), timeout=120)  # `list >&-`
    assert proc.returncode == 1
    assert proc.stderr.decode().strip() == ("python -m companion: standard output is closed; "
                                            "nothing to write to")
