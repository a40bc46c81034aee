"""core.rows.delete_rows: one statement when nothing points at the rows, Django's collector
(with its on_delete rules) when something does."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.rows import delete_rows
from decisions.models import Decision
from tests.classroom.conftest import make_decision, user
from tests.privacy.conftest import situation
from trainer.models import Situation

pytestmark = pytest.mark.django_db


def test_rows_nothing_points_at_go_in_one_statement():
    learner, other = user("learner"), user("other")
    for _ in range(250):
        make_decision(learner)
    kept = make_decision(other)
    with CaptureQueriesContext(connection) as ctx:
        assert delete_rows(Decision.objects.filter(user=learner)) == 250
    deletes = [q for q in ctx.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 1
    assert list(Decision.objects.all()) == [kept]


def test_rows_something_points_at_follow_its_on_delete_rule():
    learner = user("learner")
    answered = make_decision(learner)
    question = situation(learner, answered=answered)
    assert delete_rows(Decision.objects.filter(user=learner)) == 1
    question.refresh_from_db()
    assert question.decision is None  # SET_NULL, as Django's own delete does it
    assert Situation.objects.count() == 1
