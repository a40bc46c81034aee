"""Play mode's services: every move, the wallet and its ledger, the rule paths per preset."""

from __future__ import annotations

from decimal import Decimal
from random import Random

import pytest
from django.db.models import Sum
from django.utils import translation

from blackjack import from_json
from decisions.models import Decision
from game import codec, limits, services
from game.models import LedgerEntry, Round, Seat, Wallet
from game.services import PlayError, round_apply_move, round_deal, wallet_top_up


def books(user) -> Decimal:
    """The balance, after checking that it equals the sum of the ledger."""
    wallet = Wallet.objects.get(user=user)
    total = wallet.entries.aggregate(s=Sum("amount"))["s"]
    assert wallet.balance == total
    last = wallet.entries.order_by("-id").first()
    assert last is not None and last.balance_after == wallet.balance
    return wallet.balance


def kinds(user) -> list[tuple[str, Decimal]]:
    return [(e.kind, e.amount) for e in LedgerEntry.objects.filter(wallet__user=user)]


def play(user, rnd: Round, *moves: str) -> Round:
    for m in moves:
        rnd = round_apply_move(round_id=rnd.pk, user=user, move=m, seq=rnd.seq).round
    return rnd


def test_new_wallet_opens_with_1000_and_a_ledger_entry(learner):
    wallet = services.wallet_get_or_create(user=learner)
    assert wallet.balance == Decimal("1000.00")
    assert kinds(learner) == [("opening", Decimal("1000.00"))]
    assert services.wallet_get_or_create(user=learner).pk == wallet.pk
    assert books(learner) == Decimal("1000.00")


def test_stand_and_win_pays_the_round_as_one_sum(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="10h 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    assert rnd.status == "playing" and rnd.seq == 0
    assert books(learner) == Decimal("900.00")
    rnd = play(learner, rnd, "stand")
    assert rnd.status == "settled" and rnd.seq == 1
    assert (rnd.staked, rnd.paid, rnd.net) == (Decimal(100), Decimal(200), Decimal(100))
    assert kinds(learner) == [
        ("opening", Decimal(1000)),
        ("bet", Decimal(-100)),
        ("payout", Decimal(200)),
    ]
    assert books(learner) == Decimal("1100.00")


def test_double_takes_a_second_bet_and_pays_twice(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["5s 6d"], dealer="10h 7c", rest="10d")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    rnd = play(learner, rnd, "double")
    assert rnd.status == "settled"
    assert kinds(learner)[2:] == [("double", Decimal(-100)), ("payout", Decimal(400))]
    assert books(learner) == Decimal("1200.00")


def test_split_plays_two_hands(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["8s 8d"], dealer="6h 10c", rest="10d 10h 10s")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    rnd = play(learner, rnd, "split", "stand", "stand")
    state = from_json(rnd.state)
    assert [h.outcome.value for h in state.box(0).hands] == ["win", "win"]
    assert kinds(learner)[2:] == [("split", Decimal(-100)), ("payout", Decimal(400))]
    assert books(learner) == Decimal("1200.00")


def test_hit_until_bust_loses_at_once(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="9h 7c", rest="9s")
    rnd = play(learner, round_deal(user=learner, table=tables["scribes"], bets={0: 100}), "hit")
    assert rnd.status == "settled" and rnd.net == Decimal(-100)
    assert books(learner) == Decimal("900.00")


def test_insurance_pays_two_to_one_against_a_dealer_blackjack(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="As Kc")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    assert from_json(rnd.state).phase.value == "insurance"
    rnd = play(learner, rnd, "insure")
    assert rnd.status == "settled"
    assert kinds(learner)[2:] == [("insurance", Decimal(-50)), ("payout", Decimal(150))]
    assert books(learner) == Decimal("1000.00")


def test_declined_insurance_then_no_blackjack_goes_on_to_play(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="As 7c")
    rnd = play(learner, round_deal(user=learner, table=tables["scribes"], bets={0: 100}), "decline")
    assert rnd.status == "playing"
    rnd = play(learner, rnd, "stand")
    assert rnd.net == Decimal(100)
    assert books(learner) == Decimal("1100.00")


def test_even_money_pays_one_to_one_at_once(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["As Kd"], dealer="Ah 7c")
    rnd = play(learner, round_deal(user=learner, table=tables["scribes"], bets={0: 100}), "insure")
    assert rnd.status == "settled" and rnd.paid == Decimal(200)
    assert kinds(learner)[2:] == [("payout", Decimal(200))]  # even money costs nothing
    assert books(learner) == Decimal("1100.00")


def test_peeked_dealer_blackjack_ends_the_round_at_the_deal(learner, tables, rig):
    seat = rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="10h Ac")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    assert rnd.status == "settled" and rnd.net == Decimal(-100)
    seat.refresh_from_db()
    assert seat.shoe["position"] == 4  # the seat keeps its shoe for the next round
    assert books(learner) == Decimal("900.00")


