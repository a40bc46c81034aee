"""Reads of the decision record: the learner's statistics and weak spots.

Statistics read only ``Decision``, drill and table alike, so a decision at the table counts
the same as one in a drill.  The trainer, play mode and the coming classes read decisions
only through this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from random import Random
from typing import Any

from django.db import connection
from django.db.models import Avg, Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from blackjack import KINDS, UPS
from decisions.models import (
    CELLESS_CATEGORIES,
    COUNT_CATEGORIES,
    WITHOUT_COUNT,
    Decision,
    WeakSpot,
)


@dataclass(frozen=True)
class Score:
    """Accuracy and EV lost over some decisions."""

    count: int
    correct: int
    ev_lost: float  # in initial bets, summed

    @property
    def accuracy(self) -> float | None:
        """Percent of right answers; ``None`` without decisions."""
        return 100.0 * self.correct / self.count if self.count else None

    @property
    def lost_per_100(self) -> float | None:
        """EV lost per 100 decisions, in initial bets."""
        return 100.0 * self.ev_lost / self.count if self.count else None


@dataclass(frozen=True)
class CategoryScore:
    category: str
    label: str
    score: Score


@dataclass(frozen=True)
class PlotPoint:
    x: float
    y: float
    label: str
    value: float


@dataclass(frozen=True)
class Plot:
    """A server-rendered line plot: points in a 200 × 100 box, tick labels, a polyline."""

    points: list[PlotPoint]
    y_ticks: list[tuple[float, str]]
    polyline: str


PLOT_WIDTH = 200.0


def line_plot(values: list[tuple[str, float]], *, y_max: float) -> Plot:
    """Place ``(label, value)`` pairs in a 200 × 100 box (y grows downwards as in SVG).

    >>> p = line_plot([("a", 0.0), ("b", 50.0)], y_max=100.0)
    >>> p.polyline
    '0.0,100.0 200.0,50.0'
    """
    y_max = y_max if y_max > 0 else 1.0
    n = len(values)
    points = [
        PlotPoint(
            x=round(PLOT_WIDTH * i / (n - 1), 2) if n > 1 else PLOT_WIDTH / 2,
            y=round(100.0 - 100.0 * min(v, y_max) / y_max, 2),
            label=label,
            value=v,
        )
        for i, (label, v) in enumerate(values)
    ]
    ticks = [(round(100.0 - 100.0 * f, 2), f"{y_max * f:g}") for f in (0.0, 0.5, 1.0)]
    return Plot(points, ticks, " ".join(f"{p.x},{p.y}" for p in points))


@dataclass(frozen=True)
class HeatCell:
    kind: str
    row: int
    up: int
    score: Score


@dataclass(frozen=True)
class CountingScore:
    """Accuracy and speed at one counting task (issue 31)."""

    key: str  # "running", "true_count" or "index"
    label: str
    count: int
    correct: int
    avg_ms: float | None  # mean answer time, where known

    @property
    def accuracy(self) -> float | None:
        return 100.0 * self.correct / self.count if self.count else None

    @property
    def avg_seconds(self) -> float | None:
        return self.avg_ms / 1000.0 if self.avg_ms is not None else None


# The counting tasks as the statistics name them: the two number drills, and every move made
# with a count (an index drill, a count-mode table) as "index plays".
COUNTING_LABELS = {
    Decision.Category.RUNNING_COUNT.value: _("Running count"),
    Decision.Category.TRUE_COUNT.value: _("True count"),
    "index": _("Index plays"),
}


@dataclass
class Stats:
    overall: Score
    by_category: list[CategoryScore]
    accuracy_plot: Plot | None
    lost_plot: Plot | None
    days: list[tuple[str, Score]]
    heat: dict[str, list[tuple[int, list[HeatCell]]]] = field(default_factory=dict)
    mistakes: list[Decision] = field(default_factory=list)
    counting: list[CountingScore] = field(default_factory=list)


HEAT_ROWS: dict[str, tuple[int, ...]] = {
    "hard": tuple(range(5, 21)),
    "soft": tuple(range(13, 21)),
    "pair": UPS,  # the pair rows run like the chart's columns, the aces last
}


def stats_for(*, user: User, mistakes: int = 10) -> Stats:
    """Everything the statistics page shows for ``user``.

    The scores, plots, heat map and mistakes are of the moves; a counting drill's answer (a
    number, no EV) is left out of them and counted in ``counting`` with the moves made at a
    count, by accuracy and answer time.  The heat map, the chart's cells, counts only the
    moves made without a count (an index play's answer says nothing of the chart's cell)."""
    everything = Decision.objects.filter(user=user)
    qs = everything.exclude(category__in=COUNT_CATEGORIES)
    # One pass over the learner's decisions for every category; the overall score is their sum.
    per_category = {
        r["category"]: Score(r["n"], r["ok"], float(r["lost"] or 0.0))
        for r in qs.order_by()
        .values("category")
        .annotate(n=Count("id"), ok=Count("id", filter=Q(correct=True)), lost=Sum("ev_lost"))
    }
    empty = Score(0, 0, 0.0)
    by_category = [
        CategoryScore(value, str(label), per_category.get(value, empty))
        for value, label in Decision.Category.choices
        if value not in COUNT_CATEGORIES
    ]
    overall = Score(
        sum(s.count for s in per_category.values()),
        sum(s.correct for s in per_category.values()),
        sum(s.ev_lost for s in per_category.values()),
    )
    day_rows = (
        qs.annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(n=Count("id"), ok=Count("id", filter=Q(correct=True)), lost=Sum("ev_lost"))
        .order_by("day")
    )
    days = [
        (r["day"].isoformat(), Score(r["n"], r["ok"], float(r["lost"] or 0.0))) for r in day_rows
    ]
    accuracy_plot = lost_plot = None
    if days:
        accuracy_plot = line_plot([(d, s.accuracy or 0.0) for d, s in days], y_max=100.0)
        top = max(s.lost_per_100 or 0.0 for _d, s in days)
        lost_plot = line_plot([(d, s.lost_per_100 or 0.0) for d, s in days], y_max=_nice(top))
    cells = {
        (r["chart_kind"], r["chart_row"], r["dealer_points"]): Score(r["n"], r["ok"], 0.0)
        for r in qs.exclude(category__in=CELLESS_CATEGORIES)
        .filter(WITHOUT_COUNT)  # the chart's cells: the moves made without a count
        .values("chart_kind", "chart_row", "dealer_points")
        .annotate(n=Count("id"), ok=Count("id", filter=Q(correct=True)))
    }
    heat = {
        kind: [
            (row, [HeatCell(kind, row, up, cells.get((kind, row, up), empty)) for up in UPS])
            for row in HEAT_ROWS[kind]
        ]
        for kind in KINDS
    }
    worst = list(qs.filter(correct=False).order_by("-ev_lost", "-created_at")[:mistakes])
    counting = counting_scores(everything)
    return Stats(overall, by_category, accuracy_plot, lost_plot, days, heat, worst, counting)


def counting_scores(decisions: Any) -> list[CountingScore]:
    """Accuracy and mean answer time per counting task over ``decisions`` (a queryset), in
    one grouped query over the decisions made with a count (the partial index's rows)."""
    rows = (
        decisions.exclude(count_system="")
        .order_by()
        .values("category")
        .annotate(n=Count("id"), ok=Count("id", filter=Q(correct=True)), ms=Avg("time_taken_ms"))
    )
    sums: dict[str, list[float]] = {}
    for r in rows:
        key = r["category"] if r["category"] in COUNT_CATEGORIES else "index"
        n, ok, ms = sums.setdefault(key, [0, 0, 0.0])
        timed = float(r["ms"]) * r["n"] if r["ms"] is not None else 0.0
        sums[key] = [n + r["n"], ok + r["ok"], ms + timed]
    return [
        CountingScore(key, str(label), int(n), int(ok), ms / n if n else None)
        for key, label in COUNTING_LABELS.items()
        if key in sums
        for n, ok, ms in [sums[key]]
    ]


# How far back from the latest decision the stamp counts.  A decision's time is taken before
# its transaction commits, so one committed late may be older than the latest one seen; no
# request's transaction lasts anywhere near this long (gunicorn stops a worker after 30 s).
STAMP_WINDOW = timedelta(minutes=10)


def stats_stamp(*, user: User) -> tuple[int, int, datetime | None]:
    """What the statistics depend on, cheaply: how many decisions the learner made in the
    ``STAMP_WINDOW`` before the latest one, the latest one's id and its time (``(0, 0, None)``
    without any).  Decisions are only ever added (or all deleted with the account), so every
    new one either becomes the latest or falls inside the window and adds to its count: an
    unchanged stamp means unchanged statistics, and the page keeps what it drew for a stamp.

    Two short ranges of the index on (user, time): counting the learner's whole history
    instead read every row of it (50,000 decisions: 40-140 ms of PostgreSQL's time).  Written
    as SQL because it is read on every visit of the statistics page: the ORM's building of the
    same two statements cost five times the statements themselves (1.0 ms of the request's
    CPU, against 0.15 ms; bench/pages.py's "stats 500" lost a quarter of its throughput).
    """
    table = Decision._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, created_at FROM {table} WHERE user_id = %s "
            "ORDER BY created_at DESC, id DESC LIMIT 1",
            [user.pk],
        )
        latest = cursor.fetchone()
        if latest is None:
            return (0, 0, None)
        latest_id, latest_at = latest
        if timezone.is_naive(latest_at):  # SQLite keeps UTC without its zone
            latest_at = timezone.make_aware(latest_at, UTC)
        since = connection.ops.adapt_datetimefield_value(latest_at - STAMP_WINDOW)
        cursor.execute(
            f"SELECT COUNT(*) FROM {table} WHERE user_id = %s AND created_at >= %s",
            [user.pk, since],
        )
        (recent,) = cursor.fetchone()
    return (int(recent), int(latest_id), latest_at)


