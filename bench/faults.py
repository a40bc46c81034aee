"""Faults under load: kill an app server, kill the worker mid-job, restart PostgreSQL.

Run by hand (as ``bench/load.py``; it restarts this machine's PostgreSQL cluster once, so
every other user of it sees a few seconds' outage)::

    .venv/bin/python bench/faults.py --users 40 --seconds 110

The stack of ``bench/load.py`` (two app servers, one ``tables_worker``, a fresh database,
Redis) runs ``--users`` simulated users for ``--seconds`` while this script, at fixed times:

1. ``--kill-server`` s: SIGKILLs the app server on :8101 (its whole process group) and starts
   it again 5 s later;
2. ``--chart`` s: POSTs the chart of a rule set not computed yet (``sixdeck``) and, once the
   worker has begun it, SIGKILLs the worker and starts another;
3. ``--restart-db`` s: restarts PostgreSQL (``pg_ctlcluster --skip-systemctl-redirect``).

Afterwards it checks that the invariants of ``load.py`` hold, that every round that was in play
at a fault was played to its end (by its player during the load, or else afterwards through
the app's move service), that the chart job finishes (the worker's look for stale jobs takes
over a dead worker's job after ``STALE_JOB``), and that requests answered while the database
was away were 503s, never 500s. It prints what happened, with times.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # bench/load.py, beside this script
from machine import describe

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CHART_PRESET = "sixdeck"


def sql(stack: load.Stack, query: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(load.pg_url(stack.database).replace("postgres://", "postgresql://"),
                         connect_timeout=3, autocommit=True) as conn:  # fmt: skip
        return list(conn.execute(query).fetchall())


def post_chart(port: int) -> int:
    """Ask for a new rule set's chart as a visitor does: GET the page, POST its form."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/en/trainer/chart/?preset={CHART_PRESET}")
    response = conn.getresponse()
    html = response.read().decode()
    cookie = next(
        v.split(";", 1)[0] for k, v in response.getheaders()
        if k.lower() == "set-cookie" and v.startswith("csrftoken=")
    )  # fmt: skip
    token = CSRF.search(html)
    assert token is not None, "no CSRF token on the chart page"
    body = f"preset={CHART_PRESET}&csrfmiddlewaretoken={token.group(1)}"
    conn.request("POST", "/en/trainer/chart/", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})  # fmt: skip
    response = conn.getresponse()
    response.read()
    return response.status


class Log:
    def __init__(self, start: float) -> None:
        self.start = start
        self.lines: list[str] = []

    def __call__(self, text: str) -> None:
        line = f"[{time.time() - self.start:6.1f} s] {text}"
        self.lines.append(line)
        print(line, flush=True)


def playing(stack: load.Stack) -> set[int]:
    return {row[0] for row in sql(stack, "SELECT id FROM game_round WHERE status = 'playing'")}


def faults(stack: load.Stack, opts: Any, start: float, log: Log, seen: dict[str, Any]) -> None:
    def at(t: float) -> None:
        time.sleep(max(0.0, start + t - time.time()))

    at(opts.kill_server)
    seen["rounds"] |= playing(stack)
    load.Stack.kill(stack.servers[8101])
    seen["server_killed"] = time.time()
    log("SIGKILL app server :8101 (master and workers)")
    time.sleep(5)
    stack.start_server(8101)
    load.wait_healthy(8101)
    seen["server_back"] = time.time()
    log("app server :8101 started again and healthy")

    at(opts.chart)
    status = post_chart(8102)
    log(f"POST /en/trainer/chart/ preset={CHART_PRESET}: HTTP {status}")
    for _ in range(600):
        rows = sql(stack, "SELECT status, done, total FROM trainer_chartjob")
        if rows and rows[0][0] == "running" and rows[0][1] > 0:
            break
        time.sleep(0.2)
    log(f"the chart job is running ({rows[0][1]}/{rows[0][2]}): SIGKILL the worker")
    load.Stack.kill(stack.worker)
    seen["job_at_kill"] = rows[0]
    time.sleep(2)
    stack.start_worker()
    log("a new tables_worker started")

    at(opts.restart_db)
    seen["rounds"] |= playing(stack)
    cluster = sorted(os.listdir("/etc/postgresql"))[-1]
    seen["db_down"] = time.time()
    log(f"restarting PostgreSQL {cluster}/main")
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", cluster, "main", "restart"],
                   check=True)  # fmt: skip
    seen["db_up"] = time.time()
    log(f"PostgreSQL back after {seen['db_up'] - seen['db_down']:.1f} s")


