"""The drill's streak and visit score (one SQL query) against the definition, row by row."""

from __future__ import annotations

from datetime import timedelta
from random import Random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from decisions.models import Decision
from decisions.selectors import drill_summary

pytestmark = pytest.mark.django_db
NOW = timezone.now().replace(microsecond=0)


def _decision(user: User, right: bool, lost: float, source: str) -> Decision:
    return Decision(
        user=user, source=source, rules={}, rules_key="k", hand=["10s", "6d"], dealer_up="10h",
        category="hard", chart_kind="hard", chart_row=16, dealer_points=10, choice="hit",
        best="hit", chart_move="hit", ev={}, ev_lost=lost, correct=right,
    )  # fmt: skip


def _history(user: User, rows: list[tuple[int, bool, float, str]]) -> None:
    """Decisions of ``user``: (minutes ago, right, EV lost, source), in the order made."""
    made = Decision.objects.bulk_create(_decision(user, *row[1:]) for row in rows)
    for decision, (ago, *_rest) in zip(made, rows, strict=True):
        Decision.objects.filter(pk=decision.pk).update(created_at=NOW - timedelta(minutes=ago))


def _expected(user: User, since):
    """The definition: the drill decisions newest first (time, then id) as the page lists
    them; the streak is the right ones before the first miss, the visit those since ``since``."""
    rows = list(
        Decision.objects.filter(user=user, source="drill")
        .order_by("-created_at", "-id")
        .values_list("correct", "ev_lost", "created_at")
    )
    streak = next((i for i, (right, _lost, _at) in enumerate(rows) if not right), len(rows))
    visit = [(right, lost) for right, lost, at in rows if at >= since]
    return streak, len(visit), sum(right for right, _ in visit), sum(lost for _, lost in visit)


def _got(user: User, since):
    streak, score = drill_summary(user=user, since=since)
    return streak, score.count, score.correct, score.ev_lost


@pytest.fixture
def users():
    return [User.objects.create_user(username=f"u{i}", password="x") for i in range(2)]


def test_no_decisions(users):
    assert _got(users[0], NOW) == (0, 0, 0, 0.0)


def test_no_miss_yet_every_answer_is_the_streak(users):
    _history(
        users[0], [(50, True, 0.0, "drill"), (40, True, 0.0, "drill"), (5, True, 0.0, "drill")]
    )
    assert _got(users[0], NOW - timedelta(minutes=10)) == (3, 1, 1, 0.0)


def test_the_streak_counts_from_the_latest_miss_and_the_visit_from_its_start(users):
    you, other = users
    _history(you, [
        (90, True, 0.0, "drill"), (60, False, 0.5, "drill"), (30, True, 0.0, "drill"),
        (20, False, 0.25, "table"),  # a table decision: neither the streak's nor the drill's
        (10, True, 0.0, "drill"), (2, True, 0.0, "drill"),
    ])  # fmt: skip
    _history(other, [(1, False, 1.0, "drill")])  # another learner's miss changes nothing
    assert _got(you, NOW - timedelta(minutes=70)) == (3, 4, 3, 0.5)
    assert _got(you, NOW - timedelta(minutes=15)) == (3, 2, 2, 0.0)
    assert _got(you, NOW) == (3, 0, 0, 0.0)


def test_a_miss_just_now_ends_the_streak(users):
    _history(users[0], [(5, True, 0.0, "drill"), (0, False, 0.125, "drill")])
    assert _got(users[0], NOW - timedelta(minutes=60)) == (0, 2, 1, 0.125)


def test_answers_at_the_same_moment_are_ordered_by_id(users):
    # Two decisions with one timestamp: the later made (higher id) is the newer, as listed.
    _history(users[0], [(3, False, 0.5, "drill"), (3, True, 0.0, "drill")])
    assert _got(users[0], NOW - timedelta(minutes=3)) == (1, 2, 1, 0.5)
    _history(users[1], [(3, True, 0.0, "drill"), (3, False, 0.5, "drill")])
    assert _got(users[1], NOW - timedelta(minutes=3)) == (0, 2, 1, 0.5)


def test_random_histories_match_the_definition(users):
    rng = Random(17)
    you = users[0]
    for _ in range(25):
        Decision.objects.filter(user=you).delete()
        rows = [
            # few distinct minutes, so that ties are common
            (rng.randint(0, 12), rng.random() < 0.8, rng.choice([0.0, 0.125, 0.5]),
             "drill" if rng.random() < 0.85 else "table")
            for _ in range(rng.randint(0, 30))
        ]  # fmt: skip
        _history(you, rows)
        for since in (NOW - timedelta(minutes=m) for m in (0, 4, 8, 13)):
            assert _got(you, since) == pytest.approx(_expected(you, since)), rows


def test_one_query(users):
    _history(users[0], [(9, False, 0.5, "drill"), (1, True, 0.0, "drill")])
    with CaptureQueriesContext(connection) as ctx:
        drill_summary(user=users[0], since=NOW)
    assert len(ctx.captured_queries) == 1
