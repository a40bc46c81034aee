"""Counting drills in classes (issue 31): assigned like the other drills, counted toward the
assignment, and the dashboard's counting accuracy and answer time per student (and CSV)."""

from __future__ import annotations

import csv
import io
import re

import pytest

from classroom import selectors
from classroom.forms import AssignmentForm
from classroom.services import assignment_create
from decisions.models import Decision
from tests.classroom.conftest import THOTH, join, make_decision, user
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


# --- counts, not hands; the heat map is basic strategy ------------------------------------


def _index_answer(user, *, correct: bool, row: int = 16, up: int = 10, source: str = "drill"):
    """A move made at a count: an index drill's answer (or a count-mode table's move)."""
    d = make_decision(user, correct=correct, lost=0.0 if correct else 0.2, row=row, up=up,
                      choice="stand", source=source)  # fmt: skip
    Decision.objects.filter(pk=d.pk).update(count_system="hilo", true_count=3, time_taken_ms=900)
    return d


@pytest.mark.parametrize(
    "focus, counted", [("running", "counts"), ("true_count", "counts"), ("index", "hands")]
)
def test_a_counting_assignment_is_counted_in_counts(client, people, focus, counted):
    settings = {**RUNNING, "focus": focus}
    a = assignment_create(classroom=people["class"], created_by=people["owner"], title="Count",
                          settings=settings, rules=THOTH, hands=20, target_accuracy=90)  # fmt: skip
    client.force_login(people["owner"])
    html = client.get(f"/en/classes/{people['class'].pk}/").content.decode()
    assert f" · 20 {counted} at 90% accuracy" in html
    client.force_login(people["student"])
    k = people["class"].pk
    mine = client.get(f"/en/classes/{k}/mine/").content.decode()
    assert f"<p>20 {counted} at 90% accuracy</p>" in mine
    client.post(f"/en/classes/{k}/mine/{a.pk}/start/")
    page = client.get("/en/trainer/").content.decode()
    assert f"count toward the assignment: 20 {counted} at 90% accuracy." in page
    if counted == "counts":
        assert "hands" not in mine.split("Assignments", 1)[1].split("Leave the class", 1)[0]


def test_counts_in_every_language(client, people):
    assignment_create(classroom=people["class"], created_by=people["owner"], title="Count",
                      settings=RUNNING, rules=THOTH, hands=5, target_accuracy=80)  # fmt: skip
    client.force_login(people["student"])
    expected = {"uk": "5 відповідей", "ru": "5 ответов", "be": "5 адказаў", "cs": "5 odpovědí",
                "hy": "5 պատասխան"}  # fmt: skip
    for lang, words in expected.items():
        mine = client.get(f"/{lang}/classes/{people['class'].pk}/mine/").content.decode()
        assert words in mine, lang


def test_a_finished_counting_assignment_says_counts(client, people):
    a = assignment_create(classroom=people["class"], created_by=people["owner"], title="Count",
                          settings=RUNNING, rules=THOTH, hands=1, target_accuracy=50)  # fmt: skip
    client.force_login(people["student"])
    client.post(f"/en/classes/{people['class'].pk}/mine/{a.pk}/start/")
    client.post("/en/trainer/deal/", RUNNING)
    q = CountQuestion.objects.get()
    client.post("/en/trainer/count/answer/", {"question": q.pk, "count": q.right_answer})
    page = client.get("/en/trainer/").content.decode()
    assert "Target reached: all the counts answered at 50% accuracy or better." in page


def test_the_assignment_form_says_hands_or_counts(client, people):
    client.force_login(people["owner"])
    html = client.get(f"/en/classes/{people['class'].pk}/").content.decode()
    assert ">Number of hands or counts:</label>" in html
    assert 'aria-describedby="id_hands_helptext"' in html
    assert 'id="id_hands_helptext">A running-count or true-count drill asks for counts' in html


