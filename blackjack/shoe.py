"""The shoe: an immutable order of cards and the position of the next card to deal.

A shuffled shoe comes from the operating system's secure source unless a test passes its own
random generator; a fixed order (tests, replays) comes from :meth:`Shoe.from_cards`.  Before
each round the caller applies the reshuffle rule with :func:`prepare_shoe`.

>>> from blackjack.cards import parse_cards
>>> shoe = Shoe.from_cards(parse_cards("As Kd 7h"))
>>> card, shoe = shoe.deal()
>>> str(card), shoe.remaining
('A♠', 2)
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from random import Random

from blackjack.cards import Card, new_shoe, one_deck
from blackjack.rules import Rules


class ShoeExhausted(RuntimeError):
    """A fixed card order ran out in the middle of a round."""


@dataclass(frozen=True, slots=True)
class Shoe:
    """``cards[position]`` is the next card to deal.

    ``decks`` is the number of decks a shuffled shoe was made of, and 0 for a fixed order.
    A shuffled shoe that runs out in the middle of a round is refilled from the cards not on
    the table, as a dealer reshuffles the discards; a fixed order raises
    :class:`ShoeExhausted` instead, so a test never silently deals made-up cards.
    """

    cards: tuple[Card, ...]
    position: int = 0
    decks: int = 0

    @property
    def remaining(self) -> int:
        """How many cards are left to deal (the table shows this number)."""
        return len(self.cards) - self.position

    @classmethod
    def shuffled(cls, rules: Rules, rng: Random | None = None) -> Shoe:
        """A fresh shoe of ``rules.decks`` decks.  Without ``rng``: ``secrets.SystemRandom``.

        >>> from random import Random
        >>> from blackjack.rules import PRESETS
        >>> Shoe.shuffled(PRESETS["thoth"], Random(1)).remaining
        312
        """
        # new_shoe deals from the end of its list; we deal from the front.
        return cls(tuple(reversed(new_shoe(rules.decks, rng))), 0, rules.decks)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Shoe:
        """A shoe that deals ``cards`` in the given order, first card first."""
        return cls(tuple(cards), 0, 0)

    def deal(self) -> tuple[Card, Shoe]:
        """The next card and the shoe without it."""
        if self.position >= len(self.cards):
            raise ShoeExhausted("the shoe has no cards left")
        return self.cards[self.position], Shoe(self.cards, self.position + 1, self.decks)

    def refilled(self, on_table: Iterable[Card], rng: Random | None = None) -> Shoe:
        """A new shoe of the discards: every card of the decks except those ``on_table``.

        Only for a shuffled shoe; a fixed order cannot be refilled.
        """
        if not self.decks:
            raise ShoeExhausted("the fixed card order ran out")
        left = Counter(one_deck() * self.decks)
        left.subtract(on_table)
        cards = list(left.elements())
        (rng if rng is not None else secrets.SystemRandom()).shuffle(cards)
        return Shoe(tuple(cards), 0, self.decks)


def prepare_shoe(shoe: Shoe | None, rules: Rules, rng: Random | None = None) -> tuple[Shoe, bool]:
    """The shoe to deal the next round from, and whether it was freshly shuffled.

    A new shoe replaces the old one when fewer than ``rules.reshuffle_point`` cards remain
    (78 for six decks), when there is no shoe yet, or when a shuffled shoe's deck count no
    longer matches the rules.

    >>> from random import Random
    >>> from blackjack.rules import PRESETS
    >>> rules = PRESETS["thoth"]
    >>> shoe = Shoe.shuffled(rules, Random(2))
    >>> prepare_shoe(Shoe(shoe.cards, 234, 6), rules)[1]  # 78 left
    False
    >>> prepare_shoe(Shoe(shoe.cards, 235, 6), rules)[1]  # 77 left
    True
    """
    if shoe is None or shoe.remaining < rules.reshuffle_point or shoe.decks not in (0, rules.decks):
        return Shoe.shuffled(rules, rng), True
    return shoe, False
