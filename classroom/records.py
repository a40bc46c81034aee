"""The class layer's one door to the decision record and the trainer.

Every read of decisions and every use of the trainer by ``classroom`` goes through this
module, so that moving the record to its own app (``decisions``) changes only the imports
here.  Reads return plain values (dataclasses, dicts), never model instances, and each is one
SQL query whatever the number of students: aggregates are computed by the database.

Every read takes the students as ``members``, a mapping of each student's id to the moment
they joined the class: a teacher sees a student's answers only from that moment on (answers
given before joining, or in an earlier membership that the student left, stay the student's
own).  Each student's part of a query is one index range from their joining (or the range's
start, if later): the dashboard's two queries join a ``VALUES`` table of the members (and of
the assignments' windows) to the decisions; the other reads OR the students' ranges together
(``user_id = s AND created_at >= joined``, which PostgreSQL combines with a BitmapOr).

Indexes used (on trainer_decision), so that a read costs in proportion to the decisions it
counts: ``decision_user_time_idx (user_id, created_at) INCLUDE (correct, ev_lost, source,
category)`` for everything by student and time (the dashboard's figures come from it alone,
an index-only scan, on PostgreSQL); the partial ``decision_context_idx (context, user_id,
created_at) WHERE context IS NOT NULL`` for assignment progress, one range per assignment
and student.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import reduce
from typing import Any

from django.db import connection
from django.db.models import Avg, Count, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core.display import MOVE_LABELS
from decisions.models import CELLESS_CATEGORIES, COUNT_CATEGORIES, WITHOUT_COUNT, Decision
from trainer.context import DrillNotice, drill_context_set, drill_notice_register
from trainer.count_display import CountedAnswer, counted_answer
from trainer.dealing import dealable_cell
from trainer.forms import (
    CARDS_CHOICES,
    CELLS_FOCUS,
    FOCUS_CHOICES,
    NUMBER_FOCUSES,
    PACE_CHOICES,
    PACE_FOCUSES,
    PRESET_LABELS,
    STEP_CHOICES,
    SYSTEM_CHOICES,
    SYSTEM_FOCUSES,
    RulesForm,
)

__all__ = [
    "CARDS_CHOICES",
    "CATEGORY_CHOICES",
    "CELLS_FOCUS",
    "COUNT_CATEGORIES",
    "FOCUS_CHOICES",
    "MOVE_LABELS",
    "NUMBER_FOCUSES",
    "PACE_CHOICES",
    "PACE_FOCUSES",
    "PRESET_LABELS",
    "STEP_CHOICES",
    "SYSTEM_CHOICES",
    "SYSTEM_FOCUSES",
    "CountedAnswer",
    "DrillNotice",
    "RulesForm",
    "counted_answer",
    "dealable",
    "drill_notice_register",
    "drill_start",
]

CATEGORY_CHOICES = Decision.Category.choices
SOURCE_DRILL = Decision.Source.DRILL
Cell = tuple[str, int, int]  # (chart kind, row, dealer up card points)
Members = Mapping[int, datetime]  # student id -> when they joined the class


@dataclass(frozen=True)
class Score:
    """Accuracy and EV lost over some decisions."""

    count: int = 0
    correct: int = 0
    ev_lost: float = 0.0  # in initial bets, summed

    @property
    def accuracy(self) -> float | None:
        return 100.0 * self.correct / self.count if self.count else None

    @property
    def lost_per_100(self) -> float | None:
        return 100.0 * self.ev_lost / self.count if self.count else None


EMPTY = Score()


@dataclass(frozen=True)
class StudentFigures:
    score: Score
    drill: int
    table: int
    last_active: datetime | None
    week: Score  # the last 7 days
    prev_week: Score  # the 7 days before
    month: Score  # the last 30 days
    prev_month: Score


@dataclass(frozen=True)
class CountingFigures:
    """A student's answers made with a count (the counting drills, index plays, moves at a
    count-mode table): how many, how many right, and the mean answer time where known."""

    count: int = 0
    correct: int = 0
    avg_ms: float | None = None

    @property
    def accuracy(self) -> float | None:
        return 100.0 * self.correct / self.count if self.count else None


@dataclass(frozen=True)
class Answer:
    """One decision as the class pages and exports show it."""

    id: int
    user_id: int
    created_at: datetime
    source: str
    category: str
    kind: str
    row: int
    up: int
    hand: list[str]
    dealer_up: str
    choice: str
    best: str
    chart_move: str
    ev: dict[str, float]
    ev_lost: float
    correct: bool
    rules_key: str
    context: str | None
    time_taken_ms: int | None
    count_system: str = ""
    true_count: int | None = None
    answer: int | None = None
    right_answer: int | None = None


@dataclass(frozen=True)
class Mistake:
    """One wrong move in one chart cell, over the class: how often and what it cost."""

    kind: str
    row: int
    up: int
    choice: str
    best: str
    count: int
    students: int
    ev_lost: float


@dataclass(frozen=True)
class AssignmentWindow:
    """What counts toward an assignment: its context, rule set and time window."""

    id: int
    context: str
    rules_key: str
    starts: datetime
    due: datetime | None


def _since_joined(members: Members, since: datetime | None = None) -> Q:
    """Each student's decisions from when they joined (or from ``since``, if later)."""
    parts = [
        Q(user_id=uid, created_at__gte=joined if since is None else max(joined, since))
        for uid, joined in members.items()
    ]
    if not parts:
        return Q(pk__in=[])
    return reduce(operator.or_, parts)