def test_the_heat_map_leaves_out_the_moves_made_at_a_count(client, people):
    s = people["student"]
    for _ in range(5):
        make_decision(s, correct=True, row=16, up=10)  # basic strategy: all right
    for source in ("drill", "table"):
        for _ in range(3):
            _index_answer(s, correct=False, source=source)
    _index_answer(s, correct=False, row=12, up=4)  # a cell seen only at a count
    page = selectors.class_heat(classroom=people["class"], since=None, until=None)
    cells = {(c.kind, c.row, c.up): c.score for _k, rows in page.grids for _r, row in rows
             for c in row}  # fmt: skip
    assert (cells[("hard", 16, 10)].count, cells[("hard", 16, 10)].correct) == (5, 5)
    assert cells[("hard", 12, 4)].count == 0
    assert page.mistakes == []  # the index misses are not the chart's mistakes
    client.force_login(people["owner"])
    k = people["class"].pk
    html = client.get(f"/en/classes/{k}/heat/").content.decode()
    assert 'data-cell="hard-16-10">5/5</a>' in html and "moves made at a count" in html
    student = client.get(f"/en/classes/{k}/students/{s.pk}/").content.decode()
    assert re.findall(r'<td class="heat-\w+">(\d+/\d+)</td>', student) == ["5/5"]
    cell = client.get(f"/en/classes/{k}/heat/hard/16/10/").content.decode()
    assert cell.count("answer-wrong") == 0 and cell.count("answer-right") == 5
    # The weak spots of the class are the chart's: nothing to practise from index misses.
    r = client.post(f"/en/classes/{k}/assignments/remedial/",
                    {"preset": "thoth", "hands": 20, "target_accuracy": 85})  # fmt: skip
    assert r.status_code == 400


def test_the_dashboard_counts_the_index_answers_in_counting_accuracy(client, people):
    s = people["student"]
    _index_answer(s, correct=True)
    _index_answer(s, correct=False)
    _counting(s, correct=True, ms=2100)
    client.force_login(people["owner"])
    html = client.get(f"/en/classes/{people['class'].pk}/").content.decode()
    assert '<td class="num" data-counting>66.7%</td><td class="num" data-speed>1.3 s</td>' in html


# --- issue 31 follow-ups: the teacher's views of counting answers -------------------------


def test_the_student_page_shows_counting_misses_as_counts(client, people):
    s = people["student"]
    _counting(s, correct=False, ms=1000)  # typed 1, the count was 2
    Decision.objects.filter(pk=_counting(s, correct=False, ms=1000, category="true_count").pk
                            ).update(answer=-1, right_answer=3)  # fmt: skip
    index = _index_answer(s, correct=False)  # 16 v 10 at true count +3
    client.force_login(people["owner"])
    url = f"/en/classes/{people['class'].pk}/students/{s.pk}/"
    html = client.get(url).content.decode()
    assert "Running count (Hi-Lo): answered +1, the count was +2." in html
    assert "True count (Hi-Lo): answered −1, the true count was +3." in html
    assert html.count("data-count-miss") == 2  # a count spans the row: no hand, no dealer
    row = re.search(r'<tr data-mistake="hard">.*?</tr>', html, re.S)
    assert row and "at true count +3 (Hi-Lo)" in row.group(0)
    assert "<strong>Hit −50.0 %</strong>" in row.group(0) and "<td>Stand</td>" in row.group(0)
    assert index.pk
    uk = client.get(url.replace("/en/", "/uk/")).content.decode()
    assert "Поточний рахунок (Hi-Lo): відповідь +1, а рахунок був +2." in uk
    assert "за істинного рахунку +3 (Hi-Lo)" in uk


