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
        assert delete_rows(Decision, user_id=learner.pk) == 250
    deletes = [q for q in ctx.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 1
    assert list(Decision.objects.all()) == [kept]


def test_rows_something_points_at_follow_its_on_delete_rule():
    learner = user("learner")
    answered = make_decision(learner)
    question = situation(learner, answered=answered)
    assert delete_rows(Decision, user_id=learner.pk) == 1
    question.refresh_from_db()
    assert question.decision is None  # SET_NULL, as Django's own delete does it
    assert Situation.objects.count() == 1


def test_rows_named_by_a_list_of_values_and_none_for_an_empty_list():
    learner, other, third = user("learner"), user("other"), user("third")
    for u in (learner, other, third):
        make_decision(u)
    assert delete_rows(Decision, user_id__in=[]) == 0
    assert delete_rows(Decision, user_id__in=[learner.pk, other.pk]) == 2
    assert list(Decision.objects.values_list("user_id", flat=True)) == [third.pk]
