"""The teacher's pages: figures right, sorting, the date range, constant query counts, CSV."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from classroom import selectors
from classroom.exports import BOM, cell_safe
from classroom.services import assignment_create, class_join
from tests.classroom.conftest import THOTH, days_ago, join, make_decision, user

pytestmark = pytest.mark.django_db
SETTINGS = {"focus": "hard", "up": "6", "preset": "thoth"}


def _class_of(people, n: int, per: int = 6):
    k = people["class"]
    for a in range(2):
        assignment_create(classroom=k, created_by=people["owner"], title=f"A{a}",
                          settings=SETTINGS, rules=THOTH, hands=5, target_accuracy=80)  # fmt: skip
    contexts = [a.context for a in k.assignments.all()]
    for i in range(n):
        s = user(f"s{i:03d}", real_name=f"Студент {i}")
        join(s, k)
        for j in range(per):
            make_decision(s, correct=j % 3 != 0, lost=0.1 * (j % 3 == 0), row=12 + j % 5,
                          up=1 + j % 10, context=contexts[j % 2], at=days_ago(j * 3))  # fmt: skip
    return k


def test_dashboard_figures(people):
    k = people["class"]
    s = people["student"]
    make_decision(s, correct=True, at=days_ago(1))
    make_decision(s, correct=False, lost=0.2, at=days_ago(2), source="table")
    make_decision(s, correct=True, at=days_ago(10))
    make_decision(s, correct=False, lost=0.4, at=days_ago(40))
    data = selectors.dashboard(classroom=k, since=None, until=None, now=timezone.now())
    (row,) = data.rows
    assert row.name == "Анна Ковальчук"
    f = row.figures
    assert (f.score.count, f.score.correct, f.drill, f.table) == (4, 2, 3, 1)
    assert f.score.lost_per_100 == pytest.approx(15.0)
    assert (f.week.count, f.week.correct) == (2, 1)
    assert (f.prev_week.count, f.prev_week.correct) == (1, 1)
    assert row.week_trend == pytest.approx(-50.0)
    assert (f.month.count, f.prev_month.count) == (3, 1)
    assert f.last_active > days_ago(1.1)


def test_date_range_filters_figures_but_not_trends(client, people):
    s = people["student"]
    make_decision(s, at=days_ago(1))
    make_decision(s, correct=False, lost=1.0, at=days_ago(20))
    start = (timezone.now() - timedelta(days=25)).date().isoformat()
    end = (timezone.now() - timedelta(days=15)).date().isoformat()
    client.force_login(people["owner"])
    r = client.get(f"/en/classes/{people['class'].pk}/?start={start}&end={end}")
    row = r.context["data"].rows[0]
    assert (row.score.count, row.score.correct) == (1, 0)
    assert row.month.count == 2
    bad = client.get(f"/en/classes/{people['class'].pk}/?start={end}&end={start}")
    assert bad.status_code == 400 and b"after its end" in bad.content
    assert client.get(f"/en/classes/{people['class'].pk}/?start=nonsense").status_code == 400


@pytest.mark.parametrize(
    "sort", ["name", "-name", "hands", "-accuracy", "lost", "-last", "week", "x"]
)
def test_sorting(client, people, sort):
    _class_of(people, 4)
    client.force_login(people["owner"])
    rows = client.get(f"/en/classes/{people['class'].pk}/?sort={sort}").context["data"].rows
    key = sort.lstrip("-")
    if key == "name" or key == "x":
        names = [r.name for r in rows]
        assert names == sorted(names, reverse=sort == "-name")
    if key == "hands":
        counts = [r.score.count for r in rows]
        assert counts == sorted(counts)


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(url)
        if r.streaming:
            b"".join(r.streaming_content)
        assert r.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "page", ["", "heat/", "heat/hard/12/1/", "export.csv", "student", "csv", "mine"]
)
def test_constant_number_of_queries_whatever_the_class_size(client, people, page):
    k = _class_of(people, 3)
    client.force_login(people["owner"])

    def url():
        first = k.memberships.order_by("id").first().student_id
        if page == "student":
            return f"/en/classes/{k.pk}/students/{first}/"
        if page == "csv":
            return f"/en/classes/{k.pk}/students/{first}/answers.csv"
        return f"/en/classes/{k.pk}/{page}"

    if page == "mine":
        client.force_login(people["student"])
        url = lambda: f"/en/classes/{k.pk}/mine/"  # noqa: E731
    client.get("/en/")  # the user's row kept (with a shared cache), as for every later page
    small = _queries(client, url())
    for i in range(12):
        s = user(f"t{i:03d}")
        class_join(user=s, classroom=k)
        for _j in range(9):
            make_decision(s, correct=False, lost=0.2, context=k.assignments.first().context)
    assert _queries(client, url()) == small
    assert small <= 12


def _csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[1:])))


def test_dashboard_csv(client, people):
    s = people["student"]
    s.real_name = '=HYPERLINK("http://x")'
    s.save()
    a = assignment_create(classroom=people["class"], created_by=people["owner"], title="+Soft",
                          settings=SETTINGS, rules=THOTH, hands=4, target_accuracy=80)  # fmt: skip
    make_decision(s, context=a.context)
    make_decision(s, correct=False, lost=0.25)
    client.force_login(people["co"])
    r = client.get(f"/en/classes/{people['class'].pk}/export.csv")
    assert r["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in r["Content-Disposition"]
    head, row = _csv(r)
    assert head[0] == "Student" and head[-1] == "'+Soft"
    assert row[0] == '\'=HYPERLINK("http://x")' and row[1] == "student"
    assert row[2:7] == ["2", "2", "0", "50.0", "12.50"]
    assert row[-1] == "1/4"


def test_student_csv_in_a_date_range_with_cyrillic(client, people):
    s = people["student"]
    make_decision(s, at=days_ago(3))
    make_decision(s, correct=False, lost=0.125, at=days_ago(1), choice="stand")
    client.force_login(people["owner"])
    day = (timezone.now() - timedelta(days=2)).date().isoformat()
    with __import__("django").utils.translation.override("uk"):
        r = client.get(f"/uk/classes/{people['class'].pk}/students/{s.pk}/answers.csv?start={day}")
    rows = _csv(r)
    assert len(rows) == 2
    assert rows[1][5:10] == ["stand", "hit", "hit", "0", "0.1250"]
    assert rows[1][10] == "hit:-0.5000 stand:-0.6250"


def test_cell_safe():
    assert [cell_safe(v) for v in ("@SUM(A1)", "\tx", "ok", 3)] == ["'@SUM(A1)", "'\tx", "ok", 3]


def test_heat_map_greys_cells_with_few_answers_and_links_the_others(client, people):
    s = people["student"]
    for i in range(5):
        make_decision(s, correct=i > 0, kind="soft", row=18, up=9, lost=0 if i else 0.3)
    for _ in range(4):
        make_decision(s, kind="pair", row=8, up=10)
    client.force_login(people["owner"])
    html = client.get(f"/en/classes/{people['class'].pk}/heat/").content.decode()
    assert 'class="heat-fair"><a href="/en/classes/' in html  # 4 of 5 right
    assert 'data-cell="soft-18-9">4/5</a>' in html
    with __import__("django").utils.translation.override("en"):
        cell_url = reverse("classroom:cell", args=[people["class"].pk, "soft", 18, 9])
    assert f'<a href="{cell_url}" data-cell="soft-18-9">' in html  # the link built by hand
    assert 'class="heat-none"><a' in html and 'data-cell="pair-8-10">4/4</a>' in html
    cell = client.get(f"/en/classes/{people['class'].pk}/heat/soft/18/9/")
    assert cell.content.decode().count("answer-wrong") == 1
    assert client.get(f"/en/classes/{people['class'].pk}/heat/soft/22/9/").status_code == 404
    assert client.get(f"/en/classes/{people['class'].pk}/heat/tall/5/9/").status_code == 404


def test_costliest_mistakes_ranked_by_total_ev_lost(people):
    s, t = people["student"], user("t")
    class_join(user=t, classroom=people["class"])
    for _ in range(3):
        make_decision(s, correct=False, lost=0.1, row=12, up=2, choice="stand")
    make_decision(t, correct=False, lost=0.25, row=16, up=10, choice="stand")
    make_decision(people["other_student"], correct=False, lost=9.0, row=15, up=10)
    page = selectors.class_heat(classroom=people["class"], since=None, until=None)
    top = [(m.row, m.up, m.count, m.students, round(m.ev_lost, 2)) for m in page.mistakes]
    assert top == [(12, 2, 3, 1, 0.3), (16, 10, 1, 1, 0.25)]


def test_student_page_shows_options_ev_and_note_stays_private(client, people):
    s = people["student"]
    make_decision(s, correct=False, lost=0.2, choice="stand")
    client.force_login(people["owner"])
    url = f"/en/classes/{people['class'].pk}/students/{s.pk}/"
    html = client.get(url).content.decode()
    assert '<strong>Hit −50.0 %</strong>;</span> <span class="nowrap">Stand −70.0 %' in html
    client.post(url + "note/", {"note": "Needs work on 16 v 10"})
    client.force_login(people["co"])
    assert "Needs work on 16 v 10" in client.get(url).content.decode()
    client.force_login(s)
    assert (
        "Needs work" not in client.get(f"/en/classes/{people['class'].pk}/mine/").content.decode()
    )
    assert client.post(url + "note/", {"note": "x"}).status_code == 404


def test_a_refused_assignment_names_every_error_on_one_line(client, people):
    client.force_login(people["owner"])
    base = f"/en/classes/{people['class'].pk}/assignments"
    r = client.post(f"{base}/new/", {"title": "", "focus": "hard", "preset": "thoth",
                                     "hands": "0", "target_accuracy": "90"})  # fmt: skip
    assert r.status_code == 400
    text = r.content.decode()
    assert "This field is required.; Ensure this value is greater than or equal to 1." in text
    r = client.post(f"{base}/remedial/", {"preset": "nope", "hands": "5", "target_accuracy": "x"})
    assert r.status_code == 400 and "; " in r.content.decode()


def test_the_figures_are_kept_until_an_answer_or_a_student_changes_them(client, people):
    k, s = people["class"], people["student"]
    assignment_create(classroom=k, created_by=people["owner"], title="A", settings=SETTINGS,
                      rules=THOTH, hands=5, target_accuracy=80)  # fmt: skip
    make_decision(s, correct=False, lost=0.5)
    client.force_login(people["owner"])
    client.get("/en/")  # the user's row kept (with a shared cache), as for every later page
    url = f"/en/classes/{k.pk}/"
    first = _queries(client, url)
    # kept: none of the three aggregates (figures, progress, counting)
    assert _queries(client, url + "?sort=-accuracy") == first - 3
    assert _queries(client, f"/en/classes/{k.pk}/export.csv") < first
    make_decision(s, correct=True)  # a new answer: counted at once
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(url)
    assert len(ctx.captured_queries) == first
    row = r.context["data"].rows[0]
    assert (row.score.count, row.score.correct) == (2, 1)
    t = user("newcomer")
    join(t, k)
    make_decision(t)  # their answer, but also a new student: both make a new key
    rows = client.get(url).context["data"].rows
    assert sorted(r.score.count for r in rows) == [1, 2]
