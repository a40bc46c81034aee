"""The dashboard's figures, computed in one grouped query over time slices, equal the figures
counted one decision at a time, for random decisions, joinings and date ranges."""

from __future__ import annotations

from datetime import timedelta
from random import Random

import pytest
from django.utils import timezone

from classroom import records
from decisions.models import Decision
from tests.classroom.conftest import make_decision, user

pytestmark = pytest.mark.django_db


def _by_hand(decisions, joined, since, until, now):
    def score(ds):
        ds = list(ds)
        return (len(ds), sum(d.correct for d in ds), round(sum(d.ev_lost for d in ds), 9))

    out = {}
    for uid, at in joined.items():
        mine = [d for d in decisions if d.user_id == uid and d.created_at >= at]
        if since is not None:
            read_from = min(since, now - timedelta(days=60))
            mine = [d for d in mine if d.created_at >= read_from]
        if not mine:
            continue
        in_range = [
            d
            for d in mine
            if (since is None or d.created_at >= since) and (until is None or d.created_at < until)
        ]

        def period(a, b=None, mine=mine):
            return score(d for d in mine if d.created_at >= a and (b is None or d.created_at < b))

        week, month = now - timedelta(days=7), now - timedelta(days=30)
        out[uid] = {
            "score": score(in_range),
            "drill": sum(d.source == "drill" for d in in_range),
            "last": max((d.created_at for d in in_range), default=None),
            "week": period(week),
            "prev_week": period(week - timedelta(days=7), week),
            "month": period(month),
            "prev_month": period(month - timedelta(days=30), month),
        }
    return out


def _figures(f):
    def score(s):
        return (s.count, s.correct, round(s.ev_lost, 9))

    return {
        "score": score(f.score),
        "drill": f.drill,
        "last": f.last_active,
        "week": score(f.week),
        "prev_week": score(f.prev_week),
        "month": score(f.month),
        "prev_month": score(f.prev_month),
    }


@pytest.mark.parametrize("seed", range(4))
def test_figures_equal_a_count_one_decision_at_a_time(seed):
    rng = Random(seed)
    now = timezone.now()
    students = [user(f"f{seed}-{i}") for i in range(4)]
    joined = {s.pk: now - timedelta(days=rng.uniform(0, 100)) for s in students}
    for _ in range(160):
        s = rng.choice(students)
        lost = rng.choice([0.0, 0.0, 0.125, 0.5])
        make_decision(s, correct=lost == 0, lost=lost, source=rng.choice(["drill", "table"]),
                      at=now - timedelta(days=rng.uniform(0, 130)))  # fmt: skip
    # and one exactly at a slice edge and one exactly at a joining
    make_decision(students[0], at=now - timedelta(days=7))
    make_decision(students[1], at=joined[students[1].pk])
    decisions = list(Decision.objects.all())
    day = timedelta(days=1)
    ranges = [(None, None), (now - 20 * day, None), (None, now - 10 * day),
              (now - 90 * day, now - 3 * day), (now - 7 * day, now - 7 * day + day)]  # fmt: skip
    for since, until in ranges:
        got = records.student_figures(members=joined, since=since, until=until, now=now)
        want = _by_hand(decisions, joined, since, until, now)
        assert {uid: _figures(f) for uid, f in got.items()} == want, (since, until)


def test_no_students_no_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert records.student_figures(members={}, since=None, until=None, now=timezone.now()) == {}
