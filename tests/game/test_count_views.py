"""Count practice's pages: the switch (stored on the seat), "what is the count?" as an htmx
fragment and as a whole page, the ramp before the deal, the new shoe, and every refusal."""

from __future__ import annotations

from random import Random

import pytest
from django.utils import translation

from decisions.models import Decision
from game.forms import BAD_COUNT, NO_COUNT
from game.models import LedgerEntry, Round, Seat
from game.services import UNKNOWN_SYSTEM, round_apply_move, round_deal
from game.views import COUNT_MODE_OFF
from tests.game.markup import parse

HTMX = {"HTTP_HX_REQUEST": "true"}
TABLE = "/en/play/table/scribes/"


def _on(client, system="hilo"):
    response = client.post(f"{TABLE}count-mode/", {"on": "1", "system": system}, **HTMX)
    assert response.status_code == 200
    return response


@pytest.fixture
def counting(client, learner, tables, rig):
    """The learner at the Scribes' table, count practice on, a round in play: box 1 the
    learner's 10s 6d, box 2 an AI's 2c 3d, the dealer 10h and 7c face down."""
    client.force_login(learner)
    rig(learner, tables["scribes"], boxes=["10s 6d", "2c 3d"], dealer="10h 7c", rest="9c")
    _on(client)
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100}, ai_levels={1: "easy"})
    return client, rnd


def _answer(html: str):
    return parse(html).one("div", cls="count-answer")


def test_the_switch_is_stored_on_the_seat_and_survives_a_reload(client, learner, tables):
    client.force_login(learner)
    html = _on(client, "zen").content.decode()
    seat = Seat.objects.get(user=learner, table=tables["scribes"])
    assert (seat.count_mode, seat.count_system) == (True, "zen")
    assert 'id="round"' in html and "<html" not in html  # the fragment
    assert "Count practice (Zen)" in html
    page = client.get(TABLE).content.decode()  # a reload, any app server: the row says so
    assert "<html" in page and "Count practice (Zen)" in page
    assert '<option value="zen" selected>Zen</option>' in page
    plain = client.post(f"{TABLE}count-mode/", {"on": "0", "system": "zen"})
    assert (plain.status_code, plain["Location"]) == (303, TABLE)
    assert not Seat.objects.get(pk=seat.pk).count_mode
    assert "Count practice (" not in client.get(TABLE).content.decode()


def test_a_right_running_count_is_confirmed_with_the_decks_and_true_count(counting):
    client, _rnd = counting
    # Seen: 10s 2c 10h 6d 3d (−1 +1 −1 +1 +1 = +1); 307 unseen: 6 decks; true count 0.
    response = client.post(f"{TABLE}count/", {"running": "+1", "true": "0"}, **HTMX)
    assert response.status_code == 200
    answer = _answer(response.content.decode())
    texts = [p.text for p in answer.find_all("p")]
    assert texts == ["Right: the running count is +1.", "Right: the true count is 0."]
    assert [d.text for d in answer.find_all("dd")] == ["+1", "5", "6", "0"]
    assert answer.attrs["role"] == "status"


def test_a_wrong_count_is_told_with_the_right_one_on_a_whole_page(counting):
    client, _rnd = counting
    response = client.post(f"{TABLE}count/", {"running": "−2", "true": "3"})
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    texts = [p.text for p in _answer(html).find_all("p")]
    assert texts == [
        "You typed −2; the running count is +1.",
        "You typed +3; the true count is 0.",
    ]


def test_the_ramp_is_shown_before_the_deal_and_its_bet_with_the_answer(counting, learner):
    client, rnd = counting
    html = client.get(TABLE).content.decode()
    assert "count-ramp" not in html  # a round in play: no bet to make now
    round_apply_move(round_id=rnd.pk, user=learner, move="stand", seq=0)
    html = client.get(TABLE).content.decode()
    ramp = parse(html).one("table", cls="count-ramp")
    rows = [[tr.one("th").text, tr.one("td").text] for tr in ramp.one("tbody").find_all("tr")]
    assert rows == [["+1 or less", "100"], ["+2", "200"], ["+3", "400"], ["+4", "600"],
                    ["+5 or more", "800"]]  # fmt: skip
    state = Round.objects.get(pk=rnd.pk)
    assert not state.is_playing
    response = client.post(f"{TABLE}count/", {"running": "0"}, **HTMX)
    bet = parse(response.content.decode()).one("p", cls="count-bet").text
    assert bet.startswith("At true count ") and bet.endswith(" a box.")


def test_a_new_shoe_starts_the_count_again_and_the_page_says_so(counting, learner, tables):
    client, rnd = counting
    round_apply_move(round_id=rnd.pk, user=learner, move="stand", seq=0)
    seat = Seat.objects.get(user=learner, table=tables["scribes"])
    seat.shoe = {**seat.shoe, "position": len(seat.shoe["cards"]) - 10}  # below the cut card
    seat.save(update_fields=["shoe"])
    fresh = round_deal(user=learner, table=tables["scribes"], bets={0: 100}, rng=Random(1))
    assert fresh.reshuffled
    html = client.post(f"{TABLE}count/", {"running": "0"}, **HTMX).content.decode()
    assert "the count started again from 0" in html
    assert fresh.is_playing
    seen = [d.text for d in _answer(html).find_all("dd")][1]
    assert seen == "3"  # the box's two cards and the up card: the old shoe's are gone