def _nice(value: float) -> float:
    """A round axis maximum at or above ``value``.

    >>> _nice(0.0), _nice(3.2), _nice(17.0), _nice(240.0)
    (1.0, 5.0, 20.0, 500.0)
    """
    for step in (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0):
        if value <= step:
            return step
    return float(int(value) + 1)


def drill_summary(*, user: User, since: datetime) -> tuple[int, Score]:
    """The streak (right drill answers since the latest miss) and the score of this visit's
    drill answers (those since ``since``), which the drill page shows after every answer.

    One statement, each part of it a range of the covering index on (user, time): the latest
    miss, the answers after it, the answers since ``since``.  Written out, because given the
    answers after the miss as one condition (as the ORM writes it), PostgreSQL scanned the
    learner's whole history; here they are two ranges, those later than the miss and those at
    its moment with a higher id (the page's order).
    """
    mine: list[Any] = [user.pk, Decision.Source.DRILL.value]
    params = [*mine * 3, *mine, connection.ops.adapt_datetimefield_value(since), *mine]
    with connection.cursor() as cursor:
        cursor.execute(_DRILL_SUMMARY_SQL, params)
        streak, n, ok, lost = cursor.fetchone()
    return int(streak), Score(int(n), int(ok), float(lost or 0.0))


_DECISIONS = f"{Decision._meta.db_table} d WHERE d.user_id = %s AND d.source = %s"
_DRILL_SUMMARY_SQL = f"""SELECT
  CASE WHEN miss.id IS NULL THEN (SELECT COUNT(*) FROM {_DECISIONS})
  ELSE (SELECT COUNT(*) FROM {_DECISIONS} AND d.created_at > miss.created_at)
     + (SELECT COUNT(*) FROM {_DECISIONS} AND d.created_at = miss.created_at AND d.id > miss.id)
  END,
  visit.n, visit.ok, visit.lost
FROM (SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE d.correct) AS ok, SUM(d.ev_lost) AS lost
      FROM {_DECISIONS} AND d.created_at >= %s) visit
LEFT JOIN (SELECT d.created_at, d.id FROM {_DECISIONS} AND NOT d.correct
           ORDER BY d.created_at DESC, d.id DESC LIMIT 1) miss ON 1 = 1"""


