"""Exact expected values of every option of a player hand against an up card.

Everything works on compositions (see :mod:`blackjack.cards`) and point values (ace = 1).  The
shoe a decision is taken from is the full shoe of ``rules.decks`` less the up card, the hand and
every other card seen.

**Conditioning.**  When the dealer peeks under the up card, the player decides knowing the
dealer has no blackjack.  Rather than condition each distribution, the engine computes the
*mass* ``E[payoff · 1{no dealer blackjack}]``: since every unseen card is exchangeable, the hole
card can be treated as drawn after the player's cards, so the player's draws keep their plain
probabilities and only the dealer vector loses its blackjack entry.  Dividing by
``P(no blackjack)`` of the decision's shoe gives the conditioned EV; the best move is the same
under both, because one positive factor scales every option.  Where the dealer does not peek
(the no-hole-card game, or a ten up under ace-only peek) a dealer blackjack is an outcome like
the others: it beats every hand that is not a blackjack and takes doubles and splits.

**Play.**  Hitting, standing and doubling are played optimally for the exact cards
(composition-dependent), or by a chart when one is given (:mod:`blackjack.strategy`).

**Splits.**  Each split hand is played by the strategy that is best for its own cards, knowing
the pair cards removed but not the other hands' cards.  Without resplitting this is exact: by
exchangeability each hand's expectation is that of the first hand.  With resplits, the number of
hands follows the pair cards drawn as second cards; a hand that receives its second card after
``k`` resplits is valued on the shoe less ``k`` more pair cards, and the other hands' non-pair
cards are not removed.  This is the usual approximation of exact analyzers; it moves the house
edge by about 10⁻⁵ (see the tests against Wizard of Odds).  Under rank pairing a pair of
ten-value cards resplits on any ten-value card (the composition does not tell the ranks).

**Surrender** returns half the bet.  Where the dealer has not peeked under the up card, a dealer
blackjack found later takes the whole bet of a surrendered hand, as it takes doubles (our
reading of "late" surrender: it is decided after a peek when there is one).

>>> a = analyze(Rules(), [10, 6], 10)
>>> a.best, round(a.ev[Move.STAND], 4), round(a.ev[Move.HIT], 4)
(<Move.HIT: 'hit'>, -0.541, -0.5347)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from blackjack.cards import Composition, composition_of, full_composition, remove_cards
from blackjack.dealer import BLACKJACK, BUST, DealerCache, DealerOutcome, dealer_probabilities
from blackjack.moves import Move
from blackjack.rules import DoubleOn, Rules, Surrender

# Order used to break exact ties: the simpler move first.
MOVE_ORDER: tuple[Move, ...] = (Move.STAND, Move.HIT, Move.DOUBLE, Move.SPLIT, Move.SURRENDER)


def hand_total(cards: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand of point values and whether it is soft (an ace counting 11).

    >>> hand_total([1, 6]), hand_total([1, 6, 9]), hand_total([10, 10, 5])
    ((17, True), (16, False), (25, False))
    """
    hard = sum(cards)
    if 1 in cards and hard <= 11:
        return hard + 10, True
    return hard, False


def is_pair(rules: Rules, cards: Sequence[int]) -> bool:
    """Two cards of equal value.  Under rank pairing two ten-value points are taken as the same
    rank (the caller knows the ranks and passes ``pair=False`` to :func:`analyze` otherwise)."""
    return len(cards) == 2 and cards[0] == cards[1]


def is_blackjack(cards: Sequence[int], *, from_split: bool = False) -> bool:
    return not from_split and len(cards) == 2 and sorted(cards) == [1, 10]


