"""The fast path (hit, stand, declined insurance) against the general machinery.

``apply`` plays those moves through its shortcut (``apply_shortcut``); ``apply_general`` plays
every move through the work area.  Both must give equal states, events included, and the
single-move ``verdict`` must agree with the full ``verdicts``.
"""

from collections import Counter
from dataclasses import replace
from random import Random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from blackjack import (
    PRESETS,
    SPLIT_ACES_ONE_CARD,
    Move,
    Phase,
    RoundState,
    Shoe,
    ShoeExhausted,
    apply,
    apply_general,
    from_json,
    legal_moves,
    one_deck,
    start_round,
    to_json,
    verdict,
    verdicts,
)
from blackjack.round import apply_shortcut as apply_fast
from tests.blackjack.helpers import deal, play
from tests.blackjack.test_round_properties import bets_st, card_st, rules_st

BALANCES = (None, 0, 49, 50, 100)
FAST_MOVES = (Move.HIT, Move.STAND, Move.DECLINE)


def check_verdicts(state: RoundState) -> None:
    """``verdict`` on one move agrees with ``verdicts``, before and after the memo is made."""
    bare = from_json(to_json(state))  # an equal state with nothing memoised on it
    # The fast moves first: judging them must not need (or leave) the memo.
    early = {(m, b): verdict(bare, m, b) for m in FAST_MOVES for b in BALANCES}
    for balance in BALANCES:
        expected = verdicts(state, balance)
        assert {m: verdict(bare, m, balance) for m in Move} == expected
        assert {m: verdict(state, m, balance) for m in Move} == expected
        for m in FAST_MOVES:
            assert early[m, balance] == expected[m]


def step_both_ways(state: RoundState, move: Move, seen: Counter[str]) -> RoundState:
    """``apply_fast`` (when it takes the move) and ``apply_general`` agree on ``move``."""
    general = apply_general(state, move)
    fast = apply_fast(state, move)
    if fast is not None:
        assert fast == general
        assert fast.events == general.events
        seen[f"fast {move.value}"] += 1
        if fast.phase is Phase.SETTLED:
            seen["fast to the dealer"] += 1
    assert apply(state, move) == general
    return general


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_shuffled_rounds_agree_with_the_general_path(preset):
    rules = PRESETS[preset]
    rng = Random(preset)
    seen: Counter[str] = Counter()
    shoe = Shoe.shuffled(rules, rng)
    for _ in range(60):
        if shoe.remaining < 60:
            shoe = Shoe.shuffled(rules, rng)
        state = start_round(rules=rules, bets=dict.fromkeys(range(5), 100), shoe=shoe)
        while state.phase is not Phase.SETTLED:
            check_verdicts(state)
            state = step_both_ways(state, rng.choice(sorted(legal_moves(state))), seen)
        shoe = state.shoe
    # The fast path really ran, on every kind of move it handles, and handed rounds over.
    assert seen["fast hit"] > 40
    assert seen["fast stand"] > 40
    assert seen["fast to the dealer"] > 10
    if rules.insurance:
        assert seen["fast decline"] > 2


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_st,
    bets=bets_st,
    head=st.lists(card_st, min_size=0, max_size=40),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_random_rule_sets_agree_with_the_general_path(rules, bets, head, seed, data):
    tail = one_deck() * 2
    Random(seed).shuffle(tail)
    seen: Counter[str] = Counter()
    try:
        state = start_round(rules=rules, bets=bets, shoe=Shoe.from_cards(head + tail))
        while state.phase is not Phase.SETTLED:
            check_verdicts(state)
            move = data.draw(st.sampled_from(sorted(legal_moves(state))), label="move")
            state = step_both_ways(state, move, seen)
    except ShoeExhausted:
        assume(False)


# --- the hand-overs, one by one --------------------------------------------------------


