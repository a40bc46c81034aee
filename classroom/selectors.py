"""Reads of the class layer: who may see which class, and what its pages show.

Every page costs the same few queries whatever the class's size: the students and the
assignments are one query each, and every figure is one grouped query in
:mod:`classroom.records`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from blackjack import KINDS, UPS
from classroom import records
from classroom.models import ASSIGNMENT_CONTEXT_PREFIX, Assignment, Classroom, Membership
from classroom.records import EMPTY, Score, StudentFigures
from core.rows import Columns, id_fits

HEAT_ROWS: dict[str, tuple[int, ...]] = {
    "hard": tuple(range(5, 21)),
    "soft": tuple(range(13, 21)),
    "pair": (2, 3, 4, 5, 6, 7, 8, 9, 10, 1),
}
# A heat-map cell with fewer answers than this is greyed: too few to say anything.
HEAT_MIN_ANSWERS = 5
SORTS = ("name", "hands", "accuracy", "lost", "last", "week", "month", "counting", "speed")


# --- access ------------------------------------------------------------------------------


def _teaches(user: User) -> Q:
    co = Classroom.co_teachers.through.objects.filter(classroom_id=OuterRef("pk"), user_id=user.pk)
    return Q(owner_id=user.pk) | Q(Exists(co))


def teacher_class_get(*, user: User | None, pk: int) -> Classroom | None:
    """The class if ``user`` teaches it (owner or co-teacher), else ``None``."""
    if user is None or not user.is_teacher:
        return None
    return Classroom.objects.filter(_teaches(user), pk=pk).select_related("owner").first()


def teacher_dashboard_class(*, user: User | None, pk: int) -> Classroom | None:
    """:func:`teacher_class_get` for the dashboard, whose page is kept: the class also has
    ``latest_answer``, when any of its students last answered (``None`` before the first
    answer; one backward step of ``decision_user_time_idx`` per student), for the page's stamp
    (:func:`dashboard_stamp`).  The owner is not joined: only a page drawn anew shows it.

    Written in SQL because this is all a kept dashboard reads besides the session and the
    user: the ORM took 1.9 ms of CPU to build and read it, this 0.3 ms (issue 17), and read
    with a cursor, its row made into the class as the ORM makes it (``core.rows.Columns``):
    ``raw()`` spent more on mapping the columns than the database on the answer.  The tests
    hold it to the ORM's answer (tests/classroom/test_dashboard_kept.py)."""
    if user is None or not user.is_teacher:
        return None
    if not id_fits(connection, Classroom, pk):
        return None
    sql = f"""
        SELECT {_CLASS_COLUMNS.sql(connection)}, (
            SELECT MAX((
                SELECT d.created_at FROM {_DECISIONS} d WHERE d.user_id = m.student_id
                ORDER BY d.created_at DESC LIMIT 1
            ))
            FROM {_MEMBERSHIPS} m WHERE m.classroom_id = c.id
        ) AS latest_answer
        FROM {_CLASSES} c
        WHERE c.id = %s AND (c.owner_id = %s OR EXISTS (
            SELECT 1 FROM {_CO_TEACHERS} t WHERE t.classroom_id = c.id AND t.user_id = %s
        ))
    """  # table names from the models; every value a parameter
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, user.pk, user.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    classroom = _CLASS_COLUMNS.build(connection, row[:-1])
    classroom.latest_answer = row[-1]  # type: ignore[attr-defined]  # as raw() gave it
    return classroom


_CLASSES = Classroom._meta.db_table
_CLASS_COLUMNS = Columns(Classroom, "c")
_MEMBERSHIPS = Membership._meta.db_table
_CO_TEACHERS = Classroom.co_teachers.through._meta.db_table
_DECISIONS = records.DECISIONS_TABLE


def teacher_classes(*, user: User) -> list[Classroom]:
    """The classes ``user`` teaches, each with ``students`` (its number of students)."""
    if not user.is_teacher:
        return []
    return list(
        Classroom.objects.filter(_teaches(user))
        .select_related("owner")
        .annotate(students=Count("memberships"))
        .order_by("archived_at", "name", "id")
    )


