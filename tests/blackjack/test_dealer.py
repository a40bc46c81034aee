"""Dealer outcome probabilities against published tables and a direct recursion."""

from fractions import Fraction

import pytest

from blackjack import (
    OUTCOMES,
    Composition,
    Rules,
    dealer_probabilities,
    full_composition,
    remove_cards,
)

THOTH = Rules()
ONE_DECK = Rules(decks=1)
ONE_DECK_H17 = Rules(decks=1, dealer_hits_soft_17=True)


def shoe(rules: Rules, *seen: int) -> Composition:
    return remove_cards(full_composition(rules.decks), list(seen))


@pytest.mark.parametrize(
    ("up", "no_blackjack", "outcome", "expected"),
    [
        (6, True, "bust", 0.4228),
        (10, False, "bust", 0.2125),
        (10, True, "bust", 0.2302),
    ],
)
def test_thoth_published_bust_rates(up, no_blackjack, outcome, expected):
    out = dealer_probabilities(THOTH, up, shoe(THOTH, up), no_blackjack=no_blackjack)
    assert out.to_dict()[outcome] == pytest.approx(expected, abs=5e-5)


def test_one_deck_ace_up_before_peek_matches_wizard_appendix_2b():
    out = dealer_probabilities(ONE_DECK, 1, shoe(ONE_DECK, 1), no_blackjack=False)
    expected = (0.126128, 0.131003, 0.129486, 0.131553, 0.0515646, 0.11654, 0.313726)
    # The page prints 16/51 = 0.3137254… as 0.313726, so allow a little over half a unit.
    assert out.probabilities == pytest.approx(expected, abs=6e-7)
    assert out.blackjack == 16 / 51


def test_one_deck_ten_up_after_peek_matches_wizard_appendix_2():
    out = dealer_probabilities(ONE_DECK, 10, shoe(ONE_DECK, 10), no_blackjack=True)
    expected = (0.124156, 0.122486, 0.124421, 0.356869, 0.03957, 0.232499, 0.0)
    assert out.probabilities == pytest.approx(expected, abs=5e-7)


@pytest.mark.parametrize(
    ("rules", "up", "outcome", "expected"),
    [
        (ONE_DECK_H17, 1, "bust", 0.2046),
        (ONE_DECK_H17, 1, "17", 0.0818),
        (ONE_DECK_H17, 6, "bust", 0.4378),
        (ONE_DECK, 1, "bust", 0.1698),
    ],
)
def test_one_deck_after_peek_matches_blackjackinfo(rules, up, outcome, expected):
    out = dealer_probabilities(rules, up, shoe(rules, up), no_blackjack=True)
    assert out.to_dict()[outcome] == pytest.approx(expected, abs=5e-5)


def brute(up: int, comp: tuple[int, ...], h17: bool) -> dict[str, Fraction]:
    """Card-by-card recursion in exact fractions, independent of the multiset tables."""
    result = dict.fromkeys(OUTCOMES, Fraction(0))

    def walk(counts: list[int], cards: list[int], p: Fraction) -> None:
        hard = up + sum(cards)
        soft = (up == 1 or 1 in cards) and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            result["bust"] += p
            return
        if len(cards) == 1 and total == 21:
            result["blackjack"] += p
            return
        if total > 17 or (total == 17 and not (h17 and soft)):
            result[str(total)] += p
            return
        n = sum(counts)
        for i, c in enumerate(counts):
            if c:
                counts[i] -= 1
                walk(counts, [*cards, i + 1], p * Fraction(c, n))
                counts[i] += 1

    walk(list(comp), [], Fraction(1))
    return result


SMALL_SHOES = [
    (1, 1, 1, 1, 1, 1, 1, 2, 2, 5),
    (2, 0, 1, 3, 0, 2, 1, 1, 0, 4),
    (0, 2, 2, 2, 2, 0, 0, 1, 1, 3),
]


@pytest.mark.parametrize("comp", SMALL_SHOES)
@pytest.mark.parametrize("up", range(1, 11))
@pytest.mark.parametrize("h17", [False, True])
def test_agrees_with_exact_recursion(comp, up, h17):
    rules = Rules(decks=1, dealer_hits_soft_17=h17)
    exact = brute(up, comp, h17)
    out = dealer_probabilities(rules, up, comp, no_blackjack=False).to_dict()
    for name in OUTCOMES:
        assert out[name] == pytest.approx(float(exact[name]), abs=1e-12)


@pytest.mark.parametrize("up", [1, 10])
def test_no_blackjack_conditions_on_the_hole_card(up):
    comp = SMALL_SHOES[0]
    exact = brute(up, comp, False)
    rest = 1 - exact["blackjack"]
    out = dealer_probabilities(ONE_DECK, up, comp, no_blackjack=True).to_dict()
    assert out["blackjack"] == 0.0
    for name in OUTCOMES[:-1]:
        assert out[name] == pytest.approx(float(exact[name] / rest), abs=1e-12)


@pytest.mark.parametrize("up", range(1, 11))
@pytest.mark.parametrize("rules", [THOTH, Rules(decks=8, dealer_hits_soft_17=True)])
def test_sums_to_one(rules, up):
    out = dealer_probabilities(rules, up, shoe(rules, up, 5, 9), no_blackjack=False)
    assert sum(out.probabilities) == pytest.approx(1.0, abs=1e-13)
    assert (out.blackjack > 0) == (up in (1, 10))


def test_h17_changes_only_soft_17_outcomes():
    s17 = dealer_probabilities(THOTH, 6, shoe(THOTH, 6), no_blackjack=False)
    h17 = dealer_probabilities(Rules(dealer_hits_soft_17=True), 6, shoe(THOTH, 6),
                               no_blackjack=False)  # fmt: skip
    assert h17.p17 < s17.p17
    assert h17.bust > s17.bust


@pytest.mark.parametrize(("up", "comp"), [(0, (1,) * 10), (11, (1,) * 10), (5, (0,) * 10)])
def test_refuses_bad_input(up, comp):
    with pytest.raises(ValueError):
        dealer_probabilities(THOTH, up, comp, no_blackjack=False)


def walk_sequences(up: int, h17: bool) -> dict[tuple[int, ...], list[int]]:
    """Every legal dealer sequence walked one by one (the tables' old enumeration): its final
    multiset -> [outcome index, number of sequences]."""
    found: dict[tuple[int, ...], list[int]] = {}

    def walk(counts: list[int], hard: int, ace: bool, drawn: int) -> None:
        total = hard + 10 if ace and hard <= 11 else hard
        outcome = None
        if total > 21:
            outcome = OUTCOMES.index("bust")
        elif drawn == 1 and total == 21:
            outcome = OUTCOMES.index("blackjack")
        elif total > 17 or (total == 17 and not (h17 and total != hard)):
            outcome = total - 17
        if outcome is not None:
            found.setdefault(tuple(counts), [outcome, 0])[1] += 1
            return
        for card in range(1, 11):
            counts[card - 1] += 1
            walk(counts, hard + card, ace or card == 1, drawn + 1)
            counts[card - 1] -= 1

    walk([0] * 10, up, up == 1, 0)
    return found


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("up", [1, 2, 6, 10])
def test_the_final_multisets_count_every_legal_sequence(up, h17):
    from blackjack.maths.dealer import final_multisets

    assert final_multisets(up, h17) == walk_sequences(up, h17)
