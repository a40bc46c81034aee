"""Coach mode: a costly move is held back, with every option's EV, until it is confirmed."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from blackjack import legal_moves
from decisions.models import Decision
from game import ai
from game.codec import state_from_json
from game.models import LedgerEntry, Round, Seat
from game.services import round_deal

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def coached(client, learner, tables, rig):
    client.force_login(learner)
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="10h 7c", rest="9c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    response = client.post("/en/play/table/scribes/coach/", {"on": "1"}, **HTMX)
    assert (
        response.status_code == 200
        and 'aria-pressed="true" aria-describedby="coach-help">Coach mode'
        in response.content.decode()
    )
    assert Seat.objects.get(user=learner, table=tables["scribes"]).coach
    return client, rnd


def test_a_costly_move_is_held_back_with_every_option_s_ev(coached, learner):
    client, rnd = coached
    entries = LedgerEntry.objects.count()
    response = client.post(f"/en/play/round/{rnd.pk}/move/", {"move": "double", "seq": 0}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Wait: the cost of Double is" in html and "Play Double anyway" in html
    # A cost is said without a minus sign: "the cost is −22.39%" would say it gains.
    assert re.search(r"Wait: the cost of Double is [0-9][0-9.]*% of the bet \(", html)
    # Nothing was played or written.
    fresh = Round.objects.get(pk=rnd.pk)
    assert fresh.seq == 0 and fresh.review == []
    assert not Decision.objects.filter(user=learner).exists()
    assert LedgerEntry.objects.count() == entries
    # The EVs shown are the engine's.
    state = state_from_json(fresh.state)
    ev = ai.decision_ev(state, legal_moves(state, balance=900))
    best = max(ev, key=lambda m: ev[m])
    assert f'name="move" value="{best.value}"' in html
    with translation.override("en"):
        from core.display import signed
        from core.numbers import percent

        for v in ev.values():
            assert percent(signed(100 * v)) in html


def test_confirming_plays_the_move_and_the_review_keeps_it(coached, learner):
    client, rnd = coached
    form = {"move": "double", "seq": 0, "confirm": "1"}
    response = client.post(f"/en/play/round/{rnd.pk}/move/", form, **HTMX)
    assert response.status_code == 200
    fresh = Round.objects.get(pk=rnd.pk)
    assert fresh.seq == 1 and fresh.review[0]["choice"] == "double"
    assert "Your decisions" in response.content.decode()


def test_the_best_move_is_played_without_a_stop(coached):
    client, rnd = coached
    state = state_from_json(rnd.state)
    ev = ai.decision_ev(state, legal_moves(state, balance=900))
    best = max(ev, key=lambda m: ev[m])
    client.post(f"/en/play/round/{rnd.pk}/move/", {"move": best.value, "seq": 0}, **HTMX)
    assert Round.objects.get(pk=rnd.pk).seq == 1


def test_without_coach_mode_a_costly_move_is_played(client, learner, tables, rig):
    client.force_login(learner)
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="10h 7c", rest="9c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    client.post(f"/en/play/round/{rnd.pk}/move/", {"move": "double", "seq": 0}, **HTMX)
    assert Round.objects.get(pk=rnd.pk).seq == 1


def test_a_visitor_s_coach_switch_stores_nothing(client, tables):
    response = client.post("/en/play/table/scribes/coach/", {"on": "1"})
    assert response.status_code == 303 and not Seat.objects.exists()