def student_memberships(*, user: User) -> list[Membership]:
    return list(
        Membership.objects.filter(student=user)
        .select_related("classroom", "classroom__owner")
        .order_by("classroom__name", "classroom_id")
    )


def member_get(*, user: User | None, pk: int) -> Membership | None:
    """``user``'s membership of class ``pk``, if they are its student."""
    if user is None:
        return None
    return (
        Membership.objects.filter(student=user, classroom_id=pk)
        .select_related("classroom", "classroom__owner")
        .first()
    )


def student_membership_get(*, classroom: Classroom, user_id: int) -> Membership | None:
    return (
        Membership.objects.filter(classroom=classroom, student_id=user_id)
        .select_related("student")
        .first()
    )


# --- figures --------------------------------------------------------------------------


def teacher_name(student: User) -> str:
    """How a teacher sees a student: the real name if they gave one."""
    return student.real_name or student.shown_name


@dataclass(frozen=True)
class Progress:
    assignment: Assignment
    score: Score

    @property
    def counted(self) -> int:
        return min(self.score.count, self.assignment.hands)

    @property
    def percent(self) -> int:
        return round(100 * self.counted / max(1, self.assignment.hands))

    @property
    def done(self) -> bool:
        acc = self.score.accuracy
        return (
            self.counted >= self.assignment.hands and (acc or 0) >= self.assignment.target_accuracy
        )


def _windows(assignments: Sequence[Assignment]) -> list[records.AssignmentWindow]:
    return [
        records.AssignmentWindow(a.pk, a.context, a.rules_key, a.created_at, a.due_at)
        for a in assignments
    ]


def _trend(now: Score, before: Score) -> float | None:
    if now.accuracy is None or before.accuracy is None:
        return None
    return now.accuracy - before.accuracy


@dataclass(frozen=True)
class DashboardRow:
    membership: Membership
    name: str
    figures: StudentFigures | None
    progress: list[Progress]
    counting: records.CountingFigures = field(default_factory=records.CountingFigures)

    @property
    def score(self) -> Score:
        return self.figures.score if self.figures else EMPTY

    @property
    def week(self) -> Score:
        return self.figures.week if self.figures else EMPTY

    @property
    def month(self) -> Score:
        return self.figures.month if self.figures else EMPTY

    @property
    def week_trend(self) -> float | None:
        return _trend(self.figures.week, self.figures.prev_week) if self.figures else None

    @property
    def month_trend(self) -> float | None:
        return _trend(self.figures.month, self.figures.prev_month) if self.figures else None


@dataclass
class Dashboard:
    classroom: Classroom
    rows: list[DashboardRow]
    assignments: list[Assignment]
    total: Score


def _sort_key(sort: str) -> Any:
    def key(row: DashboardRow) -> tuple[bool, Any]:
        value: Any = {
            "name": row.name.casefold(),
            "hands": row.score.count,
            "accuracy": row.score.accuracy,
            "lost": row.score.lost_per_100,
            "last": row.figures.last_active if row.figures else None,
            "week": row.week.accuracy,
            "month": row.month.accuracy,
            "counting": row.counting.accuracy,
            "speed": row.counting.avg_ms,
        }[sort]
        return (value is None, value if value is not None else 0)

    return key


def class_students(*, classroom: Classroom, last_answers: bool = False) -> list[Membership]:
    """The class's memberships with their students; with ``last_answers``, each also has
    ``last_answer_at`` (when the student last answered; the dashboard's cache key)."""
    qs = Membership.objects.filter(classroom=classroom).select_related("student")
    if last_answers:
        qs = qs.annotate(last_answer_at=records.last_answer_at("student_id"))
    return list(qs.order_by("student__username"))


# How long the dashboard's figures are kept: nothing they count can change without changing
# their key, except the trend periods' edges (now, to the minute) and a decision deleted by
# hand, which this bounds.
FIGURES_SECONDS = 60
Figures = tuple[
    dict[int, StudentFigures], dict[tuple[int, int], Score], dict[int, records.CountingFigures]
]


