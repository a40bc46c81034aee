"""Count practice's count: the cards a seat has seen, from a known card order; the hole card
only once revealed; never an undealt card; a new shoe starts again."""

from __future__ import annotations

from fractions import Fraction
from random import Random

import pytest

from blackjack import PRESETS, Shoe, apply, parse_cards, start_round
from blackjack.counting import HI_LO, KO, ZEN
from game import selectors
from game.codec import state_from_json
from game.counting import count_of_seen, ramp_bet, ramp_units, seen_cards, state_count
from game.models import Seat
from game.services import round_apply_move, round_deal
from tests.blackjack.helpers import deal_order

THOTH = PRESETS["thoth"]


def _state(boxes, dealer, rest=""):
    cards = deal_order(boxes, dealer, rest)
    bets = {i: 100 for i in range(len(boxes))}
    return start_round(
        rules=THOTH, bets=bets, shoe=Shoe.from_cards([*cards, *parse_cards("4c") * 60])
    )


def codes(cards):
    return [c.code for c in cards]


def test_the_cards_seen_are_the_boxes_and_the_up_card_not_the_hole_card():
    state = _state(["10s 6d", "2c 3d"], "9h 5c", "Kd")
    assert codes(seen_cards(shoe=None, state=state)) == ["10s", "6d", "2c", "3d", "9h"]
    count = state_count(HI_LO, state)
    # 10s −1, 6d +1, 2c +1, 3d +1, 9h 0: +2; 307 cards left are 6 decks: true count 0.
    assert (count.running, count.cards_seen, count.cards_left) == (2, 5, 307)
    assert (count.decks_left, count.true) == (Fraction(6), 0)


@pytest.mark.parametrize("hole", ["5c", "Ks", "As", "2h"])
def test_the_count_never_depends_on_the_hole_card_or_the_undealt_cards(hole):
    state = _state(["10s 6d"], f"9h {hole}", "Kd Qd Jd")
    other = _state(["10s 6d"], "9h 3s", "2d 2s 2h")
    assert state_count(HI_LO, state) == state_count(HI_LO, other)


def test_the_hole_card_counts_once_revealed():
    state = _state(["10s 7d"], "9h 5c", "Kd")
    before = state_count(HI_LO, state)
    after = apply(state, "stand")  # the dealer reveals 5c, draws Kd: 24, bust
    assert after.revealed
    assert codes(seen_cards(shoe=None, state=after)) == ["10s", "7d", "9h", "5c", "Kd"]
    assert (before.running, state_count(HI_LO, after).running) == (-1, -1)  # +1 (5c), −1 (Kd)
    assert state_count(HI_LO, after).cards_seen == 5


def test_earlier_rounds_of_the_shoe_count_and_a_new_shoe_starts_again():
    first = _state(["10s 7d"], "9h 5c", "Kd")
    done = apply(first, "stand")
    # The next round deals from the same shoe: its cards follow the first round's.
    second = start_round(rules=THOTH, bets={0: 100}, shoe=done.shoe)
    seen = seen_cards(shoe=None, state=second)
    assert codes(seen[:5]) == ["10s", "9h", "7d", "5c", "Kd"]  # in the order dealt
    assert len(seen) == 5 + 3  # two cards of the box and the up card; the hole card is not
    fresh = start_round(rules=THOTH, bets={0: 100}, shoe=Shoe.shuffled(THOTH, Random(3)))
    assert len(seen_cards(shoe=None, state=fresh)) == 3


def test_between_rounds_the_shoe_s_dealt_cards_are_the_seen_ones():
    shoe = Shoe(tuple(parse_cards("2s 3s 4s 10s Ks")), 3, 0)
    assert codes(seen_cards(shoe=shoe, state=None)) == ["2s", "3s", "4s"]
    assert seen_cards(shoe=None, state=None) == []


@pytest.mark.parametrize(
    ("system", "cards", "running", "true"),
    [
        (HI_LO, "2s 3s 4s 5s 6s 7s 8s 9s", 5, 0),  # 304 left: 6 decks, 5/6 floored
        (ZEN, "4s 5s 6s 4d 5d 6d 10s", 10, 1),  # 10 over 6 decks: 1.67, floored
        (KO, "7s", 1, 0),  # the drift of one card (4/52) taken out: 0.92/6 floored
    ],
)
def test_the_true_count_follows_the_systems_conventions(system, cards, running, true):
    count = count_of_seen(system, parse_cards(cards), decks=6)
    assert (count.running, count.true) == (running, true)


def test_the_ramp_grows_from_one_to_eight_units_within_the_table_s_limits():
    assert [ramp_units(t) for t in range(-2, 8)] == [1, 1, 1, 1, 2, 4, 6, 8, 8, 8]
    assert [ramp_bet(t, unit=100, max_bet=5000) for t in (0, 2, 3, 4, 5)] == [
        100, 200, 400, 600, 800,
    ]  # fmt: skip
    assert ramp_bet(5, unit=10_000, max_bet=50_000) == 50_000


def test_the_selector_reads_the_stored_round_and_shoe(learner, tables, rig):
    scribes = tables["scribes"]
    rig(learner, scribes, boxes=["10s 6d", "2c 3d"], dealer="10h 7c", rest="5s")
    seat = Seat.objects.get(user=learner, table=scribes)
    assert selectors.seat_count(seat=seat, state=None).cards_seen == 0  # nothing dealt yet
    rnd = round_deal(user=learner, table=scribes, bets={0: 100}, ai_levels={1: "easy"})
    seat.refresh_from_db()
    count = selectors.seat_count(seat=seat, state=state_from_json(rnd.state))
    # Box 2's AI plays after the learner's box: seen are the two boxes and the up card,
    # 10s 2c 10h 6d 3d (−1 +1 −1 +1 +1).
    assert (count.running, count.cards_seen, count.true) == (1, 5, 0)
    done = round_apply_move(round_id=rnd.pk, user=learner, move="stand", seq=0)
    assert done.state is not None and done.state.revealed
    seen = seen_cards(shoe=None, state=done.state)
    # Every card dealt is now face up: the shoe's position is the count of cards seen.
    assert len(seen) == done.state.shoe.position
    seat.refresh_from_db()
    between = selectors.seat_count(seat=seat, state=None)
    assert between == selectors.seat_count(seat=seat, state=done.state)


def test_the_ramp_caption_says_what_the_ramp_is():
    """The count panel's caption words the ramp in full ("one unit up to true count +1,
    growing to eight units from +5") in six languages: a change to RAMP must change it."""
    from pathlib import Path

    from game.counting import RAMP

    assert (RAMP[0], RAMP[-1][0], RAMP[-1][1]) == ((1, 1), 5, 8)
    caption = Path("templates/game/_count.html").read_text()
    assert "up to true count +1, growing to eight units from +5" in caption