@pytest.mark.parametrize(
    ("bets", "code"),
    [
        ({}, "no_bet"),
        ({0: 50}, "bet_out_of_limits"),
        ({0: 5100}, "bet_out_of_limits"),
        ({0: 150}, "bet_not_in_chips"),
        ({5: 100}, "unknown_box"),
        ({0: 600, 1: 500}, "insufficient_balance"),
    ],
)
def test_bets_are_checked(learner, tables, bets, code):
    services.wallet_get_or_create(user=learner)
    with pytest.raises(PlayError) as err:
        round_deal(user=learner, table=tables["scribes"], bets=bets)
    assert err.value.code == code
    assert not Round.objects.exists()
    assert books(learner) == Decimal("1000.00")


@pytest.mark.parametrize(("boxes", "allowed"), [(1, True), (2, False), (4, False), (5, True)])
def test_the_sixdeck_table_takes_one_box_or_all_five(learner, tables, boxes, allowed):
    # RULES.md, source 002: "one box or all five"; AI seat-mates are not the player's boxes.
    services.wallet_get_or_create(user=learner)
    bets = dict.fromkeys(range(boxes), 10)
    if allowed:
        round_deal(user=learner, table=tables["sixdeck"], bets=bets)
        assert Round.objects.get().human_seats == list(range(boxes))
        return
    with pytest.raises(PlayError) as err:
        round_deal(user=learner, table=tables["sixdeck"], bets=bets, ai_levels={4: "easy"})
    assert err.value.code == "box_count"
    assert str(err.value.message) == (
        "At this table you may bet on this many boxes at a time: 1 or 5."
    )
    assert not Round.objects.exists()


def test_unknown_ai_level_is_refused(learner, tables):
    with pytest.raises(PlayError) as err:
        round_deal(user=learner, table=tables["scribes"], bets={0: 100}, ai_levels={1: "god"})
    assert err.value.code == "unknown_level"


def test_a_second_deal_waits_for_the_round_in_play(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="10h 7c")
    round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    with pytest.raises(PlayError) as err:
        round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    assert err.value.code == "round_in_play"
    assert books(learner) == Decimal("900.00")


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("split", "split_not_allowed"),
        ("insure", "no_insurance_now"),
        ("surrender", "surrender_not_allowed"),
        ("fly", "unknown_move"),
    ],
)
def test_forged_moves_are_refused_and_change_nothing(learner, tables, rig, move, code):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="10h 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    with pytest.raises(PlayError) as err:
        round_apply_move(round_id=rnd.pk, user=learner, move=move, seq=0)
    assert err.value.code == code
    rnd.refresh_from_db()
    assert rnd.seq == 0 and rnd.status == "playing"
    assert not Decision.objects.exists()
    assert books(learner) == Decimal("900.00")


def test_a_double_the_balance_cannot_cover_is_not_offered_and_refused(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["5s 6d"], dealer="10h 7c", rest="10d")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 1000})
    from game.presenters import round_view

    assert round_view(rnd, balance=Decimal(0)).legal == {"hit", "stand"}
    with pytest.raises(PlayError) as err:
        round_apply_move(round_id=rnd.pk, user=learner, move="double", seq=0)
    assert err.value.code == "insufficient_balance"
    assert books(learner) == Decimal("0.00")


