"""Benchmark: every page's throughput as a share of a bare Django view's, in the same run.

Run by hand (not part of the test run; needs ``wrk``: ``apt-get install -y wrk``)::

    .venv/bin/python bench/pages.py [--seconds 8] [--connections 50] [--workers 2]

It drops and makes the PostgreSQL database ``--db`` (default ``thoth_pages``, on
``--pg`` = ``postgres://postgres@127.0.0.1:5432``, trust authentication), migrates and bootstraps
it, collects the static files, and fills it: learners with 500, 5,000 and 50,000 decisions (and a
fifth as many finished rounds), a class of 40 students with 100 decisions each, and one signed-in
user per connection for the pages that write.  Then it starts two gunicorn servers with the same
settings (``--workers`` sync workers, ``--max-requests`` as the Procfile): the app with
``config.settings.prod`` (``DJANGO_HTTPS=false``, Redis ``--redis`` as the cache) and
``bench/bare_app.py``, a bare Django view making one SQL query.  Each page is driven by ``wrk``
(``--connections`` connections, one thread each, ``Accept-Encoding: gzip``) for ``--seconds``,
and the bare view right before it, so that each page's figure is set against the bare view's of
the same minutes: the share is the page's requests per second over the median of the bare runs,
and "beside" over the bare run right before the page's own.

The write pages are cycles driven by a Lua script, one user per connection: the drill's deal then
its answer; the table's deal then its moves until the round ends (every request counts).
Queries per request are counted in this process through Django's test client with the same
settings and the same warm cache.  The machine is shared: compare shares within one run only;
the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
from machine import describe  # noqa: E402  (bench/machine.py, beside this script)

# This script's folder holds benches named like the apps (classroom.py, trainer.py): off the path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

SIZES = (500, 5000, 50000)
CLASS_STUDENTS, CLASS_DECISIONS = 40, 100

READ_LUA = """
wrk.headers["Accept-Encoding"] = "gzip"
"""

# One user per connection: wrk runs one connection per thread here, so a thread's globals are
# one browser's state.  ``setup`` hands each thread its line of the cookie file.
CYCLE_LUA_HEAD = """
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("idx", counter)
end
function init(args)
  local i = 0
  for line in io.lines(args[1]) do
    i = i + 1
    if i == idx then cookie = line end
  end
  csrf = cookie:match("csrftoken=(%w+)")
end
local function post(path, body)
  local headers = {
    ["Cookie"] = cookie, ["X-CSRFToken"] = csrf, ["HX-Request"] = "true",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }
  return wrk.format("POST", path, headers, body)
end
"""

DRILL_LUA = (
    CYCLE_LUA_HEAD
    + """
local situation = nil
local move = "hit"
local ups = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "1"}
local n = 0
function request()
  if situation then
    local body = "situation=" .. situation .. "&move=" .. move
    situation = nil
    return post("/en/trainer/answer/", body)
  end
  n = n + 1
  return post("/en/trainer/deal/", "focus=all&preset=thoth&up=" .. ups[(n + idx) % 10 + 1])
end
function response(status, headers, body)
  local s = body:match('name="situation" value="(%d+)"')
  if s then
    situation = s
    move = body:match('name="move" value="(%w+)"') or "hit"
  end
end
"""
)

TABLE_LUA = (
    CYCLE_LUA_HEAD
    + """
local url = nil
local body_next = nil
local n = 0
function request()
  if url then
    local u, b = url, body_next
    url = nil
    return post(u, b)
  end
  n = n + 1
  return post("/en/play/table/scribes/deal/", "bet_0=100")
