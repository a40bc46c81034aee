"""Fixtures of the class tests: the seven kinds of visitor of a class, and decisions made
directly in the record (fast: no dealing, no mathematics)."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import count

import pytest
from django.utils import timezone

from accounts.models import Role, User
from blackjack import PRESETS
from classroom import services
from classroom.models import Classroom, Membership
from decisions.models import Decision

THOTH = PRESETS["thoth"]
_seq = count()


def make_decision(
    user: User,
    *,
    correct: bool = True,
    lost: float = 0.0,
    at: datetime | None = None,
    kind: str = "hard",
    row: int = 16,
    up: int = 10,
    source: str = "drill",
    context: str | None = None,
    rules_key: str | None = None,
    choice: str = "hit",
    best: str = "hit",
) -> Decision:
    d = Decision.objects.create(
        user=user,
        source=source,
        rules=THOTH.to_dict(),
        rules_key=rules_key or THOTH.key(),
        hand=["10s", "6d"],
        dealer_up="10h",
        category={"pair": "pair", "soft": "soft"}.get(kind, "hard"),
        chart_kind=kind,
        chart_row=row,
        dealer_points=up,
        choice=choice if not correct or choice != best else best,
        best=best,
        chart_move=best,
        ev={"hit": -0.5, "stand": -0.5 - lost} if lost else {"hit": -0.5, "stand": -0.54},
        ev_lost=lost,
        correct=correct,
        context=context,
    )
    if at is not None:
        Decision.objects.filter(pk=d.pk).update(created_at=at)
        d.created_at = at
    return d


@pytest.fixture(autouse=True)
def _fresh_rate_limits(monkeypatch):
    """Join attempts are counted in the cache, which outlives a test (and may be a Redis that
    other runs share: never clear it): each test counts under keys of its own."""
    import uuid

    monkeypatch.setattr(services, "RATE_KEY_PREFIX", f"test-join-{uuid.uuid4().hex}")


def user(name: str, *, teacher: bool = False, guest: bool = False, **kw) -> User:
    return User.objects.create_user(
        username=name,
        password="x",
        role=Role.TEACHER if teacher else Role.LEARNER,
        is_guest=guest,
        **kw,
    )


@pytest.fixture
def people(db):
    """owner, co-teacher, student of the class, student of another class, other user, guest;
    and the class and the other class."""
    owner = user("owner", teacher=True, display_name="Thoth")
    co = user("co", teacher=True)
    other_teacher = user("otherteacher", teacher=True)
    student = user("student", real_name="Анна Ковальчук", display_name="Ani")
    other_student = user("otherstudent")
    other = user("other", teacher=True)
    guest = user("guest-abc", guest=True)
    klass = services.class_create(owner=owner, name="Year 9")
    services.co_teacher_add(classroom=klass, username="co")
    join(student, klass)
    other_class = services.class_create(owner=other_teacher, name="Other")
    join(other_student, other_class)
    return {
        "owner": owner,
        "co": co,
        "student": student,
        "other_student": other_student,
        "other": other,
        "guest": guest,
        "anonymous": None,
        "class": klass,
        "other_class": other_class,
    }


def join(student: User, klass: Classroom, *, at: datetime | None = None) -> Membership:
    """``student`` joins ``klass``, as if ``at`` (a year ago unless said): a teacher sees a
    student's answers only from their joining, so tests that date answers in the past date
    the joining before them."""
    services.class_join(user=student, classroom=klass)
    joined = at or days_ago(365)
    Membership.objects.filter(classroom=klass, student=student).update(joined_at=joined)
    return Membership.objects.get(classroom=klass, student=student)


def now() -> datetime:
    return timezone.now()


def days_ago(n: float) -> datetime:
    return timezone.now() - timedelta(days=n)


__all__ = ["Classroom", "days_ago", "join", "make_decision", "now", "user"]