def test_a_repeated_request_is_not_applied_twice(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 2d"], dealer="10h 7c", rest="2c 2s 2h")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    first = round_apply_move(round_id=rnd.pk, user=learner, move="hit", seq=0)
    again = round_apply_move(round_id=rnd.pk, user=learner, move="hit", seq=0)
    assert not first.stale and again.stale
    assert again.round.seq == 1
    assert len(from_json(again.round.state).box(0).hands[0].cards) == 3
    assert Decision.objects.count() == 1


def test_another_users_round_is_not_found(learner, other, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="10h 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    with pytest.raises(Round.DoesNotExist):
        round_apply_move(round_id=rnd.pk, user=other, move="stand", seq=0)


def test_each_decision_is_recorded_like_a_trainer_answer(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="10h 7c", rest="5c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    rnd = play(learner, rnd, "stand")
    d = Decision.objects.get()
    assert (d.source, d.source_ref, d.choice, d.best, d.chart_move) == (
        "table",
        f"round:{rnd.pk}",
        "stand",
        "hit",
        "hit",
    )
    assert d.hand == ["10s", "6d"] and d.dealer_up == "10h" and not d.correct
    assert d.ev_lost == pytest.approx(d.ev["hit"] - d.ev["stand"])
    assert [(r["choice"], r["best"], r["correct"]) for r in rnd.review] == [("stand", "hit", False)]


def test_insurance_decision_is_recorded(learner, tables, rig):
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="As 7c")
    play(learner, round_deal(user=learner, table=tables["scribes"], bets={0: 100}), "decline")
    d = Decision.objects.get()
    assert (d.category, d.choice, d.best, d.correct) == ("insurance", "decline", "decline", True)


def test_ai_boxes_play_by_themselves_from_their_own_purse(learner, tables, rig):
    # Box 1 is an Easy AI: it hits 12 and stands on 17.
    rig(learner, tables["scribes"], boxes=["10s 9d", "10c 2d"], dealer="10h 7c", rest="5h")
    rnd = round_deal(
        user=learner, table=tables["scribes"], bets={0: 100}, ai_levels={1: "easy", 0: "hard"}
    )
    assert rnd.ai_levels == {"1": "easy"}  # a box with the learner's bet is the learner's
    rnd = play(learner, rnd, "stand")
    state = from_json(rnd.state)
    assert state.moves() == [(0, 0, "stand"), (1, 0, "hit"), (1, 0, "stand")]
    assert [c.code for c in state.box(1).hands[0].cards] == ["10c", "2d", "5h"]
    assert rnd.staked == Decimal(100)
    assert books(learner) == Decimal("1100.00")
    assert Decision.objects.count() == 1  # only the learner's decisions


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_ai_level_plays_a_round_to_the_end(learner, tables, level):
    for seed in range(3):
        rnd = round_deal(
            user=learner,
            table=tables["scribes"],
            bets={2: 100},
            ai_levels={0: level, 1: level, 3: level, 4: level},
            rng=Random(seed),
        )
        while rnd.status == "playing":
            state = from_json(rnd.state)
            assert state.turn is not None and state.turn[0] == 2
            move = "decline" if state.phase.value == "insurance" else "stand"
            rnd = play(learner, rnd, move)
    assert books(learner) == Wallet.objects.get(user=learner).balance


def test_the_shoe_is_reshuffled_below_the_cut(learner, tables):
    seat = services.seat_get_or_create(user=learner, table=tables["scribes"])
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 100}, rng=Random(4))
    assert rnd.reshuffled
    seat.refresh_from_db()
    seat.shoe = {**seat.shoe, "position": 312 - 77}
    seat.save()
    Round.objects.filter(pk=rnd.pk).update(status="settled")
    again = round_deal(user=learner, table=tables["scribes"], bets={0: 100}, rng=Random(5))
    assert again.reshuffled
    assert from_json(again.state).shoe.decks == 6
    Round.objects.filter(pk=again.pk).update(status="settled")
    third = round_deal(user=learner, table=tables["scribes"], bets={0: 100}, rng=Random(6))
    assert not third.reshuffled
    assert Seat.objects.get(pk=seat.pk).shoe["decks"] == 6


def test_top_up_only_below_the_scribes_minimum(learner, tables, rig):
    with translation.override("en"), pytest.raises(PlayError) as err:
        wallet_top_up(user=learner)
    assert err.value.code == "top_up_not_due"
    assert str(err.value.message) == (
        "A top-up is given only when your balance is below the smallest bet at the Scribes'"
        " table (100)."
    )
    rig(learner, tables["scribes"], boxes=["10s 9d"], dealer="10h Ac")
    round_deal(user=learner, table=tables["scribes"], bets={0: 900})
    assert books(learner) == Decimal(100)
    with pytest.raises(PlayError):  # 100 still sits at the Scribes' table
        wallet_top_up(user=learner)
    rig(learner, tables["sixdeck"], boxes=["10s 9d"], dealer="10h Ac")
    round_deal(user=learner, table=tables["sixdeck"], bets={0: 50})
    assert books(learner) == Decimal(50)  # enough for the 1-200 table, not for a house table
    with pytest.raises(PlayError):  # but 950 is still at stake in the two open rounds
        wallet_top_up(user=learner)


def test_top_up_counts_the_chips_still_in_open_rounds(learner, tables, rig):
    # Issue 15, finding 8: with 1,000 on a table and balance 0, a top-up was given.
    rig(learner, tables["scribes"], boxes=["10s 6d", "10c 6h"], dealer="10h 7c")
    rnd = round_deal(user=learner, table=tables["scribes"], bets={0: 500, 1: 500})
    assert rnd.status == "playing" and books(learner) == Decimal(0)
    with pytest.raises(PlayError) as err:  # 1,000 still at stake
        wallet_top_up(user=learner)
    assert err.value.code == "top_up_not_due"
    assert kinds(learner)[-1] == ("bet", Decimal(-1000))  # one entry for the deal
    rnd = play(learner, rnd, "stand", "stand")  # 16s against 17: lost
    assert rnd.status == "settled" and books(learner) == Decimal(0)
    wallet_top_up(user=learner)
    assert kinds(learner)[-1] == ("top-up", Decimal(1000))
    assert books(learner) == Decimal(1000)


