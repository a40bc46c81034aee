"""Past rounds after issue 17: numbered from one count, a round in play shows its stake on
the table, and the page's cost does not grow with the learner's history."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game.models import Round
from tests.game.test_views import deal_rigged, en, move_url

pytestmark = pytest.mark.django_db


def test_rounds_are_numbered_and_the_one_in_play_says_so(logged_in, learner, tables, rig):
    first = deal_rigged(learner, tables, rig, boxes=["10s 9d"], dealer="10h 7c")
    logged_in.post(move_url(first), {"move": "stand", "seq": 0})
    deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 7c")  # left in play
    html = logged_in.get(en("game:history")).content.decode()
    assert ">Round 1</a>" in html and ">Round 2</a>" in html
    assert html.index(">Round 2</a>") < html.index(">Round 1</a>")  # newest first
    assert 'data-label="Result">In play<' in html
    assert 'data-label="Staked">100<' in html
    assert f'href="/en/play/history/{first.pk}/"' in html


def test_the_page_reads_a_fixed_number_of_rows(logged_in, learner, tables, rig):
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 9d"], dealer="10h 7c")
    logged_in.post(move_url(rnd), {"move": "stand", "seq": 0})
    rnd.refresh_from_db()
    fields = ("seat", "user", "state", "status", "seq", "human_seats", "staked", "paid", "net")
    Round.objects.bulk_create(Round(**{f: getattr(rnd, f) for f in fields}) for _ in range(150))
    with CaptureQueriesContext(connection) as ctx:
        html = logged_in.get(en("game:history")).content.decode()
    assert html.count("<tr>") == 101  # the head and the latest 100
    assert ">Round 151</a>" in html and ">Round 52</a>" in html and ">Round 51</a>" not in html
    assert len(ctx.captured_queries) <= 5


def test_a_kept_page_changes_with_every_deal_and_move(logged_in, learner, tables, rig):
    from core.templatetags import once

    once.forget()
    rnd = deal_rigged(learner, tables, rig, boxes=["8s 8d"], dealer="10h 7c", rest="3c 2d")
    page = logged_in.get(en("game:history")).content.decode()
    assert 'data-label="Staked">100<' in page and "In play" in page
    with CaptureQueriesContext(connection) as ctx:
        again = logged_in.get(en("game:history")).content.decode()
    read = [q for q in ctx.captured_queries if "django_session" not in q["sql"]]
    assert len(read) <= 2  # the user and the rows (and the session): nothing numbered or drawn
    assert again.count("<tr>") == page.count("<tr>")
    logged_in.post(move_url(rnd), {"move": "split", "seq": 0})  # still in play: only its seq
    page = logged_in.get(en("game:history")).content.decode()
    assert 'data-label="Staked">200<' in page and "In play" in page
    while (rnd := Round.objects.get(pk=rnd.pk)).status == Round.Status.PLAYING:
        logged_in.post(move_url(rnd), {"move": "stand", "seq": rnd.seq})
    page = logged_in.get(en("game:history")).content.decode()
    assert "In play" not in page
    deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 7c")
    page = logged_in.get(en("game:history")).content.decode()
    assert ">Round 2</a>" in page
