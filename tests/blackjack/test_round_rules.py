"""One test (at least) for every rule of RULES.md, per preset where the presets differ."""

from dataclasses import replace
from fractions import Fraction

import pytest

from blackjack import (
    PRESETS,
    DoubleOn,
    EventKind,
    IllegalMove,
    Move,
    PairsBy,
    Peek,
    Phase,
    Rules,
    Shoe,
    Surrender,
    apply,
    legal_moves,
    parse_cards,
    start_round,
)
from tests.blackjack.helpers import deal, play, results

THOTH = PRESETS["thoth"]

# --- the deal ----------------------------------------------------------------------------


def test_deal_order_box_by_box_then_dealer_then_second_cards_then_hole():
    state = deal(["2c 3c", "4d 5d", "6h 7h"], "9s Ks", seats=[0, 2, 4])
    kinds = [(e.kind.value, e.seat, str(e.card)) for e in state.events if e.card is not None]
    assert kinds == [
        ("deal", 0, "2♣"), ("deal", 2, "4♦"), ("deal", 4, "6♥"), ("dealer_up", None, "9♠"),
        ("deal", 0, "3♣"), ("deal", 2, "5♦"), ("deal", 4, "7♥"), ("hole", None, "K♠"),
    ]  # fmt: skip
    assert state.turn == (0, 0)
    assert state.shoe.remaining == 0


@pytest.mark.parametrize("bets", [{}, {5: 100}, {-1: 100}, {0: 0}, {0: -5}, {0: 1.5}])
def test_start_round_refuses_bad_bets(bets):
    with pytest.raises(ValueError):
        start_round(rules=THOTH, bets=bets, shoe=Shoe.from_cards(parse_cards("2c 3c 4c 5c")))


# --- insurance and even money -------------------------------------------------------------


def test_insurance_asked_box_by_box_and_lost_when_no_blackjack():
    state = deal(["10c 9d", "7s 7h"], "As 8d", bets=[100, 300])
    assert state.phase is Phase.INSURANCE and state.turn == (0, 0)
    assert legal_moves(state) == {Move.INSURE, Move.DECLINE}
    state = play(state, "insure")
    assert state.turn == (1, 0) and state.box(0).insurance == 50
    state = play(state, "decline")
    assert state.phase is Phase.PLAYERS and state.peeked
    assert state.box(0).insurance_paid == 0
    peek = [e for e in state.events if e.kind is EventKind.PEEK]
    assert len(peek) == 1 and peek[0].blackjack is False


def test_insurance_pays_two_to_one_and_main_bets_lose_only_the_bet():
    state = deal(["10c 9d", "As Kh", "5s 5h"], "Ah Kd", bets=[100, 100, 101])
    state = play(state, "insure", "decline", "insure")
    assert state.phase is Phase.SETTLED and state.revealed
    assert results(state) == [(0, 0, "lose", 0), (1, 0, "push", 100), (2, 0, "lose", 0)]
    assert state.box(0).insurance_paid == 150
    assert state.box(2).insurance == Fraction(101, 2)
    assert state.box(2).insurance_paid == Fraction(303, 2)
    assert [state.paid(s) - state.staked(s) for s in (0, 1, 2)] == [0, 0, 0]


def test_even_money_pays_one_to_one_at_once_and_ends_the_hand():
    state = deal(["As Kh", "9c 7d"], "Ad 6s", bets=[200, 100])
    assert legal_moves(state, balance=0) == {Move.INSURE, Move.DECLINE}  # even money is free
    state = play(state, "insure")
    assert results(state) == [(0, 0, "even_money", 400)]
    assert state.box(0).insurance == 0
    state = play(state, "decline")
    assert state.turn == (1, 0)


def test_declined_even_money_is_a_blackjack_paid_three_to_two_later():
    state = deal(["As Kh", "9c 9d"], "Ad 6s", "", bets=[200, 100])
    state = play(state, "decline", "decline", "stand")
    assert state.phase is Phase.SETTLED
    assert results(state) == [(0, 0, "blackjack", 500), (1, 0, "win", 200)]


