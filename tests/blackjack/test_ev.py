"""EVs of single hands against published tables, and the legality of options."""

import pytest

from blackjack import (
    PRESETS,
    DoubleOn,
    Move,
    Peek,
    Rules,
    Surrender,
    analyze,
    full_composition,
    insurance_return,
    legal_moves_for_points,
    points_total,
    remove_cards,
)

THOTH = PRESETS["thoth"]
ONE_DECK = Rules(decks=1)
EURO_H17 = Rules(decks=6, dealer_hits_soft_17=True, peek=Peek.NONE)

# Wizard of Odds, appendix 9: (stand, hit, double) against an ace.
WIZARD_ONE_DECK_VS_ACE = {
    (1, 2): (-0.661732, -0.067808, -0.593281),
    (1, 3): (-0.661047, -0.100568, -0.595803),
    (2, 3): (-0.659375, -0.291565, -1.318751),
    (4, 6): (-0.636118, 0.081506, 0.048615),
    (5, 6): (-0.634013, 0.172946, 0.240259),
    (1, 7): (-0.101015, -0.108386, -0.357778),
}
WIZARD_SIX_DECK_H17_NO_HOLE_CARD_VS_ACE = {
    (1, 2): (-0.722356, -0.379910, -1.024099),
    (1, 3): (-0.722119, -0.403855, -1.023717),
    (2, 3): (-0.721887, -0.529734, -1.443774),
    (4, 6): (-0.720814, -0.286818, -0.639108),
    (5, 6): (-0.720879, -0.235772, -0.535879),
    (1, 7): (-0.466029, -0.421285, -0.909374),
}


@pytest.mark.parametrize(
    ("rules", "hand", "expected"),
    [(ONE_DECK, h, e) for h, e in WIZARD_ONE_DECK_VS_ACE.items()]
    + [(EURO_H17, h, e) for h, e in WIZARD_SIX_DECK_H17_NO_HOLE_CARD_VS_ACE.items()],
)
def test_per_hand_evs_match_wizard_of_odds(rules, hand, expected):
    a = analyze(rules, list(hand), 1)
    got = (a.ev[Move.STAND], a.ev[Move.HIT], a.ev[Move.DOUBLE])
    assert got == pytest.approx(expected, abs=5e-7)
    assert a.conditioned == (rules.peek != Peek.NONE)


def test_insurance_from_a_full_shoe_returns_minus_23_over_311():
    # Half a unit of insurance with only the ace out: 96 tens among 311 cards.
    a = analyze(THOTH, [5, 7], 1)
    # The insurance bet is half a unit; the hand's two cards are out too.
    assert a.insurance == pytest.approx(0.5 * (3 * 96 / 309 - 1), abs=1e-15)
    only_the_ace_out = remove_cards(full_composition(6), [1])
    assert insurance_return(only_the_ace_out) == pytest.approx(-23 / 311, abs=1e-15)


def test_even_money_is_what_declining_gives_up():
    a = analyze(THOTH, [1, 10], 1)
    p = 95 / 309  # tens left for the hole card
    assert a.ev == {Move.STAND: 1.5}
    assert a.insurance == pytest.approx(1 - 1.5 * (1 - p), abs=1e-15)


@pytest.mark.parametrize("rules", [PRESETS["free"], PRESETS["european"]])
def test_no_insurance_where_not_offered(rules):
    assert analyze(rules, [5, 7], 1).insurance is None


def test_no_insurance_against_a_ten():
    assert analyze(THOTH, [5, 7], 10).insurance is None


def test_player_blackjack_without_peek_pushes_dealer_blackjack():
    a = analyze(PRESETS["european"], [1, 10], 1)
    assert a.ev[Move.STAND] == pytest.approx(1.5 * (1 - 95 / 309), abs=1e-15)


@pytest.mark.parametrize(
    ("hand", "up", "best"),
    [
        ([10, 6], 10, Move.HIT),
        ([7, 5], 4, Move.STAND),
        ([10, 2], 4, Move.HIT),  # the well-known composition-dependent exception
        ([5, 6], 6, Move.DOUBLE),
        ([8, 8], 10, Move.SPLIT),
        ([1, 1], 6, Move.SPLIT),
        ([10, 10], 6, Move.STAND),
        ([1, 7], 9, Move.HIT),
        ([9, 9], 7, Move.STAND),
    ],
)
def test_best_moves_of_familiar_hands(hand, up, best):
    assert analyze(THOTH, hand, up).best == best


