"""The statistics' stamp: two cheap statements that changes with every new decision, also one
whose time is older than the latest seen (its transaction committed late)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from decisions.models import Decision
from decisions.selectors import STAMP_WINDOW, stats_stamp

pytestmark = pytest.mark.django_db
NOW = timezone.now().replace(microsecond=0)


def _made(user: User, ago: timedelta) -> Decision:
    decision = Decision.objects.create(
        user=user, source="drill", rules={}, rules_key="k", hand=["10s", "6d"], dealer_up="10h",
        category="hard", chart_kind="hard", chart_row=16, dealer_points=10, choice="hit",
        best="hit", chart_move="hit", ev={}, ev_lost=0.0, correct=True,
    )  # fmt: skip
    Decision.objects.filter(pk=decision.pk).update(created_at=NOW - ago)
    return decision


def test_no_decision_no_stamp():
    user = User.objects.create_user(username="s0", password="x")
    assert stats_stamp(user=user) == (0, 0, None)


def test_the_stamp_changes_with_every_new_decision_in_two_short_statements():
    user = User.objects.create_user(username="s1", password="x")
    other = User.objects.create_user(username="s2", password="x")
    old = _made(user, timedelta(days=3))
    with CaptureQueriesContext(connection) as queries:
        first = stats_stamp(user=user)
    assert len(queries) == 2  # the latest decision, then the count of its window
    assert first == (1, old.pk, NOW - timedelta(days=3))
    latest = _made(user, timedelta(minutes=1))
    second = stats_stamp(user=user)
    assert second == (1, latest.pk, NOW - timedelta(minutes=1))  # the old one is outside
    # Committed after ``second`` was read, with a time before the latest's: still counted.
    late = _made(user, timedelta(minutes=2))
    assert stats_stamp(user=user) == (2, latest.pk, NOW - timedelta(minutes=1))
    _made(other, timedelta(seconds=0))  # another learner's decision changes nothing
    assert stats_stamp(user=user) == (2, latest.pk, NOW - timedelta(minutes=1))
    # At the window's edge, in; past it, out.
    Decision.objects.filter(pk=late.pk).update(created_at=NOW - timedelta(minutes=1) - STAMP_WINDOW)
    assert stats_stamp(user=user)[0] == 2
    Decision.objects.filter(pk=old.pk).update(
        created_at=NOW - timedelta(minutes=1, microseconds=1) - STAMP_WINDOW
    )
    assert stats_stamp(user=user)[0] == 2
    assert len({first, second, stats_stamp(user=user)}) == 3
