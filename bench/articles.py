"""Benchmark: a warm article page's server time, and the house-edge calculator's answer.

Run by hand: ``python bench/articles.py [--n 300] [--new]``.  It drives the real views through
Django's test client (middleware, session, templates; no network) against the development
database, after ``manage.py bootstrap`` has stored the house figures.  Prints the 50th and
99th percentile in milliseconds (wall clock and this process's CPU) of:

* every article page, warm (target p99 <= 30 ms, and no query per figure: the queries of
  one warm page are counted);
* the calculator's answer for a stored rule set, the htmx fragment (target <= 50 ms);
* with ``--new``: a new rule set end to end with a worker running (the bench starts
  ``manage.py tables_worker`` and waits until it listens, unless ``--no-worker``), POST then
  polling at the page's own interval (its ``hx-trigger``) until the edge is shown (target
  <= 3 s; the engine's part decides it), then until each option's own effect is shown.  The
  bench's rule sets are removed from the store first (chart, drill tables, edge, job), so
  every run computes them; ``--runs`` repeats it, each with a worker started anew.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

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
    parser.add_argument("--runs", type=int, default=1, help="how many times (--new)")
    parser.add_argument(
        "--no-worker", action="store_true", help="use the worker already running (--new)"
    )
    args = parser.parse_args()
    print(describe())
    if figures.figures_get() is None:
        raise SystemExit("no stored figures: run manage.py bootstrap first")
    # A plain client on an allowed host, without setup_test_environment(): its template
    # instrumentation keeps every rendered context alive, and collecting that growing heap
    # put 100-230 ms pauses into the 99th percentile (a server has no such thing).
    client = Client(HTTP_HOST="localhost")
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
        for run in range(args.runs):
            new_rule_set(client, url, worker=not args.no_worker, run=run)


# The new rule set of --new: two options changed, so the reader waits for its edge, then for
# the two single options' own effects (three rule sets in the queue).
NEW_QUERY = {**HOUSE_QUERY, "decks": "4", "surrender": "on"}


def _forget(query: dict[str, str]) -> None:
    """Remove what the store holds of the calculator's rule sets for ``query``."""
    from articles import calculator
    from articles.forms import CalculatorForm
    from blackjack import table_key
    from computed.models import ChartJob, ComputedTable
    from computed.tables import chart_key, drill_key

    form = CalculatorForm(query)
    assert form.is_valid(), form.errors
    rules, singles = calculator._needed(form)
    for r in [rules, *(one for _n, _l, one in singles)]:
        if r == figures.HOUSE:
            continue
        keys = [table_key("edge", r), chart_key(r), drill_key(r)]
        ComputedTable.objects.filter(key__in=keys).delete()
        ChartJob.objects.filter(rules_key=r.key()).delete()
    figures._EDGES.clear()


def _start_worker() -> subprocess.Popen[str]:
    """``manage.py tables_worker`` in its own process, returned once it polls the queue."""
    code = (
        "import logging, django; django.setup();"
        "logging.getLogger('django_tasks_db').setLevel(logging.INFO);"
        "from django.core.management import call_command;"
        "call_command('tables_worker', reload=False)"
    )
    worker = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[1],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert worker.stderr is not None
    for line in worker.stderr:
        if "Starting worker" in line:
            break
    else:
        raise SystemExit("the worker did not start")
    time.sleep(0.5)  # past its first look at the empty queue (a random delay below 1 s)
    return worker


def _stages(query: dict[str, str], posted: float) -> str:
    """When the worker took the chosen rule set's task and stored its edge, in seconds after
    the POST (from the database's timestamps)."""
    from django_tasks_db.models import DBTaskResult

    from articles import calculator
    from articles.forms import CalculatorForm
    from blackjack import table_key
    from computed.models import ChartJob, ComputedTable

    form = CalculatorForm(query)
    form.is_valid()
    rules = calculator._needed(form)[0]
    job = ChartJob.objects.get(rules_key=rules.key())
    task = DBTaskResult.objects.filter(id=job.task_id).first()
    edge = ComputedTable.objects.filter(key=table_key("edge", rules)).first()
    took = task.started_at.timestamp() - posted if task and task.started_at else None
    stored = edge.created.timestamp() - posted if edge else None
    return (f"task started {took if took is None else f'{took:.2f} s'}, "
            f"edge stored {stored if stored is None else f'{stored:.2f} s'}")  # fmt: skip


def new_rule_set(client: Client, url: str, *, worker: bool, run: int) -> None:
    from django.db import connections

    _forget(NEW_QUERY)
    connections.close_all()
    process = _start_worker() if worker else None
    try:
        load = os.getloadavg()[0]
        posted = time.time()
        start = time.perf_counter()
        response = client.post("/en/rules/house-edge/compute/", NEW_QUERY, **HTMX)
        html = response.content.decode()
        shown = full = None
        progress: list[str] = []
        polls = 0
        while full is None and time.perf_counter() - start < 120:
            # As the page: the next poll after the interval its fragment asks for.
            every = re.search(r'hx-trigger="every ([0-9.]+)s"', html)
            if every is None:
                break
            time.sleep(float(every.group(1)))
            html = client.get(url, NEW_QUERY, **HTMX).content.decode()
            polls += 1
            progress += re.findall(r'<progress max="100" value="(\d+)"', html)
            now = time.perf_counter() - start
            if shown is None and 'data-edge="basic"' in html:
                shown = now
            if shown is not None and "data-effect" in html and "…</td>" not in html:
                full = now
        edge = re.search(r'data-edge="basic">([^<]+)<', html)
        print(f"calculator, new rule set (run {run + 1}, load {load:.1f}): edge shown "
              f"{shown if shown is None else f'{shown:.2f} s'} after the POST, every "
              f"option's own effect {full if full is None else f'{full:.2f} s'} "
              f"({polls} polls, progress seen {'/'.join(progress) or 'none'} %, "
              f"edge {edge.group(1) if edge else '?'})")  # fmt: skip
        print(f"  the worker, for the chosen rules: {_stages(NEW_QUERY, posted)}")
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
