"""Save the labelled diagrams of :mod:`companion.diagrams` as the PNGs the notebooks embed.

``python -m tools.diagrams`` (``make figures``) writes
``chapters/images/diagram-<name>.png`` for every diagram (or only the names given), 900 px
wide; ``--out`` writes elsewhere.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion import diagrams

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "chapters" / "images"
DPI = 150  # with diagrams.FIGSIZE: 900 px wide


def path_of(name: str, out: Path = IMAGES) -> Path:
    """Where the diagram of example ``name`` is saved."""
    return out / f"diagram-{name}.png"


def save(name: str, out: Path = IMAGES) -> Path:
    """Draw the diagram of ``name`` and save it as a PNG; returns its path."""
    fig = diagrams.figure(name)
    path = path_of(name, out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, metadata={"Software": None}, pil_kwargs={"optimize": True})
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"diagrams to save (default: all of "
                        f"{', '.join(diagrams.names())})")
    parser.add_argument("--out", type=Path, default=IMAGES, help="directory for the PNGs")
    args = parser.parse_args(argv)
    for name in args.names or diagrams.names():
        try:
            path = save(name, args.out)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        print(f"{path} ({path.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
