"""The split model of :mod:`blackjack.maths.splits`: resplit decisions and the card removal after
resplits, against bounds and against independent enumerations."""

from __future__ import annotations

import functools
import itertools
from dataclasses import replace

import pytest

from blackjack import analyze, decision_shoe, engine_for
from blackjack.cards import Composition
from blackjack.moves import Move
from blackjack.rules import PRESETS, Peek, Rules
from tests.blackjack.test_ev_brute import removed_for


def split_values(rules: Rules, pair: int, up: int) -> tuple[float, float, float]:
    """(decided, forced, no resplit) split EVs of pair,pair against ``up``, in mass units."""
    comp = decision_shoe(rules, [pair, pair], up)
    eng = engine_for(rules, up)
    decided = eng.split(comp, pair, 2)
    forced = eng.split(comp, pair, 2, forced=True)
    no_resplit = engine_for(replace(rules, max_hands=2), up).split(comp, pair, 2)
    return decided, forced, no_resplit


@pytest.mark.parametrize(
    "name",
    [n if n == "thoth" else pytest.param(n, marks=pytest.mark.slow) for n in sorted(PRESETS)],
)
def test_decided_resplits_are_never_below_no_resplit_nor_forced(name):
    rules = PRESETS[name]
    for up, pair in itertools.product(range(1, 11), range(1, 11)):
        decided, forced, no_resplit = split_values(rules, pair, up)
        assert decided >= no_resplit - 1e-12, (pair, up)
        assert forced <= decided + 1e-12, (pair, up)


def test_tens_against_five_play_on_and_forced_matches_the_simulation():
    """Issue 11: forced resplitting of 10,10 vs 5 simulated at 0.37200 ± 0.00045."""
    rules = PRESETS["thoth"]
    a = analyze(rules, [10, 10], 5)
    _decided, forced, no_resplit = split_values(rules, 10, 5)
    assert a.ev[Move.SPLIT] == pytest.approx(no_resplit, abs=1e-12)  # never resplit a ten
    assert abs(forced - 0.37200) < 3 * 0.00045
    assert forced == pytest.approx(0.3717138934795, abs=1e-11)  # the enumeration below


def total_of(cards: tuple[int, ...]) -> int:
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard <= 11 else hard


def stand_only_split(rules: Rules, pair: int, up: int, comp: Composition, policy) -> float:
    """Mass EV of a split whose hands all stand on two cards, enumerating every order of
    second cards and valuing the hands against the dealer on the shoe that is really left.
    ``policy(n, pending, k, j)`` says whether to resplit a pair card (``k`` pair cards and
    ``j`` other cards already dealt as second cards)."""
    eng = engine_for(rules, up)

    @functools.cache
    def go(shoe: Composition, n: int, pending: int, k: int, j: int, totals: tuple[int, ...]):
        if pending == 0:
            return sum(eng.stand(shoe, t) for t in totals)
        size = sum(shoe)
        value = 0.0
        for i, count in enumerate(shoe):
            if not count:
                continue
            card = i + 1
            left = tuple(c - (r == i) for r, c in enumerate(shoe))
            may = card == pair and n < rules.max_hands and (pair != 1 or rules.resplit_aces)
            if may and policy(n, pending, k, j):
                value += count / size * go(left, n + 1, pending + 1, k + 1, j, totals)
            else:
                t = tuple(sorted((*totals, total_of((pair, card)))))
                kj = (k + 1, j) if card == pair else (k, j + 1)
                value += count / size * go(left, n, pending - 1, *kj, t)
        return value

    return go(comp, 2, 2, 0, 0, ())


def test_forced_tens_against_five_equal_the_enumeration_six_decks():
    rules = PRESETS["thoth"]
    comp = decision_shoe(rules, [10, 10], 5)
    exact = stand_only_split(rules, 10, 5, comp, lambda *s: True)
    assert engine_for(rules, 5).split(comp, 10, 2, forced=True) == pytest.approx(exact, abs=1e-12)


SMALL = (2, 1, 1, 1, 1, 0, 1, 1, 1, 4)  # the shoe of the decision, pair cards out


@pytest.mark.parametrize(
    "rules",
    [
        Rules(decks=1, resplit_aces=True),
        Rules(decks=1, resplit_aces=True, max_hands=3, peek=Peek.NONE),
        Rules(decks=1, resplit_aces=True, max_hands=3, dealer_hits_soft_17=True),
    ],
)
@pytest.mark.parametrize("up", [6, 10, 9])
def test_split_aces_equal_a_full_search_small_shoe(rules, up):
    """Split aces take one card each: the engine's values are exact there, forced and with
    the best resplit decisions, which the search finds by trying every policy that depends
    on what the model knows (hands in the box, hands waiting, pair and other cards out)."""
    hand = [1, 1]
    comp = decision_shoe(rules, hand, up, removed_for(rules, up, hand, SMALL))
    assert comp == SMALL
    eng = engine_for(rules, up)
    forced = stand_only_split(rules, 1, up, comp, lambda *s: True)
    assert eng.split(comp, 1, 2, forced=True) == pytest.approx(forced, abs=1e-12)
    # k + j = resplits + finished hands = (n - 2) + (n - pending); k counts the resplits too.
    states = [(n, p, k, 2 * n - 2 - p - k) for n in range(2, rules.max_hands)
              for p in range(1, n + 1) for k in range(n - 2, 2 * n - 1 - p)]  # fmt: skip
    best = max(
        stand_only_split(rules, 1, up, comp, lambda *s, c=choice: c[states.index(s)])
        for choice in itertools.product((False, True), repeat=len(states))
    )
    assert eng.split(comp, 1, 2) == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_rule_option_splits(name):
    """Rank and value pairs, resplit aces, hit split aces, 2-4 hands, DAS, peek, surrender:
    a split value exists, is finite and obeys the bounds."""
    base = PRESETS[name]
    for changes in (
        {"hit_split_aces": True},
        {"resplit_aces": not base.resplit_aces},
        {"max_hands": 3, "double_after_split": not base.double_after_split},
        {"decks": 1},
        {"decks": 2, "peek": Peek.NONE},
    ):
        rules = replace(base, **changes)
        for pair, up in ((1, 6), (8, 10), (2, 4), (10, 5)):
            decided, forced, no_resplit = split_values(rules, pair, up)
            assert decided >= no_resplit - 1e-12 and forced <= decided + 1e-12, (changes, pair)