def legal_moves(
    rules: Rules,
    cards: Sequence[int],
    up: int,
    *,
    split_hands: int = 1,
    from_split: bool = False,
    pair: bool | None = None,
) -> frozenset[Move]:
    """The play moves RULES.md allows on this hand (insurance is asked separately).

    ``split_hands`` is how many hands the box holds now; with ``from_split`` the hand came from
    a split and ``cards[0]`` is the card it was split from.  A hand of 21 or a blackjack is
    finished (stand only); split aces take one card unless the rules let them be hit.

    >>> sorted(str(m) for m in legal_moves(Rules(), [8, 8], 10))
    ['double', 'hit', 'split', 'stand']
    >>> sorted(str(m) for m in legal_moves(Rules(), [1, 5], 10, split_hands=2, from_split=True))
    ['stand']
    """
    total, soft = hand_total(cards)
    if total > 21:
        return frozenset()
    two = len(cards) == 2
    split_aces = from_split and cards[0] == 1
    moves = {Move.STAND}
    if total < 21 and not (split_aces and not rules.hit_split_aces):
        moves.add(Move.HIT)
        if two and _may_double(rules, total, soft, from_split=from_split):
            moves.add(Move.DOUBLE)
    if two and (is_pair(rules, cards) if pair is None else pair):
        may_resplit = not (cards[0] == 1 and from_split and not rules.resplit_aces)
        if split_hands < rules.max_hands and may_resplit and not is_blackjack(cards):
            moves.add(Move.SPLIT)
    if (
        two
        and not from_split
        and split_hands == 1
        and total < 21
        and rules.surrender == Surrender.LATE
        and (up != 1 or rules.surrender_vs_ace)
    ):
        moves.add(Move.SURRENDER)
    return frozenset(moves)


def _may_double(rules: Rules, total: int, soft: bool, *, from_split: bool) -> bool:
    if from_split and not rules.double_after_split:
        return False
    if soft and not rules.double_soft:
        return False
    if rules.double_on == DoubleOn.NINE_TO_ELEVEN:
        return 9 <= total <= 11
    if rules.double_on == DoubleOn.TEN_TO_ELEVEN:
        return 10 <= total <= 11
    return True


class HandChart(Protocol):
    """What the engine asks of a strategy chart when it plays one instead of the best move."""

    def move_for(self, hand: Sequence[int], up: int, legal: frozenset[Move]) -> Move: ...

    def move_for_total(self, total: int, soft: bool, up: int, legal: frozenset[Move]) -> Move: ...


@cache
def _multisets(limit: int) -> tuple[Composition, ...]:
    """Every multiset of cards (as counts) whose points add up to at most ``limit``."""
    out: list[Composition] = []

    def walk(counts: list[int], smallest: int, room: int) -> None:
        out.append(tuple(counts))
        for card in range(smallest, min(room, 10) + 1):
            counts[card - 1] += 1
            walk(counts, card, room - card)
            counts[card - 1] -= 1

    walk([0] * 10, 1, max(limit, 0))
    return tuple(out)


def _fits(x: Composition, comp: Composition) -> bool:
    return all(a <= b for a, b in zip(x, comp, strict=True))


def _minus(comp: Composition, x: Composition) -> Composition:
    return tuple(a - b for a, b in zip(comp, x, strict=True))


def _take(comp: Composition, card: int) -> Composition:
    i = card - 1
    return (*comp[:i], comp[i] - 1, *comp[i + 1 :])


