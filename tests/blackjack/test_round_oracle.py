"""RULES.md settlement as an independent oracle, held against random rounds (hypothesis).

``test_round_properties`` checks that each payout is the one its *outcome* calls for; this
file checks that each outcome is the one RULES.md calls for, from the cards alone: a natural
pays 3:2 (or 6:5), pushes with a dealer blackjack, or took even money; a surrender keeps half
unless a blackjack found after it takes all; a dealer blackjack beats every other hand with
its doubles; otherwise the totals decide.  It also checks the timing the rules give (a bust,
even money, an early blackjack payout and a peeked blackjack settle at once), the one card
of a double and of split aces, the split limit, and that the wallet takes away exactly the
moves it cannot cover.  Nothing here asks the engine's own helpers how to judge.
"""

from fractions import Fraction
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackjack import (
    PLAY_MOVES,
    PRESETS,
    RANK_POINTS,
    Box,
    Card,
    EventKind,
    Hand,
    Move,
    Outcome,
    Peek,
    Phase,
    RoundState,
    Rules,
    Shoe,
    Suit,
    apply,
    legal_moves,
    one_deck,
    start_round,
)
from tests.blackjack.test_round_properties import rules_st

# Heavy in aces and tens, so that naturals, even money, dealer blackjacks and split aces are
# common.  The cards, bets, balances and moves come from a seeded ``Random``, not from
# hypothesis: hypothesis favours its simplest values (a head of aces only), which almost
# never deals a natural.
RANKS = ("A", "A", "A", "10", "K", "Q", "8", "8", "5", "6", "2", "9", "7")


def points(cards: tuple[Card, ...]) -> tuple[int, bool]:
    """The playing total and whether an ace counts 11, worked out here."""
    hard = sum(RANK_POINTS[c.rank] for c in cards)
    soft = any(c.rank == "A" for c in cards) and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


def natural(cards: tuple[Card, ...], from_split: bool) -> bool:
    return not from_split and len(cards) == 2 and points(cards)[0] == 21


def dealer_peeks(rules: Rules, up: Card) -> bool:
    """RULES.md's peek: ace and ten, ace only, or none."""
    p = RANK_POINTS[up.rank]
    if rules.peek is Peek.ACE_AND_TEN:
        return p in (1, 10)
    return rules.peek is Peek.ACE_ONLY and p == 1


def expected_result(state: RoundState, box: Box, hand: Hand) -> tuple[Outcome, object]:
    rules = state.rules
    dealer_bj = natural(state.dealer[:2], False)
    bet, stake = hand.bet, hand.bet * (2 if hand.doubled else 1)
    if natural(hand.cards, hand.from_split):
        if box.insurance_answer is Move.INSURE:
            return Outcome.EVEN_MONEY, 2 * bet
        if dealer_bj:
            return Outcome.PUSH, bet
        return Outcome.BLACKJACK, bet + bet * rules.blackjack_pays
    if hand.surrendered:
        return (Outcome.LOSE, 0) if dealer_bj else (Outcome.SURRENDER, Fraction(bet, 2))
    total, _ = points(hand.cards)
    if total > 21:
        return Outcome.BUST, 0
    dealer_total, _ = points(state.dealer)
    if dealer_bj or (dealer_total <= 21 and total < dealer_total):
        return Outcome.LOSE, 0
    if total == dealer_total:
        return Outcome.PUSH, stake
    return Outcome.WIN, 2 * stake


def check_against_rules(state: RoundState) -> None:
    """Every hand and insurance bet of a settled round is what RULES.md says it is."""
    check_peek(state)
    for b in state.boxes:
        check_insurance(state, b)
        assert len(b.hands) <= state.rules.max_hands
        for i, h in enumerate(b.hands):
            assert (h.outcome, h.paid) == expected_result(state, b, h), (b.seat, i, h)
            assert type(h.paid) in (int, Fraction)
            check_cards(state.rules, h, split=len(b.hands) > 1)
            check_timing(state, b.seat, i, h)
    if not any(needs_dealer(h) for b in state.boxes for h in b.hands):
        assert len(state.dealer) == 2  # the dealer only reveals