def weak_cell(*, user: User, rng: Random) -> tuple[tuple[str, int, int], list[int]] | None:
    """A weak spot to review: due cells weigh their misses times (6 - box); cells not due yet
    weigh a tenth of that, so a cell answered right comes back later, not never.

    Returns the cell (kind, row, up card's points) and the missed hand's points.
    """
    now = timezone.now()
    spots = list(WeakSpot.objects.filter(user=user).exclude(chart_kind="")[:200])
    if not spots:
        return None
    weights = [s.misses * (6 - s.box) * (1.0 if s.due_at <= now else 0.1) for s in spots]
    spot = rng.choices(spots, weights=weights)[0]
    return (spot.chart_kind, spot.chart_row, spot.dealer_points), list(spot.example)


# --- the user's own data download (privacy) ----------------------------------------------

EXPORT_CHUNK = 2000  # rows fetched at a time: one query (one server-side cursor) per kind
DECISION_EXPORT_FIELDS = (
    "id",
    "created_at",
    "source",
    "source_ref",
    "context",
    "rules",
    "rules_key",
    "hand",
    "dealer_up",
    "removed",
    "category",
    "chart_kind",
    "chart_row",
    "dealer_points",
    "choice",
    "best",
    "chart_move",
    "ev",
    "ev_lost",
    "correct",
    "time_taken_ms",
    "count_system",
    "running_count",
    "true_count",
    "cards_left",
    "answer",
    "right_answer",
)


def decisions_export(*, user: User) -> Iterator[dict[str, Any]]:
    """Every decision the user made, drill and table, oldest first, streamed."""
    rows = Decision.objects.filter(user=user).order_by("created_at", "id")
    for row in rows.values(*DECISION_EXPORT_FIELDS).iterator(chunk_size=EXPORT_CHUNK):
        yield dict(row)


def weak_spots_export(*, user: User) -> list[dict[str, Any]]:
    """The user's chart cells in their Leitner boxes."""
    rows = WeakSpot.objects.filter(user=user).order_by("chart_kind", "chart_row", "dealer_points")
    fields = ("chart_kind", "chart_row", "dealer_points", "box", "misses", "due_at", "example")
    return [dict(row) for row in rows.values(*fields)]


def decisions_count(*, user: User) -> int:
    return Decision.objects.filter(user=user).count()
