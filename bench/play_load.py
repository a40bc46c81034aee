"""Benchmark: simulated players at the tables of a real app server, over loopback.

Run by hand (not part of the test run)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/thoth_bench \
        .venv/bin/python bench/play_load.py --players 50 --seconds 60

It migrates and bootstraps that database, starts gunicorn (``--workers``, default one a core)
on a free port with ``config.settings.dev`` and ``DJANGO_DEBUG=false``, and runs ``--players``
threads.  Each player is a fresh guest with its own session: it opens the Scribes' table, bets
on one or two boxes with AI seat-mates, and plays every decision through the htmx move
endpoint (a random legal move, insurance declined), waiting ``--think`` seconds between
requests as a person would.  It bets 100 a box on as many boxes as its balance covers, and
takes the free top-up when it falls below the Scribes' minimum of 100.
A warm-up of ``--warmup`` seconds is not measured: the EV engine fills its memo for the
longer hands.  ``--cold`` measures from the first request instead (no warm-up) and prints the
first minute's figures apart from the rest: a server that has just started (a restart, a
deploy) should serve its first minute as fast as its tenth (issue 17; gunicorn loads and warms
the app before forking its workers, ``config/gunicorn.py``).

It prints moves per second and the 50th/99th percentile latency of the move requests, then
checks the books in the database: every wallet's balance equals the sum of its ledger, and no
round's ledger has more entries than its moves allow.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # noqa: E402  (bench/machine.py, beside this script)

SEQ = re.compile(r'name="seq" value="(\d+)"')
MOVE_URL = re.compile(r'hx-post="(/en/play/round/\d+/move/)"')
BUTTON = re.compile(r'name="move" value="(\w+)" data-key="\w" class="move"( disabled)?>')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TOP_UP = 'action="/en/play/top-up/"'
BALANCE = re.compile(r'class="balance">([\d,.]+)<')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    # (seconds since the start, latency) of every measured move, for the per-minute figures.
    timed: list[tuple[float, float]] = field(default_factory=list)
    deals: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    rounds: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Player:
    """One browser: a keep-alive connection, its cookies, and the table it sits at."""

    def __init__(self, port: int, rng: random.Random) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.rng = rng

    def request(self, method: str, path: str, data: dict[str, str] | None = None) -> str:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["HX-Request"] = "true"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://127.0.0.1{path}"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                k, _, rest = value.partition("=")
                self.cookies[k] = rest.split(";", 1)[0]
        if response.status >= 500:
            raise RuntimeError(f"{method} {path}: {response.status}")
        return text


def play(
    player: Player, stats: Stats, stop: float, measure_from: float, think: float, start: float
) -> None:
    scribes = "/en/play/table/scribes/"
    html = player.request("GET", scribes)
    rng = player.rng
    while time.monotonic() < stop:
        if TOP_UP in html:
            player.request("POST", "/en/play/top-up/", {"next": scribes})
            html = player.request("GET", scribes)
        found = BALANCE.search(html)
        balance = float(found.group(1).replace(",", "")) if found else 0.0
        table, bet = scribes, 100
        boxes = max(1, min(rng.choice((1, 2)), int(balance // bet)))
        bets = {f"bet_{b}": str(bet) for b in rng.sample(range(5), boxes)}
        for b in range(5):
            if f"bet_{b}" not in bets and rng.random() < 0.5:
                bets[f"ai_{b}"] = rng.choice(("easy", "normal", "hard"))
        started = time.monotonic()
        html = player.request("POST", f"{table}deal/", bets)
        with stats.lock:
            if started >= measure_from:
                stats.deals.append(time.monotonic() - started)
        while (url := MOVE_URL.search(html)) is not None and time.monotonic() < stop:
            time.sleep(think * rng.uniform(0.5, 1.5))
            legal = [m for m, off in BUTTON.findall(html) if not off]
            seq = SEQ.search(html)
            if not legal or seq is None:
                stats.errors.append("no legal move on the page")
                break
            move = "decline" if "decline" in legal else rng.choice(legal)
            started = time.monotonic()
            html = player.request("POST", url.group(1), {"move": move, "seq": seq.group(1)})
            took = time.monotonic() - started
            if started >= measure_from:
                with stats.lock:
                    stats.latencies.append(took)
                    stats.timed.append((started - start, took))
        with stats.lock:
            stats.rounds += 1
        time.sleep(think * rng.uniform(0.5, 1.5))


def check_books() -> list[str]:
    """Every wallet's balance equals its ledger; nothing was paid twice."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django

    django.setup()
    from django.db.models import Count, Sum

    from game.models import LedgerEntry, Round, Wallet

    problems = []
    for w in Wallet.objects.annotate(total=Sum("entries__amount")):
        if w.balance != w.total:
            problems.append(f"wallet {w.pk}: balance {w.balance} != ledger {w.total}")
    payouts = (
        LedgerEntry.objects.filter(kind="payout")
        .values("round")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    problems += [f"round {p['round']}: {p['n']} payouts" for p in payouts]
    bets = LedgerEntry.objects.filter(kind="bet").values("round").annotate(n=Count("id"))
    problems += [f"round {b['round']}: {b['n']} bets" for b in bets if b["n"] > 1]
    print(f"books: {Wallet.objects.count()} wallets, {Round.objects.count()} rounds, "
          f"{LedgerEntry.objects.count()} ledger entries checked")  # fmt: skip
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    # One worker a core: a move is CPU work (the EV engine, rendering), so more workers than
    # cores only queue in the kernel instead (measured: p99 55-68 ms with 2 workers on 2
    # cores, 67-94 ms with 4).
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--port", type=int, default=0, help="use a server already running")
    parser.add_argument(
        "--cold", action="store_true", help="no warm-up; the first minute's figures apart"
    )
    args = parser.parse_args()
    if args.cold:
        args.warmup = 0.0
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        print("Set DATABASE_URL to a PostgreSQL database (it is migrated and filled).")
        return 2
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev", "DJANGO_DEBUG": "false"}
    py = sys.executable
    server = None
    port = args.port
    if not port:
        subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([py, "manage.py", "bootstrap"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        port = free_port()
        gunicorn = str(Path(py).with_name("gunicorn"))
        conf = ["-c", "config/gunicorn.py"] if (ROOT / "config" / "gunicorn.py").exists() else []
        server = subprocess.Popen(
            [gunicorn, *conf, "config.wsgi", "--workers", str(args.workers),
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=ROOT, env=env,
        )  # fmt: skip
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
    stats = Stats()
    load_before = os.getloadavg()
    start = time.monotonic()
    measure_from = start + args.warmup
    stop = measure_from + args.seconds
    threads = [
        threading.Thread(
            target=play,
            args=(Player(port, random.Random(i)), stats, stop, measure_from, args.think, start),
        )
        for i in range(args.players)
    ]
    try:
        for t in threads:
            t.start()
            time.sleep(0.02)
        for t in threads:
            t.join()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    lat = sorted(stats.latencies)
    if not lat:
        print("no moves measured")
        return 1
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    deals = sorted(stats.deals)
    d99 = deals[min(len(deals) - 1, int(len(deals) * 0.99))] * 1000 if deals else float("nan")
    print(describe())
    print(f"load average before: {load_before}, after: {os.getloadavg()}")
    print(f"{args.players} players, {args.workers} gunicorn workers, think {args.think}s, "
          f"{args.seconds:.0f}s measured after {args.warmup:.0f}s warm-up")  # fmt: skip
    print(f"moves: {len(lat)} ({len(lat) / args.seconds:.1f}/s), p50 {p50:.1f} ms, "
          f"p99 {p99:.1f} ms, max {lat[-1] * 1000:.1f} ms")  # fmt: skip
    print(f"deals: {len(deals)}, p99 {d99:.1f} ms; rounds finished: {stats.rounds}")
    if args.cold:
        for label, low, high in (("first minute", 0.0, 60.0), ("after it", 60.0, float("inf"))):
            part = sorted(took for at, took in stats.timed if low <= at < high)
            if part:
                p99_part = part[min(len(part) - 1, int(len(part) * 0.99))] * 1000
                print(f"  {label}: {len(part)} moves, p50 {statistics.median(part) * 1000:.1f} "
                      f"ms, p99 {p99_part:.1f} ms")  # fmt: skip
    if stats.errors:
        print(f"errors: {len(stats.errors)}: {stats.errors[:3]}")
    os.environ["DJANGO_DEBUG"] = "false"
    problems = check_books()
    for p in problems[:20]:
        print("BOOKS:", p)
    print("books balanced" if not problems else f"{len(problems)} problems")
    return 1 if problems or stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
