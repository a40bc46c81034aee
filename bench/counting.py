"""Benchmark: the counting drill's answer (issue 31) under 50 concurrent users, with the bare
view's figures beside.

Run by hand (not part of the test run; PostgreSQL with trust authentication, Redis)::

    .venv/bin/python bench/counting.py [--users 50] [--seconds 30] [--think 1.0]

The stack is ``bench/pages.py``'s: it drops and makes the database ``--db`` (default
``thoth_count_bench``), migrates, bootstraps, collects the static files, and starts the app
(``config.settings.prod``, Redis ``--redis`` as the cache) and ``bench/bare_app.py`` under
gunicorn with ``--workers`` sync workers each.  ``--users`` learners, each signed in with a
session of their own, then drill in threads of this process, each on its own keep-alive
connection, as the htmx page does: deal a running-count question (10 cards, shown at once),
think, type a count, think (``--think`` seconds on average, exponentially distributed, as
``bench/load.py``'s users).  Only the answers after ``--warmup`` seconds are measured, for
``--seconds``: their 50th and 99th percentile and the deals' beside.  The same users then
read the bare view (one SQL query, no middleware) with the same thinking for the same time:
the yardstick of what a request costs on this machine at this moment.  Target: the answer's
99th percentile at or under 50 ms.  The times are taken in the client (the threads' own
waiting for the interpreter lock is in them); the machine is shared: the load average is
printed.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from urllib.parse import urlencode

from machine import describe  # bench/machine.py, beside this script
from pages import ROOT, database_prepare, prod_env, servers_start, session_cookie, wait_for

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

DEAL = {"focus": "running", "preset": "thoth", "up": "6", "system": "hilo", "pace": "0",
        "cards": "10", "step": "1"}  # fmt: skip
QUESTION = re.compile(rb'name="question" value="(\d+)"')


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] if values else 0.0


class Learner(threading.Thread):
    """One user on one keep-alive connection: ``step(self)`` until ``stop``."""

    def __init__(self, port: int, cookie: str, seed: int, think: float) -> None:
        super().__init__(daemon=True)
        self.port, self.cookie, self.think = port, cookie, think
        self.csrf = cookie.split("csrftoken=")[1]
        self.rng = Random(seed)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.times: dict[str, list[tuple[float, float]]] = {"deal": [], "answer": [], "bare": []}
        self.errors = 0
        self.last_error = ""
        self.stop_at = 0.0
        self.step: Callable[[Learner], None] = drill_step

    def request(self, kind: str, method: str, path: str, body: dict[str, str] | None) -> bytes:
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf, "HX-Request": "true",
                   "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
        started = time.perf_counter()
        try:
            self.connection.request(method, path, urlencode(body or {}), headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.errors += 1
            self.last_error = f"{path}: {exc!r}"
            self.connection.close()
            return b""
        took = 1000 * (time.perf_counter() - started)
        if response.status >= 400:
            self.errors += 1
            self.last_error = f"{path}: {response.status}"
        self.times[kind].append((time.monotonic(), took))
        return data

    def pause(self) -> None:
        time.sleep(min(self.rng.expovariate(1 / self.think), 5 * self.think))

    def run(self) -> None:
        time.sleep(self.rng.random() * self.think)  # the users do not all start at once
        while time.monotonic() < self.stop_at:
            self.step(self)


def drill_step(user: Learner) -> None:
    found = QUESTION.search(user.request("deal", "POST", "/en/trainer/deal/", DEAL))
    user.pause()
    if found is not None:
        count = str(user.rng.randint(-6, 6))
        answer = {"question": found.group(1).decode(), "count": count}
        user.request("answer", "POST", "/en/trainer/count/answer/", answer)
    user.pause()


def bare_step(user: Learner) -> None:
    user.request("bare", "GET", "/", None)
    user.pause()


def drive(users: list[Learner], seconds: float) -> None:
    stop = time.monotonic() + seconds
    for user in users:
        user.stop_at = stop
        user.start()
    for user in users:
        user.join()


def measured(users: list[Learner], kind: str, since: float) -> list[float]:
    return [took for u in users for at, took in u.times[kind] if at >= since]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured, after warm-up")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between requests")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", default="thoth_count_bench")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/2")
    args = parser.parse_args()
    env = prod_env(args.pg, args.db, args.redis)
    database_prepare(args.pg, args.db, args.redis, env)
    import django

    django.setup()
    from accounts.models import User

    learners = [User.objects.create_user(username=f"count-{i}") for i in range(args.users)]
    cookies = [session_cookie(u) for u in learners]
    servers, app_port, bare_port = servers_start(env, args.workers)
    load_before = os.getloadavg()
    try:
        wait_for(app_port)
        wait_for(bare_port)
        total = args.warmup + args.seconds
        app = [Learner(app_port, c, i, args.think) for i, c in enumerate(cookies)]
        started = time.monotonic()
        drive(app, total)
        since = started + args.warmup
        bare = [Learner(bare_port, c, i, args.think) for i, c in enumerate(cookies)]
        for user in bare:
            user.step = bare_step
        bare_started = time.monotonic()
        drive(bare, total)
        bare_since = bare_started + args.warmup
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
    load_after = os.getloadavg()
    answers, deals = measured(app, "answer", since), measured(app, "deal", since)
    yardstick = measured(bare, "bare", bare_since)
    print(describe())
    print(f"load average before: {load_before}, after: {load_after}")
    print(f"{args.users} users, {args.think:g} s mean think time, {args.workers} gunicorn "
          f"workers each; {args.seconds:g} s measured after {args.warmup:g} s")  # fmt: skip
    print(f"| {'request':<22} | {'n':>6} | {'req/s':>6} | {'p50 ms':>7} | {'p99 ms':>7} |")
    print(f"|{'-' * 24}|{'-' * 8}|{'-' * 8}|{'-' * 9}|{'-' * 9}|")
    for name, values in (("counting answer", answers), ("counting deal", deals),
                         ("bare view (beside)", yardstick)):  # fmt: skip
        print(f"| {name:<22} | {len(values):>6} | {len(values) / args.seconds:>6.1f} | "
              f"{percentile(values, 50):>7.1f} | {percentile(values, 99):>7.1f} |")  # fmt: skip
    errors = sum(u.errors for u in app) + sum(u.errors for u in bare)
    sample = next((u.last_error for u in [*app, *bare] if u.last_error), "")
    p99 = percentile(answers, 99)
    example = f" (e.g. {sample})" if sample else ""
    verdict = "met" if p99 <= 50 else "NOT met"
    print(f"errors: {errors}{example}; answer p99 {p99:.1f} ms: {verdict} (target 50 ms)")
    return 0 if answers and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
