"""Command line: ``python -m companion verify`` and ``python -m companion list``."""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion",
        description="Advanced Dynamics Companion: derive, check and explore the worked examples "
        "of Greenwood §4.3–4.4 and Loparo & Vakalis ch. 7.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    v = sub.add_parser(
        "verify",
        help="re-derive every book result the companion reproduces and compare it with the book",
        description="Re-derive every book result and print one line each (book, equation, "
        "status, what), printed results and the companion's consistency checks apart. "
        "Exits 1 on any mismatch, 2 when -k matches nothing.",
    )
    v.add_argument("-k", metavar="TEXT", help="only checks whose line contains TEXT")
    sub.add_parser("list", help="list the worked examples by name")
    args = parser.parse_args(argv)

    if args.command == "verify":
        from companion.verify import all_checks, format_table, run_checks

        checks = all_checks()
        if args.k:
            needle = args.k.lower()
            checks = [c for c in checks if needle in f"{c.book} {c.eq} {c.what}".lower()]
            if not checks:
                print(f"no check matches {args.k!r}", file=sys.stderr)
                return 2
        outcomes = run_checks(checks)
        print(format_table(outcomes))
        return 0 if all(o.matched for o in outcomes) else 1
    if args.command == "list":
        from companion import examples

        records = examples.worked_examples()
        width = max(len(r.name) for r in records) + 2
        for record in records:
            where = record.notebook.source if record.notebook else "beyond the books"
            print(f"{record.name:<{width}}{where}")
        print("\nEach is companion.examples.get(name): its System (or model), ready to derive, "
              "simulate and explore.")
        return 0
    parser.print_help()
    return 0


def run() -> int:
    """``main()`` for a terminal: text the terminal's encoding cannot show is escaped (§ is
    \\xa7 on an ASCII-only terminal, never a crash, in the help as in the tables); a pipe that
    the reader closes early (``verify | head``) stops quietly; a closed standard output
    (``list >&-``) is said on standard error."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if sys.stdout is None:
        if sys.stderr is not None:
            print("python -m companion: standard output is closed; nothing to write to",
                  file=sys.stderr)
        return 1
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes stdout again at exit; point it at /dev/null so that fails silently.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(run())
