"""Benchmark: a warm article page's server time, and the house-edge calculator's answer.

Run by hand: ``python bench/articles.py [--n 300] [--new]``.  It drives the real views through
Django's test client (middleware, session, templates; no network) against the development
database, after ``manage.py bootstrap`` has stored the house figures.  Prints the 50th and
99th percentile in milliseconds (wall clock and this process's CPU) of:

* every article page, warm (target p99 <= 30 ms, and no query per figure: the queries of
  one warm page are counted);
* the calculator's answer for a stored rule set, the htmx fragment (target <= 50 ms);
* with ``--new``: a new rule set end to end, POST then polling as the page does until the
  edge is shown (target <= 3 s; the engine's part decides it).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from articles import content, figures  # noqa: E402
from bench.machine import describe  # noqa: E402

HTMX = {"HTTP_HX_REQUEST": "true"}
HOUSE_QUERY = {
    "c": "1", "decks": "6", "bj_pays": "3:2", "peek": "ace_and_ten", "double_on": "any_two",
    "double_soft": "on", "das": "on", "max_hands": "4",
}  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def timed(func, n: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(n):
        w, c = time.perf_counter(), time.process_time()
        func()
        wall.append(1000 * (time.perf_counter() - w))
        cpu.append(1000 * (time.process_time() - c))
    return wall, cpu


def report(name: str, wall: list[float], cpu: list[float]) -> None:
    print(f"{name:<34} wall p50 {percentile(wall, 50):6.2f} p99 {percentile(wall, 99):6.2f}"
          f"   cpu p50 {percentile(cpu, 50):6.2f} p99 {percentile(cpu, 99):6.2f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--new", action="store_true", help="also time a new rule set")
    args = parser.parse_args()
    setup_test_environment()
    print(describe())
    if figures.figures_get() is None:
        raise SystemExit("no stored figures: run manage.py bootstrap first")
    client = Client()
    paths = [f"/en/rules/{slug}/" for slug in content.SLUGS]
    for path in paths:  # warm: templates compiled, figures and pages parsed once
        assert client.get(path).status_code == 200
    for path in paths:
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        wall, cpu = timed(lambda path=path: client.get(path), args.n // len(paths) + 10)
        report(f"{path} ({len(queries)} queries)", wall, cpu)
    everything: list[float] = []
    cpu_all: list[float] = []
    for _ in range(3):
        for path in paths:
            w, c = timed(lambda path=path: client.get(path), args.n // len(paths))
            everything += w
            cpu_all += c
    report("all articles, warm", everything, cpu_all)
    url = "/en/rules/house-edge/calculator/"
    client.get(url, HOUSE_QUERY, **HTMX)
    wall, cpu = timed(lambda: client.get(url, {**HOUSE_QUERY, "h17": "on"}, **HTMX), args.n)
    report("calculator, stored rule set", wall, cpu)
    if args.new:
        query = {**HOUSE_QUERY, "decks": "4", "surrender": "on"}
        start = time.perf_counter()
        client.post("/en/rules/house-edge/compute/", query, **HTMX)
        polls = 0
        while b'data-edge="basic"' not in client.get(url, query, **HTMX).content:
            polls += 1
            time.sleep(0.25)
        print(f"calculator, new rule set end to end: {time.perf_counter() - start:.2f} s "
              f"({polls} polls)")  # fmt: skip


if __name__ == "__main__":
    main()
