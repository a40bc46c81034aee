"""The EV engine against a brute-force enumeration of a single deck with few cards left.

The enumeration is written independently of the engine: it deals the hole card first, keeps
the player's posterior over it as cards are drawn, and plays split hands card by card in the
real order.  Agreement to 1e-12 checks the mass formulation and the claim that splits without
resplitting are exact for hands played best for their own cards.
"""

import functools
from collections.abc import Callable

import pytest

from blackjack import Move, Peek, Rules, analyze, full_composition

Counts = tuple[int, ...]


def total_of(cards: list[int]) -> int:
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard <= 11 else hard


def dealer_finals(up: int, hole: int, shoe: Counts, h17: bool) -> dict[int, float]:
    """Final dealer totals (22 = bust, 0 = blackjack) after the hole card, card by card."""
    out: dict[int, float] = {}

    def walk(cards: list[int], counts: list[int], p: float) -> None:
        hard = sum(cards)
        soft = 1 in cards and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if len(cards) == 2 and total == 21:
            out[0] = out.get(0, 0.0) + p
        elif total > 21:
            out[22] = out.get(22, 0.0) + p
        elif total > 17 or (total == 17 and not (h17 and soft)):
            out[total] = out.get(total, 0.0) + p
        else:
            n = sum(counts)
            for i, c in enumerate(counts):
                if c > 0:
                    counts[i] -= 1
                    walk([*cards, i + 1], counts, p * c / n)
                    counts[i] += 1

    walk([up, hole], list(shoe), 1.0)
    return out


def settle(total: int, dealer: int) -> int:
    """+1 / 0 / -1 for a non-blackjack player total against a final dealer result."""
    if total > 21 or dealer == 0:
        return -1
    if dealer == 22 or total > dealer:
        return 1
    return 0 if total == dealer else -1


def take(counts: Counts, card: int) -> Counts:
    return tuple(c - (i == card - 1) for i, c in enumerate(counts))


def hole_prior(rules: Rules, up: int, shoe: Counts) -> dict[int, float]:
    """The hole card's distribution given the visible cards, after the peek if there is one."""
    bj = 10 if up == 1 else 1 if up == 10 else 0
    w = {h: float(c) for h, c in zip(range(1, 11), shoe, strict=True) if c}
    if rules.peeks_under(up):
        w.pop(bj, None)
    s = sum(w.values())
    return {h: x / s for h, x in w.items()}


def single_hand(
    rules: Rules, up: int, cards: list[int], shoe: Counts, *, allow_double: bool
) -> dict[Move, float]:
    """Stand / hit / double EVs of a hand whose cards are out of ``shoe``; the hole card is
    among ``shoe`` and hidden, its posterior updated with every card the player draws."""
    h17 = rules.dealer_hits_soft_17

    def stand(cards: list[int], shoe: Counts, w: dict[int, float]) -> float:
        t = total_of(cards)
        ev = 0.0
        for h, ph in w.items():
            if ph == 0:
                continue  # the player holds every card of that rank
            for d, pd in dealer_finals(up, h, take(shoe, h), h17).items():
                ev += ph * pd * settle(t, d)
        return ev

    def draws(shoe: Counts, w: dict[int, float]):
        n = sum(shoe) - 1  # one card of the shoe is the hole card
        for j in range(1, 11):
            pj = {h: ph * (shoe[j - 1] - (h == j)) / n for h, ph in w.items()}
            p = sum(pj.values())
            if p > 0:
                yield j, p, {h: x / p for h, x in pj.items()}

    def best(cards: list[int], shoe: Counts, w: dict[int, float]) -> float:
        t = total_of(cards)
        if t > 21:
            return -1.0
        s = stand(cards, shoe, w)
        if t == 21:
            return s
        return max(s, hit(cards, shoe, w))

    def hit(cards: list[int], shoe: Counts, w: dict[int, float]) -> float:
        return sum(p * best([*cards, j], take(shoe, j), w2) for j, p, w2 in draws(shoe, w))

    def double(cards: list[int], shoe: Counts, w: dict[int, float]) -> float:
        ev = 0.0
        for j, p, w2 in draws(shoe, w):
            after = [*cards, j]
            ev += p * (-1.0 if total_of(after) > 21 else stand(after, take(shoe, j), w2))
        return 2 * ev

    w = hole_prior(rules, up, shoe)
    out = {Move.STAND: stand(cards, shoe, w)}
    if total_of(cards) < 21:
        out[Move.HIT] = hit(cards, shoe, w)
        if allow_double:
            out[Move.DOUBLE] = double(cards, shoe, w)
    return out