def _class_figures(
    classroom: Classroom,
    members: Sequence[Membership],
    assignments: Sequence[Assignment],
    since: datetime | None,
    until: datetime | None,
    now: datetime,
) -> Figures:
    """The students' figures and assignment progress, kept in the cache under a key of
    everything they are counted from: the class, each student's joining and last answer
    (answers are only ever added, at the time they are given), the assignments' windows, the
    range and the minute.  A teacher who sorts, reloads or downloads the CSV while no student
    answers costs no aggregate; every new answer makes a new key."""
    minute = now.replace(second=0, microsecond=0)
    parts = (
        classroom.pk,
        [(m.student_id, m.joined_at, getattr(m, "last_answer_at", None)) for m in members],
        [(a.pk, a.created_at, a.due_at, a.rules_key) for a in assignments],
        since,
        until,
        minute,
    )
    key = "classroom:figures:moves:" + hashlib.sha256(repr(parts).encode()).hexdigest()
    found: Figures | None = cache.get(key)
    if found is not None:
        return found
    joined = members_joined(members)
    figures = records.student_figures(members=joined, since=since, until=until, now=minute)
    progress = records.assignment_progress(windows=_windows(assignments), members=joined)
    counting = records.counting_figures(members=joined, since=since, until=until)
    cache.set(key, (figures, progress, counting), FIGURES_SECONDS)
    return figures, progress, counting


def dashboard_stamp(*, classroom: Classroom, now: datetime) -> tuple[Any, ...]:
    """What the dashboard's page is drawn from, for a class read by
    :func:`teacher_dashboard_class`: the class's version (its code, students, assignments and
    teachers, counted by ``classroom.services``), its students' latest answer (answers are only
    ever added, at the time they are given) and the minute (the trend periods' edges).  An
    unchanged stamp means an unchanged page; anything else that shows (a student's new name, a
    decision deleted by hand) shows within the minute."""
    minute = now.replace(second=0, microsecond=0)
    identity = (classroom.pk, classroom.created_at, classroom.version, classroom.owner_id)
    return (*identity, classroom.latest_answer, minute)  # type: ignore[attr-defined]


def class_assignments(*, classroom: Classroom) -> list[Assignment]:
    return list(Assignment.objects.filter(classroom=classroom))


def dashboard(
    *,
    classroom: Classroom,
    since: datetime | None,
    until: datetime | None,
    now: datetime,
    sort: str = "name",
) -> Dashboard:
    """One row per student; five queries whatever the class's size, two when nothing has
    changed since the same figures were last computed (:func:`_class_figures`)."""
    members = class_students(classroom=classroom, last_answers=True)
    assignments = class_assignments(classroom=classroom)
    figures, progress, counting = _class_figures(classroom, members, assignments, since, until, now)
    rows = [
        DashboardRow(
            membership=m,
            name=teacher_name(m.student),
            figures=figures.get(m.student_id),
            progress=[Progress(a, progress.get((a.pk, m.student_id), EMPTY)) for a in assignments],
            counting=counting.get(m.student_id, records.CountingFigures()),
        )
        for m in members
    ]
    descending = sort.startswith("-")
    key = sort.lstrip("-")
    if key not in SORTS:
        key, descending = "name", False
    present = [r for r in rows if _sort_key(key)(r)[0] is False]
    missing = [r for r in rows if _sort_key(key)(r)[0] is True]
    present.sort(key=_sort_key(key), reverse=descending)
    total = Score(
        sum(r.score.count for r in rows),
        sum(r.score.correct for r in rows),
        sum(r.score.ev_lost for r in rows),
    )
    return Dashboard(classroom, present + missing, assignments, total)


@dataclass(frozen=True)
class HeatCell:
    kind: str
    row: int
    up: int
    score: Score

    @property
    def level(self) -> str:
        if self.score.count < HEAT_MIN_ANSWERS:
            return "none"
        acc = self.score.accuracy or 0.0
        return "good" if acc >= 90 else "fair" if acc >= 70 else "poor"


