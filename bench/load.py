"""Benchmark: two app servers and a task worker under N simulated users, then the books.

Run by hand (needs ``pip install -e '.[bench]'`` for locust, PostgreSQL and Redis)::

    .venv/bin/python bench/load.py --users 100 --seconds 60

It drops and creates the PostgreSQL database ``--database`` (default ``thoth_load`` on
127.0.0.1:5432, user postgres), migrates and bootstraps it, collects the static files, seeds
``--teachers`` classes of 30 students with 100 decisions each (and a signed-in session for
each teacher), then starts two gunicorn app servers (``config.settings.prod`` with
``DJANGO_HTTPS=false``, a generated secret key, ``--workers`` each) on 127.0.0.1:8101 and
:8102 and one ``manage.py tables_worker``, all with Redis (``--redis``) as the cache. Locust
then runs headless in its own process with ``--users`` users of ``bench/load_users.py``
(players, learners, a teacher per ten, readers; 1 s mean think time; each request to either
server at random) for ``--warmup`` + ``--seconds`` seconds; only the last ``--seconds`` are
measured.

It prints requests per second, p50/p99 per kind of request and the errors, then checks the
invariants in SQL: every wallet equals its ledger, no round in an impossible state, no move
or answer stored twice; and plays every round left in play to its end. The exit status is 1
when an invariant fails or (without ``--allow-errors``) any request failed.
``bench/faults.py`` runs the same load while breaking things.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent

from machine import describe  # noqa: E402  (bench/machine.py, beside this script)

PORTS = (8101, 8102)
TARGET_KINDS = ("move", "drill answer")  # p99 <= 150 ms at 100 users is the target


def pg_url(database: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{database}"


@dataclass
class Stack:
    """The processes of one deployment on loopback: app servers, a worker; each in its own
    process group, so that a SIGKILL takes a server with all its workers."""

    database: str
    redis: str
    workers: int = 2
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    servers: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    worker: subprocess.Popen[bytes] | None = None
    logs: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="thoth-load-")))

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.prod",
            "DJANGO_HTTPS": "false",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": self.secret,
            "DATABASE_URL": pg_url(self.database),
            "REDIS_URL": self.redis,
            "PYTHONDONTWRITEBYTECODE": "1",
        }

    def prepare(self, teachers: int) -> list[dict[str, Any]]:
        """A fresh database, migrated, bootstrapped and seeded; the static files collected."""
        psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c"]
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)"], check=True)
        subprocess.run([*psql, f"CREATE DATABASE {self.database}"], check=True)
        import redis

        redis.Redis.from_url(self.redis).flushdb()  # the rate-limit counters of earlier runs
        py = str(BIN / "python")
        for cmd in (["migrate", "-v0"], ["bootstrap"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([py, "manage.py", *cmd], cwd=ROOT, env=self.env, check=True,
                           stdout=subprocess.DEVNULL)  # fmt: skip
        return django_call(self.env, "seed", teachers)

    def start_server(self, port: int) -> None:
        log = open(self.logs / f"server-{port}.log", "ab")  # noqa: SIM115  (the child's)
        self.servers[port] = subprocess.Popen(
            # The production gunicorn settings (preload, warm-up, recycling: config/gunicorn.py).
            [str(BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi",
             "--workers", str(self.workers), "--bind",
             f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True,
        )  # fmt: skip

    def start_worker(self) -> None:
        log = open(self.logs / "worker.log", "ab")  # noqa: SIM115
        self.worker = subprocess.Popen(
            [str(BIN / "python"), "manage.py", "tables_worker", "--no-startup-delay"],
            cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True,
        )  # fmt: skip

    def start(self) -> None:
        for port in PORTS:
            self.start_server(port)
        self.start_worker()
        for port in PORTS:
            wait_healthy(port)

    @staticmethod
    def kill(process: subprocess.Popen[bytes] | None) -> None:
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        for process in [*self.servers.values(), self.worker]:
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in [*self.servers.values(), self.worker]:
            if process is None:
                continue
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill(process)


def cpu_seconds(stack: Stack, locust: subprocess.Popen[bytes]) -> dict[str, float]:
    """CPU seconds used so far by the app servers, the worker, locust, and the PostgreSQL
    backends of our database (from /proc; a process that died since is not counted)."""
    tick = os.sysconf("SC_CLK_TCK")
    groups = {p.pid: f"server :{port}" for port, p in stack.servers.items()}
    if stack.worker is not None:
        groups[stack.worker.pid] = "worker"
    out: dict[str, float] = defaultdict(float)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        pgrp, used = int(stat[2]), (int(stat[11]) + int(stat[12])) / tick
        if pgrp in groups:
            out[groups[pgrp]] += used
        elif int(entry.name) == locust.pid:
            out["locust"] += used
        elif cmd.startswith(b"postgres:") and f" {stack.database} ".encode() in cmd:
            out["postgres (our backends)"] += used
    return dict(out)


def wait_healthy(port: int, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                if b" 200 " in s.recv(64):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the app server on :{port} did not answer /healthz")


def django_call(env: dict[str, str], what: str, *args: Any) -> Any:
    """Run one of this file's Django functions in a fresh process with the stack's settings
    (a fresh connection each time: the database may have restarted since)."""
    code = (f"import sys, json; sys.path.insert(0, {str(ROOT / 'bench')!r}); import load; "
            f"print(json.dumps(load.in_django({what!r}, *{list(args)!r})))")  # fmt: skip
    out = subprocess.run([str(BIN / "python"), "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def in_django(what: str, *args: Any) -> Any:
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    return {"seed": seed, "check": check_invariants, "finish": finish_rounds}[what](*args)


def seed(teachers: int) -> list[dict[str, Any]]:
    """``teachers`` classes of 30 students with 100 decisions each; a session per teacher."""
    import random

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import Role, User
    from blackjack import PRESETS
    from classroom.models import Membership
    from classroom.services import class_create
    from decisions.models import Decision

    rng = random.Random(15)
    thoth = PRESETS["thoth"]
    cells = [("hard", r) for r in range(5, 20)] + [("soft", r) for r in range(13, 21)]
    out = []
    for t in range(teachers):
        teacher = User.objects.create(username=f"load-teacher-{t}", role=Role.TEACHER)
        klass = class_create(owner=teacher, name=f"Load class {t}")
        students = User.objects.bulk_create(
            User(username=f"load-{t}-{i}", role=Role.LEARNER) for i in range(30)
        )
        Membership.objects.bulk_create(Membership(classroom=klass, student=s) for s in students)
        batch = []
        for s in students:
            for _ in range(100):
                kind, row = rng.choice(cells)
                correct = rng.random() < 0.8
                lost = 0.0 if correct else rng.random() * 0.6
                batch.append(Decision(
                    user=s, source="drill", rules=thoth.to_dict(), rules_key=thoth.key(),
                    hand=["10s", "6d"], dealer_up="10h", category=kind, chart_kind=kind,
                    chart_row=row, dealer_points=rng.randint(1, 10),
                    choice="hit" if correct else "stand", best="hit", chart_move="hit",
                    ev={"hit": -0.4, "stand": -0.4 - lost}, ev_lost=lost, correct=correct,
                ))  # fmt: skip
        Decision.objects.bulk_create(batch)
        session = SessionStore()
        session[SESSION_KEY] = str(teacher.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.UserBackend"
        session[HASH_SESSION_KEY] = teacher.get_session_auth_hash()
        session.create()
        out.append({"session": session.session_key, "class": klass.pk})
    return out


# Each query returns the rows that break an invariant (empty: it holds).
INVARIANTS = {
    "wallet equals its ledger": """
        SELECT w.id, w.balance, COALESCE(SUM(e.amount), 0) FROM game_wallet w
        LEFT JOIN game_ledgerentry e ON e.wallet_id = w.id
        GROUP BY w.id HAVING w.balance <> COALESCE(SUM(e.amount), 0)""",
    "wallet equals its last ledger entry's balance": """
        SELECT w.id, w.balance, e.balance_after FROM game_wallet w
        JOIN LATERAL (SELECT balance_after FROM game_ledgerentry x WHERE x.wallet_id = w.id
                      ORDER BY x.id DESC LIMIT 1) e ON true
        WHERE e.balance_after <> w.balance""",
    "round status agrees with its state": """
        SELECT id, status, state->>'phase' FROM game_round
        WHERE (status = 'settled') <> (state->>'phase' = 'settled')
           OR (status = 'settled') <> (finished_at IS NOT NULL)""",
    "settled round: net = paid - staked": """
        SELECT id FROM game_round WHERE status = 'settled' AND net <> paid - staked""",
    "settled round: its payout in the ledger once": """
        SELECT r.id, r.paid, COALESCE(SUM(e.amount), 0), COUNT(e.id) FROM game_round r
        LEFT JOIN game_ledgerentry e ON e.round_id = r.id AND e.kind = 'payout'
        WHERE r.status = 'settled' GROUP BY r.id
        HAVING r.paid <> COALESCE(SUM(e.amount), 0) OR COUNT(e.id) > 1""",
    "settled round: its stakes in the ledger (each once)": """
        SELECT r.id, r.staked, -COALESCE(SUM(e.amount), 0) FROM game_round r
        LEFT JOIN game_ledgerentry e ON e.round_id = r.id
             AND e.kind IN ('bet', 'double', 'split', 'insurance')
        WHERE r.status = 'settled' GROUP BY r.id
        HAVING r.staked <> -COALESCE(SUM(e.amount), 0)""",
    "one bet entry per round": """
        SELECT round_id, COUNT(*) FROM game_ledgerentry WHERE kind = 'bet'
        GROUP BY round_id HAVING COUNT(*) > 1""",
    "a round's decisions = its review (no move stored twice)": """
        SELECT r.id, jsonb_array_length(r.review), COUNT(d.id) FROM game_round r
        LEFT JOIN trainer_decision d ON d.source_ref = 'round:' || r.id
        GROUP BY r.id HAVING COUNT(d.id) <> jsonb_array_length(r.review)""",
    "a round's decisions <= its moves": """
        SELECT r.id, r.seq, jsonb_array_length(r.review) FROM game_round r
        WHERE jsonb_array_length(r.review) > r.seq""",
    "a drill answer stored once": """
        SELECT source_ref, COUNT(*) FROM trainer_decision WHERE source_ref LIKE 'situation:%'
        GROUP BY source_ref HAVING COUNT(*) > 1""",
    "an answered situation points at its own decision": """
        SELECT s.id FROM trainer_situation s JOIN trainer_decision d ON d.id = s.decision_id
        WHERE d.source_ref <> 'situation:' || s.id OR d.user_id <> s.user_id""",
    "no wallet below zero": "SELECT id FROM game_wallet WHERE balance < 0",
}


def check_invariants() -> dict[str, Any]:
    from django.db import connection

    failed: dict[str, list[Any]] = {}
    with connection.cursor() as cursor:
        for name, sql in INVARIANTS.items():
            cursor.execute(sql)
            rows = cursor.fetchall()
            if rows:
                failed[name] = [list(map(str, row)) for row in rows[:5]] + [f"{len(rows)} rows"]
        counts = {}
        for table in ("game_wallet", "game_round", "game_ledgerentry", "trainer_decision",
                      "trainer_situation"):  # fmt: skip
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            counts[table] = cursor.fetchone()[0]
        cursor.execute("SELECT COUNT(*) FROM game_round WHERE status = 'playing'")
        counts["rounds in play"] = cursor.fetchone()[0]
    return {"failed": failed, "counts": counts}


def finish_rounds() -> dict[str, Any]:
    """Play every round still in play to its end through the app's own service (a move its
    player could send), as a returning user would: every interrupted round must resume."""
    from fractions import Fraction

    from blackjack import legal_moves
    from game import services
    from game.codec import state_from_json
    from game.models import Round, Wallet

    finished, stuck = 0, []
    for rnd in Round.objects.filter(status=Round.Status.PLAYING).select_related("user"):
        for _ in range(60):
            rnd.refresh_from_db()
            if not rnd.is_playing:
                finished += 1
                break
            state = state_from_json(rnd.state)
            balance = Fraction(Wallet.objects.get(user=rnd.user).balance)
            legal = {m.value for m in legal_moves(state, balance=balance)}  # type: ignore[arg-type]
            move = next((m for m in ("decline", "stand") if m in legal), None) or sorted(legal)[0]
            try:
                services.round_apply_move(round_id=rnd.pk, user=rnd.user, move=move, seq=rnd.seq)
            except Exception as exc:
                stuck.append(f"round {rnd.pk}: {exc!r}")
                break
        else:
            stuck.append(f"round {rnd.pk}: still in play after 60 moves")
    return {"finished": finished, "stuck": stuck}


def run_locust(stack: Stack, users: int, seconds: float, record: Path,
               teachers: list[dict[str, Any]]) -> subprocess.Popen[bytes]:  # fmt: skip
    env = {
        **os.environ,
        "LOAD_HOSTS": ",".join(f"http://127.0.0.1:{p}" for p in PORTS),
        "LOAD_TEACHERS": json.dumps(teachers),
        "LOAD_RECORD": str(record),
    }
    log = open(stack.logs / "locust.log", "ab")  # noqa: SIM115
    return subprocess.Popen(
        [str(BIN / "locust"), "-f", str(ROOT / "bench" / "load_users.py"), "--headless",
         "--users", str(users), "--spawn-rate", str(max(1, users // 10)),
         "--run-time", f"{int(seconds)}s", "--stop-timeout", "5", "--only-summary",
         "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=log, stderr=log,
    )  # fmt: skip


def read_records(path: Path) -> list[tuple[float, str, float, int]]:
    if not path.exists():
        return []
    return [tuple(json.loads(line)) for line in path.read_text().splitlines() if line]  # type: ignore[misc]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summarize(
    records: list[tuple[float, str, float, int]], since: float, until: float
) -> dict[str, Any]:
    """Per kind of request: count, p50, p99, max (ms) and the statuses of the failures."""
    window = [r for r in records if since <= r[0] < until]
    kinds: dict[str, list[float]] = defaultdict(list)
    errors: Counter[str] = Counter()
    for _t, kind, ms, status in window:
        kinds[kind].append(ms)
        if status != 200:
            errors[f"{kind}: {status or 'no connection'}"] += 1
    rows = {
        k: {"n": len(v), "p50": statistics.median(v), "p99": percentile(v, 99), "max": max(v)}
        for k, v in sorted(kinds.items())
    }
    return {"seconds": until - since, "requests": len(window), "kinds": rows, "errors": errors}


def print_summary(summary: dict[str, Any]) -> None:
    seconds = summary["seconds"]
    print(f"{summary['requests']} requests in {seconds:.0f} s: "
          f"{summary['requests'] / seconds:.1f} req/s")  # fmt: skip
    print(f"  {'kind':<14} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, row in summary["kinds"].items():
        print(
            f"  {kind:<14} {row['n']:>6} {row['p50']:>8.1f} {row['p99']:>8.1f} {row['max']:>8.0f}"
        )
    errors = summary["errors"]
    print(f"errors: {sum(errors.values())}" + (f" {dict(errors)}" if errors else ""))


def print_checks(checks: dict[str, Any], finished: dict[str, Any] | None = None) -> bool:
    print("books: " + ", ".join(f"{k} {v}" for k, v in checks["counts"].items()))
    for name, rows in checks["failed"].items():
        print(f"INVARIANT BROKEN: {name}: {rows}")
    if not checks["failed"]:
        print(f"invariants: all {len(INVARIANTS)} hold")
    if finished is not None:
        print(f"rounds left in play, played to the end: {finished['finished']}; "
              f"stuck: {len(finished['stuck'])} {finished['stuck'][:5]}")  # fmt: skip
    return not checks["failed"] and not (finished or {}).get("stuck")


def parser(doc: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--users", type=int, default=20)
    p.add_argument("--seconds", type=float, default=60.0, help="measured seconds")
    p.add_argument("--warmup", type=float, default=20.0, help="unmeasured seconds first")
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers per app server")
    p.add_argument("--teachers", type=int, default=0, help="classes seeded (default users/10)")
    p.add_argument("--database", default="thoth_load")
    p.add_argument("--redis", default="redis://127.0.0.1:6379/9")
    return p


def main() -> int:
    args = parser(__doc__ or "")
    args.add_argument("--allow-errors", action="store_true")
    opts = args.parse_args()
    stack = Stack(database=opts.database, redis=opts.redis, workers=opts.workers)
    teachers = stack.prepare(opts.teachers or max(1, opts.users // 10))
    record = stack.logs / "requests.jsonl"
    print(describe())
    stack.start()
    try:
        load_before = os.getloadavg()
        started = time.time()
        locust = run_locust(stack, opts.users, opts.warmup + opts.seconds, record, teachers)
        time.sleep(opts.warmup)
        cpu_before = cpu_seconds(stack, locust)
        time.sleep(opts.seconds - 1)
        cpu_after = cpu_seconds(stack, locust)
        locust.wait()
        load_after = os.getloadavg()
    finally:
        stack.stop()
    summary = summarize(
        read_records(record), started + opts.warmup, started + opts.warmup + opts.seconds
    )
    print(f"{opts.users} users, think 0.5-1.5 s, 2 app servers x {opts.workers} gunicorn "
          f"workers + 1 tables_worker, {opts.seconds:.0f} s measured after {opts.warmup:.0f} s "
          "warm-up")  # fmt: skip
    print(f"load average before: {load_before[0]:.2f}, after: {load_after[0]:.2f} "
          f"(1 min; {os.cpu_count()} cores; logs in {stack.logs})")  # fmt: skip
    print_summary(summary)
    used = {k: cpu_after.get(k, 0.0) - v for k, v in cpu_before.items()}
    per = (
        1000
        * sum(v for k, v in used.items() if k.startswith("server"))
        / max(1, summary["requests"])
    )
    print("CPU seconds in the measured window: "
          + ", ".join(f"{k} {v:.1f}" for k, v in sorted(used.items()))
          + f"; app servers {per:.1f} ms a request; the window offers "
          f"{(opts.seconds - 1) * (os.cpu_count() or 1):.0f} CPU seconds in all")  # fmt: skip
    ok = print_checks(django_call(stack.env, "check"), django_call(stack.env, "finish"))
    ok = print_checks(django_call(stack.env, "check")) and ok
    errors = sum(summary["errors"].values())
    return 0 if ok and (errors == 0 or opts.allow_errors) else 1


if __name__ == "__main__":
    sys.exit(main())