def _base(members: Members, since: datetime | None, until: datetime | None) -> QuerySet[Decision]:
    qs = Decision.objects.filter(_since_joined(members, since)).order_by()
    if until is not None:
        qs = qs.filter(created_at__lt=until)
    return qs


def _score(row: Mapping[str, Any], prefix: str = "") -> Score:
    return Score(row[f"{prefix}n"] or 0, row[f"{prefix}ok"] or 0, float(row[f"{prefix}lost"] or 0))


def _score_aggregates(prefix: str = "", when: Q | None = None) -> dict[str, Any]:
    ok = Q(correct=True) if when is None else when & Q(correct=True)
    return {
        f"{prefix}n": Count("id", filter=when),
        f"{prefix}ok": Count("id", filter=ok),
        f"{prefix}lost": Sum("ev_lost", filter=when),
    }


@dataclass(frozen=True)
class _Slice:
    """The decisions of one student between two consecutive boundaries (see
    :func:`student_figures`)."""

    start: datetime | None  # None: from the student's joining
    count: int
    correct: int
    ev_lost: float
    drill: int
    last: datetime | None


def _sum(slices: Iterable[_Slice]) -> Score:
    parts = list(slices)
    return Score(
        sum(p.count for p in parts), sum(p.correct for p in parts), sum(p.ev_lost for p in parts)
    )


def _values_members(members: Members) -> tuple[str, list[Any]]:
    """``(VALUES (%s, %s), ...)``: each student and when they joined, as a table to join
    (its columns are ``column1`` and ``column2`` in PostgreSQL and SQLite alike)."""
    adapt = connection.ops.adapt_datetimefield_value
    params: list[Any] = []
    for uid, joined in members.items():
        params += [uid, adapt(joined)]
    return "(VALUES " + ", ".join(["(%s, %s)"] * len(members)) + ")", params


def _aware(value: Any) -> datetime | None:
    """A datetime from a raw query (SQLite gives text, naive in UTC)."""
    if value is None or (isinstance(value, datetime) and timezone.is_aware(value)):
        return value
    parsed = value if isinstance(value, datetime) else parse_datetime(str(value))
    if parsed is None:
        return None
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, UTC)


