"""Command line: ``python -m companion verify`` and ``python -m companion list``."""

from __future__ import annotations

import argparse
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
        "status, what). Exits 1 on any mismatch.",
    )
    v.add_argument("-k", metavar="TEXT", help="only checks whose line contains TEXT")
    sub.add_parser("list", help="list the worked examples (systems) by name")
    args = parser.parse_args(argv)

    if args.command == "verify":
        from companion.verify import all_checks, format_table, run_checks

        checks = all_checks()
        if args.k:
            needle = args.k.lower()
            checks = [c for c in checks if needle in f"{c.book} {c.eq} {c.what}".lower()]
        outcomes = run_checks(checks)
        print(format_table(outcomes))
        return 0 if all(o.matched for o in outcomes) else 1
    if args.command == "list":
        from companion import examples

        for name in examples.names():
            print(f"{name:<24} {examples.get(name).title}")
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