def test_the_students_total_and_days_are_of_the_moves(client, people):
    s = people["student"]
    make_decision(s, correct=True)
    for _ in range(3):
        _counting(s, correct=False, ms=1000)
    client.force_login(people["owner"])
    data = client.get(f"/en/classes/{people['class'].pk}/students/{s.pk}/").context["data"]
    assert (data.total.count, data.total.correct) == (1, 1)
    assert [(sc.count, sc.correct) for _d, sc in data.days] == [(1, 1)]
    running = next(sc for v, _l, sc in data.categories if v == "running")
    assert (running.count, running.correct) == (3, 0)


def test_the_costliest_mistakes_leave_out_the_counts(people):
    s = people["student"]
    make_decision(s, correct=False, lost=0.1, choice="stand")
    _counting(s, correct=False, ms=1000)
    _counting(s, correct=False, ms=1000, category="true_count")
    page = selectors.class_heat(classroom=people["class"], since=None, until=None)
    assert [(m.kind, m.row, m.up, m.choice) for m in page.mistakes] == [("hard", 16, 10, "stand")]


def test_the_dashboards_move_columns_leave_out_the_counts(client, people):
    s, other = people["student"], user("counter")
    join(other, people["class"])
    make_decision(s, correct=True)
    make_decision(s, correct=True, source="table")
    for _ in range(2):
        _counting(s, correct=False, ms=1000)  # numbers, not moves
    _counting(other, correct=True, ms=2000)  # only counted: no move at all
    _counting(other, correct=False, ms=2000, category="true_count")
    client.force_login(people["owner"])
    r = client.get(f"/en/classes/{people['class'].pk}/")
    rows = {row.membership.student: row for row in r.context["data"].rows}
    assert (rows[s].score.count, rows[s].score.accuracy) == (2, 100.0)
    assert (rows[s].figures.drill, rows[s].figures.table) == (1, 1)
    assert rows[s].week.accuracy == 100.0 and rows[s].month.count == 2
    assert rows[other].score.count == 0 and rows[other].score.accuracy is None
    assert rows[other].week.accuracy is None and rows[other].week_trend is None
    assert rows[other].figures.last_active is not None  # counting is activity
    html = r.content.decode()
    row = re.search(rf'<tr data-student="{other.username}">.*?</tr>', html, re.S).group(0)
    assert ">0.0%<" not in row and "drill," not in row
    assert re.findall(r'<td class="num">([^<]*)</td>', row)[:4] == ["0", "–", "–", "–"]
    assert '<td class="num" data-counting>50.0%</td>' in row
    mine = re.search(rf'<tr data-student="{s.username}">.*?</tr>', html, re.S).group(0)
    assert "1 drill, 1 table" in mine and "100.0%" in mine
    for label in ("Moves", "Move accuracy", "EV lost per 100 moves",
                  "Move accuracy, last 7 days", "Move accuracy, last 30 days"):  # fmt: skip
        assert f">{label}</a>" in html or f">{label} <span" in html, label
    uk = client.get(f"/uk/classes/{people['class'].pk}/").content.decode()
    assert "Втрачене EV на 100 ходів" in uk and "Точність ходів за останні 7 днів" in uk
    cs = client.get(f"/cs/classes/{people['class'].pk}/").content.decode()
    assert "Ztracená EV na 100\xa0tahů" in cs and "Přesnost tahů za posledních 30\xa0dní" in cs


def test_the_class_csv_says_moves(client, people):
    make_decision(people["student"], correct=True)
    _counting(people["student"], correct=False, ms=1500)
    client.force_login(people["owner"])
    r = client.get(f"/en/classes/{people['class'].pk}/export.csv")
    text = b"".join(r.streaming_content).decode().lstrip("\ufeff")
    head, *rows = list(csv.reader(io.StringIO(text)))
    assert head[2:10] == ["Moves", "Drill", "Table", "Move accuracy, %", "EV lost per 100 moves",
                          "Last active", "Move accuracy, last 7 days, %",
                          "Move accuracy, last 30 days, %"]  # fmt: skip
    student = next(row for row in rows if row[1] == "student")
    assert student[2] == "1" and student[5] == "100.0"
