"""The one rule-level answer to "is it legal?": the round engine and the EV engine agree with
it on every hand random play reaches."""

from random import Random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from blackjack import (
    DOUBLE_9_11,
    DOUBLE_10_11,
    DOUBLE_AFTER_SPLIT,
    DOUBLE_FIRST_TWO,
    DOUBLE_SOFT,
    DOUBLE_SPLIT_ACES,
    HAND_FINISHED,
    INSURANCE_MOVES,
    PLAY_MOVES,
    SPLIT_ACES_ONCE,
    SPLIT_ACES_ONE_CARD,
    SPLIT_LIMIT,
    SPLIT_NOT_PAIR,
    SURRENDER_FIRST_TWO,
    SURRENDER_NONE,
    SURRENDER_VS_ACE,
    DoubleOn,
    Move,
    Phase,
    RoundState,
    Rules,
    Shoe,
    ShoeExhausted,
    Surrender,
    analyze,
    apply,
    composition_of,
    full_composition,
    hand_options,
    hand_total,
    hand_verdicts,
    is_pair,
    one_deck,
    start_round,
)
from blackjack import legal_moves_for_points as ev_legal_moves
from blackjack import round as legal  # the round's legality, through its public face
from tests.blackjack.test_round_properties import bets_st, card_st, rules_st


def described(state: RoundState) -> dict[str, object]:
    """The hand in turn as :func:`hand_verdicts` takes it, worked out from the cards here
    (not by the engine's own code)."""
    assert state.turn is not None
    seat, h = state.turn
    box = state.box(seat)
    hand = box.hands[h]
    total = hand_total(hand.cards)
    return {
        "total": total.best,
        "soft": total.soft,
        "cards": len(hand.cards),
        "pair": is_pair(hand.cards, state.rules),
        "hands": len(box.hands),
        "from_split": hand.from_split,
        "split_aces": hand.split_aces,
        "up_ace": state.dealer[0].rank == "A",
    }


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_st,
    bets=bets_st,
    head=st.lists(card_st, min_size=12, max_size=30),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_the_round_and_the_ev_engine_answer_as_the_shared_function(rules, bets, head, seed, data):
    tail = one_deck() * 2
    Random(seed).shuffle(tail)
    try:
        state = start_round(rules=rules, bets=bets, shoe=Shoe.from_cards(head + tail))
        while state.phase is not Phase.SETTLED:
            allowed = legal.legal_moves(state)
            if state.phase is Phase.INSURANCE:
                assert allowed == frozenset(INSURANCE_MOVES)
            else:
                hand = described(state)
                expected = hand_verdicts(rules, **hand)  # type: ignore[arg-type]
                given_ = legal.verdicts(state, None)
                assert {m: given_[m] for m in PLAY_MOVES} == expected
                assert allowed == hand_options(rules, **hand)  # type: ignore[arg-type]
                assert allowed == frozenset(m for m, why in expected.items() if why is None)
                seat, h = state.turn
                box = state.box(seat)
                cards = box.hands[h].cards
                points = [c.points for c in cards]
                up = state.dealer[0].points
                ev_kw = {
                    "split_hands": len(box.hands),
                    "from_split": box.hands[h].from_split,
                    "pair": hand["pair"],
                }
                assert ev_legal_moves(rules, points, up, **ev_kw) == allowed
                # The EV costs more: some hands only, and only those a real shoe could hold
                # (the head of random cards may hold more aces than the rules' decks).
                held = composition_of([*points, up])
                real = all(n <= m for n, m in zip(held, full_composition(rules.decks), strict=True))
                if real and data.draw(st.integers(0, 3), label="analyze") == 0:
                    assert frozenset(analyze(rules, points, up, **ev_kw).ev) == allowed
            move = data.draw(st.sampled_from(sorted(allowed)), label="move")
            state = apply(state, move)
    except ShoeExhausted:
        assume(False)


THOTH = Rules(surrender=Surrender.LATE, surrender_vs_ace=False)