def heat_grids(
    cells: dict[records.Cell, Score],
) -> list[tuple[str, list[tuple[int, list[HeatCell]]]]]:
    return [
        (
            kind,
            [
                (row, [HeatCell(kind, row, up, cells.get((kind, row, up), EMPTY)) for up in UPS])
                for row in HEAT_ROWS[kind]
            ],
        )
        for kind in KINDS
    ]


@dataclass
class HeatPage:
    grids: list[tuple[str, list[tuple[int, list[HeatCell]]]]]
    mistakes: list[records.Mistake]
    students: int


def class_heat(*, classroom: Classroom, since: datetime | None, until: datetime | None) -> HeatPage:
    """The class's heat map and costliest mistakes: three queries."""
    joined = class_members(classroom=classroom)
    cells = records.heat(members=joined, since=since, until=until)
    mistakes = records.costliest_mistakes(members=joined, since=since, until=until)
    return HeatPage(heat_grids(cells), mistakes, len(joined))


def class_members(*, classroom: Classroom) -> dict[int, datetime]:
    """The class's students, each with the moment they joined: one query."""
    rows = Membership.objects.filter(classroom=classroom).values_list("student_id", "joined_at")
    return dict(rows)


def members_joined(memberships: Sequence[Membership]) -> dict[int, datetime]:
    """Student id -> joined at: what every read of decisions counts from."""
    return {m.student_id: m.joined_at for m in memberships}


@dataclass
class StudentPage:
    membership: Membership
    name: str
    total: Score
    categories: list[tuple[str, str, Score]]
    days: list[tuple[date, Score]]
    grids: list[tuple[str, list[tuple[int, list[HeatCell]]]]]
    mistakes: list[records.Answer]
    progress: list[Progress] = field(default_factory=list)
    # The categories of a counting drill's answers: a number, no EV (nor in the total).
    count_categories: tuple[str, ...] = records.COUNT_CATEGORIES


def student_page(
    *,
    classroom: Classroom,
    membership: Membership,
    since: datetime | None,
    until: datetime | None,
) -> StudentPage:
    uid = membership.student_id
    member = (uid, membership.joined_at)
    cats = records.by_category(member=member, since=since, until=until)
    # The total is of the moves: a counting drill's answers (a number, no EV) have their rows.
    moves = [s for c, s in cats.items() if c not in records.COUNT_CATEGORIES]
    total = Score(
        sum(s.count for s in moves), sum(s.correct for s in moves), sum(s.ev_lost for s in moves)
    )
    assignments = class_assignments(classroom=classroom)
    progress = records.assignment_progress(windows=_windows(assignments), members=dict([member]))
    return StudentPage(
        membership=membership,
        name=teacher_name(membership.student),
        total=total,
        categories=[(v, str(label), cats.get(v, EMPTY)) for v, label in records.CATEGORY_CHOICES],
        days=records.by_day(member=member, since=since, until=until),
        grids=heat_grids(records.heat(members=dict([member]), since=since, until=until)),
        mistakes=records.recent_mistakes(member=member, since=since, until=until),
        progress=[Progress(a, progress.get((a.pk, uid), EMPTY)) for a in assignments],
    )


def my_progress(*, membership: Membership) -> list[Progress]:
    """A student's own progress on their class's assignments: two queries."""
    assignments = class_assignments(classroom=membership.classroom)
    progress = records.assignment_progress(
        windows=_windows(assignments), members={membership.student_id: membership.joined_at}
    )
    return [Progress(a, progress.get((a.pk, membership.student_id), EMPTY)) for a in assignments]


# --- the drill of an assignment ---------------------------------------------------------

ASSIGNMENT_PREFIX = ASSIGNMENT_CONTEXT_PREFIX


@dataclass(frozen=True)
class AssignmentDrill:
    """What the trainer's drill page says about a drill started from an assignment."""

    membership: Membership
    progress: Progress
    due_passed: bool