class Engine:
    """Memoized EV computations for one rule set and one up card, in mass units (see the module
    docstring).  Memos are keyed by the composition, so analyses of different hands share work.
    With ``chart`` the hands are played by the chart instead of by the best move."""

    def __init__(self, rules: Rules, up: int, chart: HandChart | None = None) -> None:
        self.rules = rules
        self.up = up
        self.chart = chart
        self.h17 = rules.dealer_hits_soft_17
        self.peek = rules.peeks_under(up)
        self.bj_index = 9 if up == 1 else 0 if up == 10 else -1  # hole card giving blackjack
        self.dealer = dealer_cache(up, self.h17)
        self._prepared: set[tuple[Composition, int, bool, int]] = set()
        self.full_shoe_ready = False
        self._stand: dict[Composition, tuple[float, ...]] = {}
        self._play: dict[tuple[Composition, int, bool], float] = {}
        self._split_hand: dict[tuple[Composition, int, int], float] = {}

    # --- batching the dealer work ------------------------------------------------------

    def prepare(self, comp: Composition, cards: Sequence[int], split_hands: int = 1) -> None:
        """Compute at once the dealer vectors every option of this hand will ask for: the shoe
        less any cards the hand can still draw, and for a pair the split hands' shoes.  This
        only saves time; the results are the same without it."""
        key = (comp, sum(cards), len(cards) == 2 and cards[0] == cards[1], split_hands)
        if key in self._prepared:
            return
        self._prepared.add(key)
        need = [_minus(comp, x) for x in _multisets(21 - sum(cards)) if _fits(x, comp)]
        if len(cards) == 2 and cards[0] == cards[1]:
            need += self._split_shoes(comp, cards[0], self.rules.max_hands - split_hands)
        if any(c not in self.dealer.vectors for c in need):
            self.dealer.fill(c for c in need if sum(c) > 0)

    def prepare_full_shoe(self) -> None:
        """:meth:`prepare` for every two-card hand dealt from a full shoe against this up."""
        base = remove_cards(full_composition(self.rules.decks), [self.up])
        need = [_minus(base, x) for x in _multisets(21) if _fits(x, base)]
        for p in range(1, 11):
            pair = (p, p)
            if _fits(composition_of(pair), base):
                comp = _minus(base, composition_of(pair))
                need += self._split_shoes(comp, p, self.rules.max_hands - 1)
        self.dealer.fill(c for c in need if sum(c) > 0)
        self.full_shoe_ready = True

    def _split_shoes(self, comp: Composition, pair: int, splits: int) -> list[Composition]:
        out: list[Composition] = []
        extra = splits if pair != 1 or self.rules.resplit_aces else 1
        for k in range(max(extra, 0)):
            if comp[pair - 1] < k:
                break
            shoe = (*comp[: pair - 1], comp[pair - 1] - k, *comp[pair:])
            out += [_minus(shoe, x) for x in _multisets(21 - pair) if _fits(x, shoe)]
        return out

    # --- the dealer --------------------------------------------------------------------

    def p_blackjack(self, comp: Composition) -> float:
        """Unconditioned chance that the hole card completes a dealer blackjack."""
        return comp[self.bj_index] / sum(comp) if self.bj_index >= 0 else 0.0

    def mass(self, comp: Composition) -> float:
        """P(no dealer blackjack) under a peek, else 1: the mass of every payoff."""
        return 1.0 - self.p_blackjack(comp) if self.peek else 1.0

    def stand_row(self, comp: Composition) -> tuple[float, ...]:
        """Mass EV of standing on ≤16, 17, …, 21, then of a player blackjack."""
        row = self._stand.get(comp)
        if row is None:
            d = list(self.dealer.vector(comp))
            if self.peek:
                d[BLACKJACK] = 0.0
            bust, bj = d[BUST], d[BLACKJACK]
            mass = sum(d)
            out = [bust - (mass - bust)]
            below = 0.0
            for i in range(5):
                above = sum(d[i + 1 : 5]) + bj
                out.append(bust + below - above)
                below += d[i]
            out.append(float(self.rules.blackjack_pays) * (mass - bj))
            row = self._stand[comp] = tuple(out)
        return row

    def stand(self, comp: Composition, total: int) -> float:
        return self.stand_row(comp)[max(total - 16, 0)]

    # --- hit, stand, double ------------------------------------------------------------

    def play(self, comp: Composition, hard: int, ace: bool) -> float:
        """Mass EV of a hand that may hit or stand, played best (or by the chart)."""
        if hard > 21:
            return -self.mass(comp)
        key = (comp, hard, ace)
        value = self._play.get(key)
        if value is None:
            total = hard + 10 if ace and hard <= 11 else hard
            value = self.stand(comp, total)
            if total < 21 and sum(comp) > 0:
                if self.chart is None:
                    value = max(value, self.hit(comp, hard, ace))
                else:
                    soft = total != hard
                    move = self.chart.move_for_total(total, soft, self.up, _HIT_STAND)
                    if move == Move.HIT:
                        value = self.hit(comp, hard, ace)
            self._play[key] = value
        return value

    def _children(self, comp: Composition, limit: int) -> list[tuple[int, Composition]]:
        """(card, comp less that card) for the cards in the shoe up to ``limit`` points."""
        out = []
        for i in range(min(limit, 10)):
            if comp[i]:
                out.append((i + 1, (*comp[:i], comp[i] - 1, *comp[i + 1 :])))
        return out

    def hit(self, comp: Composition, hard: int, ace: bool) -> float:
        n = sum(comp)
        children = self._children(comp, 10)
        self.dealer.prefetch(comp, [c for c in children if hard + c[0] <= 21])
        total = 0.0
        for card, child in children:
            total += comp[card - 1] * self.play(child, hard + card, ace or card == 1)
        return total / n

    def double(self, comp: Composition, hard: int, ace: bool) -> float:
        n = sum(comp)
        children = self._children(comp, 10)
        self.dealer.prefetch(comp, [c for c in children if hard + c[0] <= 21])
        total = 0.0
        for card, after in children:
            count = comp[card - 1]
            h = hard + card
            if h > 21:
                total -= count * self.mass(after)
            else:
                t = h + 10 if (ace or card == 1) and h <= 11 else h
                total += count * self.stand(after, t)
        return 2.0 * total / n

    def surrender(self, comp: Composition) -> float:
        if self.peek:
            return -0.5 * self.mass(comp)
        pbj = self.p_blackjack(comp)
        return -0.5 * (1.0 - pbj) - pbj

    # --- two-card decisions and splits -------------------------------------------------

    def options(
        self,
        comp: Composition,
        cards: Sequence[int],
        legal: frozenset[Move],
        *,
        split_hands: int = 1,
        from_split: bool = False,
    ) -> dict[Move, float]:
        """Mass EV of each legal move of a hand whose cards are already out of ``comp``."""
        hard = sum(cards)
        ace = 1 in cards
        total = hard + 10 if ace and hard <= 11 else hard
        out: dict[Move, float] = {}
        for move in MOVE_ORDER:
            if move not in legal:
                continue
            if move == Move.STAND:
                bj = is_blackjack(cards, from_split=from_split) and split_hands == 1
                out[move] = self.stand_row(comp)[6] if bj else self.stand(comp, total)
            elif move == Move.HIT:
                out[move] = self.hit(comp, hard, ace)
            elif move == Move.DOUBLE:
                out[move] = self.double(comp, hard, ace)
            elif move == Move.SURRENDER:
                out[move] = self.surrender(comp)
            else:
                out[move] = self.split(comp, cards[0], split_hands + 1)
        return out

    def value(
        self,
        comp: Composition,
        cards: Sequence[int],
        legal: frozenset[Move],
        *,
        split_hands: int = 1,
        from_split: bool = False,
    ) -> float:
        """Mass EV of the move played: the best, or the chart's (computing only that one)."""
        if self.chart is not None:
            move = self.chart.move_for(cards, self.up, legal)
            legal = frozenset({move})
        values = self.options(comp, cards, legal, split_hands=split_hands, from_split=from_split)
        return max(values.values())

    def split_hand(self, comp: Composition, pair: int, second: int) -> float:
        """Mass EV of one split hand ``[pair, second]``, played best for its own cards; it is
        not split again here (resplits are counted in :meth:`split`)."""
        key = (comp, pair, second)
        value = self._split_hand.get(key)
        if value is None:
            cards = (pair, second)
            legal = legal_moves(
                self.rules, cards, self.up, split_hands=self.rules.max_hands, from_split=True
            )
            value = self.value(comp, cards, legal - {Move.SPLIT}, from_split=True)
            self._split_hand[key] = value
        return value

    def split(self, comp: Composition, pair: int, hands: int) -> float:
        """Mass EV of splitting a pair into ``hands`` hands (the box's count after the split),
        summed over every hand that results; ``comp`` excludes both pair cards."""
        rules = self.rules
        can_resplit = pair != 1 or rules.resplit_aces
        memo: dict[tuple[int, int, int], float] = {}

        def second_cards(k: int, with_pair: bool) -> float:
            shoe = (*comp[: pair - 1], comp[pair - 1] - k, *comp[pair:])
            n = sum(shoe)
            children = self._children(shoe, 10)
            self.dealer.prefetch(shoe, children)
            total = 0.0
            for card, child in children:
                if with_pair or card != pair:
                    total += shoe[card - 1] * self.split_hand(child, pair, card)
            return total / n

        def f(n: int, pending: int, k: int) -> float:
            if pending == 0:
                return 0.0
            key = (n, pending, k)
            if key in memo:
                return memo[key]
            if can_resplit and n < rules.max_hands:
                shoe_p = comp[pair - 1] - k
                q = shoe_p / (sum(comp) - k)
                value = second_cards(k, False)
                if q > 0:
                    value += q * f(n + 1, pending + 1, k + 1)
                value += (1.0 - q) * f(n, pending - 1, k)
            else:
                value = pending * second_cards(k, True)
            memo[key] = value
            return value

        return f(hands, 2, 0)