@pytest.mark.parametrize("preset", ["free", "european"])
def test_no_insurance_where_the_rules_offer_none(preset):
    state = deal(["10c 9d"], "As 8d", rules=preset)
    assert state.phase is Phase.PLAYERS
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.INSURE)
    assert exc.value.code == "no_insurance_now"


def test_insurance_needs_the_balance_for_half_the_bet():
    state = deal(["10c 9d"], "As 8d", bets=[100])
    assert legal_moves(state, balance=49) == {Move.DECLINE}
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.INSURE, balance=49)
    assert exc.value.code == "insufficient_balance"
    assert legal_moves(state, balance=50) == {Move.INSURE, Move.DECLINE}


def test_play_moves_wait_for_the_insurance_answer():
    state = deal(["10c 9d"], "As 8d")
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.STAND)
    assert exc.value.code == "insurance_pending"


# --- the peek -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "up", "peeks"),
    [
        ("thoth", "Ah", True), ("thoth", "Kh", True), ("thoth", "9h", False),
        ("live", "Kh", True), ("free", "10h", True),
        ("sixdeck", "Ah", True), ("sixdeck", "Kh", False),
        ("european", "Ah", False), ("european", "Kh", False),
    ],
)  # fmt: skip
def test_peek_only_under_the_up_cards_the_rules_say(preset, up, peeks):
    state = deal(["10c 9d"], f"{up} 5d", rules=preset)
    if state.phase is Phase.INSURANCE:
        state = play(state, "decline")
    assert state.peeked is peeks
    assert any(e.kind is EventKind.PEEK for e in state.events) is peeks


def test_peeked_ten_blackjack_ends_the_round_at_once():
    state = deal(["10c 9d", "As Kd", "8s 8h"], "Kh As", bets=[100, 100, 100])
    assert state.phase is Phase.SETTLED and state.turn is None
    assert results(state) == [(0, 0, "lose", 0), (1, 0, "push", 100), (2, 0, "lose", 0)]
    assert not any(e.kind is EventKind.MOVE for e in state.events)


@pytest.mark.parametrize("preset", ["european", "sixdeck"])
def test_unpeeked_blackjack_takes_doubles_and_splits_too(preset):
    # european never peeks; sixdeck peeks under an ace only, so a ten hides its blackjack.
    state = deal(["5c 6d", "8s 8h", "As Kd"], "Kh As", "9c 2d 3h", rules=preset)
    assert state.phase is Phase.PLAYERS and not state.peeked
    state = play(state, "double", "split", "stand", "stand")
    assert state.phase is Phase.SETTLED
    assert state.dealer == tuple(parse_cards("Kh As"))  # reveals, draws nothing
    assert results(state) == [
        (0, 0, "lose", 0), (1, 0, "lose", 0), (1, 1, "lose", 0), (2, 0, "push", 100),
    ]  # fmt: skip
    assert [state.staked(s) for s in (0, 1, 2)] == [200, 200, 100]


# --- double -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("double_on", "double_soft", "cards", "allowed"),
    [
        (DoubleOn.ANY_TWO, True, "2c 3d", True),
        (DoubleOn.ANY_TWO, True, "As 7d", True),
        (DoubleOn.ANY_TWO, False, "As 7d", False),
        (DoubleOn.ANY_TWO, False, "9s 2d", True),
        (DoubleOn.NINE_TO_ELEVEN, True, "5s 4d", True),
        (DoubleOn.NINE_TO_ELEVEN, True, "4s 4d", False),
        (DoubleOn.NINE_TO_ELEVEN, True, "As 8d", False),
        (DoubleOn.TEN_TO_ELEVEN, True, "5s 4d", False),
        (DoubleOn.TEN_TO_ELEVEN, True, "5s 5d", True),
        (DoubleOn.TEN_TO_ELEVEN, True, "6s 5d", True),
        (DoubleOn.TEN_TO_ELEVEN, True, "6s 6d", False),
    ],
)
def test_double_on_the_totals_the_rules_allow(double_on, double_soft, cards, allowed):
    rules = Rules(double_on=double_on, double_soft=double_soft)
    state = deal([cards], "9h 7c", "5c", rules=rules)
    assert (Move.DOUBLE in legal_moves(state)) is allowed
    if not allowed:
        with pytest.raises(IllegalMove) as exc:
            apply(state, Move.DOUBLE)
        assert exc.value.code == "double_not_allowed"


