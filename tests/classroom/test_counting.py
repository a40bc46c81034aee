"""Counting drills in classes (issue 31): assigned like the other drills, counted toward the
assignment, and the dashboard's counting accuracy and answer time per student (and CSV)."""

from __future__ import annotations

import csv
import io

import pytest

from classroom.forms import AssignmentForm
from classroom.services import assignment_create
from decisions.models import Decision
from tests.classroom.conftest import THOTH, make_decision
from trainer.models import CountQuestion

pytestmark = pytest.mark.django_db
RUNNING = {"focus": "running", "up": "6", "preset": "thoth", "system": "ko", "pace": "0",
           "cards": "6", "step": "1"}  # fmt: skip


def _counting(user, *, correct: bool, ms: int, category: str = "running") -> Decision:
    d = make_decision(user, correct=correct)
    Decision.objects.filter(pk=d.pk).update(
        category=category, count_system="hilo", time_taken_ms=ms, answer=1,
        right_answer=1 if correct else 2, chart_kind="", chart_row=0, dealer_points=0,
        choice="", best="", chart_move="", ev={},
    )  # fmt: skip
    return d


def test_the_assignment_form_keeps_a_counting_drills_settings():
    form = AssignmentForm({"title": "Count", "focus": "running", "preset": "thoth",
                           "system": "ko", "pace": "500", "cards": "20", "step": "8",
                           "hands": "20", "target_accuracy": "80"})  # fmt: skip
    assert form.is_valid(), form.errors
    expected = {"focus": "running", "up": "6", "preset": "thoth", "system": "ko", "pace": "500",
                "cards": "20", "step": "8"}  # fmt: skip
    assert form.drill_settings() == expected
    index = AssignmentForm({"title": "I", "focus": "index", "preset": "thoth", "system": "zen",
                            "pace": "500", "hands": "5", "target_accuracy": "80"})  # fmt: skip
    assert index.is_valid() and index.drill_settings()["system"] == "zen"
    assert "pace" not in index.drill_settings()
    bad = AssignmentForm({"title": "B", "focus": "running", "preset": "thoth", "pace": "7",
                          "hands": "5", "target_accuracy": "80"})  # fmt: skip
    assert not bad.is_valid() and "pace" in bad.errors


def test_a_running_count_assignment_end_to_end(client, people):
    a = assignment_create(classroom=people["class"], created_by=people["owner"], title="Count",
                          settings=RUNNING, rules=THOTH, hands=2, target_accuracy=50)  # fmt: skip
    client.force_login(people["student"])
    client.post(f"/en/classes/{people['class'].pk}/mine/{a.pk}/start/")
    page = client.get("/en/trainer/").content.decode()
    assert 'value="running" selected' in page and 'value="ko" selected' in page
    assert "<p data-notice-drill>Counting: the running count (KO)</p>" in page
    for _ in range(2):
        r = client.post("/en/trainer/deal/", RUNNING)
        q = CountQuestion.objects.latest("id")
        assert q.context == a.context and len(q.cards) == 6
        client.post("/en/trainer/count/answer/", {"question": q.pk, "count": q.right_answer})
    assert r.status_code == 302
    decisions = Decision.objects.filter(context=a.context)
    assert decisions.count() == 2 and all(d.correct for d in decisions)
    mine = client.get(f"/en/classes/{people['class'].pk}/mine/").content.decode()
    assert "Counting: the running count (KO)" in mine and "2 of 2" in mine


def test_the_dashboard_shows_counting_accuracy_and_speed(client, people):
    student = people["student"]
    _counting(student, correct=True, ms=2000)
    _counting(student, correct=False, ms=4000, category="true_count")
    make_decision(student, correct=True)  # a move without a count: not counted there
    client.force_login(people["owner"])
    html = client.get(f"/en/classes/{people['class'].pk}/").content.decode()
    assert "Counting accuracy" in html and "Counting answer time" in html
    assert '<td class="num" data-counting>50.0%</td><td class="num" data-speed>3.0 s</td>' in html
    rows = client.get(f"/en/classes/{people['class'].pk}/?sort=-speed").context["data"].rows
    assert rows[0].membership.student == student


def test_the_class_csv_has_the_counting_columns(client, people):
    _counting(people["student"], correct=True, ms=1500)
    client.force_login(people["owner"])
    r = client.get(f"/en/classes/{people['class'].pk}/export.csv")
    text = b"".join(r.streaming_content).decode().lstrip("\ufeff")
    head, *rows = list(csv.reader(io.StringIO(text)))
    i = head.index("Counting answers")
    assert head[i + 1 : i + 3] == ["Counting accuracy, %", "Counting answer time, s"]
    student = next(row for row in rows if row[1] == "student")
    assert student[i : i + 3] == ["1", "100.0", "1.5"]


def test_a_students_answers_csv_has_the_counts(client, people):
    d = _counting(people["student"], correct=False, ms=1500)
    client.force_login(people["owner"])
    student_id = people["student"].pk
    r = client.get(f"/en/classes/{people['class'].pk}/students/{student_id}/answers.csv")
    text = b"".join(r.streaming_content).decode().lstrip("\ufeff")
    head, row = list(csv.reader(io.StringIO(text)))
    assert row[head.index("Count system")] == "hilo"
    assert (row[head.index("Count typed")], row[head.index("Right count")]) == ("1", "2")
    assert d.pk
