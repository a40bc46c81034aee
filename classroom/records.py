"""The class layer's one door to the decision record and the trainer.

Every read of decisions and every use of the trainer by ``classroom`` goes through this
module, so that moving the record to its own app (``decisions``) changes only the imports
here.  Reads return plain values (dataclasses, dicts), never model instances, and each is one
SQL query whatever the number of students: aggregates are computed by the database.

Every read takes the students as ``members``, a mapping of each student's id to the moment
they joined the class: a teacher sees a student's answers only from that moment on (answers
given before joining, or in an earlier membership that the student left, stay the student's
own).  Each student's part of a query is ``user_id = s AND created_at >= joined`` (the later
of the join and the range's start), so every part is one range of the ``(user_id,
created_at)`` index (PostgreSQL combines them with a BitmapOr).

Indexes used (on trainer_decision): ``(user_id, created_at)`` for everything filtered by the
class's students and a date range; the partial ``decision_context_idx (context, user_id,
created_at) WHERE context IS NOT NULL`` for assignment progress.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import reduce
from typing import Any, cast

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.db.models.functions import TruncDate

from core.display import MOVE_LABELS
from decisions.models import OFFER_CATEGORIES, Decision
from trainer.context import DrillNotice, drill_context_set, drill_notice_register
from trainer.dealing import dealable_cell
from trainer.forms import CELLS_FOCUS, FOCUS_CHOICES, PRESET_LABELS, RulesForm

__all__ = [
    "CATEGORY_CHOICES",
    "CELLS_FOCUS",
    "FOCUS_CHOICES",
    "MOVE_LABELS",
    "PRESET_LABELS",
    "DrillNotice",
    "RulesForm",
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


def student_figures(
    *,
    members: Members,
    since: datetime | None,
    until: datetime | None,
    now: datetime,
) -> dict[int, StudentFigures]:
    """Per student, in the date range: decisions (drill / table), accuracy, EV lost, last
    active; and, whatever the range, accuracy over the last 7 and 30 days and the periods
    before them (the trend).  One grouped query."""
    week, month = now - timedelta(days=7), now - timedelta(days=30)
    in_range: Q | None = None
    if since is not None:
        in_range = Q(created_at__gte=since)
    if until is not None:
        in_range = (
            Q(created_at__lt=until) if in_range is None else in_range & Q(created_at__lt=until)
        )
    drill = Q(source=Decision.Source.DRILL)
    windows = {
        "w_": Q(created_at__gte=week),
        "pw_": Q(created_at__gte=week - timedelta(days=7), created_at__lt=week),
        "m_": Q(created_at__gte=month),
        "pm_": Q(created_at__gte=month - timedelta(days=30), created_at__lt=month),
    }
    aggregates: dict[str, Any] = {
        **_score_aggregates("", in_range),
        "drill": Count("id", filter=drill if in_range is None else in_range & drill),
        "last": Max("created_at", filter=in_range),
    }
    for prefix, when in windows.items():
        aggregates.update(_score_aggregates(prefix, when))
    # read only what the range or the trend needs
    earliest = None if since is None else min(since, month - timedelta(days=30))
    qs = Decision.objects.filter(_since_joined(members, earliest)).order_by()
    rows = qs.values("user_id").annotate(**aggregates)
    out: dict[int, StudentFigures] = {}
    for row in rows:
        r = cast(dict[str, Any], row)
        score = _score(r)
        out[r["user_id"]] = StudentFigures(
            score=score,
            drill=r["drill"],
            table=score.count - r["drill"],
            last_active=r["last"],
            week=_score(r, "w_"),
            prev_week=_score(r, "pw_"),
            month=_score(r, "m_"),
            prev_month=_score(r, "pm_"),
        )
    return out


def assignment_progress(
    *, windows: Sequence[AssignmentWindow], members: Members
) -> dict[tuple[int, int], Score]:
    """``(assignment id, user id) -> Score`` of the answers that count toward each
    assignment: answered in a drill started from it (its context), under its rule set, after
    it was set and not after its due date, while the student was in the class.  One grouped
    query over the context index."""
    if not windows or not members:
        return {}
    match = Q()
    for w in windows:
        part = Q(context=w.context, rules_key=w.rules_key, created_at__gte=w.starts)
        if w.due is not None:
            part &= Q(created_at__lte=w.due)
        match |= part
    by_context = {w.context: w.id for w in windows}
    rows = (
        Decision.objects.filter(match, _since_joined(members), context__isnull=False)
        .order_by()
        .values("context", "user_id")
        .annotate(**_score_aggregates())
    )
    return {(by_context[str(r["context"])], r["user_id"]): _score(r) for r in rows}


def heat(*, members: Members, since: datetime | None, until: datetime | None) -> dict[Cell, Score]:
    """Accuracy per chart cell (insurance and even-money decisions have no cell)."""
    rows = (
        _base(members, since, until)
        .exclude(category__in=OFFER_CATEGORIES)
        .values("chart_kind", "chart_row", "dealer_points")
        .annotate(**_score_aggregates())
    )
    return {(r["chart_kind"], r["chart_row"], r["dealer_points"]): _score(r) for r in rows}


def costliest_mistakes(
    *, members: Members, since: datetime | None, until: datetime | None, limit: int = 10
) -> list[Mistake]:
    """The wrong moves that cost the students most, summed over the class."""
    rows = (
        _base(members, since, until)
        .filter(correct=False)
        .exclude(category__in=OFFER_CATEGORIES)
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
    """The chart cells where the students lost most EV, most first."""
    rows = (
        _base(members, since, until)
        .filter(correct=False)
        .exclude(category__in=OFFER_CATEGORIES)
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
    """The latest answers in one chart cell."""
    kind, row, up = cell
    qs = _base(members, since, until).filter(chart_kind=kind, chart_row=row, dealer_points=up)
    qs = qs.exclude(category__in=OFFER_CATEGORIES).order_by("-created_at", "-id")
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
    rows = (
        _base(dict([member]), since, until)
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
