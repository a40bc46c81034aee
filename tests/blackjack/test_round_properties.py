"""Invariants of the round over random rule sets, shoes and move sequences (hypothesis)."""

import json
from collections import Counter
from fractions import Fraction
from random import Random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from blackjack import (
    Card,
    DoubleOn,
    IllegalMove,
    Move,
    Outcome,
    PairsBy,
    Peek,
    Phase,
    RoundState,
    Rules,
    Shoe,
    ShoeExhausted,
    Suit,
    Surrender,
    apply,
    best_total,
    from_json,
    hand_total,
    is_blackjack,
    legal_moves,
    one_deck,
    start_round,
    to_json,
)

rules_st = st.builds(
    Rules,
    decks=st.sampled_from([1, 2, 4, 6, 8]),
    dealer_hits_soft_17=st.booleans(),
    peek=st.sampled_from(list(Peek)),
    blackjack_pays=st.sampled_from([Fraction(3, 2), Fraction(6, 5)]),
    double_on=st.sampled_from(list(DoubleOn)),
    double_soft=st.booleans(),
    double_after_split=st.booleans(),
    max_hands=st.integers(2, 4),
    pairs_by=st.sampled_from(list(PairsBy)),
    resplit_aces=st.booleans(),
    hit_split_aces=st.booleans(),
    surrender=st.sampled_from(list(Surrender)),
    surrender_vs_ace=st.booleans(),
    insurance=st.booleans(),
    early_blackjack_payout=st.booleans(),
)

# A head of cards drawn from few ranks (so pairs, aces, tens and blackjacks are common), then
# two shuffled decks so that no round runs dry.
card_st = st.builds(Card, st.sampled_from(["A", "8", "10", "K", "5", "6", "2", "9"]),
                    st.sampled_from(list(Suit)))  # fmt: skip
bets_st = st.dictionaries(st.integers(0, 4), st.integers(1, 501), min_size=1, max_size=5)


def reloaded(state: RoundState) -> RoundState:
    return from_json(json.loads(json.dumps(to_json(state))))


def check_settled(state: RoundState, original: tuple[Card, ...]) -> None:
    rules = state.rules
    # No card created or lost: the dealt cards are the shoe's first cards, in order, and they
    # are exactly the cards on the table.
    dealt = state.dealt_cards()
    assert state.shoe.cards == original
    assert dealt == list(original[: state.shoe.position])
    on_table = list(state.dealer) + [c for b in state.boxes for h in b.hands for c in h.cards]
    assert Counter(on_table) == Counter(dealt)

    # Chips: every stake and payout of the boxes is in the event log, and each payout is the
    # one its outcome calls for.
    staked = sum(e.staked for e in state.events)
    paid = sum(e.paid for e in state.events)
    assert staked == sum(b.staked for b in state.boxes)
    assert paid == sum(b.paid for b in state.boxes)
    dealer_bj = is_blackjack(state.dealer[:2], from_split=False)
    dealer_total = best_total(state.dealer)
    for b in state.boxes:
        if b.insurance:
            assert b.insurance == Fraction(b.bet, 2)
            assert b.insurance_paid == (3 * b.insurance if dealer_bj else 0)
        for h in b.hands:
            assert h.finished and h.outcome is not None
            expected = {
                Outcome.WIN: 2 * h.stake, Outcome.PUSH: h.stake, Outcome.LOSE: 0,
                Outcome.BUST: 0, Outcome.BLACKJACK: h.bet + h.bet * rules.blackjack_pays,
                Outcome.SURRENDER: Fraction(h.bet, 2), Outcome.EVEN_MONEY: 2 * h.bet,
            }[h.outcome]  # fmt: skip
            assert h.paid == expected
            assert not isinstance(h.paid, float)
            if h.outcome is Outcome.BLACKJACK or h.outcome is Outcome.EVEN_MONEY:
                assert is_blackjack(h.cards, from_split=h.from_split)
            if h.outcome is Outcome.BUST:
                assert hand_total(h.cards).hard > 21
            compared = h.outcome in (Outcome.WIN, Outcome.PUSH, Outcome.LOSE)
            natural = is_blackjack(h.cards, from_split=h.from_split)
            if compared and not h.surrendered and not dealer_bj and not natural:
                # The dealer played this hand out: 17 or more, or bust.
                assert dealer_total >= 17
                if h.outcome is Outcome.WIN:
                    assert dealer_total > 21 or h.total > dealer_total
    # The dealer drew only while below 17 (or on soft 17 when the rules hit it).
    for n in range(2, len(state.dealer)):
        before = hand_total(state.dealer[:n])
        assert before.best < 17 or (before.best == 17 and before.soft
                                    and rules.dealer_hits_soft_17)  # fmt: skip
    assert state.phase is Phase.SETTLED and state.turn is None and state.revealed


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_st,
    bets=bets_st,
    head=st.lists(card_st, min_size=0, max_size=40),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_random_rounds_keep_every_invariant(rules, bets, head, seed, data):
    tail = one_deck() * 2
    Random(seed).shuffle(tail)
    original = tuple(head + tail)
    try:
        state = start_round(rules=rules, bets=bets, shoe=Shoe.from_cards(original))
        assert reloaded(state) == state
        for _ in range(200):
            if state.phase is Phase.SETTLED:
                break
            balance = data.draw(st.one_of(st.none(), st.integers(0, 1000)), label="balance")
            legal = legal_moves(state, balance=balance)
            assert legal  # a round in play always has a legal move
            assert legal <= legal_moves(state)  # money only ever takes moves away
            move = data.draw(st.sampled_from(list(Move)), label="move")
            snapshot = to_json(state)
            if move in legal:
                state = apply(state, move, balance=balance)
            else:
                try:
                    apply(state, move, balance=balance)
                except IllegalMove as exc:
                    assert exc.code and str(exc)
                    assert to_json(state) == snapshot
                    continue
                raise AssertionError(f"illegal {move} accepted")
            assert reloaded(state) == state
    except ShoeExhausted:
        assume(False)
    assert state.phase is Phase.SETTLED
    check_settled(state, original)


@settings(max_examples=60, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 2**32))
def test_shuffled_five_box_rounds_conserve_cards(rules, seed):
    shoe = Shoe.shuffled(rules, Random(seed))
    state = start_round(rules=rules, bets=dict.fromkeys(range(5), 10), shoe=shoe)
    rng = Random(seed)
    while state.phase is not Phase.SETTLED:
        state = apply(state, rng.choice(sorted(legal_moves(state))))
    check_settled(state, shoe.cards)