def test_late_surrender_is_half_the_bet_after_the_peek():
    a = analyze(Rules(surrender=Surrender.LATE), [10, 6], 10)
    assert a.ev[Move.SURRENDER] == pytest.approx(-0.5, abs=1e-15)
    assert a.best == Move.SURRENDER


def test_surrender_without_a_peek_loses_all_to_a_blackjack():
    rules = PRESETS["sixdeck"]  # peeks under an ace only
    a = analyze(rules, [10, 6], 10)
    p = 24 / 309  # the hole card an ace
    assert not a.conditioned
    assert a.ev[Move.SURRENDER] == pytest.approx(-0.5 * (1 - p) - p, abs=1e-15)


def test_removed_cards_change_the_shoe():
    plain = analyze(THOTH, [10, 6], 10)
    rich = analyze(THOTH, [10, 6], 10, removed=[10] * 20)
    assert rich.ev[Move.HIT] > plain.ev[Move.HIT]


def test_more_split_hands_allowed_is_worth_more():
    two = analyze(Rules(max_hands=2), [8, 8], 6).ev[Move.SPLIT]
    four = analyze(THOTH, [8, 8], 6).ev[Move.SPLIT]
    assert four > two


def test_split_ace_hands_only_stand():
    a = analyze(THOTH, [1, 9], 6, split_hands=2, from_split=True)
    assert set(a.ev) == {Move.STAND}


def test_a_split_ten_and_ace_is_21_not_blackjack():
    a = analyze(THOTH, [10, 1], 6, split_hands=2, from_split=True)
    assert 0 < a.ev[Move.STAND] < 1


@pytest.mark.parametrize(
    ("rules", "cards", "kw", "expected"),
    [
        (THOTH, [8, 8], {}, {"hit", "stand", "double", "split"}),
        (THOTH, [8, 8], {"split_hands": 4, "from_split": True}, {"hit", "stand", "double"}),
        (Rules(double_after_split=False), [8, 3], {"split_hands": 2, "from_split": True},
         {"hit", "stand"}),
        (THOTH, [1, 1], {"split_hands": 2, "from_split": True}, {"stand"}),
        (Rules(resplit_aces=True), [1, 1], {"split_hands": 2, "from_split": True},
         {"stand", "split"}),
        (Rules(hit_split_aces=True), [1, 5], {"split_hands": 2, "from_split": True},
         {"stand", "hit", "double"}),
        (THOTH, [5, 6, 2], {}, {"hit", "stand"}),
        (THOTH, [10, 5, 6], {}, {"stand"}),
        (THOTH, [10, 5, 9], {}, set()),
        (THOTH, [1, 10], {}, {"stand"}),
        (Rules(double_on=DoubleOn.NINE_TO_ELEVEN), [4, 4], {}, {"hit", "stand", "split"}),
        (Rules(double_on=DoubleOn.TEN_TO_ELEVEN), [4, 5], {}, {"hit", "stand"}),
        (Rules(double_soft=False), [1, 6], {}, {"hit", "stand"}),
        (Rules(surrender=Surrender.LATE), [10, 6], {}, {"hit", "stand", "double",
                                                          "surrender"}),
        (PRESETS["sixdeck"], [10, 6], {"up": 1}, {"hit", "stand", "double"}),
        (THOTH, [10, 10], {"split_hands": 4}, {"hit", "stand", "double"}),
    ],
)  # fmt: skip
def test_legal_moves(rules, cards, kw, expected):
    kw = dict(kw)
    up = kw.pop("up", 7)
    assert {str(m) for m in legal_moves_for_points(rules, cards, up, **kw)} == expected


@pytest.mark.parametrize(
    ("cards", "expected"), [([1, 1], (12, True)), ([1, 10], (21, True)), ([1, 5, 10], (16, False))]
)
def test_hand_total(cards, expected):
    assert points_total(cards) == expected


def test_bust_hand_is_refused():
    with pytest.raises(ValueError):
        analyze(THOTH, [10, 9, 5], 6)