@pytest.mark.parametrize(
    ("rules", "hand", "move", "expected"),
    [
        (THOTH, {"total": 21, "soft": True, "cards": 3}, Move.HIT, HAND_FINISHED),
        (THOTH, {"total": 21, "soft": True, "cards": 3}, Move.STAND, None),
        (THOTH, {"total": 22, "soft": False, "cards": 3}, Move.STAND, HAND_FINISHED),
        (THOTH, {"total": 15, "soft": False, "cards": 3}, Move.DOUBLE, DOUBLE_FIRST_TWO),
        (THOTH, {"total": 15, "soft": False, "cards": 3}, Move.SURRENDER, SURRENDER_FIRST_TWO),
        (Rules(), {"total": 15, "soft": False, "cards": 3}, Move.SURRENDER, SURRENDER_NONE),
        (Rules(), {"total": 15, "soft": False}, Move.SURRENDER, SURRENDER_NONE),
        (THOTH, {"total": 15, "soft": False, "up_ace": True}, Move.SURRENDER, SURRENDER_VS_ACE),
        (THOTH, {"total": 15, "soft": False}, Move.SURRENDER, None),
        (THOTH, {"total": 15, "soft": False, "hands": 2}, Move.SURRENDER, SURRENDER_FIRST_TWO),
        (THOTH, {"total": 15, "soft": False, "from_split": True}, Move.SURRENDER,
         SURRENDER_FIRST_TWO),
        (THOTH, {"total": 15, "soft": False}, Move.SPLIT, SPLIT_NOT_PAIR),
        (THOTH, {"total": 16, "soft": False, "pair": True, "hands": 4}, Move.SPLIT, SPLIT_LIMIT),
        (THOTH, {"total": 16, "soft": False, "pair": True, "hands": 3}, Move.SPLIT, None),
        (THOTH, {"total": 12, "soft": True, "pair": True, "hands": 2, "from_split": True,
                 "split_aces": True}, Move.SPLIT, SPLIT_ACES_ONCE),
        (THOTH, {"total": 12, "soft": True, "pair": True, "hands": 2, "from_split": True,
                 "split_aces": True}, Move.HIT, SPLIT_ACES_ONE_CARD),
        (THOTH, {"total": 17, "soft": True, "hands": 2, "from_split": True, "split_aces": True},
         Move.DOUBLE, DOUBLE_SPLIT_ACES),
        (Rules(hit_split_aces=True), {"total": 17, "soft": True, "hands": 2, "from_split": True,
                                      "split_aces": True}, Move.DOUBLE, None),
        (Rules(hit_split_aces=True, double_after_split=False),
         {"total": 17, "soft": True, "hands": 2, "from_split": True, "split_aces": True},
         Move.DOUBLE, DOUBLE_SPLIT_ACES),
        (Rules(double_after_split=False), {"total": 11, "soft": False, "hands": 2,
                                           "from_split": True}, Move.DOUBLE, DOUBLE_AFTER_SPLIT),
        (Rules(double_soft=False), {"total": 17, "soft": True}, Move.DOUBLE, DOUBLE_SOFT),
        (Rules(double_on=DoubleOn.NINE_TO_ELEVEN), {"total": 8, "soft": False}, Move.DOUBLE,
         DOUBLE_9_11),
        (Rules(double_on=DoubleOn.NINE_TO_ELEVEN), {"total": 9, "soft": False}, Move.DOUBLE,
         None),
        (Rules(double_on=DoubleOn.TEN_TO_ELEVEN), {"total": 9, "soft": False}, Move.DOUBLE,
         DOUBLE_10_11),
        # The playing total counts: soft 19 is not 9 (the ace counting one).
        (Rules(double_on=DoubleOn.NINE_TO_ELEVEN), {"total": 19, "soft": True}, Move.DOUBLE,
         DOUBLE_9_11),
    ],
)  # fmt: skip
def test_hand_verdicts(rules, hand, move, expected):
    assert hand_verdicts(rules, **hand)[move] == expected


def test_a_bust_hand_has_no_move():
    assert hand_options(THOTH, total=23, soft=False, cards=3) == frozenset()


def test_the_round_engine_names_the_same_refusals():
    assert legal.SPLIT_ACES_ONE_CARD is SPLIT_ACES_ONE_CARD
    assert legal.DOUBLE_SOFT is DOUBLE_SOFT