def student_figures(
    *,
    members: Members,
    since: datetime | None,
    until: datetime | None,
    now: datetime,
) -> dict[int, StudentFigures]:
    """Per student, in the date range: moves (drill / table), their accuracy and EV lost,
    last active (any answer); and, whatever the range, the moves' accuracy over the last 7
    and 30 days and the periods before them (the trend).  A move is every decision but a
    counting drill's answer (``COUNT_CATEGORIES``: a number typed, no EV), which
    :func:`counting_figures` counts with the moves made at a count; a student who only
    counted has no move (``score.count`` 0, no accuracy, no trend).

    One grouped query.  The range's ends and the trend periods' edges cut time into slices;
    the database adds up each student's decisions per slice (five sums over an index-only
    scan of ``decision_user_time_idx (user_id, created_at) INCLUDE (correct, ev_lost,
    source, category)``, one range per student from their joining), and the periods are
    added up here from their slices: cheaper than one filtered sum per figure and period (17
    of them).
    """
    if not members:
        return {}
    week, month = now - timedelta(days=7), now - timedelta(days=30)
    periods = {
        "week": (week, None),
        "prev_week": (week - timedelta(days=7), week),
        "month": (month, None),
        "prev_month": (month - timedelta(days=30), month),
    }
    edges = sorted({t for a, b in periods.values() for t in (a, b) if t is not None}
                   | {t for t in (since, until) if t is not None})  # fmt: skip
    adapt = connection.ops.adapt_datetimefield_value
    # slice k holds [edges[k - 1], edges[k]); slice 0 everything before the first edge
    slice_sql = " ".join(f"WHEN d.created_at >= %s THEN {k}" for k in range(len(edges), 0, -1))
    slice_params = [adapt(t) for t in reversed(edges)]
    table, member_params = _values_members(members)
    earliest = None if since is None else min(since, month - timedelta(days=30))
    where, where_params = ("WHERE d.created_at >= %s", [adapt(earliest)]) if earliest else ("", [])
    # A move: every decision but a counting drill's answer (a number, no EV), which is
    # counted apart (counting_figures); the last activity is of every answer.
    counts = ", ".join(["%s"] * len(COUNT_CATEGORIES))
    move = f"d.category NOT IN ({counts})"
    sql = (
        f"SELECT d.user_id, CASE {slice_sql} ELSE 0 END AS slice, "
        f"SUM(CASE WHEN {move} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN d.correct AND {move} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN {move} THEN d.ev_lost ELSE 0 END), "
        f"SUM(CASE WHEN d.source = %s AND {move} THEN 1 ELSE 0 END), MAX(d.created_at) "
        f"FROM {Decision._meta.db_table} d "
        f"INNER JOIN {table} m ON d.user_id = m.column1 AND d.created_at >= m.column2 "
        f"{where} GROUP BY 1, 2"
    )
    kinds = [str(c) for c in COUNT_CATEGORIES]
    params = [*slice_params, *kinds, *kinds, *kinds, str(SOURCE_DRILL), *kinds,
              *member_params, *where_params]  # fmt: skip
    slices: dict[int, list[_Slice]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for uid, k, n, ok, lost, drill, last in cursor.fetchall():
            start = edges[k - 1] if k else None
            part = _Slice(
                start, int(n or 0), int(ok or 0), float(lost or 0), int(drill or 0), _aware(last)
            )
            slices.setdefault(uid, []).append(part)

    def within(part: _Slice, start: datetime | None, end: datetime | None) -> bool:
        if start is not None and (part.start is None or part.start < start):
            return False
        return end is None or part.start is None or part.start < end

    out: dict[int, StudentFigures] = {}
    for uid, parts in slices.items():
        in_range = [p for p in parts if within(p, since, until)]
        score = _sum(in_range)
        drill = sum(p.drill for p in in_range)
        lasts = [p.last for p in in_range if p.last is not None]
        trend = {name: _sum(p for p in parts if within(p, *ends)) for name, ends in periods.items()}
        out[uid] = StudentFigures(
            score=score,
            drill=drill,
            table=score.count - drill,
            last_active=max(lasts) if lasts else None,
            **trend,
        )
    return out


def counting_figures(
    *, members: Members, since: datetime | None, until: datetime | None
) -> dict[int, CountingFigures]:
    """Per student, in the date range: the answers made with a count, right ones and mean
    answer time.  One grouped query over the partial index ``decision_count_idx (user_id,
    created_at) INCLUDE (correct, time_taken_ms, category) WHERE count_system <> ''``, one
    range per student from their joining."""
    if not members:
        return {}
    rows = (
        _base(members, since, until)
        .exclude(count_system="")
        .values("user_id")
        .annotate(n=Count("id"), ok=Count("id", filter=Q(correct=True)), ms=Avg("time_taken_ms"))
    )
    return {
        r["user_id"]: CountingFigures(
            r["n"], int(r["ok"] or 0), float(r["ms"]) if r["ms"] is not None else None
        )
        for r in rows
    }


# A due date for an assignment without one, so that every window has an end.
_NO_DUE = datetime(9999, 1, 1, tzinfo=UTC)


# For the one read written in SQL (classroom.selectors.teacher_dashboard_class).
DECISIONS_TABLE = Decision._meta.db_table


def last_answer_at(student_field: str) -> Subquery:
    """An annotation: when the student in ``student_field`` last answered (one backward step
    of ``decision_user_time_idx`` per student)."""
    latest = Decision.objects.filter(user_id=OuterRef(student_field)).order_by("-created_at")
    return Subquery(latest.values("created_at")[:1])


def assignment_progress(
    *, windows: Sequence[AssignmentWindow], members: Members
) -> dict[tuple[int, int], Score]:
    """``(assignment id, user id) -> Score`` of the answers that count toward each
    assignment: answered in a drill started from it (its context), under its rule set, after
    it was set and not after its due date, while the student was in the class.

    One grouped query: for each assignment and student, one range of the partial
    ``decision_context_idx (context, user_id, created_at) WHERE context IS NOT NULL``."""
    if not windows or not members:
        return {}
    adapt = connection.ops.adapt_datetimefield_value
    assignments = "(VALUES " + ", ".join(["(%s, %s, %s, %s)"] * len(windows)) + ")"
    params: list[Any] = []
    for w in windows:
        params += [w.context, w.rules_key, adapt(w.starts), adapt(w.due or _NO_DUE)]
    students, member_params = _values_members(members)
    sql = (
        "SELECT d.context, d.user_id, COUNT(*), SUM(CASE WHEN d.correct THEN 1 ELSE 0 END), "
        f"SUM(d.ev_lost) FROM {assignments} a CROSS JOIN {students} m "
        f"INNER JOIN {Decision._meta.db_table} d ON d.context = a.column1 "
        "AND d.user_id = m.column1 AND d.created_at >= m.column2 "
        "AND d.created_at >= a.column3 AND d.created_at <= a.column4 AND d.rules_key = a.column2 "
        "WHERE d.context IS NOT NULL GROUP BY 1, 2"
    )
    by_context = {w.context: w.id for w in windows}
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *member_params])
        return {
            (by_context[str(context)], uid): Score(n, int(ok or 0), float(lost or 0))
            for context, uid, n, ok, lost in cursor.fetchall()
        }


