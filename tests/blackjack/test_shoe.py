from collections import Counter
from random import Random

import pytest

from blackjack import (
    PRESETS,
    Phase,
    Rules,
    Shoe,
    ShoeExhausted,
    new_shoe,
    one_deck,
    parse_cards,
    prepare_shoe,
    shuffle_like_random,
    start_round,
)
from tests.blackjack.helpers import deal, play


@pytest.mark.parametrize("decks", [1, 2, 4, 6, 8])
def test_shuffled_shoe_holds_every_card_of_the_decks(decks):
    shoe = Shoe.shuffled(Rules(decks=decks), Random(decks))
    assert shoe.remaining == 52 * decks
    assert Counter(shoe.cards) == Counter(one_deck() * decks)


def test_seeded_shuffles_repeat_and_differ_by_seed():
    rules = PRESETS["thoth"]
    assert Shoe.shuffled(rules, Random(1)) == Shoe.shuffled(rules, Random(1))
    assert Shoe.shuffled(rules, Random(1)) != Shoe.shuffled(rules, Random(2))


def test_default_shuffle_uses_the_secure_source(monkeypatch):
    import secrets

    calls = []

    class Spy(secrets.SystemRandom):
        def shuffle(self, x):  # type: ignore[override]
            calls.append(len(x))
            super().shuffle(x)

    monkeypatch.setattr("blackjack.cards.secrets.SystemRandom", Spy)
    Shoe.shuffled(PRESETS["thoth"])
    assert calls == [312]


@pytest.mark.parametrize(
    ("rules", "remaining", "reshuffled"),
    [
        (Rules(), 78, False),
        (Rules(), 77, True),
        (Rules(decks=8), 104, False),
        (Rules(decks=8), 103, True),
        (Rules(reshuffle_below=100), 100, False),
        (Rules(reshuffle_below=100), 99, True),
    ],
)
def test_reshuffle_point(rules, remaining, reshuffled):
    shoe = Shoe.shuffled(rules, Random(0))
    shoe = Shoe(shoe.cards, len(shoe.cards) - remaining, rules.decks)
    new, fresh = prepare_shoe(shoe, rules, Random(1))
    assert fresh is reshuffled
    assert new.remaining == (rules.decks * 52 if reshuffled else remaining)


def test_prepare_shoe_without_a_shoe_and_after_a_deck_change():
    assert prepare_shoe(None, Rules(), Random(0))[1] is True
    six = Shoe.shuffled(Rules(), Random(0))
    new, fresh = prepare_shoe(six, Rules(decks=2), Random(0))
    assert fresh and new.remaining == 104


def test_a_fixed_order_that_runs_out_raises():
    state = deal(["10c 6d"], "9h 10c", "")
    with pytest.raises(ShoeExhausted):
        play(state, "hit")


def test_a_shuffled_shoe_running_out_mid_round_reshuffles_the_discards():
    rules = Rules(decks=1)
    full = Shoe.shuffled(rules, Random(5))
    shoe = Shoe(full.cards, 48, 1)  # four cards left: not even the deal fits
    state = start_round(rules=rules, bets={0: 10, 1: 10}, shoe=shoe)
    on_table = list(state.dealer) + [c for b in state.boxes for h in b.hands for c in h.cards]
    assert len(on_table) == 6
    assert any(e.kind.value == "reshuffle" for e in state.events)
    # Four cards came from the old shoe; the other 48 were shuffled and two dealt from them.
    assert state.shoe.remaining == 52 - len(on_table)
    rest = state.shoe.cards[state.shoe.position :]
    assert Counter(on_table) + Counter(rest) == Counter(one_deck())
    while state.phase is not Phase.SETTLED:
        state = play(state, "decline" if state.phase is Phase.INSURANCE else "stand")
    assert state.phase is Phase.SETTLED


def test_from_cards_deals_in_the_given_order():
    cards = parse_cards("As 2d 3h")
    shoe = Shoe.from_cards(cards)
    dealt = []
    while shoe.remaining:
        card, shoe = shoe.deal()
        dealt.append(card)
    assert dealt == cards
    with pytest.raises(ShoeExhausted):
        shoe.deal()


@pytest.mark.parametrize("seed", [0, 1, 2, 99, 2**40 + 3])
@pytest.mark.parametrize("size", [0, 1, 2, 3, 52, 104, 312, 416])
def test_fast_shuffle_draws_exactly_as_random_shuffle(seed, size):
    cards = (one_deck() * 8)[:size]
    fast, slow = list(cards), list(cards)
    fast_rng, slow_rng = Random(seed), Random(seed)
    shuffle_like_random(fast, fast_rng)
    slow_rng.shuffle(slow)
    assert fast == slow
    assert fast_rng.getstate() == slow_rng.getstate()  # the same draws, not only the same order


def test_new_shoe_of_a_seeded_random_is_its_shuffle():
    expected = one_deck() * 6
    Random(5).shuffle(expected)
    assert new_shoe(6, Random(5)) == expected