_HIT_STAND = frozenset({Move.HIT, Move.STAND})
_DEALERS: dict[tuple[int, bool], DealerCache] = {}


def dealer_cache(up: int, h17: bool) -> DealerCache:
    """One dealer cache per up card and soft-17 rule, shared by every rule set and chart;
    emptied when it grows past about 400,000 compositions (some 150 MB)."""
    cache = _DEALERS.get((up, h17))
    if cache is None or len(cache.vectors) > 400_000:
        cache = _DEALERS[(up, h17)] = DealerCache(up, h17)
    return cache


_ENGINES: OrderedDict[tuple[Rules, int, int], Engine] = OrderedDict()


def engine_for(rules: Rules, up: int, chart: HandChart | None = None) -> Engine:
    """A shared engine per rule set, up card and chart, the most recent few kept."""
    key = (rules, up, id(chart))
    eng = _ENGINES.get(key)
    if eng is None or eng.chart is not chart:
        eng = _ENGINES[key] = Engine(rules, up, chart)
        while len(_ENGINES) > 48:
            _ENGINES.popitem(last=False)
    else:
        _ENGINES.move_to_end(key)
    return eng


@dataclass(frozen=True)
class Analysis:
    """Every option of one hand against one up card.

    ``ev`` holds the legal options, each per unit of the initial bet (a won double is +2),
    conditioned on no dealer blackjack when the dealer has peeked (``conditioned``).
    ``insurance`` is what taking insurance (or, holding a blackjack, even money) *adds* to the
    hand's EV per unit of the initial bet, seen before the peek; ``None`` when not offered.
    ``dealer`` is the dealer's distribution, conditioned like the EVs.
    """

    hand: tuple[int, ...]
    up: int
    ev: dict[Move, float]
    best: Move
    insurance: float | None
    dealer: DealerOutcome
    conditioned: bool
    p_dealer_blackjack: float  # before the peek, from the decision's shoe

    def to_dict(self) -> dict[str, object]:
        return {
            "hand": list(self.hand),
            "up": self.up,
            "ev": {str(m): v for m, v in self.ev.items()},
            "best": str(self.best),
            "insurance": self.insurance,
            "conditioned": self.conditioned,
            "dealer": self.dealer.to_dict(),
        }