def main() -> int:
    args = load.parser(__doc__ or "")
    args.set_defaults(users=40, seconds=110.0, warmup=0.0)
    args.add_argument("--kill-server", type=float, default=20.0)
    args.add_argument("--chart", type=float, default=35.0)
    args.add_argument("--restart-db", type=float, default=70.0)
    args.add_argument("--job-timeout", type=float, default=480.0, help="wait for the chart job")
    opts = args.parse_args()
    stack = load.Stack(database=opts.database, redis=opts.redis, workers=opts.workers)
    teachers = stack.prepare(opts.teachers or max(1, opts.users // 10))
    record = stack.logs / "requests.jsonl"
    print(describe())
    stack.start()
    seen: dict[str, Any] = {"rounds": set()}
    start = time.time()
    log = Log(start)
    try:
        load_before = os.getloadavg()
        locust = load.run_locust(stack, opts.users, opts.seconds, record, teachers)
        breaker = threading.Thread(target=faults, args=(stack, opts, start, log, seen))
        breaker.start()
        breaker.join()
        locust.wait()
        load_after = os.getloadavg()
        log("load over; waiting for the chart job")
        deadline = time.time() + opts.job_timeout
        job: tuple[Any, ...] = ()
        while time.time() < deadline:
            job = sql(stack, "SELECT status, done, total, error FROM trainer_chartjob")[0]
            if job[0] in ("done", "failed"):
                break
            time.sleep(2)
        log(f"chart job: {job[0]} ({job[1]}/{job[2]}) {job[3] or ''}")
        tasks = sql(stack, "SELECT status, COUNT(*) FROM django_tasks_database_dbtaskresult "
                           "GROUP BY status ORDER BY status")  # fmt: skip
        log(f"its task rows: {dict(tasks)}")
        settled_by_players = sql(
            stack, "SELECT COUNT(*) FROM game_round WHERE status = 'settled' AND id IN "
            f"({','.join(map(str, seen['rounds'])) or '0'})",
        )[0][0]  # fmt: skip
    finally:
        stack.stop()
    records = load.read_records(record)
    summary = load.summarize(records, start, start + opts.seconds)
    print(f"{opts.users} users for {opts.seconds:.0f} s, 2 app servers x {opts.workers} workers"
          f" + 1 tables_worker; load average before {load_before[0]:.2f}, after"
          f" {load_after[0]:.2f} ({os.cpu_count()} cores; logs in {stack.logs})")  # fmt: skip
    load.print_summary(summary)
    statuses = {s for *_, s in records}
    fives = [r for r in records if r[3] >= 500]
    away = [r for r in records if seen["db_down"] - 1 <= r[0] <= seen["db_up"] + 10]
    away_codes = sorted({r[3] for r in away})
    print(
        f"all statuses seen: {sorted(statuses)}; 5xx: "
        f"{ {c: sum(1 for r in fives if r[3] == c) for c in sorted({r[3] for r in fives})} }"
    )
    print(
        f"while the database was away (+10 s): {len(away)} requests, statuses {away_codes}, "
        f"503: {sum(1 for r in away if r[3] == 503)}, 500: {sum(1 for r in away if r[3] == 500)}"
    )
    down = [r for r in records if seen["server_killed"] <= r[0] <= seen["server_back"]]
    print(
        f"while :8101 was down: {len(down)} requests, {sum(1 for r in down if r[3] == 0)} "
        "refused (the client has no balancer to send them elsewhere)"
    )
    checks = load.django_call(stack.env, "check")
    finished = load.django_call(stack.env, "finish")
    ok = load.print_checks(checks, finished)
    ok = load.print_checks(load.django_call(stack.env, "check")) and ok
    total = len(seen["rounds"])
    print(
        f"rounds in play at a fault: {total}; settled by their players during the load: "
        f"{settled_by_players}; the rest played to the end afterwards (above)"
    )
    never_500 = not any(r[3] == 500 for r in records)
    saw_503 = any(r[3] == 503 for r in away)
    job_done = bool(job) and job[0] == "done"
    print(
        f"verdict: invariants {'hold' if ok else 'BROKEN'}; chart job "
        f"{'finished' if job_done else 'NOT finished'}; 503 while the database was away: "
        f"{'yes' if saw_503 else 'NO'}; any 500: {'no' if never_500 else 'YES'}"
    )
    return 0 if ok and job_done and never_500 and saw_503 else 1


if __name__ == "__main__":
    sys.exit(main())
