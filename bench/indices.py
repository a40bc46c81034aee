"""CPU time to compute a new rule set's index tables, as the task worker does (issue 31: at most
60 s for one table on this machine).

    .venv/bin/python bench/indices.py                 # 4 decks, late surrender: a new rule set
    .venv/bin/python bench/indices.py --all-systems   # every count system, as the job does

The chart comes first (the worker's tables job computes it; its time is printed apart), then
each system's index table from cold engine caches but for the chart's dealer work.  Process CPU
time is printed beside wall time: the machine is shared, so wall times say little.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import blackjack
from bench.machine import describe
from blackjack.counting import HI_LO, SYSTEMS, compute_indices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=4)
    parser.add_argument("--no-surrender", action="store_true")
    parser.add_argument("--all-systems", action="store_true")
    args = parser.parse_args()
    rules = replace(
        blackjack.PRESETS["thoth"],
        decks=args.decks,
        surrender=blackjack.Surrender.NONE if args.no_surrender else blackjack.Surrender.LATE,
    )
    print(describe())
    print(f"rules: {rules.to_dict()}")
    blackjack.clear_caches()
    cpu, wall = time.process_time(), time.perf_counter()
    chart = blackjack.basic_chart(rules)
    print(f"chart (the tables job's part): {time.process_time() - cpu:.1f} s CPU, "
          f"{time.perf_counter() - wall:.1f} s wall")  # fmt: skip
    systems = list(SYSTEMS.values()) if args.all_systems else [HI_LO]
    total = 0.0
    for system in systems:
        cpu, wall = time.process_time(), time.perf_counter()
        table = compute_indices(
            rules, system, basic=lambda kind, row, up: chart.cell(kind, row, up).move
        )
        used = time.process_time() - cpu
        total += used
        print(f"{system.name} index table: {used:.1f} s CPU, {time.perf_counter() - wall:.1f} s "
              f"wall, {len(table.plays)} index plays (target 60 s CPU: "
              f"{'met' if used <= 60 else 'NOT met'})")  # fmt: skip
    if len(systems) > 1:
        print(f"every system: {total:.1f} s CPU")


if __name__ == "__main__":
    main()