def assignment_drill(*, user: User | None, context: str) -> AssignmentDrill | None:
    """The assignment whose drill ``context`` is, with ``user``'s progress on it, if they are
    in its class (after leaving, nothing); three queries."""
    try:
        pk = int(context.removeprefix(ASSIGNMENT_CONTEXT_PREFIX))
    except ValueError:
        return None
    if user is None or not context.startswith(ASSIGNMENT_CONTEXT_PREFIX):
        return None
    membership = (
        Membership.objects.filter(student_id=user.pk, classroom__assignments=pk)
        .select_related("classroom")
        .first()
    )
    if membership is None:
        return None
    assignment = Assignment.objects.get(pk=pk)
    scores = records.assignment_progress(
        windows=_windows([assignment]), members={user.pk: membership.joined_at}
    )
    due = assignment.due_at
    return AssignmentDrill(
        membership=membership,
        progress=Progress(assignment, scores.get((pk, user.pk), EMPTY)),
        due_passed=due is not None and due < timezone.now(),
    )


def assignment_notice(*, user: User | None, context: str) -> records.DrillNotice | None:
    """The drill page's notice for an assignment's drill (registered with the trainer)."""
    drill = assignment_drill(user=user, context=context)
    if drill is None:
        return None
    return records.DrillNotice("classroom/_drill_notice.html", {"drill": drill})


# --- the user's own data download (privacy) ----------------------------------------------


def _assignment_export(a: Assignment, *, user: User) -> dict[str, Any]:
    return {
        "title": a.title,
        "focus": a.focus,
        "settings": a.settings,
        "rules_key": a.rules_key,
        "cells": a.cells,
        "hands": a.hands,
        "target_accuracy": a.target_accuracy,
        "due_at": a.due_at,
        "created_at": a.created_at,
        "set_by_you": a.created_by_id == user.pk,
    }


def classes_export(*, user: User) -> dict[str, list[dict[str, Any]]]:
    """The classes the user teaches and the classes they belong to, in four queries.

    A taught class comes with its assignments and its number of students, never a student's
    name, figures or the teachers' notes: those are the students' data (the class pages and
    the class's CSV export show them to its teachers).  A class the user belongs to comes
    with its assignments and the user's own progress on each, never the teachers' private
    note on them (a note has no author: it is the class's teachers' record, not the user's).
    """
    teaching = list(
        Classroom.objects.filter(_teaches(user))
        .annotate(students=Count("memberships"))
        .order_by("created_at", "id")
    )
    memberships = list(
        Membership.objects.filter(student=user)
        .select_related("classroom", "classroom__owner")
        .order_by("joined_at", "id")
    )
    ids = [c.pk for c in teaching] + [m.classroom_id for m in memberships]
    by_class: dict[int, list[Assignment]] = {pk: [] for pk in ids}
    for a in Assignment.objects.filter(classroom_id__in=ids).order_by("created_at", "id"):
        by_class[a.classroom_id].append(a)
    studied = [a for m in memberships for a in by_class[m.classroom_id]]
    # An assignment's drill can only be started by a member, so the earliest join bounds every
    # class's answers alike (one query whatever the number of classes).
    joined = min((m.joined_at for m in memberships), default=None)
    members = {user.pk: joined} if joined is not None else {}
    progress = records.assignment_progress(windows=_windows(studied), members=members)

    def mine(a: Assignment) -> dict[str, Any]:
        p = Progress(a, progress.get((a.pk, user.pk), EMPTY))
        return {
            **_assignment_export(a, user=user),
            "your_answers": p.score.count,
            "your_correct": p.score.correct,
            "your_accuracy": p.score.accuracy,
            "done": p.done,
        }

    return {
        "teaching": [
            {
                "name": c.name,
                "description": c.description,
                "role": "owner" if c.owner_id == user.pk else "co-teacher",
                "join_code": c.code,
                "created_at": c.created_at,
                "archived_at": c.archived_at,
                "students": c.students,
                "assignments": [_assignment_export(a, user=user) for a in by_class[c.pk]],
            }
            for c in teaching
        ],
        "member_of": [
            {
                "name": m.classroom.name,
                "description": m.classroom.description,
                "teacher": m.classroom.owner.shown_name if m.classroom.owner else None,
                "joined_at": m.joined_at,
                "archived_at": m.classroom.archived_at,
                "assignments": [mine(a) for a in by_class[m.classroom_id]],
            }
            for m in memberships
        ],
    }