def test_sixdeck_preset_refuses_soft_doubles():
    state = deal(["As 6d"], "5h 10c", "4c", rules="sixdeck")
    assert Move.DOUBLE not in legal_moves(state)


def test_double_gets_exactly_one_card_and_twice_the_bet():
    state = deal(["5c 6d"], "9h 8c", "2s")
    state = play(state, "double")
    hand = state.box(0).hands[0]
    assert hand.cards == tuple(parse_cards("5c 6d 2s")) and hand.doubled
    assert results(state) == [(0, 0, "lose", 0)]
    assert state.staked(0) == 200


def test_no_double_after_hitting():
    state = play(deal(["2c 3d"], "9h 8c", "2s"), "hit")
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.DOUBLE)
    assert exc.value.code == "double_not_allowed"


@pytest.mark.parametrize(("preset", "allowed"), [
    ("thoth", True), ("live", False), ("sixdeck", True), ("free", True), ("european", True),
])  # fmt: skip
def test_double_after_split_per_preset(preset, allowed):
    state = deal(["7s 7h"], "6h 10c", "4c 4d", rules=preset)
    state = play(state, "split")
    assert state.box(0).hands[0].display == "11"
    assert (Move.DOUBLE in legal_moves(state)) is allowed


def test_double_needs_the_balance_for_the_bet():
    state = deal(["5c 6d"], "9h 8c", "2s", bets=[300])
    assert Move.DOUBLE not in legal_moves(state, balance=299)
    assert Move.DOUBLE in legal_moves(state, balance=300)
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.DOUBLE, balance=299)
    assert exc.value.code == "insufficient_balance"


# --- split --------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "cards", "allowed"), [
    ("thoth", "Kh 10c", True), ("live", "Kh 10c", False), ("live", "Kh Kc", True),
    ("free", "Jh Qc", True), ("thoth", "8s 9s", False),
])  # fmt: skip
def test_pairs_by_value_or_rank(preset, cards, allowed):
    state = deal([cards], "6h 10c", "4c 4d", rules=preset)
    assert (Move.SPLIT in legal_moves(state)) is allowed


@pytest.mark.parametrize(("preset", "limit"), [
    ("thoth", 4), ("live", 2), ("sixdeck", 4), ("free", 4), ("european", 4),
])  # fmt: skip
def test_split_limit_per_preset(preset, limit):
    state = deal(["8s 8h"], "6h 10c", "8c 8d 8s 8h 8c 8d 8s", rules=preset)
    while Move.SPLIT in legal_moves(state):
        state = apply(state, Move.SPLIT)
    assert len(state.box(0).hands) == limit
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.SPLIT)
    assert exc.value.code == "split_not_allowed"


def test_split_hands_get_second_cards_in_turn_and_settle_separately():
    state = deal(["8s 8h"], "7h 10c", "3c Kd 2h", bets=[100])
    state = play(state, "split")
    assert [len(h.cards) for h in state.box(0).hands] == [2, 1]
    state = play(state, "stand")
    assert state.turn == (0, 1)
    assert state.box(0).hands[1].cards == tuple(parse_cards("8h Kd"))
    state = play(state, "stand")
    assert results(state) == [(0, 0, "lose", 0), (0, 1, "win", 200)]


@pytest.mark.parametrize("preset", ["thoth", "live", "free", "european"])
def test_split_aces_one_card_each_and_never_resplit(preset):
    state = deal(["As Ah"], "9h 10c", "Ad 9c", rules=preset)
    state = play(state, "split")
    # The first ace drew another ace: no resplit, no more cards, so the turn moved on.
    hands = state.box(0).hands
    assert [h.display for h in hands] == ["2 / 12", "10 / 20"]
    assert state.phase is Phase.SETTLED
    assert results(state) == [(0, 0, "lose", 0), (0, 1, "win", 200)]