def heat(*, members: Members, since: datetime | None, until: datetime | None) -> dict[Cell, Score]:
    """Accuracy per chart cell, of the moves made without a count (insurance and even-money
    decisions have no cell; an index play's answer, made at a count, says nothing of it)."""
    rows = (
        _base(members, since, until)
        .exclude(category__in=CELLESS_CATEGORIES)
        .filter(WITHOUT_COUNT)
        .values("chart_kind", "chart_row", "dealer_points")
        .annotate(**_score_aggregates())
    )
    return {(r["chart_kind"], r["chart_row"], r["dealer_points"]): _score(r) for r in rows}


def costliest_mistakes(
    *, members: Members, since: datetime | None, until: datetime | None, limit: int = 10
) -> list[Mistake]:
    """The wrong moves that cost the students most, summed over the class (the chart's
    cells: the moves made without a count, as :func:`heat`)."""
    rows = (
        _base(members, since, until)
        .filter(correct=False)
        .exclude(category__in=CELLESS_CATEGORIES)
        .filter(WITHOUT_COUNT)
        .values("chart_kind", "chart_row", "dealer_points", "choice", "best")
        .annotate(n=Count("id"), students=Count("user_id", distinct=True), lost=Sum("ev_lost"))
        .order_by("-lost", "-n", "chart_kind", "chart_row", "dealer_points", "choice")[:limit]
    )
    return [
        Mistake(
            r["chart_kind"],
            r["chart_row"],
            r["dealer_points"],
            r["choice"],
            r["best"],
            r["n"],
            r["students"],
            float(r["lost"] or 0),
        )
        for r in rows
    ]