@pytest.mark.parametrize(
    ("balance", "due"), [("0", True), ("99.99", True), ("100", False), ("1000", False)]
)
def test_top_up_is_due_below_the_cheapest_house_table(balance, due):
    assert limits.top_up_due(balance=Decimal(balance)) is due


# --- the other presets' rule paths --------------------------------------------------------


def test_sixdeck_late_surrender_returns_half(learner, tables, rig):
    rig(learner, tables["sixdeck"], boxes=["10s 6d"], dealer="10h 7c")
    rnd = play(
        learner, round_deal(user=learner, table=tables["sixdeck"], bets={0: 10}), "surrender"
    )
    assert rnd.status == "settled" and rnd.paid == Decimal(5)
    assert books(learner) == Decimal(995)


def test_sixdeck_no_surrender_against_an_ace(learner, tables, rig):
    rig(learner, tables["sixdeck"], boxes=["10s 6d"], dealer="Ah 7c")
    rnd = play(learner, round_deal(user=learner, table=tables["sixdeck"], bets={0: 10}), "decline")
    with pytest.raises(PlayError) as err:
        round_apply_move(round_id=rnd.pk, user=learner, move="surrender", seq=rnd.seq)
    assert err.value.code == "surrender_not_allowed"


def test_blackjack_three_to_two_on_an_odd_bet_is_exact(learner, tables, rig):
    rig(learner, tables["sixdeck"], boxes=["As Kd"], dealer="9h 7c")
    rnd = round_deal(user=learner, table=tables["sixdeck"], bets={0: 5})
    assert rnd.status == "settled" and rnd.paid == Decimal("12.50")
    assert books(learner) == Decimal("1007.50")


def test_european_dealer_blackjack_takes_the_double_too(learner, tables, rig):
    rig(learner, tables["european"], boxes=["5s 6d"], dealer="10h Ac", rest="9d")
    rnd = round_deal(user=learner, table=tables["european"], bets={0: 100})
    assert rnd.status == "playing"  # no peek
    rnd = play(learner, rnd, "double")
    assert rnd.net == Decimal(-200)
    assert books(learner) == Decimal(800)


def test_free_table_offers_no_insurance(learner, tables, rig):
    rig(learner, tables["free"], boxes=["10s 9d"], dealer="As 7c")
    rnd = round_deal(user=learner, table=tables["free"], bets={0: 100})
    assert from_json(rnd.state).phase.value == "players"


def test_live_pays_a_blackjack_against_a_low_card_at_once(learner, tables, rig):
    rig(learner, tables["live"], boxes=["As Kd", "10s 10d"], dealer="9h Kc")
    rnd = round_deal(user=learner, table=tables["live"], bets={0: 100, 1: 100})
    state = from_json(rnd.state)
    assert state.box(0).hands[0].outcome.value == "blackjack"
    assert state.turn == (1, 0)
    rnd = play(learner, rnd, "stand")
    assert rnd.paid == Decimal(250 + 200)


def test_live_splits_only_equal_ranks(learner, tables, rig):
    rig(learner, tables["live"], boxes=["Ks 10d"], dealer="9h 7c")
    rnd = round_deal(user=learner, table=tables["live"], bets={0: 100})
    with pytest.raises(PlayError) as err:
        round_apply_move(round_id=rnd.pk, user=learner, move="split", seq=0)
    assert err.value.code == "split_not_allowed"


def test_to_decimal_refuses_to_round():
    from fractions import Fraction

    assert codec.to_decimal(Fraction(15, 2)) == Decimal("7.50")
    with pytest.raises(ValueError):
        codec.to_decimal(Fraction(1, 3))


@pytest.mark.parametrize("seed", [1, 2])
def test_state_from_json_reads_what_the_engine_reads(seed):
    from blackjack import PRESETS, Shoe, start_round, to_json

    shoe = Shoe.shuffled(PRESETS["thoth"], Random(seed))
    state = start_round(rules=PRESETS["thoth"], bets={0: 100, 3: 50}, shoe=shoe)
    data = to_json(state)
    assert codec.state_from_json(data) == from_json(data)
    assert codec.state_from_json(data).shoe.cards == shoe.cards