def test_sixdeck_resplits_aces_but_gives_them_one_card():
    state = deal(["As Ah"], "9h 10c", "Ad 9c 5h 2c", rules="sixdeck")
    state = play(state, "split")
    assert legal_moves(state) == {Move.SPLIT, Move.STAND}
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.HIT)
    assert exc.value.code == "hit_not_allowed"
    state = play(state, "split")
    assert state.phase is Phase.SETTLED
    assert [h.display for h in state.box(0).hands] == ["10 / 20", "6 / 16", "3 / 13"]
    assert results(state) == [(0, 0, "win", 200), (0, 1, "lose", 0), (0, 2, "lose", 0)]


def test_hit_split_aces_when_the_rules_allow():
    rules = replace(THOTH, hit_split_aces=True)
    state = deal(["As Ah"], "6h 10c", "2d 3c 9c", rules=rules)
    state = play(state, "split")
    assert Move.HIT in legal_moves(state)
    state = play(state, "hit")
    assert state.box(0).hands[0].display == "6 / 16"


def test_a_two_card_21_after_a_split_is_not_a_blackjack():
    state = deal(["As Ah"], "Qh 10c", "Kd 9c")
    state = play(state, "split")
    assert state.phase is Phase.SETTLED
    assert results(state) == [(0, 0, "win", 200), (0, 1, "push", 100)]


def test_split_needs_the_balance_for_the_bet():
    state = deal(["8s 8h"], "6h 10c", "3c 2c", bets=[100])
    assert Move.SPLIT not in legal_moves(state, balance=99)
    assert Move.SPLIT in legal_moves(state, balance=100)


# --- hitting, 21 and busts ------------------------------------------------------------------


def test_a_hand_reaching_21_is_finished_and_the_turn_moves_on():
    state = deal(["5c 6d", "9s 9h"], "7h 10c", "Kd")
    state = play(state, "hit")
    assert state.box(0).hands[0].finished and state.turn == (1, 0)


def test_a_bust_is_lost_at_once():
    state = deal(["10c 6d", "9s 9h"], "7h 10c", "Kd")
    state = play(state, "hit")
    assert state.turn == (1, 0)
    assert results(state) == [(0, 0, "bust", 0)]


def test_dealer_only_reveals_when_every_hand_is_settled():
    state = deal(["10c 6d", "As Kh"], "7h 5c", "Kd 9s", rules="live")
    assert results(state) == [(1, 0, "blackjack", 250)]  # live: paid at once against 2-9
    state = play(state, "hit")
    assert state.phase is Phase.SETTLED
    assert state.dealer == tuple(parse_cards("7h 5c")) and state.revealed
    assert state.shoe.remaining == 1


def test_blackjack_against_2_to_9_waits_for_the_end_without_early_payout():
    state = deal(["As Kh", "10c 8d"], "7h 5c", "8d")
    assert results(state) == []
    state = play(state, "stand")
    assert results(state) == [(0, 0, "blackjack", 250), (1, 0, "lose", 0)]


def test_a_blackjack_does_not_play():
    state = deal(["As Kh", "10c 8d"], "7h 10c")
    assert state.turn == (1, 0)


# --- the dealer ---------------------------------------------------------------------------


@pytest.mark.parametrize(("h17", "dealer_cards"), [(False, "Ah 6c"), (True, "Ah 6c 2d")])
def test_dealer_soft_17(h17, dealer_cards):
    rules = replace(THOTH, dealer_hits_soft_17=h17, peek=Peek.NONE, insurance=False)
    state = deal(["10c 8d"], "Ah 6c", "2d", rules=rules)
    state = play(state, "stand")
    assert state.dealer == tuple(parse_cards(dealer_cards))


def test_dealer_draws_below_17_and_stands_on_hard_17():
    state = play(deal(["10c 8d"], "2h 4c", "4d 7s Kd"), "stand")
    assert [str(c) for c in state.dealer] == ["2♥", "4♣", "4♦", "7♠"]
    assert results(state) == [(0, 0, "win", 200)]


def test_every_preset_stands_on_soft_17():
    assert {r.dealer_hits_soft_17 for r in PRESETS.values()} == {False}


# --- payouts ------------------------------------------------------------------------------