def insurance_return(comp: Composition) -> float:
    """Expected return of an insurance bet per unit of that bet, the up card an ace and
    ``comp`` the unseen cards: it pays 2:1 when the hole card is a ten.

    >>> from blackjack.cards import full_composition, remove_cards
    >>> round(insurance_return(remove_cards(full_composition(6), [1])) * 311, 9)
    -23.0
    """
    return 3.0 * comp[9] / sum(comp) - 1.0


def decision_shoe(
    rules: Rules, hand: Sequence[int], up: int, removed: Sequence[int] = ()
) -> Composition:
    """The full shoe less the up card, the hand and the other cards seen."""
    return remove_cards(full_composition(rules.decks), [up, *hand, *removed])


def analyze(
    rules: Rules,
    hand: Sequence[int],
    up: int,
    *,
    removed: Sequence[int] = (),
    split_hands: int = 1,
    from_split: bool = False,
    pair: bool | None = None,
) -> Analysis:
    """The EV of every legal option of ``hand`` (points, ace = 1) against ``up``.

    ``removed`` are other cards seen (other boxes, earlier split hands); ``split_hands`` and
    ``from_split`` describe a hand that is part of a split (``hand[0]`` the card split from).

    >>> a = analyze(Rules(), [1, 10], 1)
    >>> a.ev, round(a.insurance, 4)
    ({<Move.STAND: 'stand'>: 1.5}, -0.0388)
    """
    hand = tuple(hand)
    if len(hand) < 2:
        raise ValueError("a hand has at least two cards")
    legal = legal_moves(rules, hand, up, split_hands=split_hands, from_split=from_split, pair=pair)
    if not legal:
        raise ValueError("the hand is bust")
    comp = decision_shoe(rules, hand, up, removed)
    eng = engine_for(rules, up)
    if removed or not eng.full_shoe_ready:
        eng.prepare(comp, hand, split_hands)
    values = eng.options(comp, hand, legal, split_hands=split_hands, from_split=from_split)
    norm = eng.mass(comp)
    ev = {m: v / norm for m, v in values.items()}
    pbj = eng.p_blackjack(comp)
    if is_blackjack(hand, from_split=from_split) and split_hands == 1:
        # Exact, not a ratio of two rounded masses.
        ev = {Move.STAND: float(rules.blackjack_pays) * (1.0 if eng.peek else 1.0 - pbj)}
    best = max(ev, key=lambda m: (ev[m], -MOVE_ORDER.index(m)))
    insurance = None
    if up == 1 and rules.insurance and len(hand) == 2 and not from_split and split_hands == 1:
        if is_blackjack(hand):
            insurance = 1.0 - float(rules.blackjack_pays) * (1.0 - pbj)
        else:
            insurance = 0.5 * insurance_return(comp)
    return Analysis(
        hand=hand,
        up=up,
        ev=ev,
        best=best,
        insurance=insurance,
        dealer=dealer_probabilities(rules, up, comp, no_blackjack=eng.peek),
        conditioned=eng.peek,
        p_dealer_blackjack=pbj,
    )


