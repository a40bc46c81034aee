"""Issue 16, the table's side: what a finished round says (each test failed before its fix)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from game import presenters, services
from game.models import Round, Wallet
from game.services import PlayError, round_apply_move, round_deal


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def logged_in(client, learner):
    client.force_login(learner)
    return client


def play(user, rnd: Round, *moves: str) -> Round:
    for m in moves:
        rnd = round_apply_move(round_id=rnd.pk, user=user, move=m, seq=rnd.seq).round
    return rnd


def totals(view: presenters.RoundView) -> list[str]:
    return [h.display for b in view.boxes for h in b.hands]


# --- 5: a finished hand shows the total it ended on ---------------------------------------


def test_a_stood_soft_hand_and_the_dealer_show_one_total(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["As 8d"], dealer="Ah 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    rnd = play(learner, rnd, "decline")
    live = presenters.round_view(rnd)
    assert totals(live) == ["9 / 19"]  # in play: both readings still matter
    rnd = play(learner, rnd, "stand")
    view = presenters.round_view(rnd)
    assert totals(view) == ["19"] and view.dealer_display == "18"


def test_a_hand_played_out_shows_its_total_while_the_next_is_in_turn(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["As 6d", "10s 5d"], dealer="9h 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100, 1: 100})
    rnd = play(learner, rnd, "stand")
    assert totals(presenters.round_view(rnd)) == ["17", "15"]


def test_past_rounds_show_the_final_total(logged_in, learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["As 8d"], dealer="10h 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    play(learner, rnd, "stand")
    html = logged_in.get(f"/en/play/history/{rnd.pk}/").content.decode()
    assert '<span class="total">19</span>' in html and "9 / 19" not in html


# --- 6: even money is named as such in "Your decisions" -----------------------------------


def test_even_money_is_reviewed_as_even_money(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["As Kd"], dealer="Ah 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    rnd = play(learner, rnd, "insure")
    (line,) = presenters.review_lines(rnd)
    assert str(line.choice) == "Even money"
    assert str(line.best) in ("Even money", "Keep the blackjack")


def test_insurance_without_a_blackjack_keeps_its_name(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="Ah 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    rnd = play(learner, rnd, "insure")
    (line,) = presenters.review_lines(rnd)
    assert str(line.choice) == "Take insurance"


# --- 7: variant outcomes explained ---------------------------------------------------------


def test_sixdeck_surrender_against_an_unpeeked_ten_says_why_the_bet_is_lost(learner, tables, rig):
    rig(learner, tables["sixdeck"], boxes=["10s 6d"], dealer="10h Ac")
    rnd = round_deal(user=learner, table=tables["sixdeck"], bets={0: 100})
    rnd = play(learner, rnd, "surrender")
    assert rnd.net == Decimal(-100)
    log = presenters.full_log(rnd)
    assert any("surrender came too late" in line for line in log), log


def test_european_dealer_blackjack_taking_a_double_is_explained(learner, tables, rig):
    rig(learner, tables["european"], boxes=["5s 6d"], dealer="10h Ac", rest="9d")
    rnd = round_deal(user=learner, table=tables["european"], bets={0: 100})
    view = presenters.round_view(rnd)
    assert view.dealer_hidden == 0  # no card face down at a table without a hole card
    rnd = play(learner, rnd, "double")
    log = presenters.full_log(rnd)
    assert any("takes the doubled and split bets too" in line for line in log), log
    assert not any("hole card:" in line or "face down" in line for line in log), log
    assert "Dealer's second card: ace of clubs" in log


def test_a_plain_loss_gets_no_explanation(learner, tables, rig):
    rig(learner, tables["european"], boxes=["10s 7d"], dealer="10h Ac")
    rnd = play(learner, round_deal(user=learner, table=tables["european"], bets={0: 100}), "stand")
    assert not any("dealer's blackjack" in line for line in presenters.full_log(rnd))


# --- the review judges what the balance allowed --------------------------------------------


def test_the_review_says_when_the_best_move_was_unaffordable(learner, tables, rig):
    services.wallet_get_or_create(user=learner)
    rig(learner, tables["priests"], boxes=["3s 3d"], dealer="3h 7c", rest="10c 10d 10h")
    rnd = round_deal(user=learner, table=tables["priests"], bets={0: 1000})
    assert Wallet.objects.get(user=learner).balance == 0
    rnd = play(learner, rnd, "hit")
    (line,) = presenters.review_lines(rnd)
    assert str(line.best) == "Hit"
    assert line.unaffordable.startswith("Split was better by ")
    assert line.unaffordable.endswith("of the bet, but your balance could not cover it.")


def test_the_review_says_nothing_when_every_move_was_affordable(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["3s 3d"], dealer="3h 7c", rest="10c 10d 10h")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    lines = presenters.review_lines(play(learner, rnd, "split", "stand", "stand"))
    assert str(lines[0].choice) == "Split" and lines[0].unaffordable == ""


# --- the refusal of bets over the balance gives both figures -------------------------------


def test_bets_over_the_balance_are_refused_with_the_total_and_the_balance(learner, tables):
    with pytest.raises(PlayError) as err:
        round_deal(user=learner, table=tables["scribes"], bets={0: 3000, 3: 2000})
    assert str(err.value.message) == (
        "Your balance cannot cover these bets: they come to 5,000, and your balance is 1,000."
    )


# --- 10: Past rounds -----------------------------------------------------------------------


def test_a_user_s_rounds_are_numbered_from_one(logged_in, learner, other, tables, rig):
    for user in (other, other, learner):
        rig(user, tables["scribes"], boxes=["10s 9d"], dealer="10h 7c")
        play(user, round_deal(user=user, table=tables["scribes"], bets={0: 100}), "stand")
    mine = Round.objects.get(user=learner)
    assert mine.pk > 1
    html = logged_in.get("/en/play/history/").content.decode()
    assert ">Round 1</a>" in html and ">Round 2</a>" not in html
    html = logged_in.get(f"/en/play/history/{mine.pk}/").content.decode()
    assert "<h1>Round 1</h1>" in html


def test_a_round_in_play_shows_what_is_staked(logged_in, learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["5s 6d", "10s 9d"], dealer="10h 7c", rest="9c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100, 1: 100})
    rnd = play(learner, rnd, "double")  # box 1 doubled: 300 on the table, box 2 in turn
    assert rnd.is_playing
    html = logged_in.get("/en/play/history/").content.decode()
    assert 'data-label="Staked">300<' in html
    html = logged_in.get(f"/en/play/history/{rnd.pk}/").content.decode()
    assert "On the table: 300" in html