def test_asking_with_count_practice_off_is_refused_and_writes_nothing(client, learner, tables):
    client.force_login(learner)
    response = client.post(f"{TABLE}count/", {"running": "1"}, **HTMX)
    assert response.status_code == 400
    with translation.override("en"):
        assert str(COUNT_MODE_OFF) in response.content.decode()
    assert not Seat.objects.filter(user=learner).exists()
    anonymous = client.__class__().post(f"{TABLE}count/", {"running": "1"})
    assert anonymous.status_code == 400


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({}, NO_COUNT),
        ({"running": "   "}, NO_COUNT),
        ({"running": "three"}, BAD_COUNT),
        ({"running": "\x00"}, None),  # refused by core.middleware before the view
        ({"running": "1\x002"}, None),
        ({"running": "9" * 5000}, BAD_COUNT),
        ({"running": "1000"}, BAD_COUNT),
        ({"running": "1e3"}, BAD_COUNT),
        ({"running": "１"}, BAD_COUNT),
        ({"running": "2.5"}, BAD_COUNT),
        ({"running": "1", "true": "x"}, BAD_COUNT),
        ({"running": "1", "true": "--1"}, BAD_COUNT),
    ],
)
def test_a_count_that_is_not_a_number_is_refused(counting, learner, form, message):
    client, _rnd = counting
    before = (Decision.objects.count(), LedgerEntry.objects.count(), list(Round.objects.values()))
    response = client.post(f"{TABLE}count/", form, **HTMX)
    assert response.status_code == 400
    if message is not None:
        with translation.override("en"):
            assert str(message) in response.content.decode()
    assert "count-answer" not in response.content.decode()
    after = (Decision.objects.count(), LedgerEntry.objects.count(), list(Round.objects.values()))
    assert after == before


@pytest.mark.parametrize("system", ["", "nope", "HILO", "\x00", "hilo\x00", "z" * 5000])
def test_a_forged_system_is_refused_and_nothing_is_written(client, learner, tables, system):
    client.force_login(learner)
    _on(client, "ko")
    response = client.post(f"{TABLE}count-mode/", {"on": "0", "system": system}, **HTMX)
    assert response.status_code == 400
    if "\x00" not in system:  # a NUL is core.middleware's to refuse
        with translation.override("en"):
            assert str(UNKNOWN_SYSTEM) in response.content.decode()
    seat = Seat.objects.get(user=learner, table=tables["scribes"])
    assert (seat.count_mode, seat.count_system) == (True, "ko")


def test_a_visitor_s_switch_writes_nothing(client, tables):
    response = client.post(f"{TABLE}count-mode/", {"on": "1", "system": "hilo"})
    assert response.status_code == 303
    assert not Seat.objects.exists()


def test_another_user_s_seat_and_round_cannot_be_asked_for(counting, other, tables, rig):
    client, rnd = counting
    rig(other, tables["scribes"], boxes=["5s 5d"], dealer="2h 3c", rest="9c")
    theirs = round_deal(user=other, table=tables["scribes"], bets={0: 100})
    Seat.objects.filter(user=other).update(count_mode=True)
    forged = {"running": "1", "seat": theirs.seat_id, "round": theirs.pk, "user": other.pk}
    answer = _answer(client.post(f"{TABLE}count/", forged, **HTMX).content.decode())
    # The learner's own count (+1 over 5 cards), whatever ids were sent.
    assert [d.text for d in answer.find_all("dd")][:2] == ["+1", "5"]
    assert rnd.pk != theirs.pk


def test_the_page_never_shows_the_hole_card_or_undealt_cards(client, learner, other, tables, rig):
    """Two seats dealt alike but for the hole card and the cards after the deal: the count's
    answer and the whole play area are the same (the round's id and CSRF token aside)."""
    areas = []
    for user, hole, rest in ((learner, "7c", "9c 9d"), (other, "8d", "2s 2d")):
        client.force_login(user)
        _on(client)
        rig(user, tables["scribes"], boxes=["10s 6d"], dealer=f"10h {hole}", rest=rest)
        rnd = round_deal(user=user, table=tables["scribes"], bets={0: 100})
        html = client.post(f"{TABLE}count/", {"running": "0"}, **HTMX).content.decode()
        for token in parse(html).find_all("input", name="csrfmiddlewaretoken"):
            html = html.replace(token.attrs["value"], "")
        areas.append(html.replace(f"/round/{rnd.pk}/", "/round/N/"))
    assert "count-answer" in areas[0]
    assert areas[0] == areas[1]