def test_a_hit_below_21_keeps_the_turn():
    state = deal(["9c 2d", "10h 7s"], "6h 10c", "5s")
    after = apply_fast(state, Move.HIT)
    assert after is not None
    assert after.turn == (0, 0)
    assert [str(c) for c in after.box(0).hands[0].cards] == ["9♣", "2♦", "5♠"]
    assert after.shoe.position == state.shoe.position + 1
    assert after.boxes[1] is state.boxes[1]  # untouched boxes are shared


def test_a_bust_is_settled_and_passes_the_turn():
    state = deal(["10c 6d", "10h 7s"], "6h 10c", "Ks")
    after = apply_fast(state, Move.HIT)
    assert after is not None
    hand = after.box(0).hands[0]
    assert (hand.finished, hand.outcome, hand.paid) == (True, "bust", 0)
    assert after.turn == (1, 0)
    assert [e.kind.value for e in after.events[-3:]] == ["move", "deal", "settle"]


def test_hitting_to_21_finishes_the_hand():
    state = deal(["10c 6d", "10h 7s"], "6h 10c", "5s")
    after = apply_fast(state, Move.HIT)
    assert after is not None
    assert after.box(0).hands[0].finished and after.box(0).hands[0].outcome is None
    assert after.turn == (1, 0)


def test_the_last_stand_hands_the_dealer_over():
    state = deal(["10c 6d"], "6h 10c", "5s")
    after = apply_fast(state, Move.STAND)
    assert after is not None
    assert after.phase is Phase.SETTLED and after.revealed
    assert [str(c) for c in after.dealer] == ["6♥", "10♣", "5♠"]
    assert after.box(0).hands[0].outcome == "lose"


def test_a_stand_on_a_split_hand_deals_the_next_hand_its_second_card():
    state = play(deal(["8c 8d"], "6h 10c", "3s 9h"), "split")
    after = apply_fast(state, Move.STAND)
    assert after is not None
    assert after.turn == (0, 1)
    assert [str(c) for c in after.box(0).hands[1].cards] == ["8♦", "9♥"]


def test_declines_pass_the_offer_and_the_last_one_ends_it():
    state = deal(["10c 6d", "9h 7s"], "As 7c", "5s")
    assert state.phase is Phase.INSURANCE
    after = apply_fast(state, Move.DECLINE)
    assert after is not None
    assert (after.phase, after.turn, after.box(0).insurance_answer) == (
        Phase.INSURANCE,
        (1, 0),
        Move.DECLINE,
    )
    last = apply_fast(after, Move.DECLINE)
    assert last is not None
    assert (last.phase, last.turn, last.peeked) == (Phase.PLAYERS, (0, 0), True)


@pytest.mark.parametrize("move", [Move.DOUBLE, Move.SPLIT, Move.SURRENDER, Move.INSURE])
def test_other_moves_are_left_to_the_general_path(move):
    state = deal(["8c 8d"], "6h 10c", "3s 9h")
    assert apply_fast(state, move) is None


def test_a_hit_from_an_empty_shuffled_shoe_is_left_to_the_refill():
    rules = PRESETS["thoth"]
    full = Shoe.shuffled(rules, Random(3))
    # Exactly the four cards of the deal left: the hit must refill the shoe.
    shoe = Shoe(full.cards, len(full.cards) - 4, full.decks)
    state = start_round(rules=rules, bets={0: 10}, shoe=shoe)
    assert state.phase is Phase.PLAYERS
    assert apply_fast(state, Move.HIT) is None
    after = apply(state, Move.HIT)
    kinds = [e.kind.value for e in after.events[len(state.events) :]]
    assert kinds[:3] == ["move", "reshuffle", "deal"]


def test_resplittable_aces_that_may_not_be_hit_are_judged_without_the_memo():
    rules = replace(PRESETS["thoth"], resplit_aces=True, hit_split_aces=False, max_hands=4)
    state = play(deal(["As Ad"], "6h 10c", "Ac 9h", rules=rules), "split")
    assert state.turn == (0, 0) and state.box(0).hands[0].split_aces
    bare = from_json(to_json(state))
    assert verdict(bare, Move.HIT) == SPLIT_ACES_ONE_CARD
    assert verdict(bare, Move.STAND) is None
    check_verdicts(state)
