"""Timings of the EV engine: ``python bench/ev.py [--rules thoth ...]``.

Wall-clock times, and process CPU time where the machine is shared (wall times then vary).

Prints the time of ``analyze`` for one situation (cold: a fresh process; cool: the dealer
tables built but nothing memoized, the median of a few runs; warm: asked again), of the
whole ``--all`` table, of a chart for a rule set never computed, and the peak memory.
Targets (issue 4): one situation under 5 ms warm and 50 ms cold; a chart under a minute on one
core; the whole six-deck table within ten times of an established C++ analyzer (about 2 s
here).  Run by hand, not by the tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

# One core, as the targets say; OpenBLAS otherwise spins threads for tiny products.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import blackjack as ev
from blackjack.cli import add_rules_arguments, all_situations, rules_from_args
from blackjack.maths import prepare_dealer_tables

SITUATIONS = [([10, 6], 10), ([10, 2], 4), ([5, 6], 6), ([1, 7], 9), ([2, 3], 6), ([8, 8], 10),
              ([1, 1], 6), ([2, 2], 2), ([3, 3], 2), ([2, 2], 3)]  # fmt: skip
COOL_RUNS = 5  # the cool CPU time printed is the median of these (the machine is shared)


def fresh_process_ms() -> float:
    """``analyze`` of 10,6 against 10 in a new interpreter, timed inside it (imports apart)."""
    code = (
        "import time; from blackjack import Rules, analyze;"
        "t = time.perf_counter(); analyze(Rules(), [10, 6], 10);"
        "print((time.perf_counter() - t) * 1e3)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    add_rules_arguments(parser)
    args = parser.parse_args()
    rules = rules_from_args(args)
    print(f"rules: {args.rules} {rules.to_dict()}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    print(f"analyze 10,6 vs 10, fresh process (dealer tables built on the way): "
          f"{fresh_process_ms():.1f} ms")  # fmt: skip
    prepare_dealer_tables(h17=rules.dealer_hits_soft_17)
    for hand, up in SITUATIONS:
        cools, cool_cpus = [], []
        for _ in range(COOL_RUNS):
            ev.clear_caches()
            t, c = time.perf_counter(), time.process_time()
            ev.analyze(rules, hand, up)
            cools.append(time.perf_counter() - t)
            cool_cpus.append(time.process_time() - c)
        cool, cool_cpu = statistics.median(cools), statistics.median(cool_cpus)
        t = time.perf_counter()
        ev.analyze(rules, hand, up)
        warm = time.perf_counter() - t
        print(f"analyze {hand} vs {up}: cool {cool * 1e3:7.1f} ms (CPU {cool_cpu * 1e3:6.1f})"
              f"   warm {warm * 1e3:6.2f} ms")  # fmt: skip

    from blackjack import basic_chart, house_edge

    ev.clear_caches()
    t, c = time.perf_counter(), time.process_time()
    ev.prepare_full_shoe(rules)
    table = [ev.analyze(rules, [a, b], up) for up in range(1, 11)
             for a in range(1, 11) for b in range(a, 11)]  # fmt: skip
    print(f"all {len(table)} two-card situations (EVs only): {time.perf_counter() - t:.2f} s "
          f"(CPU {time.process_time() - c:.2f} s)")  # fmt: skip
    t = time.perf_counter()
    basic_chart(rules)  # not stored: computed
    print(f"chart for a new rule set (after the table): {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    rows = all_situations(rules, None)
    print(f"analyze --all ({len(rows)} rows, chart column included): "
          f"{time.perf_counter() - t:.2f} s")  # fmt: skip
    t = time.perf_counter()
    edge = house_edge(rules)
    print(f"house edge after the chart: {time.perf_counter() - t:.2f} s  {edge}")

    ev.clear_caches()
    t, c = time.perf_counter(), time.process_time()
    basic_chart(rules)
    print(f"chart for a new rule set from nothing: {time.perf_counter() - t:.2f} s "
          f"(CPU {time.process_time() - c:.2f} s)")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
