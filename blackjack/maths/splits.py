"""The EV of splitting a pair, resplits decided, in the engine's mass units.

**The process.**  A split makes two hands of one pair card each.  The hands receive their second
cards one at a time; while the box holds fewer than ``max_hands`` hands (and the pair may be
resplit: aces only under ``resplit_aces``), a hand whose second card is another pair card may be
split again, making one more hand waiting for its second card.

**What each hand knows.**  A hand is played best for its own cards (:meth:`Engine.split_hand`),
knowing the pair cards removed so far; it does not remember the other hands' other cards, only
how many of them there were (those are "not a pair card", or the hand would have been split).

**The card removal, counted right.**  When a hand receives its second card, ``k`` pair-rank cards
and ``j`` cards known *not* to be of the pair rank (the other hands' second cards) are out, the
ranks of those ``j`` unknown.  Their hit cards are no information: by exchangeability a card
drawn by a stopping rule that ignores the cards to come is like a card never seen.  So

- the chance that the next second card is a pair card is ``(P - k) / (N - k - j)`` (``P`` pair
  cards among ``N``), not ``(P - k) / (N - k)``: the old engine left ``j`` out, and with it the
  richness in pair cards that the other hands' non-pair cards leave behind; that was 3·10⁻³ of
  a bet in the forced-resplit value of 10,10 against 5;
- the hand's value is ``G_j(S)``, its value on the shoe ``S`` (less ``k`` pair cards and its own
  card) averaged over the ``j`` unknown non-pair cards removed.  ``G_j`` comes from the burn-card
  identity: a fixed strategy's value on ``S`` equals its average after ``j`` random unseen cards
  are burned, and splitting those ``j`` by how many pair cards are among them (hypergeometric
  weights ``h_i``) gives ``V(S) = sum_i h_i · G_{j-i}(S - i pair cards)``, solved for ``G_j``
  from the values of ``S`` less 0, 1, …, ``j`` pair cards, shoes the split needs anyway.

The identity is exact for a fixed strategy; the engine puts in each shoe's *best* value, so a
hand whose best play changes when one more pair card is out is valued to second order in that
change (below 10⁻⁶ of a bet in a six-deck shoe).  Hands that can only stand (split aces, and the
10,10 hands against 5) are exact; where no resplit can happen the sum telescopes back to the
old, exact no-resplit value.

**Resplit decisions.**  At each pair card that may be resplit the box takes the better of
resplitting and playing the hand on (two cards, the moves allowed after a split), comparing the
EV of every hand still to come; with a chart (:class:`blackjack.maths.engine.HandChart`) it
resplits when the chart splits the pair.  ``forced=True`` resplits every such card, the old
engine's policy, kept for comparison: never above the value with decisions.

Under rank pairing a pair of ten-value cards resplits on any ten-value card (the composition
does not tell the ranks), as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Protocol

from blackjack.cards import Composition
from blackjack.moves import Move
from blackjack.round.legal import legal_moves_for_points as legal_moves
from blackjack.rules import Rules


class PairChart(Protocol):
    """What the split asks of a chart: whether it splits the pair again."""

    def move_for(self, hand: Sequence[int], up: int, legal: frozenset[Move]) -> Move: ...


class SplitEngine(Protocol):
    """What the split asks of the engine (:class:`blackjack.maths.engine.Engine`), named here
    so that this module needs no import of the engine, which imports it."""

    @property
    def rules(self) -> Rules: ...

    @property
    def up(self) -> int: ...

    @property
    def chart(self) -> PairChart | None: ...

    def split_hand(self, comp: Composition, pair: int, second: int) -> float: ...


def split_value(
    eng: SplitEngine,
    comp: Composition,
    pair: int,
    hands: int,
    *,
    forced: bool = False,
    decisions: dict[tuple[int, int, int, int], bool] | None = None,
) -> float:
    """Mass EV of splitting a pair into ``hands`` hands (the box's count after the split),
    summed over every hand that results; ``comp`` excludes both pair cards.

    ``decisions``, if given, receives whether a pair card is resplit in each state ``(hands in
    the box, hands waiting for a second card, pair cards out, other cards out)`` met, so that a
    simulation can play the same policy (``bench/splits_mc.py``)."""
    rules = eng.rules
    can_resplit = pair != 1 or rules.resplit_aces
    p_index = pair - 1
    n_cards = sum(comp)
    pairs = comp[p_index]
    others = n_cards - pairs
    values: dict[tuple[int, int], float] = {}  # (pair cards out, second card) -> V
    g_memo: dict[tuple[int, int, int], float] = {}
    memo: dict[tuple[int, int, int, int], float] = {}

    def shoe_less(k: int, card: int) -> Composition | None:
        left = list(comp)
        left[p_index] -= k
        left[card - 1] -= 1
        return tuple(left) if min(left) >= 0 else None

    def v(k: int, card: int) -> float:
        """Best value of the hand [pair, card] on ``comp`` less ``k`` pair cards and ``card``."""
        key = (k, card)
        value = values.get(key)
        if value is None:
            shoe = shoe_less(k, card)
            value = 0.0 if shoe is None or not sum(shoe) else eng.split_hand(shoe, pair, card)
            values[key] = value
        return value

    def g(k: int, j: int, card: int) -> float:
        """``v(k, card)`` averaged over ``j`` unknown non-pair cards also removed."""
        if j == 0:
            return v(k, card)
        key = (k, j, card)
        value = g_memo.get(key)
        if value is None:
            # The shoe S: comp less k pair cards and the hand's card.
            s_pairs = pairs - k - (card == pair)
            s_others = others - (card != pair)
            total = comb(s_pairs + s_others, j)
            value = v(k, card)
            for i in range(1, j + 1):
                h = comb(s_pairs, i) * comb(s_others, j - i) / total if s_pairs >= i else 0.0
                if h:
                    value -= h * g(k + i, j - i, card)
            value /= comb(s_others, j) / total
            g_memo[key] = value
        return value

    def hand_on(k: int, j: int) -> float:
        """Value of a hand that keeps a second pair card, played on."""
        return g(k, j, pair)

    def chart_resplits() -> bool:
        legal = legal_moves(rules, (pair, pair), eng.up, split_hands=2, from_split=True)
        return (
            eng.chart is not None and eng.chart.move_for((pair, pair), eng.up, legal) == Move.SPLIT
        )

    chart_says = chart_resplits() if eng.chart is not None else False

    def f(n: int, pending: int, k: int, j: int) -> float:
        """EV of the ``pending`` hands still waiting for a second card, ``n`` hands in the box,
        ``k`` pair cards and ``j`` other cards out."""
        if pending == 0:
            return 0.0
        key = (n, pending, k, j)
        if key in memo:
            return memo[key]
        left = n_cards - k - j
        p_pair = (pairs - k) / left if left > 0 else 0.0
        value = 0.0
        if others - j > 0:
            rest = f(n, pending - 1, k, j + 1)
            for card in range(1, 11):
                count = comp[card - 1]
                if card == pair or not count:
                    continue
                p = (others - j) / left * count / others
                value += p * (g(k, j, card) + rest)
        if p_pair > 0:
            play_on = hand_on(k, j) + f(n, pending - 1, k + 1, j)
            if can_resplit and n < rules.max_hands:
                resplit = f(n + 1, pending + 1, k + 1, j)
                if forced:
                    take = True
                elif eng.chart is not None:
                    take = chart_says
                else:
                    take = resplit >= play_on
                best = resplit if take else play_on
                if decisions is not None:
                    decisions[key] = take
            else:
                best = play_on
            value += p_pair * best
        memo[key] = value
        return value

    return f(hands, 2, 0, 0)


def largest_removal(hands: int) -> int:
    """How many shoes (``comp`` less 0, 1, … pair cards) a split that can end in ``hands``
    hands values its hands on: the last hand sees ``2 * hands - 3`` other second cards, any of
    which may be a pair card in the burn identity."""
    return 2 * hands - 2
