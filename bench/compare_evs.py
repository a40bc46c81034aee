"""Compare the engine's two-card analyses, charts and house edges with JSON dumps taken before a
change: ``python bench/compare_evs.py BEFORE_DIR [--rules thoth european] [--tolerance 1e-12]``.

``BEFORE_DIR`` holds ``engine-before-{analyze,chart,edge}-<preset>.json``, written by
``python -m blackjack analyze --all --json --no-store``, ``chart --json --no-store`` and
``edge --json --no-store`` of the old code.  Every EV (and insurance, chart cell EV, edge) must
lie within the tolerance of today's, and every best move, chart move and chart code must be
equal.  Prints the largest difference and exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def _now(command: str, preset: str, *extra: str) -> Any:
    out = subprocess.run(
        [sys.executable, "-m", "blackjack", command, "--rules", preset, "--json", "--no-store",
         *extra],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def _walk(before: Any, after: Any, where: str, tol: float, out: list[tuple[float, str]]) -> None:
    """Every number within ``tol``, everything else equal; (difference, place) into ``out``."""
    if isinstance(before, bool) or not isinstance(before, int | float | dict | list):
        if before != after:
            out.append((float("inf"), f"{where}: {before!r} != {after!r}"))
        return
    if isinstance(before, int | float):
        if not isinstance(after, int | float) or isinstance(after, bool):
            out.append((float("inf"), f"{where}: {before!r} != {after!r}"))
            return
        out.append((abs(before - after), where))
        return
    if isinstance(before, dict):
        if not isinstance(after, dict) or set(before) != set(after):
            out.append((float("inf"), f"{where}: keys differ"))
            return
        for k in before:
            _walk(before[k], after[k], f"{where}.{k}", tol, out)
        return
    if not isinstance(after, list) or len(before) != len(after):
        out.append((float("inf"), f"{where}: lengths differ"))
        return
    for i, (b, a) in enumerate(zip(before, after, strict=True)):
        _walk(b, a, f"{where}[{i}]", tol, out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("--rules", nargs="+", default=["thoth", "european"])
    parser.add_argument("--tolerance", type=float, default=1e-12)
    args = parser.parse_args()
    failed = False
    for preset in args.rules:
        for command, extra in (("analyze", ("--all",)), ("chart", ()), ("edge", ())):
            before = json.loads(
                (args.before / f"engine-before-{command}-{preset}.json").read_text()
            )
            after = _now(command, preset, *extra)
            diffs: list[tuple[float, str]] = []
            _walk(before, after, f"{command}[{preset}]", args.tolerance, diffs)
            numbers = sum(1 for d, w in diffs if d != float("inf"))
            worst = max(diffs, default=(0.0, "-"))
            bad = [w for d, w in diffs if d > args.tolerance]
            failed |= bool(bad)
            print(
                f"{preset:<9} {command:<8} {numbers:5d} numbers, largest difference "
                f"{worst[0]:.3g} ({worst[1]}): {'MISMATCH ' + str(len(bad)) if bad else 'ok'}"
            )
            for w in bad[:10]:
                print("   ", w)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
