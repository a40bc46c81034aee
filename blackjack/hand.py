"""Totals of a hand: hard and soft, the display form, pairs, blackjack and bust.

An ace counts 11 when that keeps the hand at 21 or less; such a hand is *soft*.  At most one
ace can ever count 11 (two would make 22), so a hand is fully described by its hard total
(every ace as 1) and whether it holds an ace.

>>> from blackjack.cards import parse_cards
>>> hand_total(parse_cards("As 6d")).display
'7 / 17'
>>> hand_total(parse_cards("As 6d 9c")).display
'16'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from blackjack.cards import RANK_POINTS, Card
from blackjack.rules import PairsBy, Rules


@dataclass(frozen=True, slots=True)
class HandTotal:
    """The value of some cards: ``hard`` counts every ace as 1; ``soft`` says an ace counts 11."""

    hard: int
    soft: bool

    @property
    def best(self) -> int:
        """The total that plays: the soft total when there is one, else the hard total."""
        return self.hard + 10 if self.soft else self.hard

    @property
    def display(self) -> str:
        """``"7 / 17"`` for a soft hand, ``"16"`` for a hard one.

        A soft 21 shows as ``"21"``: once the hand has 21 the lower reading no longer matters
        to anyone, and the table shows it the way the dealer calls it.

        >>> HandTotal(11, True).display
        '21'
        """
        if self.soft and self.hard != 11:
            return f"{self.hard} / {self.hard + 10}"
        return str(self.best)


def hard_and_ace(cards: Sequence[Card]) -> tuple[int, bool]:
    """The hard total and whether there is an ace: the cheap form the round's hot path uses.

    >>> from blackjack.cards import parse_cards
    >>> hard_and_ace(parse_cards("As Kd"))
    (11, True)
    """
    hard = 0
    ace = False
    for c in cards:
        p = RANK_POINTS[c.rank]
        hard += p
        if p == 1:
            ace = True
    return hard, ace


def best_total(cards: Sequence[Card]) -> int:
    """The total that plays, without building a :class:`HandTotal`.

    >>> from blackjack.cards import parse_cards
    >>> best_total(parse_cards("As As 9h"))
    21
    """
    hard, ace = hard_and_ace(cards)
    return hard + 10 if ace and hard <= 11 else hard


def hand_total(cards: Sequence[Card]) -> HandTotal:
    """The hard total and softness of ``cards``.

    >>> from blackjack.cards import parse_cards
    >>> hand_total(parse_cards("As As")).best
    12
    >>> hand_total(parse_cards("Kh Qd 5s")).best
    25
    """
    hard, ace = hard_and_ace(cards)
    return HandTotal(hard, ace and hard <= 11)


def is_blackjack(cards: Sequence[Card], *, from_split: bool) -> bool:
    """An ace and a ten-value card as the first two cards of a hand that was not split.

    A two-card 21 after a split is an ordinary 21.

    >>> from blackjack.cards import parse_cards
    >>> is_blackjack(parse_cards("As Jd"), from_split=False)
    True
    >>> is_blackjack(parse_cards("As Jd"), from_split=True)
    False
    """
    if from_split or len(cards) != 2:
        return False
    a, b = RANK_POINTS[cards[0].rank], RANK_POINTS[cards[1].rank]
    return a + b == 11 and (a == 1 or b == 1)


def is_pair(cards: Sequence[Card] | Sequence[str] | Sequence[int], rules: Rules) -> bool:
    """Two cards that may be split: equal value (K♥ 10♣) or equal rank, as ``rules`` say.

    The one pair test of the engine, for cards, ranks (``"K"``) or points (ace = 1).  Points
    do not tell the ten-value ranks apart: two tens count as a pair under either rule (a
    caller who knows the ranks asks with the cards or the ranks instead).

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.rules import PRESETS
    >>> kings_and_tens = parse_cards("Kh 10c")
    >>> is_pair(kings_and_tens, PRESETS["thoth"]), is_pair(kings_and_tens, PRESETS["live"])
    (True, False)
    >>> is_pair(["K", "10"], PRESETS["live"]), is_pair([10, 10], PRESETS["live"])
    (False, True)
    """
    if len(cards) != 2:
        return False
    a, b = (_rank(c) for c in cards)
    if rules.pairs_by == PairsBy.RANK:
        return a == b
    return RANK_POINTS[a] == RANK_POINTS[b]


def _rank(card: Card | str | int) -> str:
    if isinstance(card, Card):
        return card.rank
    if isinstance(card, int):
        return "A" if card == 1 else str(card)
    return card


def is_bust(cards: Sequence[Card]) -> bool:
    """Over 21 even with every ace counted as 1.

    >>> from blackjack.cards import parse_cards
    >>> is_bust(parse_cards("Kh 6d 6s")), is_bust(parse_cards("Ah Kd Ks"))
    (True, False)
    """
    return hard_and_ace(cards)[0] > 21


# --- hands as points (ace = 1): the mathematics' view ----------------------------------------


def points_total(points: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand of point values and whether it is soft (an ace counting 11).

    >>> points_total([1, 6]), points_total([1, 6, 9]), points_total([10, 10, 5])
    ((17, True), (16, False), (25, False))
    """
    hard = sum(points)
    if 1 in points and hard <= 11:
        return hard + 10, True
    return hard, False


def is_points_blackjack(points: Sequence[int], *, from_split: bool = False) -> bool:
    """:func:`is_blackjack` for a hand given as points.

    >>> is_points_blackjack([10, 1]), is_points_blackjack([10, 1], from_split=True)
    (True, False)
    """
    return not from_split and len(points) == 2 and sorted(points) == [1, 10]
