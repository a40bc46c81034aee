"""An assignment's drill end to end through the trainer: start, deal, answer, progress."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.formats import date_format

from classroom import selectors, services
from classroom.models import Membership
from classroom.services import assignment_create
from computed import selectors as trainer_selectors
from computed import services as trainer_services
from decisions.models import Decision
from tests.classroom.conftest import THOTH
from tests.trainer.conftest import thoth_docs
from trainer.models import Situation

pytestmark = pytest.mark.django_db
PAIRS = {"focus": "pair", "up": "6", "preset": "thoth"}


@pytest.fixture
def tables(db, monkeypatch):
    trainer_selectors.tables_forget()
    trainer_services.tables_store(rules=THOTH, **thoth_docs())
    yield
    trainer_selectors.tables_forget()


def _answer(client):
    s = Situation.objects.latest("id")
    client.post("/en/trainer/answer/", {"situation": s.pk, "move": s.chart_move})
    return Decision.objects.latest("id")


@pytest.mark.parametrize(
    "settings, cells",
    [
        ({"focus": "pair", "up": "6", "preset": "thoth"}, []),
        ({"focus": "cells", "up": "6", "preset": "thoth"}, [["soft", 18, 1], ["hard", 16, 10]]),
    ],
)
def test_a_drill_started_from_an_assignment_counts_toward_it(
    client, people, tables, settings, cells
):
    a = assignment_create(classroom=people["class"], created_by=people["owner"], title="T",
                          settings=settings, rules=THOTH, hands=3, target_accuracy=50,
                          cells=[tuple(c) for c in cells])  # fmt: skip
    client.force_login(people["student"])
    r = client.post(f"/en/classes/{people['class'].pk}/mine/{a.pk}/start/")
    assert r.status_code == 302 and r["Location"] == "/en/trainer/"
    page = client.get("/en/trainer/").content.decode()
    assert f'value="{settings["focus"]}" selected' in page
    for _ in range(4):
        client.post("/en/trainer/deal/", settings)
        d = _answer(client)
        assert d.context == a.context
        if cells:
            assert [d.chart_kind, d.chart_row, d.dealer_points] in cells
        else:
            assert d.chart_kind == "pair"
    # a free drill afterwards does not count
    client.post("/en/trainer/deal/", {"focus": "all", "up": "6", "preset": "thoth"})
    assert _answer(client).context is None
    m = Membership.objects.get(student=people["student"])
    (p,) = selectors.my_progress(membership=m)
    assert (p.score.count, p.counted, p.done) == (4, 3, True)


def _start(client, people, *, hands=2, due=None, target=50):
    a = assignment_create(classroom=people["class"], created_by=people["owner"], title="Pairs A",
                          settings=PAIRS, rules=THOTH, hands=hands, target_accuracy=target,
                          due_at=due)  # fmt: skip
    client.force_login(people["student"])
    client.post(f"/en/classes/{people['class'].pk}/mine/{a.pk}/start/")
    return a


def _notice(html: str) -> str:
    start = html.find('id="drill-notice"')
    return "" if start < 0 else html[start : html.index("</section>", start)]


def test_the_drill_page_says_which_assignment_it_counts_toward(client, people, tables):
    due = timezone.now() + timedelta(days=3)
    _start(client, people, due=due)
    notice = _notice(client.get("/en/trainer/").content.decode())
    assert "Assignment for Year 9: Pairs A" in notice
    assert "0 of 2" in notice and f"due {date_format(due, 'SHORT_DATE_FORMAT')}" in notice
    assert 'data-notice-state="counting"' in notice
    assert "count toward the assignment: 2 hands at 50% accuracy" in notice
    assert f'href="/en/classes/{people["class"].pk}/mine/"' in notice


def test_each_answer_updates_the_notice_and_the_target_reached_is_said(client, people, tables):
    _start(client, people)
    for n in (1, 2):
        client.post("/en/trainer/deal/", PAIRS)
        s = Situation.objects.latest("id")
        r = client.post("/en/trainer/answer/", {"situation": s.pk, "move": s.chart_move},
                        headers={"HX-Request": "true"})  # fmt: skip
        notice = _notice(r.content.decode())
        assert 'hx-swap-oob="true"' in notice and f"{n} of 2" in notice
    assert 'data-notice-state="done"' in notice and "Target reached" in notice
    page = _notice(client.get(f"/en/trainer/s/{s.pk}/").content.decode())
    assert "Target reached" in page and "progress-done" in page


def test_a_hand_dealt_before_the_start_is_said_not_to_count(client, people, tables):
    client.force_login(people["student"])
    client.post("/en/trainer/deal/", {"focus": "all", "up": "6", "preset": "thoth"})
    _start(client, people)
    html = client.get("/en/trainer/").content.decode()  # the open hand from before
    assert "Pairs A" in _notice(html) and "does not count; the next" in _notice(html)
    _answer(client)
    client.post("/en/trainer/deal/", PAIRS)
    assert "does not count; the next" not in _notice(client.get("/en/trainer/").content.decode())


def test_no_notice_for_a_free_drill_after_leaving_or_when_the_due_date_passed(
    client, people, tables
):
    _start(client, people)
    client.post("/en/trainer/deal/", {"focus": "all", "up": "6", "preset": "thoth"})
    assert _notice(client.get("/en/trainer/").content.decode()) == ""
    _start(client, people)
    client.post(f"/en/classes/{people['class'].pk}/leave/")
    assert _notice(client.get("/en/trainer/").content.decode()) == ""
    services.class_join(user=people["student"], classroom=people["class"])
    _start(client, people, due=timezone.now() - timedelta(minutes=1))
    notice = _notice(client.get("/en/trainer/").content.decode())
    assert 'data-notice-state="late"' in notice and "no longer count" in notice


def test_the_notice_costs_nothing_to_anyone_else(client, people, tables):
    assert _notice(client.get("/en/trainer/").content.decode()) == ""  # anonymous
    client.force_login(people["other_student"])
    client.post("/en/trainer/deal/", PAIRS)
    assert _notice(client.get("/en/trainer/").content.decode()) == ""


def test_the_page_without_javascript_shows_one_notice_and_one_summary(client, people, tables):
    _start(client, people)
    client.post("/en/trainer/deal/", PAIRS)
    s = Situation.objects.latest("id")
    r = client.post("/en/trainer/answer/", {"situation": s.pk, "move": s.chart_move})
    html = client.get(r["Location"]).content.decode()  # the plain POST's redirect
    assert html.count('id="drill-notice"') == 1 and html.count('id="drill-summary"') == 1
    assert "1 of 2" in _notice(html)
