"""Benchmark: server time of the drill's "deal" and "answer" requests, per preset.

Run by hand: ``python bench/trainer.py [--n 200] [--presets thoth live ...] [--focus all]``.
It drives the real views through Django's test client (middleware, session, ORM, templates;
no network) against the development database (``DATABASE_URL`` is respected), as the htmx
page does, and prints the 50th and 99th percentile in milliseconds, of wall-clock time and of this
process's CPU time (the machine may be shared).  Presets whose tables
are not stored yet are computed first (not timed: the app does that in the background).
Each preset starts with a few untimed rounds (``--warmup``): a fresh process parses the
tables and compiles the templates once.  Target: both under 50 ms at the 99th percentile
for every preset.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402
from blackjack import PRESETS  # noqa: E402
from computed.services import chart_job_run, tables_stored  # noqa: E402
from trainer.models import Situation  # noqa: E402

HTMX = {"HTTP_HX_REQUEST": "true"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200, help="deals and answers per preset")
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--focus", default="all")
    parser.add_argument("--warmup", type=int, default=5, help="untimed rounds per preset first")
    args = parser.parse_args()
    for name in args.presets:
        if not tables_stored(PRESETS[name]):
            started = time.perf_counter()
            chart_job_run(rules=PRESETS[name])
            print(f"{name}: tables computed in {time.perf_counter() - started:.1f} s (untimed)")
    user, _ = User.objects.get_or_create(username="bench-trainer", defaults={"is_guest": True})
    # A plain client on an allowed host, without setup_test_environment(): its template
    # instrumentation keeps every rendered context alive, and collecting that growing heap
    # put 100-230 ms pauses into the 99th percentile (a server has no such thing).
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    rng = Random(1)
    print(
        f"{'preset':<10} {'deal p50':>9} {'deal p99':>9} {'answer p50':>11} {'answer p99':>11}  ms"
    )
    worst = 0.0
    for name in args.presets:
        settings = {"focus": args.focus, "up": "6", "preset": name}
        deals: list[float] = []
        answers: list[float] = []
        deal_cpu: list[float] = []
        answer_cpu: list[float] = []
        for i in range(args.warmup + args.n):
            if i == args.warmup:  # the process is warm: tables parsed, templates compiled
                for values in (deals, answers, deal_cpu, answer_cpu):
                    values.clear()
            started, cpu = time.perf_counter(), time.process_time()
            response = client.post("/en/trainer/deal/", settings, **HTMX)
            deals.append(1000 * (time.perf_counter() - started))
            deal_cpu.append(1000 * (time.process_time() - cpu))
            assert response.status_code == 200, response.status_code
            situation = Situation.objects.filter(user=user).order_by("-id").first()
            assert situation is not None
            move = rng.choice(sorted(situation.ev))
            started, cpu = time.perf_counter(), time.process_time()
            response = client.post(
                "/en/trainer/answer/", {"situation": situation.pk, "move": move}, **HTMX
            )
            answers.append(1000 * (time.perf_counter() - started))
            answer_cpu.append(1000 * (time.process_time() - cpu))
            assert response.status_code == 200, response.status_code
        row = [percentile(deals, 50), percentile(deals, 99), percentile(answers, 50),
               percentile(answers, 99)]  # fmt: skip
        worst = max(worst, row[1], row[3])
        print(f"{name:<10} {row[0]:>9.1f} {row[1]:>9.1f} {row[2]:>11.1f} {row[3]:>11.1f}")
        cpu = [percentile(deal_cpu, 50), percentile(deal_cpu, 99), percentile(answer_cpu, 50),
               percentile(answer_cpu, 99)]  # fmt: skip
        print(f"{'  cpu':<10} {cpu[0]:>9.1f} {cpu[1]:>9.1f} {cpu[2]:>11.1f} {cpu[3]:>11.1f}")
    print(f"worst 99th percentile: {worst:.1f} ms ({'under' if worst < 50 else 'OVER'} 50 ms)")
    print(f"(load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores;")
    print(" the cpu rows count this process only, without the database server's time)")
    user.delete()  # its situations and decisions go with it


if __name__ == "__main__":
    main()