def removed_for(rules: Rules, up: int, hand: list[int], shoe: Counts) -> list[int]:
    """The cards to pass as ``removed`` so that the engine's decision shoe is ``shoe``."""
    full = list(full_composition(rules.decks))
    for c in [up, *hand]:
        full[c - 1] -= 1
    out = []
    for i, (have, want) in enumerate(zip(full, shoe, strict=True)):
        assert have >= want
        out += [i + 1] * (have - want)
    return out


SHOES = [
    (1, 1, 1, 0, 1, 1, 1, 2, 2, 4),
    (2, 1, 1, 1, 1, 0, 1, 1, 1, 4),
]
RULE_SETS = [
    Rules(decks=1),
    Rules(decks=1, dealer_hits_soft_17=True, peek=Peek.NONE),
    Rules(decks=1, peek=Peek.ACE_ONLY),
]


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize(("hand", "up"), [([10, 6], 10), ([3, 5], 1), ([1, 6], 7), ([2, 9], 6)])
def test_stand_hit_double_agree_with_enumeration(rules, shoe, hand, up):
    expected = single_hand(rules, up, hand, shoe, allow_double=True)
    got = analyze(rules, hand, up, removed=removed_for(rules, up, hand, shoe)).ev
    for move, value in expected.items():
        assert got[move] == pytest.approx(value, abs=1e-12)


def play_split_hand(rules: Rules, up: int, pair: int, shoe: Counts, vis: Counts,
                    strategy: Callable[[tuple[int, ...], Counts], Move]):  # fmt: skip
    """Every way one split hand can end: (probability, cards, bet, shoe left).  ``shoe`` is
    what is really left (the hole card out); ``vis`` what the hand's player believes is left."""
    out = []

    def go(cards: list[int], shoe: Counts, vis: Counts, p: float, bet: int) -> None:
        if len(cards) > 1:
            if total_of(cards) >= 21 or (cards[0] == 1 and not rules.hit_split_aces):
                out.append((p, cards, bet, shoe))
                return
            move = strategy(tuple(cards), vis)
            if move == Move.STAND:
                out.append((p, cards, bet, shoe))
                return
            if move == Move.DOUBLE:
                bet = 2
        n = sum(shoe)
        for i, c in enumerate(shoe):
            if c:
                nxt = [*cards, i + 1]
                if bet == 2 and len(nxt) == 3:
                    out.append((p * c / n, nxt, 2, take(shoe, i + 1)))
                else:
                    go(nxt, take(shoe, i + 1), take(vis, i + 1), p * c / n, bet)

    go([pair], shoe, vis, 1.0, 1)
    return out


@pytest.mark.parametrize(
    "rules",
    [
        Rules(decks=1, max_hands=2),
        Rules(decks=1, max_hands=2, peek=Peek.NONE, double_after_split=False),
    ],
)
@pytest.mark.parametrize(("pair", "up"), [(8, 10), (1, 6), (2, 1)])
def test_split_without_resplit_agrees_with_enumeration(rules, pair, up):
    shoe = (1, 1, 1, 0, 1, 1, 0, 1, 1, 4)
    hand = [pair, pair]

    @functools.cache
    def strategy(cards: tuple[int, ...], vis: Counts) -> Move:
        das = len(cards) == 2 and rules.double_after_split
        values = single_hand(rules, up, list(cards), vis, allow_double=das)
        return max(values, key=values.__getitem__)

    ev = 0.0
    for hole, ph in hole_prior(rules, up, shoe).items():
        real = take(shoe, hole)
        for p1, c1, b1, s1 in play_split_hand(rules, up, pair, real, shoe, strategy):
            # The second hand knows the pair cards, not the first hand's draws.
            for p2, c2, b2, s2 in play_split_hand(rules, up, pair, s1, shoe, strategy):
                for d, pd in dealer_finals(up, hole, s2, rules.dealer_hits_soft_17).items():
                    ev += ph * p1 * p2 * pd * (b1 * settle(total_of(c1), d)
                                               + b2 * settle(total_of(c2), d))  # fmt: skip
    got = analyze(rules, hand, up, removed=removed_for(rules, up, hand, shoe)).ev[Move.SPLIT]
    assert got == pytest.approx(ev, abs=1e-12)
