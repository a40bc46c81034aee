"""A teacher sees a student's answers only from the moment the student joined the class: one
test per view and export, each with an answer given a second before joining."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from classroom import selectors, services
from classroom.exports import BOM
from classroom.services import assignment_create
from tests.classroom.conftest import THOTH, join, make_decision, user

pytestmark = pytest.mark.django_db
SETTINGS = {"focus": "soft", "up": "6", "preset": "thoth"}


@pytest.fixture
def late(people):
    """A student who joined an hour ago: a costly soft 18 v 9 mistake a second before joining
    (in the class's assignment, set a day ago), a right hard 16 v 10 after."""
    k = people["class"]
    a = assignment_create(classroom=k, created_by=people["owner"], title="Soft",
                          settings=SETTINGS, rules=THOTH, hands=5, target_accuracy=80)  # fmt: skip
    type(a).objects.filter(pk=a.pk).update(created_at=timezone.now() - timedelta(days=1))
    s = user("late", real_name="Late Comer")
    joined = timezone.now() - timedelta(hours=1)
    membership = join(s, k, at=joined)
    for _ in range(5):  # enough to colour the cell
        make_decision(s, correct=False, lost=0.5, kind="soft", row=18, up=9, choice="stand",
                      context=a.context, at=joined - timedelta(seconds=1))  # fmt: skip
    make_decision(s, correct=True, kind="hard", row=16, up=10, at=joined + timedelta(seconds=1))
    return {"student": s, "membership": membership, "assignment": a, "class": k}


def _csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[1:])))


def test_dashboard_row(people, late):
    data = selectors.dashboard(classroom=late["class"], since=None, until=None, now=timezone.now())
    row = next(r for r in data.rows if r.membership.student_id == late["student"].pk)
    assert (row.score.count, row.score.correct, row.score.ev_lost) == (1, 1, 0.0)
    assert (row.week.count, row.month.count) == (1, 1)  # the trends too
    assert row.progress[0].score.count == 0  # the assignment's answers before joining


def test_dashboard_with_a_range_starting_before_the_join(client, people, late):
    client.force_login(people["owner"])
    start = (timezone.now() - timedelta(days=3)).date().isoformat()
    r = client.get(f"/en/classes/{late['class'].pk}/?start={start}")
    row = next(r for r in r.context["data"].rows if r.name == "Late Comer")
    assert row.score.count == 1


def test_heat_map_and_costliest_mistakes(client, people, late):
    page = selectors.class_heat(classroom=late["class"], since=None, until=None)
    assert page.mistakes == []
    cells = {(c.kind, c.row, c.up): c.score.count for _k, rows in page.grids
             for _r, cs in rows for c in cs}  # fmt: skip
    assert cells[("soft", 18, 9)] == 0 and cells[("hard", 16, 10)] == 1
    client.force_login(people["owner"])
    html = client.get(f"/en/classes/{late['class'].pk}/heat/").content.decode()
    assert 'data-cell="soft-18-9"' not in html and 'data-cell="hard-16-10">1/1</a>' in html


def test_the_cell_page(client, people, late):
    client.force_login(people["co"])
    r = client.get(f"/en/classes/{late['class'].pk}/heat/soft/18/9/")
    assert r.context["answers"] == []


def test_the_student_page(client, people, late):
    client.force_login(people["owner"])
    r = client.get(f"/en/classes/{late['class'].pk}/students/{late['student'].pk}/")
    data = r.context["data"]
    assert (data.total.count, data.total.correct) == (1, 1)
    assert data.mistakes == [] and sum(s.count for _d, s in data.days) == 1
    assert data.progress[0].score.count == 0
    cells = {(c.kind, c.row, c.up): c.score.count for _k, rows in data.grids
             for _r, cs in rows for c in cs}  # fmt: skip
    assert cells[("soft", 18, 9)] == 0


def test_the_csv_exports(client, people, late):
    client.force_login(people["owner"])
    k, s = late["class"], late["student"]
    rows = _csv(client.get(f"/en/classes/{k.pk}/export.csv"))
    (mine,) = [r for r in rows if r[1] == "late"]
    assert mine[2:5] == ["1", "1", "0"] and mine[-1] == "0/5"
    answers = _csv(client.get(f"/en/classes/{k.pk}/students/{s.pk}/answers.csv"))
    assert len(answers) == 2 and answers[1][2] == "hard"


def test_the_remedial_assignment_ignores_mistakes_before_joining(people, late):
    with pytest.raises(services.ClassError):
        services.assignment_remedial_create(
            classroom=late["class"], created_by=people["owner"], title="W",
            members=selectors.class_members(classroom=late["class"]), rules=THOTH,
            settings={"preset": "thoth"}, hands=5, target_accuracy=80,
        )  # fmt: skip


def test_the_students_own_progress_counts_from_joining(people, late):
    (p,) = selectors.my_progress(membership=late["membership"])
    assert p.score.count == 0


def test_leaving_and_joining_again_starts_afresh(people):
    k, s = people["class"], people["student"]
    make_decision(s)
    services.class_leave(user=s, classroom=k)
    services.class_join(user=s, classroom=k)
    data = selectors.dashboard(classroom=k, since=None, until=None, now=timezone.now())
    assert data.rows[0].figures is None
    make_decision(s)
    data = selectors.dashboard(classroom=k, since=None, until=None, now=timezone.now())
    assert data.rows[0].score.count == 1