@pytest.mark.parametrize(("pays", "bet", "paid"), [
    (Fraction(3, 2), 100, 250), (Fraction(3, 2), 5, Fraction(25, 2)),
    (Fraction(6, 5), 100, 220), (Fraction(6, 5), 5, 11), (Fraction(6, 5), 1, Fraction(11, 5)),
])  # fmt: skip
def test_blackjack_pays_exactly(pays, bet, paid):
    state = deal(["As Kh", "10c 8d"], "7h 10c", bets=[bet, 100],
                 rules=replace(THOTH, blackjack_pays=pays))  # fmt: skip
    state = play(state, "stand")
    assert results(state)[0] == (0, 0, "blackjack", paid)
    assert type(results(state)[0][3]) is type(paid)


def test_push_returns_the_bet():
    state = play(deal(["10c 8d"], "8h 10c"), "stand")
    assert results(state) == [(0, 0, "push", 100)]


# --- surrender ----------------------------------------------------------------------------


def test_late_surrender_returns_half():
    state = deal(["10c 6d"], "9h 10c", rules="sixdeck", bets=[101])
    state = play(state, "surrender")
    assert results(state) == [(0, 0, "surrender", Fraction(101, 2))]


@pytest.mark.parametrize("preset", ["thoth", "live", "free", "european"])
def test_no_surrender_in_presets_without_it(preset):
    state = deal(["10c 6d"], "9h 10c", rules=preset)
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.SURRENDER)
    assert exc.value.code == "surrender_not_allowed"


def test_sixdeck_no_surrender_against_an_ace_nor_after_a_move():
    state = play(deal(["10c 6d"], "Ah 7c", rules="sixdeck"), "decline")
    assert Move.SURRENDER not in legal_moves(state)
    state = play(deal(["2c 3d"], "9h 7c", "2h", rules="sixdeck"), "hit")
    assert Move.SURRENDER not in legal_moves(state)
    state = play(deal(["8c 8d"], "9h 7c", "2h 3h", rules="sixdeck"), "split")
    assert Move.SURRENDER not in legal_moves(state)


def test_surrender_against_an_unpeeked_ten_loses_all_to_a_blackjack():
    rules = replace(PRESETS["european"], surrender=Surrender.LATE)
    state = play(deal(["10c 6d"], "Kh Ac", rules=rules), "surrender")
    assert results(state) == [(0, 0, "lose", 0)]
    state = play(deal(["10c 6d"], "Kh 9c", rules=rules), "surrender")
    assert results(state) == [(0, 0, "surrender", 50)]


# --- refusals -----------------------------------------------------------------------------


def test_illegal_moves_leave_the_state_unchanged():
    state = deal(["10c 6d", "9s 9h"], "9h 10c", "2h")
    before = state
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.STAND, seat=1)
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalMove) as exc:
        apply(state, "fold")
    assert exc.value.code == "unknown_move"
    assert state == before and state.events == before.events


def test_no_move_after_the_round():
    state = play(deal(["10c 8d"], "8h 10c"), "stand")
    assert legal_moves(state) == frozenset()
    with pytest.raises(IllegalMove) as exc:
        apply(state, Move.HIT)
    assert exc.value.code == "round_over"
    assert isinstance(exc.value, ValueError)


def test_peek_rule_enum_covers_every_option():
    assert {p.value for p in Peek} == {"ace_and_ten", "ace_only", "none"}


def test_rule_options_given_as_plain_strings_mean_the_same_rules():
    # Rules(surrender="none") equals Rules() (a StrEnum equals its string) and must play the
    # same: the legality code compares enum members by identity.
    rules = Rules(surrender="none", pairs_by="rank", double_on="10-11", peek="ace_only")  # type: ignore[arg-type]
    assert rules == Rules(pairs_by=PairsBy.RANK, double_on=DoubleOn.TEN_TO_ELEVEN,
                          peek=Peek.ACE_ONLY)  # fmt: skip
    state = deal(["Kh 10c"], "6h 10d", rules=rules)
    assert legal_moves(state) == {Move.HIT, Move.STAND}
    with pytest.raises(ValueError):
        Rules(surrender="early")  # type: ignore[arg-type]