end
function response(status, headers, body)
  local u = body:match('hx%-post="(/en/play/round/%d+/move/)"')
  local seq = body:match('name="seq" value="(%d+)"')
  if u and seq then
    local moves = {}
    for m in body:gmatch('name="move" value="(%w+)" data%-key="%w" class="move">') do
      moves[#moves + 1] = m
    end
    if #moves > 0 then
      local m = moves[math.random(#moves)]
      for _, x in ipairs(moves) do if x == "decline" then m = x end end
      url = u
      body_next = "move=" .. m .. "&seq=" .. seq
    end
  end
end
"""
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int) -> None:
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * UNITS[unit]


def wrk(
    port: int, path: str, *, seconds: float, connections: int, script: str, args: list[str],
    cookie: str = "",
) -> dict[str, float]:  # fmt: skip
    duration = f"{max(1, round(seconds))}s"
    command = ["wrk", "-t", str(connections), "-c", str(connections), "-d", duration,
               "--latency", "--timeout", "10s", "-s", script]  # fmt: skip
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    command += [f"http://127.0.0.1:{port}{path}", *(["--", *args] if args else [])]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p50 = re.search(r"50%\s+([\d.]+\w+)", out)
    p99 = re.search(r"99%\s+([\d.]+\w+)", out)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    assert found and p50 and p99, out
    return {
        "rps": float(found.group(1)),
        "p50": _ms(p50.group(1)),
        "p99": _ms(p99.group(1)),
        "bad": float(bad.group(1)) if bad else 0.0,
        "timeouts": float(errors.group(4)) if errors else 0.0,
    }


# --- the data ----------------------------------------------------------------------------------


def make_database(pg: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def session_cookie(user: object) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)  # type: ignore[attr-defined]
    store[BACKEND_SESSION_KEY] = "accounts.backends.UserBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()  # type: ignore[attr-defined]
    store.create()
    csrf = secrets.token_hex(16)  # 32 characters of the token's alphabet
    return f"sessionid={store.session_key}; csrftoken={csrf}"


def rounds_for(user: object, n: int) -> None:
    """One round played through the services, then ``n - 1`` copies of it (the history page
    reads rows; how each was played does not change its cost)."""
    from game import services
    from game.models import Round, Table

    table = Table.objects.get(slug="scribes")
    rnd = services.round_deal(user=user, table=table, bets={0: 100}, rng=Random(3))  # type: ignore[arg-type]
    while rnd.status == Round.Status.PLAYING:
        result = services.round_apply_move(round_id=rnd.pk, user=user, move="stand", seq=rnd.seq)  # type: ignore[arg-type]
        rnd = result.round
    fields = ("seat", "user", "state", "status", "seq", "shown_from", "human_seats", "ai_levels",
              "staked", "paid", "net", "review", "finished_at")  # fmt: skip
    copies = [Round(**{f: getattr(rnd, f) for f in fields}) for _ in range(n - 1)]
    Round.objects.bulk_create(copies, batch_size=2000)


def build(connections: int, sizes: tuple[int, ...]) -> dict[str, str]:
    """The users and rows of the run; returns the cookies and paths the pages need."""
    from accounts.models import Role, User
    from classroom.models import Membership
    from classroom.services import class_create
    from game.models import LedgerEntry, Wallet
    from game.services import wallet_get_or_create
    from tests.pages.helpers import decisions_for  # the tests' learners, made the same way

    rng = Random(1)
    made: dict[str, str] = {}
    started = time.perf_counter()
    for size in sizes:
        learner = User.objects.create_user(username=f"learner{size}", password="x")
        decisions_for(learner, size, rng)
        rounds_for(learner, max(1, size // 5))
        made[f"learner{size}"] = session_cookie(learner)
    teacher = User.objects.create_user(username="teacher", password="x", role=Role.TEACHER)
    klass = class_create(owner=teacher, name="Class")
    students = User.objects.bulk_create(
        User(username=f"student{i}", real_name=f"Student {i}") for i in range(CLASS_STUDENTS)
    )
    Membership.objects.bulk_create(Membership(classroom=klass, student=s) for s in students)
    for s in students:
        decisions_for(s, CLASS_DECISIONS, rng)
    made["teacher"] = session_cookie(teacher)
    made["class"] = f"/en/classes/{klass.pk}/"
    for kind in ("drill", "table"):
        lines = []
        for i in range(connections + 1):  # the last one's requests are counted, not timed
            user = User.objects.create_user(username=f"{kind}{i}", password="x")
            if kind == "table":
                wallet = wallet_get_or_create(user=user)
                wallet.balance += Decimal(10**9)
                LedgerEntry.objects.create(
                    wallet=wallet,
                    kind=LedgerEntry.Kind.TOP_UP,
                    amount=Decimal(10**9),
                    balance_after=wallet.balance,
                )
                Wallet.objects.filter(pk=wallet.pk).update(balance=wallet.balance)
            lines.append(session_cookie(user))
        made[kind] = "\n".join(lines[:-1]) + "\n"
        made[f"{kind} counted"] = lines[-1]
    with __import__("django.db").db.connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # what autovacuum has done to tables this old
    print(f"data built in {time.perf_counter() - started:.0f} s")
    return made


# --- the pages ---------------------------------------------------------------------------------


def pages(made: dict[str, str], sizes: tuple[int, ...]) -> list[tuple[str, str, str, str]]:
    """(name, kind, path, cookie): kind is "read", "drill" or "table"."""
    out = [
        ("home", "read", "/en/", ""),
        ("lobby", "read", "/en/play/", ""),
        ("table page", "read", "/en/play/table/scribes/", ""),
        ("drill page", "read", "/en/trainer/", ""),
        ("chart page", "read", "/en/trainer/chart/", ""),
        ("rules index", "read", "/en/rules/", ""),
        ("article", "read", "/en/rules/basic-strategy/", ""),
        ("class dashboard", "read", made["class"], made["teacher"]),
    ]
    for size in sizes:
        out.append((f"stats {size:,}", "read", "/en/trainer/stats/", made[f"learner{size}"]))
    for size in sizes:
        out.append((f"past rounds {size // 5:,}", "read", "/en/play/history/",
                    made[f"learner{size}"]))  # fmt: skip
    out.append(("drill deal+answer", "drill", "/en/trainer/", ""))
    out.append(("table deal+moves", "table", "/en/play/", ""))
    return out


def _htmx_client(cookie: str) -> Any:
    """A test client that is the signed-in browser of ``cookie``, posting as htmx does."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1", HTTP_X_CSRFTOKEN=cookie.split("csrftoken=")[1],
                    HTTP_HX_REQUEST="true")  # fmt: skip
    for part in cookie.split("; "):
        key, _, value = part.partition("=")
        client.cookies[key] = value
    return client


def query_counts(made: dict[str, str], listed: list[tuple[str, str, str, str]]) -> dict[str, str]:
    """Queries per request, through the test client in this process (same settings, warm)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    counts: dict[str, str] = {}
    for name, kind, path, cookie in listed:
        client = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_ENCODING="gzip")
        if kind != "read":
            continue
        for part in filter(None, cookie.split("; ")):
            key, _, value = part.partition("=")
            client.cookies[key] = value
        client.get(path)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        counts[name] = str(len(ctx.captured_queries))
    # The cycles: one user's deal and answer, and a table round, request by request.
    client = _htmx_client(made["drill counted"])
    per: list[int] = []
    for _ in range(3):
        with CaptureQueriesContext(connection) as ctx:
            html = client.post("/en/trainer/deal/", {"focus": "all", "up": "6", "preset": "thoth"})
        per.append(len(ctx.captured_queries))
        found = re.search(r'name="situation" value="(\d+)"', html.content.decode())
        assert found, html.content[:500]
        with CaptureQueriesContext(connection) as ctx:
            client.post("/en/trainer/answer/", {"situation": found.group(1), "move": "hit"})
        per.append(len(ctx.captured_queries))
    counts["drill deal+answer"] = f"{per[-2]}+{per[-1]}"
    client = _htmx_client(made["table counted"])
    per = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as ctx:
            html = client.post("/en/play/table/scribes/deal/", {"bet_0": "100"})
        per.append(len(ctx.captured_queries))
        text = html.content.decode()
        while (url := re.search(r'hx-post="(/en/play/round/\d+/move/)"', text)) is not None:
            seq = re.search(r'name="seq" value="(\d+)"', text)
            assert seq, text[:300]
            legal = re.findall(r'name="move" value="(\w+)" data-key="\w" class="move">', text)
            move = "decline" if "decline" in legal else "stand" if "stand" in legal else legal[0]
            with CaptureQueriesContext(connection) as ctx:
                html = client.post(url.group(1), {"move": move, "seq": seq.group(1)})
            assert html.status_code == 200, (html.status_code, move, legal)
            per.append(len(ctx.captured_queries))
            text = html.content.decode()
    counts["table deal+moves"] = f"{statistics.mean(per):.1f}"
    return counts


def prod_env(pg: str, db: str, redis: str) -> dict[str, str]:
    """The production settings on loopback, with a fresh secret key, for the servers and
    this process (its Django, for the data and the session cookies)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_HTTPS": "false",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"{pg}/{db}",
        "REDIS_URL": redis,
    }
    os.environ.update(
        {k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))}
    )
    return env