def prepare_full_shoe(rules: Rules, ups: Sequence[int] = tuple(range(1, 11))) -> None:
    """Batch the dealer work of every two-card hand from a full shoe (for charts and tables):
    the same results as without, several times sooner."""
    for up in ups:
        eng = engine_for(rules, up)
        if not eng.full_shoe_ready:
            eng.prepare_full_shoe()


def round_ev(rules: Rules, hand: Sequence[int], up: int, chart: HandChart | None = None) -> float:
    """Expected return of a round dealt ``hand`` against ``up`` from a full shoe, before any
    peek: a dealer blackjack found by the peek costs the bet (a player blackjack pushes);
    otherwise the hand is played best for its cards, or by ``chart``.  Insurance is declined.
    """
    eng = engine_for(rules, up, chart)
    comp = decision_shoe(rules, hand, up)
    if is_blackjack(hand):
        return eng.stand_row(comp)[6]
    legal = legal_moves(rules, hand, up)
    value = eng.value(comp, tuple(hand), legal)
    if eng.peek:
        value -= eng.p_blackjack(comp)
    return value


__all__ = [
    "MOVE_ORDER",
    "Analysis",
    "Engine",
    "analyze",
    "decision_shoe",
    "engine_for",
    "hand_total",
    "insurance_return",
    "is_blackjack",
    "is_pair",
    "legal_moves",
    "prepare_full_shoe",
    "round_ev",
]
