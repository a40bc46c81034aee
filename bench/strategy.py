"""The whole strategy of a rule set, timed as the C++ analyzer's job: ``python bench/strategy.py``.

The job: ``python -m blackjack analyze --all --no-store`` (every two-card hand against every up
card, every option's EV, splits with resplit decisions, and the chart) for six decks S17 DAS (the
``thoth`` preset) and one deck H17.  Cold: a fresh process each run, its CPU time (user + system,
from ``wait4``), wall time and peak memory, the median of ``--runs``.
Warm: the same in this process after ``clear_caches()`` (imports and drawing tables done).

``--base DIR`` times a checkout of older code (its ``blackjack`` package) and ``--cpp PROGRAM``
Eric Farmer's analyzer built from its public source in a scratch folder (``PROGRAM DECKS H17``:
see the README's "Measured"), alternated run by run with ours (A B A B): the machine is shared,
so compare CPU times, not wall times.  ``--pure`` also times ours without the compiled kernel
(``BLACKJACK_PURE=1``: numpy computes).  Then the per-composition cost (one hand against one up
card from a shoe with cards removed, warm) for 1, 10 and 100 compositions, and the CLI start-up.
With ``PYTHONDONTWRITEBYTECODE`` set (the Makefile sets it) every cold run compiles our modules
afresh, about 0.04 s of its CPU; the bench says which.  Run by hand, not by the tests.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
# This checkout's blackjack in this process (warm runs), not an installed one (the shared
# virtualenv installs another checkout's).
sys.path.insert(0, str(ROOT))

from bench.machine import describe  # noqa: E402

JOBS = {"6D S17 DAS": (["--rules", "thoth"], ["6", "0"]),
        "1D H17 DAS": (["--rules", "thoth", "--decks", "1", "--h17"], ["1", "1"])}  # fmt: skip
HANDS = [([10, 6], 10), ([5, 6], 6), ([1, 7], 9), ([8, 8], 10), ([2, 2], 2)]


def timed(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[float, float, float]:
    """CPU s, wall s, peak MB of one child process (its own, from wait4)."""
    t = time.perf_counter()
    environ = {**os.environ, **env} if env else None
    child = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, env=environ)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, cmd)
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def line(name: str, runs: list[tuple[float, float, float]]) -> str:
    cpu = statistics.median(r[0] for r in runs)
    wall = statistics.median(r[1] for r in runs)
    lo, hi = min(r[0] for r in runs), max(r[0] for r in runs)
    peak = max(r[2] for r in runs)
    return (
        f"  {name:<8} CPU {cpu:5.2f} s ({lo:.2f}-{hi:.2f})  wall {wall:5.2f} s  peak {peak:4.0f} MB"
    )


def cold(args: argparse.Namespace) -> None:
    for job, (flags, cpp_args) in JOBS.items():
        ours = [sys.executable, "-m", "blackjack", "analyze", *flags, "--all", "--no-store"]
        results: dict[str, list[tuple[float, float, float]]] = {"ours": []}
        if args.pure:
            results["pure"] = []
        if args.base:
            results["base"] = []
        if args.cpp:
            results["C++"] = []
        for _ in range(args.runs):
            results["ours"].append(timed(ours, ROOT))
            if args.pure:
                results["pure"].append(timed(ours, ROOT, {"BLACKJACK_PURE": "1"}))
            if args.base:
                results["base"].append(timed(ours, Path(args.base)))
            if args.cpp:
                results["C++"].append(timed([args.cpp, *cpp_args], ROOT))
        print(f"{job}, cold, {args.runs} runs alternated (median, range):")
        for name, runs in results.items():
            print(line(name, runs))
        if args.cpp:
            ratio = statistics.median(r[0] for r in results["ours"]) / statistics.median(
                r[0] for r in results["C++"]
            )
            print(f"  ours / C++ CPU: {ratio:.2f}")


def warm() -> None:
    import blackjack as bj
    from blackjack.cli import all_situations

    for job in JOBS:
        rules = bj.Rules(decks=1, dealer_hits_soft_17=True) if "1D" in job else bj.Rules()
        bj.clear_caches()
        all_situations(rules, None)  # the drawing tables and the code paths
        bj.clear_caches()
        t, c = time.perf_counter(), time.process_time()
        all_situations(rules, None)
        print(f"{job}, warm (imports and drawing tables done, no EV kept): CPU "
              f"{time.process_time() - c:.2f} s, wall {time.perf_counter() - t:.2f} s")  # fmt: skip


def per_composition(label: str = "") -> None:
    from blackjack import Rules, analyze, clear_caches

    clear_caches()
    rules, rng = Rules(), random.Random(7)
    analyze(rules, [10, 6], 10, removed=[2])
    print(f"one hand, one up card, a shoe with 1-12 random cards out (warm){label}, CPU per shoe:")
    for hand, up in HANDS:
        analyze(rules, hand, up, removed=[3])
        cells = []
        for n in (1, 10, 100):
            shoes = [[rng.randint(1, 10) for _ in range(rng.randint(1, 12))] for _ in range(n)]
            c = time.process_time()
            for removed in shoes:
                analyze(rules, hand, up, removed=removed)
            cells.append(f"{n:>3}: {(time.process_time() - c) / n * 1e3:5.1f} ms")
        print(f"  {','.join(map(str, hand)):>4} v {up:<2}  " + "   ".join(cells))


def startup() -> None:
    runs = [timed([sys.executable, "-m", "blackjack", "--help"], ROOT) for _ in range(5)]
    print(f"CLI start-up (--help), 5 runs: wall {statistics.median(r[1] for r in runs):.2f} s, "
          f"CPU {statistics.median(r[0] for r in runs):.2f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base", help="a checkout of the code to compare with")
    parser.add_argument("--cpp", help="the C++ analyzer's program (DECKS H17)")
    parser.add_argument("--pure", action="store_true", help="ours without the kernel too")
    args = parser.parse_args()
    from blackjack.maths import backend

    kernel = "built" if backend.KERNEL is not None else "NOT built (numpy computes)"
    compiles = "unset"
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        compiles = "set: every cold run compiles"
    print(f"{describe()}; load average: {os.getloadavg()[0]:.1f}; kernel {kernel}; "
          f"PYTHONDONTWRITEBYTECODE {compiles}")  # fmt: skip
    cold(args)
    warm()
    per_composition()
    if args.pure and backend.KERNEL is not None:
        kept, backend.KERNEL = backend.KERNEL, None
        per_composition(" without the kernel")
        backend.KERNEL = kept
    startup()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process (warm runs): {peak:.0f} MB")


if __name__ == "__main__":
    main()
