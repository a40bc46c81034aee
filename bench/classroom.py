"""Benchmark: server time of the class pages for a class of 40 and in a school of 10 classes.

Run by hand: ``python bench/classroom.py [--n 60]`` (``DATABASE_URL`` is respected; a fresh
test database is made and dropped, so the development data is never touched).  It builds a
class of 40 students with 500 decisions each (20,000; a third of them in the class's three
assignments, spread over 60 days), times the dashboard, the heat map, one student's page and
both CSV exports through Django's test client (middleware, session, ORM, templates; no
network), then adds nine more such classes (400 students, 200,000 decisions) and times the
same pages of the first class again.  Prints p50 and p99 in milliseconds over ``--n``
requests after a few untimed ones, and the number of SQL queries of each page.  The
dashboard keeps its figures until an answer changes them, so it is timed twice: as a
teacher reloading or sorting sees it, and with the cache emptied before each request
("uncached"), as while the students are answering.
Target: dashboard p99 <= 150 ms for the class of 40 on PostgreSQL.  Besides wall-clock time
it prints this process's CPU time (the app server's share) and the time spent waiting for
the database's answers (sql): on a shared machine the wall clock mostly measures the
neighbours.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django

django.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_databases,
    teardown_databases,
)
from django.utils import timezone  # noqa: E402

from accounts.models import Role, User  # noqa: E402
from bench.machine import describe  # noqa: E402
from blackjack import PRESETS  # noqa: E402
from classroom.models import Assignment, Classroom, Membership  # noqa: E402
from classroom.services import assignment_create, class_create  # noqa: E402
from decisions.models import Decision  # noqa: E402

STUDENTS = 40
PER_STUDENT = 500
THOTH = PRESETS["thoth"]
CELLS = [("hard", r) for r in range(5, 20)] + [("soft", r) for r in range(13, 21)]
CELLS += [("pair", r) for r in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def build_class(index: int, owner: User, rng: Random) -> Classroom:
    klass = class_create(owner=owner, name=f"Class {index}")
    settings = {"focus": "all", "up": "6", "preset": "thoth"}
    assignments = [
        assignment_create(
            classroom=klass,
            created_by=owner,
            title=f"A{i}",
            settings=settings,
            rules=THOTH,
            hands=50,
            target_accuracy=85,
        )
        for i in range(3)
    ]
    Assignment.objects.filter(classroom=klass).update(
        created_at=timezone.now() - timedelta(days=61)
    )
    students = User.objects.bulk_create(
        User(username=f"c{index}s{i}", real_name=f"Студент {i}", role=Role.LEARNER)
        for i in range(STUDENTS)
    )
    Membership.objects.bulk_create(Membership(classroom=klass, student=s) for s in students)
    # They joined before their answers: a teacher sees answers only from the joining on.
    Membership.objects.filter(classroom=klass).update(joined_at=timezone.now() - timedelta(days=61))
    now = timezone.now()
    field = Decision._meta.get_field("created_at")
    field.auto_now_add = False  # spread the decisions over 60 days
    try:
        batch: list[Decision] = []
        for s in students:
            for _j in range(PER_STUDENT):
                kind, row = rng.choice(CELLS)
                up = rng.randint(1, 10)
                correct = rng.random() < 0.8
                lost = 0.0 if correct else rng.random() * 0.6
                a = rng.random()
                batch.append(
                    Decision(
                        user=s,
                        source="drill" if rng.random() < 0.7 else "table",
                        rules=THOTH.to_dict(),
                        rules_key=THOTH.key(),
                        hand=["10s", "6d"],
                        dealer_up="10h",
                        category={"pair": "pair", "soft": "soft"}.get(kind, "hard"),
                        chart_kind=kind,
                        chart_row=row,
                        dealer_points=up,
                        choice="hit" if correct else "stand",
                        best="hit",
                        chart_move="hit",
                        ev={"hit": -0.4, "stand": -0.4 - lost},
                        ev_lost=lost,
                        correct=correct,
                        context=assignments[int(a * 9)].context if a < 1 / 3 else None,
                        created_at=now - timedelta(seconds=rng.randint(0, 60 * 86400)),
                    )
                )
            if len(batch) >= 5000:
                Decision.objects.bulk_create(batch)
                batch.clear()
        Decision.objects.bulk_create(batch)
    finally:
        field.auto_now_add = True
    return klass


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


class GcTimer:
    """Milliseconds spent in the garbage collector (a full collection can take tens of
    milliseconds: it shows as a CPU outlier, and is said apart)."""

    def __init__(self) -> None:
        self.total = 0.0
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.total += 1000 * (time.perf_counter() - self._started)


GC = GcTimer()


def measure(client: Client, pages: dict[str, str], n: int, warmup: int) -> None:
    print(f"  ({load()} before)")
    head = ["p50 ms", "p99 ms", "cpu p50", "cpu p99", "sql p50", "sql p99", "gc max", "queries"]
    print(f"  {'page':<14}" + "".join(f" {h:>8}" for h in head))
    for name, url in pages.items():
        times: list[float] = []
        cpu: list[float] = []
        sql: list[float] = []
        collecting: list[float] = []
        queries = 0
        for i in range(warmup + n):
            if "uncached" in name:
                cache.clear()
            with CaptureQueriesContext(connection) as ctx:
                gc_before = GC.total
                started, cpu_started = time.perf_counter(), time.process_time()
                response = client.get(url)
                if response.streaming:
                    b"".join(response.streaming_content)
                elapsed = 1000 * (time.perf_counter() - started)
                used = 1000 * (time.process_time() - cpu_started)
            assert response.status_code == 200, (url, response.status_code)
            if i >= warmup:
                times.append(elapsed)
                cpu.append(used)
                sql.append(1000 * sum(float(q["time"]) for q in ctx.captured_queries))
                collecting.append(GC.total - gc_before)
            queries = len(ctx.captured_queries)
            # The captured queries would pile up (up to 9,000) and make the collector scan
            # them: a cost of the bench, not of the server.
            connection.queries_log.clear()
        figures = [percentile(v, q) for v in (times, cpu, sql) for q in (50, 99)]
        figures.append(max(collecting))
        print(f"  {name:<14}" + "".join(f" {f:8.1f}" for f in figures) + f" {queries:8d}")
    print(f"  ({load()} after)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=60, help="timed requests per page")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--classes", type=int, default=10, help="classes in the school")
    parser.add_argument("--pages", default="", help="only these pages (comma-separated)")
    args = parser.parse_args()
    config = setup_databases(verbosity=0, interactive=False)
    try:
        print(f"database: {connection.vendor}; {describe()}")
        owner = User.objects.create_user(username="bench-teacher", password="x", role=Role.TEACHER)
        rng = Random(1)
        started = time.perf_counter()
        first = build_class(0, owner, rng)
        print(f"built a class of {STUDENTS} with {Decision.objects.count()} decisions"
              f" in {time.perf_counter() - started:.1f} s")  # fmt: skip
        # A plain client on an allowed host, without setup_test_environment(): its template
        # instrumentation keeps every rendered context alive, and collecting that growing heap
        # put 100-230 ms pauses into the 99th percentile (a server has no such thing).
        client = Client(HTTP_HOST="localhost")
        client.force_login(owner)
        student = first.memberships.order_by("id").first().student_id
        base = f"/en/classes/{first.pk}"
        pages = {
            "dashboard": f"{base}/",
            # the same with the cache emptied before each request: what a teacher waits for
            # while students are answering (each answer makes the kept figures stale)
            "dash. uncached": f"{base}/?",
            "dashboard 30d": f"{base}/?start={(timezone.now() - timedelta(days=30)).date()}",
            "heat map": f"{base}/heat/",
            "student page": f"{base}/students/{student}/",
            "dashboard CSV": f"{base}/export.csv",
            "student CSV": f"{base}/students/{student}/answers.csv",
        }
        if args.pages:
            chosen = args.pages.split(",")
            pages = {name: url for name, url in pages.items() if name in chosen}
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")  # as autovacuum leaves a table after inserts
        print("one class:")
        measure(client, pages, args.n, args.warmup)
        if args.classes <= 1:
            return
        for i in range(1, args.classes):
            build_class(i, owner, rng)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")  # as autovacuum leaves a table after inserts
        print(f"school of {args.classes} classes ({Membership.objects.count()} students,"
              f" {Decision.objects.count()} decisions), the first class's pages:")  # fmt: skip
        measure(client, pages, args.n, args.warmup)
    finally:
        teardown_databases(config, verbosity=0)


if __name__ == "__main__":
    main()
