"""Count systems, the running and true count, and index plays against published Hi-Lo indices."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack import PRESETS, Move, Surrender, basic_chart, full_composition, new_shoe
from blackjack.counting import (
    COUNTS,
    HI_LO,
    HI_OPT_I,
    KO,
    SYSTEMS,
    ZEN,
    IndexTable,
    compute_indices,
    count_of,
    count_shoe,
    decks_remaining,
    exact_true_count,
    running_count,
    system_from_key,
    true_count,
    typical_cards_left,
)

THOTH = PRESETS["thoth"]
LATE = replace(THOTH, surrender=Surrender.LATE)  # the Fab 4's game: 6 decks S17 DAS, late

# The published Hi-Lo indices for 6 decks S17 DAS (the Illustrious 18 and the Fab 4, from
# Schlesinger's Blackjack Attack): (kind, row, up) -> (index, the move at high counts).
ILLUSTRIOUS_18 = {
    ("insurance", 0, 1): (3, Move.INSURE),
    ("hard", 16, 10): (0, Move.STAND),
    ("hard", 15, 10): (4, Move.STAND),
    ("pair", 10, 5): (5, Move.SPLIT),
    ("pair", 10, 6): (4, Move.SPLIT),
    ("hard", 10, 10): (4, Move.DOUBLE),
    ("hard", 12, 3): (2, Move.STAND),
    ("hard", 12, 2): (3, Move.STAND),
    ("hard", 11, 1): (1, Move.DOUBLE),
    ("hard", 9, 2): (1, Move.DOUBLE),
    ("hard", 10, 1): (4, Move.DOUBLE),
    ("hard", 9, 7): (3, Move.DOUBLE),
    ("hard", 16, 9): (5, Move.STAND),
    ("hard", 13, 2): (-1, Move.STAND),
    ("hard", 12, 4): (0, Move.STAND),
    ("hard", 12, 5): (-2, Move.STAND),
    ("hard", 12, 6): (-1, Move.STAND),
    ("hard", 13, 3): (-2, Move.STAND),
}
FAB_4 = {
    ("hard", 14, 10): (3, Move.SURRENDER),
    ("hard", 15, 10): (0, Move.SURRENDER),
    ("hard", 15, 9): (2, Move.SURRENDER),
    ("hard", 15, 1): (1, Move.SURRENDER),
}


# --- the count systems ---------------------------------------------------------------------


def test_published_tags():
    assert HI_LO.tags == (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
    assert KO.tags == (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1)
    assert HI_OPT_I.tags == (0, 0, 1, 1, 1, 1, 0, 0, 0, -1)
    assert ZEN.tags == (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2)
    assert [s.balanced for s in (HI_LO, KO, HI_OPT_I, ZEN)] == [True, False, True, True]
    assert (HI_LO.level, ZEN.level) == (1, 2)


def test_unknown_system_refused():
    with pytest.raises(ValueError, match="unknown count system 'wong'"):
        system_from_key("wong")


@settings(max_examples=40, deadline=None)
@given(decks=st.sampled_from([1, 2, 4, 6, 8]), seed=st.integers(0, 2**32 - 1))
def test_whole_shoe_counts_to_its_imbalance(decks, seed):
    import random

    shoe = new_shoe(decks, random.Random(seed))
    for system in SYSTEMS.values():
        assert running_count(system, shoe) == system.per_deck * decks
    assert running_count(KO, shoe) == 4 * decks
    assert running_count(HI_LO, shoe) == 0


@settings(max_examples=60, deadline=None)
@given(
    decks=st.sampled_from([1, 2, 6, 8]),
    seed=st.integers(0, 2**32 - 1),
    cut=st.floats(0.0, 1.0),
)
def test_seen_and_unseen_counts_add_up(decks, seed, cut):
    """The count of the cards seen and the count of the rest sum to the shoe's imbalance, and
    a running count may be kept in pieces."""
    import random

    shoe = new_shoe(decks, random.Random(seed))
    k = int(cut * len(shoe))
    for system in SYSTEMS.values():
        seen, rest = running_count(system, shoe[:k]), running_count(system, shoe[k:])
        assert seen + rest == system.per_deck * decks
        assert running_count(system, shoe[k:], start=seen) == system.per_deck * decks


@given(left=st.integers(0, 416))
def test_decks_remaining_is_the_nearest_half_deck(left):
    decks = decks_remaining(left)
    assert decks.denominator in (1, 2) and decks >= Fraction(1, 2)
    if left >= 13:
        assert abs(decks - Fraction(left, 52)) <= Fraction(1, 4)


@given(running=st.integers(-60, 60), left=st.integers(1, 312))
def test_true_count_is_floored(running, left):
    tc = true_count(HI_LO, running=running, cards_left=left, decks=6)
    exact = Fraction(running) / decks_remaining(left)
    assert tc <= exact < tc + 1


def test_true_count_examples():
    assert true_count(HI_LO, running=-1, cards_left=156, decks=6) == -1  # −⅓ floors to −1
    assert true_count(HI_LO, running=11, cards_left=156, decks=6) == 3
    assert true_count(KO, running=4 * 3 + 6, cards_left=156, decks=6) == 2  # 3 decks seen
    with pytest.raises(ValueError, match="cards left"):
        true_count(HI_LO, running=0, cards_left=313, decks=6)


@pytest.mark.parametrize("system", list(SYSTEMS.values()), ids=list(SYSTEMS))
@pytest.mark.parametrize("decks", [2, 4, 6, 8])
def test_count_shoes_have_their_count(system, decks):
    """Each shoe of the search holds the cards left and lies within two cards' worth of its
    true count (rounding to whole cards), and the counts grow with ``t``."""
    rules = replace(THOTH, decks=decks)
    left = typical_cards_left(rules)
    exact = []
    for t in COUNTS:
        shoe = count_shoe(system, decks, left, t)
        assert sum(shoe) == left
        assert all(0 <= n <= f for n, f in zip(shoe, full_composition(decks), strict=True))
        exact.append(exact_true_count(system, shoe, decks))
        assert abs(exact[-1] - t) <= 2 * system.level * 52 / left + 1e-9
    assert exact == sorted(exact)


def test_count_of_a_neutral_shoe():
    assert count_of(HI_LO, count_shoe(HI_LO, 6, 208, 0)) == 0
    assert count_of(HI_LO, count_shoe(HI_LO, 6, 208, 5)) == -20  # 20 seen over 4 decks


# --- index plays ---------------------------------------------------------------------------


def _chart_basic(rules):
    chart = basic_chart(rules)
    return lambda kind, row, up: chart.cell(kind, row, up).move


def _found(table, kind, row, up, move):
    plays = [p for p in table.find(kind, row, up) if p.move == move or p.basic == move]
    assert plays, f"no index play for {kind} {row} v {up}"
    play = plays[0]
    high = play.move if play.above else play.basic  # the move played at TC ≥ index
    return play, high


def test_tens_and_insurance_indices_fast():
    """The up cards ten and ace only (a few seconds): 16 v 10, 15 v 10, 10 v 10, 11 v A,
    10 v A and insurance within 1 of the published figures."""
    table = compute_indices(THOTH, HI_LO, ups=(10, 1))
    for key, (index, move) in ILLUSTRIOUS_18.items():
        if key[2] not in (10, 1):
            continue
        play, high = _found(table, *key, move)
        assert abs(play.index - index) <= 1, (key, play)
        assert high == move, (key, play)
    assert IndexTable.from_dict(table.to_dict()) == table


@pytest.mark.slow
def test_illustrious_18():
    """Every one of the Illustrious 18, 6 decks S17 DAS, within 1 of the published index."""
    table = compute_indices(THOTH, HI_LO, basic=_chart_basic(THOTH))
    for key, (index, move) in ILLUSTRIOUS_18.items():
        play, high = _found(table, *key, move)
        assert abs(play.index - index) <= 1, (key, play)
        assert high == move, (key, play)
        assert play.gain > 0, (key, play)


@pytest.mark.slow
def test_fab_4():
    """The Fab 4 surrenders, the same game with late surrender, within 1."""
    table = compute_indices(LATE, HI_LO, basic=_chart_basic(LATE), ups=(9, 10, 1))
    for key, (index, move) in FAB_4.items():
        play, high = _found(table, *key, move)
        assert abs(play.index - index) <= 1, (key, play)
        assert high == move, (key, play)
