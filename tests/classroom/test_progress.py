"""What counts toward an assignment: only answers of a drill started from it, under its rule
set, after it was set and not after its due date; one edge per test."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from blackjack import PRESETS
from classroom import selectors
from classroom.models import Assignment
from classroom.services import assignment_create, class_create, class_join
from tests.classroom.conftest import THOTH, make_decision, user

pytestmark = pytest.mark.django_db
SETTINGS = {"focus": "hard", "up": "6", "preset": "thoth"}


def _assignment(people, *, klass=None, due=None, hands=10, target=80) -> Assignment:
    return assignment_create(
        classroom=klass or people["class"],
        created_by=people["owner"],
        title="A",
        settings=SETTINGS,
        rules=THOTH,
        hands=hands,
        target_accuracy=target,
        due_at=due,
    )


def _progress(people, a: Assignment, student=None):
    student = student or people["student"]
    m = student.memberships.get(classroom=a.classroom)
    return next(p for p in selectors.my_progress(membership=m) if p.assignment.pk == a.pk)


def test_answers_of_the_assignment_count(people):
    a = _assignment(people)
    for i in range(4):
        make_decision(people["student"], context=a.context, correct=i != 0)
    p = _progress(people, a)
    assert (p.score.count, p.score.correct, p.counted, p.percent) == (4, 3, 4, 40)
    assert not p.done


def test_free_drills_and_the_table_do_not_count(people):
    a = _assignment(people)
    make_decision(people["student"])
    make_decision(people["student"], source="table")
    assert _progress(people, a).score.count == 0


def test_answers_before_the_assignment_do_not_count(people):
    a = _assignment(people)
    make_decision(people["student"], context=a.context, at=a.created_at - timedelta(seconds=1))
    make_decision(people["student"], context=a.context)
    assert _progress(people, a).score.count == 1


def test_answers_after_the_due_date_do_not_count(people):
    due = timezone.now() + timedelta(hours=1)
    a = _assignment(people, due=due)
    make_decision(people["student"], context=a.context, at=due - timedelta(seconds=1))
    make_decision(people["student"], context=a.context, at=due)
    make_decision(people["student"], context=a.context, at=due + timedelta(seconds=1))
    assert _progress(people, a).score.count == 2


def test_answers_in_another_rule_set_do_not_count(people):
    a = _assignment(people)
    other = PRESETS["live"].key()
    assert other != THOTH.key()
    make_decision(people["student"], context=a.context, rules_key=other)
    make_decision(people["student"], context=a.context)
    assert _progress(people, a).score.count == 1


def test_answers_of_another_classs_assignment_do_not_count(people):
    a = _assignment(people)
    b = _assignment(people, klass=people["other_class"])
    # the student is in both classes
    class_join(user=people["student"], classroom=people["other_class"])
    make_decision(people["student"], context=b.context)
    make_decision(people["student"], context=b.context)
    make_decision(people["student"], context=a.context)
    assert _progress(people, a).score.count == 1
    assert _progress(people, b).score.count == 2


def test_another_assignment_of_the_same_class_does_not_count(people):
    a, b = _assignment(people), _assignment(people)
    make_decision(people["student"], context=b.context)
    assert _progress(people, a).score.count == 0 and _progress(people, b).score.count == 1


def test_done_needs_the_hands_and_the_target_and_counting_stops_at_the_hands(people):
    a = _assignment(people, hands=3, target=60)
    for ok in (True, False, True, True):
        make_decision(people["student"], context=a.context, correct=ok)
    p = _progress(people, a)
    assert (p.counted, p.percent, p.done) == (3, 100, True)
    strict = _assignment(people, hands=3, target=90)
    for ok in (True, False, True):
        make_decision(people["student"], context=strict.context, correct=ok)
    assert not _progress(people, strict).done


def test_dashboard_progress_per_student(people):
    a = _assignment(people)
    second = user("second")
    class_join(user=second, classroom=people["class"])
    make_decision(people["student"], context=a.context)
    make_decision(second, context=a.context)
    make_decision(second, context=a.context)
    data = selectors.dashboard(
        classroom=people["class"], since=None, until=None, now=timezone.now()
    )
    counts = {r.membership.student.username: r.progress[0].counted for r in data.rows}
    assert counts == {"student": 1, "second": 2}


def test_a_teacher_cannot_be_a_student_of_their_class(people):
    k = class_create(owner=people["owner"], name="Mine")
    with pytest.raises(ValueError):
        class_join(user=people["owner"], classroom=k)