def database_prepare(pg: str, db: str, redis: str, env: dict[str, str]) -> None:
    """A fresh database, migrated and bootstrapped, the cache emptied, the static files
    collected."""
    make_database(pg, db)
    subprocess.run(["redis-cli", "-u", redis, "FLUSHDB"], check=True, capture_output=True)
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"], ["bootstrap"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip


def servers_start(
    env: dict[str, str], workers: int
) -> tuple[list[subprocess.Popen[bytes]], int, int]:
    """The app and the bare view, each under gunicorn with the same worker count and
    recycling; returns the processes and the app's and the bare view's ports."""
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    common = ["--workers", str(workers), "--max-requests", "2000",
              "--max-requests-jitter", "200", "--log-level", "warning"]  # fmt: skip
    # The app with its own gunicorn settings (preload and warm-up, config/gunicorn.py); the bare
    # view with the same worker count and recycling.
    app_port, bare_port = free_port(), free_port()
    app = [gunicorn, "-c", "config/gunicorn.py", "config.wsgi"]
    if not (ROOT / "config" / "gunicorn.py").exists():  # an older checkout, measured as it was
        app = [gunicorn, "config.wsgi"]
    bare = [gunicorn, "--chdir", str(ROOT / "bench"), "bare_app:application"]
    servers = [
        subprocess.Popen([*app, "--bind", f"127.0.0.1:{app_port}", *common], cwd=ROOT, env=env),
        subprocess.Popen([*bare, "--bind", f"127.0.0.1:{bare_port}", *common], cwd=ROOT, env=env),
    ]
    return servers, app_port, bare_port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="per page, and per bare run")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", default="thoth_pages")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--only", default="", help="comma-separated beginnings of page names")
    args = parser.parse_args()
    sizes = tuple(int(s) for s in args.sizes.split(","))
    env = prod_env(args.pg, args.db, args.redis)
    database_prepare(args.pg, args.db, args.redis, env)
    import django

    django.setup()
    made = build(args.connections, sizes)
    listed = pages(made, sizes)
    if args.only:
        wanted = tuple(w.strip() for w in args.only.split(","))
        listed = [p for p in listed if p[0].startswith(wanted)]

    from django.contrib.sessions.models import Session

    servers, app_port, bare_port = servers_start(env, args.workers)
    tmp = Path(tempfile.mkdtemp(prefix="thoth-pages-"))
    scripts = {"read": tmp / "read.lua", "drill": tmp / "drill.lua", "table": tmp / "table.lua"}
    for kind, text in (("read", READ_LUA), ("drill", DRILL_LUA), ("table", TABLE_LUA)):
        scripts[kind].write_text(text)
    for kind in ("drill", "table"):
        (tmp / f"{kind}.cookies").write_text(made[kind])
    results: list[tuple[str, dict[str, float], dict[str, float]]] = []
    load_before = os.getloadavg()
    try:
        wait_for(app_port)
        wait_for(bare_port)
        # Each worker's first requests are not measured (the cold start is play_load's).
        for _name, kind, path, cookie in listed:
            if kind == "read":
                wrk(app_port, path, seconds=1, connections=4, script=str(scripts["read"]),
                    args=[], cookie=cookie)  # fmt: skip
        sessions_before = Session.objects.count()
        for name, kind, path, cookie in listed:
            bare = wrk(bare_port, "/", seconds=args.seconds, connections=args.connections,
                       script=str(scripts["read"]), args=[])  # fmt: skip
            extra = [str(tmp / f"{kind}.cookies")] if kind != "read" else []
            page = wrk(app_port, path, seconds=args.seconds, connections=args.connections,
                       script=str(scripts[kind]), args=extra, cookie=cookie)  # fmt: skip
            results.append((name, page, bare))
            print(f"  {name}: {page['rps']:.1f} req/s, p50 {page['p50']:.1f} ms, p99 "
                  f"{page['p99']:.1f} ms, {page['bad']:.0f} non-2xx (bare {bare['rps']:.0f} req/s)",
                  flush=True)  # fmt: skip
        anonymous_sessions = Session.objects.count() - sessions_before
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
    load_after = os.getloadavg()
    counts = query_counts(made, listed)
    bare_median = statistics.median(b["rps"] for _n, _p, b in results)
    print(describe())
    print(f"load average before: {load_before}, after: {load_after}")
    print(f"{args.workers} gunicorn workers each; wrk {args.connections} connections, "
          f"{args.seconds:.0f} s a page, the bare view's run before each")  # fmt: skip
    lows = min(b["rps"] for _n, _p, b in results)
    highs = max(b["rps"] for _n, _p, b in results)
    print(f"bare view: median {bare_median:.0f} req/s (runs {lows:.0f}-{highs:.0f}), "
          f"p50 {statistics.median(b['p50'] for _n, _p, b in results):.1f} ms")  # fmt: skip
    head = (
        f"| {'page':<22} | {'req/s':>7} | {'share':>7} | {'beside':>7} | {'p50 ms':>7} "
        f"| {'p99 ms':>7} | queries |"
    )
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    # share: of the median bare run; beside: of the bare run right before the page's own (the
    # machine's speed drifts within a run, by a fifth on some days).
    for name, page, bare in results:
        share = 100 * page["rps"] / bare_median
        beside = 100 * page["rps"] / bare["rps"]
        flag = ""
        if page["bad"] or page["timeouts"]:
            flag = f" ({page['bad']:.0f} non-2xx, {page['timeouts']:.0f} time-outs)"
        queries = counts.get(name, "-")
        print(f"| {name:<22} | {page['rps']:7.1f} | {share:5.1f} % | {beside:5.1f} % | "
              f"{page['p50']:7.1f} | {page['p99']:7.1f} | {queries:>7} |{flag}")  # fmt: skip
    print(f"session rows made while the pages were driven: {anonymous_sessions} "
          "(the write cycles' users have theirs already)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