def costliest_cells(
    *, members: Members, since: datetime | None, until: datetime | None, limit: int
) -> list[tuple[Cell, float]]:
    """The chart cells where the students lost most EV, most first (the moves made without a
    count, as :func:`heat`: a remedial drill deals the chart's hands)."""
    rows = (
        _base(members, since, until)
        .filter(correct=False)
        .exclude(category__in=CELLESS_CATEGORIES)
        .filter(WITHOUT_COUNT)
        .values("chart_kind", "chart_row", "dealer_points")
        .annotate(lost=Sum("ev_lost"))
        .order_by("-lost", "chart_kind", "chart_row", "dealer_points")[:limit]
    )
    return [
        ((r["chart_kind"], r["chart_row"], r["dealer_points"]), float(r["lost"] or 0)) for r in rows
    ]


_ANSWER_FIELDS = (
    "id",
    "user_id",
    "created_at",
    "source",
    "category",
    "chart_kind",
    "chart_row",
    "dealer_points",
    "hand",
    "dealer_up",
    "choice",
    "best",
    "chart_move",
    "ev",
    "ev_lost",
    "correct",
    "rules_key",
    "context",
    "time_taken_ms",
    "count_system",
    "true_count",
    "answer",
    "right_answer",
)


def _answers(qs: QuerySet[Decision]) -> Iterator[Answer]:
    for r in qs.values_list(*_ANSWER_FIELDS):
        yield Answer(*r)


def cell_answers(
    *,
    members: Members,
    cell: Cell,
    since: datetime | None,
    until: datetime | None,
    limit: int = 200,
) -> list[Answer]:
    """The latest answers in one chart cell (those the heat map counts)."""
    kind, row, up = cell
    qs = _base(members, since, until).filter(chart_kind=kind, chart_row=row, dealer_points=up)
    qs = qs.exclude(category__in=CELLESS_CATEGORIES).filter(WITHOUT_COUNT)
    qs = qs.order_by("-created_at", "-id")
    return list(_answers(qs[:limit]))


def recent_mistakes(
    *, member: tuple[int, datetime], since: datetime | None, until: datetime | None, limit: int = 20
) -> list[Answer]:
    qs = _base(dict([member]), since, until).filter(correct=False).order_by("-created_at", "-id")
    return list(_answers(qs[:limit]))


def answers_iter(
    *, member: tuple[int, datetime], since: datetime | None, until: datetime | None
) -> Iterator[Answer]:
    """Every answer of one student in the range, oldest first, read in chunks (exports)."""
    qs = _base(dict([member]), since, until).order_by("created_at", "id")
    for r in qs.values_list(*_ANSWER_FIELDS).iterator(chunk_size=2000):
        yield Answer(*r)


def by_category(
    *, member: tuple[int, datetime], since: datetime | None, until: datetime | None
) -> dict[str, Score]:
    rows = _base(dict([member]), since, until).values("category").annotate(**_score_aggregates())
    return {r["category"]: _score(r) for r in rows}


def by_day(
    *, member: tuple[int, datetime], since: datetime | None, until: datetime | None
) -> list[tuple[date, Score]]:
    """The student's moves per day (a counting drill's answer, a number without EV, is
    not a move: the category table shows those)."""
    rows = (
        _base(dict([member]), since, until)
        .exclude(category__in=COUNT_CATEGORIES)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(**_score_aggregates())
        .order_by("day")
    )
    return [(r["day"], _score(r)) for r in rows]


def dealable(cell: Cell) -> bool:
    """Whether the trainer's drill can deal this cell (focus "cells")."""
    return dealable_cell(*cell) is not None


def drill_start(
    *, session: Any, settings: Mapping[str, str], context: str, cells: Iterable[Cell] = ()
) -> None:
    """Start the trainer's drill with these settings, its answers tagged with ``context``."""
    drill_context_set(session=session, settings=settings, context=context, cells=cells)