def check_peek(state: RoundState) -> None:
    up = state.dealer[0]
    peeks = dealer_peeks(state.rules, up)
    assert any(e.kind is EventKind.PEEK for e in state.events) is peeks
    if peeks and natural(state.dealer[:2], False):
        # The peek ends the round at once: nobody has doubled, split or surrendered.
        assert not [e for e in state.events if e.kind is EventKind.MOVE and e.move in PLAY_MOVES]
        assert all(len(b.hands) == 1 and len(b.hands[0].cards) == 2 for b in state.boxes)


def check_insurance(state: RoundState, b: Box) -> None:
    offered = state.dealer[0].rank == "A" and state.rules.insurance
    assert (b.insurance_answer is not None) is offered
    first = b.hands[0]  # a split box held no natural: from_split says so
    if b.insurance_answer is Move.INSURE and not natural(first.cards, first.from_split):
        dealer_bj = natural(state.dealer[:2], False)
        assert b.insurance == Fraction(b.bet, 2)
        assert b.insurance_paid == (3 * b.insurance if dealer_bj else 0)
    else:
        assert b.insurance == 0 and b.insurance_paid is None


def check_cards(rules: Rules, h: Hand, *, split: bool) -> None:
    if h.doubled:
        assert len(h.cards) == 3  # a double takes exactly one card
    assert h.from_split is split
    if h.split_aces:
        assert h.from_split and h.cards[0].rank == "A"
        if not rules.hit_split_aces:
            assert len(h.cards) == 2  # split aces: one card each


def check_timing(state: RoundState, seat: int, i: int, h: Hand) -> None:
    """A bust, even money and an early blackjack payout are settled at once."""
    events = state.events
    kinds = [e.kind for e in events]
    at = next(n for n, e in enumerate(events) if e.kind is EventKind.SETTLE and e.seat == seat
              and e.hand == i)  # fmt: skip
    reveal = kinds.index(EventKind.REVEAL)
    if h.outcome in (Outcome.BUST, Outcome.EVEN_MONEY):
        assert at < reveal
    up = RANK_POINTS[state.dealer[0].rank]
    if h.outcome is Outcome.BLACKJACK and state.rules.early_blackjack_payout and 2 <= up <= 9:
        assert EventKind.MOVE not in kinds[:at] and at < reveal


def needs_dealer(h: Hand) -> bool:
    """A hand whose result needs the dealer's total, not just whether it is a blackjack."""
    done = h.outcome in (Outcome.BUST, Outcome.EVEN_MONEY) or h.surrendered
    return not done and not natural(h.cards, h.from_split)


def wallet_cost(state: RoundState, move: Move) -> object:
    """What RULES.md takes from the wallet for ``move`` by the hand (box) in turn."""
    assert state.turn is not None
    seat, h = state.turn
    box = state.box(seat)
    if move in (Move.DOUBLE, Move.SPLIT):
        return box.hands[h].bet
    if move is Move.INSURE:
        return 0 if natural(box.hands[0].cards, False) else Fraction(box.bet, 2)
    return 0


def random_round(rules: Rules, rng: Random) -> RoundState:
    """A round dealt from a random head of :data:`RANKS` and two shuffled decks, played by
    random legal moves, each checked against the wallet on the way."""
    head = [Card(rng.choice(RANKS), rng.choice(list(Suit))) for _ in range(30)]
    tail = one_deck() * 2
    rng.shuffle(tail)
    seats = rng.sample(range(5), rng.randint(1, 5))
    bets = {s: rng.choice((1, 5, 100, 101, 250)) for s in seats}
    state = start_round(rules=rules, bets=bets, shoe=Shoe.from_cards(head + tail))
    while state.phase is not Phase.SETTLED:
        free = legal_moves(state)
        balance = rng.choice((0, 1, 50, 99, 100, 125, 250, 10_000))
        covered = legal_moves(state, balance=balance)
        # The wallet takes away exactly the moves it cannot cover, and nothing else.
        assert covered == {m for m in free if wallet_cost(state, m) <= balance}
        state = apply(state, rng.choice(sorted(free)))
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_st, seed=st.integers(0, 2**32))
def test_random_rounds_settle_as_the_rules_say(rules, seed):
    rng = Random(seed)
    for _ in range(4):
        check_against_rules(random_round(rules, rng))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_rounds_settle_as_the_rules_say(preset):
    rng = Random(preset)
    for _ in range(300):
        check_against_rules(random_round(PRESETS[preset], rng))
