"""Cards, ranks, shoe compositions and the secure shuffle.

A card is a small frozen value.  Suits never matter to the game, only to the
picture; ranks J, Q and K count 10 like the ten.

>>> Card.parse("A♠").points
1
>>> str(Card.parse("Td"))
'10♦'
>>> full_composition(1)
(4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from random import Random

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TEN_RANKS = frozenset({"10", "J", "Q", "K"})

# Points of a rank; the ace is 1 here and the hand decides when it counts 11.
RANK_POINTS: dict[str, int] = {
    r: (1 if r == "A" else 10 if r in TEN_RANKS else int(r)) for r in RANKS
}

# Names used in text and speech; the UI translates them through its own catalogue.
RANK_NAMES: dict[str, str] = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip


class Suit(StrEnum):
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SYMBOL_SUITS = {v: k for k, v in _SUIT_SYMBOLS.items()}
SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
              Suit.CLUBS: "clubs"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card.  ``rank`` is one of :data:`RANKS`."""

    rank: str
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANK_POINTS:
            raise ValueError(f"unknown rank {self.rank!r}")

    @property
    def points(self) -> int:
        """1 for an ace, 10 for a ten-value card, else the face value."""
        return RANK_POINTS[self.rank]

    @property
    def code(self) -> str:
        """Compact ASCII form used in JSON: ``"As"``, ``"10d"``."""
        # The suit is a StrEnum: adding it gives a plain str without the enum's slow ``.value``
        # (a stored round writes its shoe's three hundred codes on every move).
        return self.rank + self.suit

    @property
    def name(self) -> str:
        """English words for screen readers and logs: ``"ace of spades"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit.symbol}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"As"``, ``"A♠"``, ``"10d"``, ``"Td"`` or ``"td"``.

        >>> Card.parse("kh")
        Card(rank='K', suit=<Suit.HEARTS: 'h'>)
        """
        text = text.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank, suit = text[:-1].upper(), text[-1]
        if rank == "T":
            rank = "10"
        if suit in _SYMBOL_SUITS:
            return cls(rank, _SYMBOL_SUITS[suit])
        try:
            return cls(rank, Suit(suit.lower()))
        except ValueError:
            raise ValueError(f"not a card: {text!r}") from None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"As 10d"`` or ``["As", "10d"]`` into cards."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


def parse_points(text: str) -> int:
    """A card written by rank only, as on the command line: ``A``, ``2``–``10``, ``J``, ``Q``,
    ``K`` (or ``T``).  Returns its points (ace = 1).

    >>> [parse_points(x) for x in ("A", "7", "K", "t")]
    [1, 7, 10, 10]
    """
    rank = text.strip().upper()
    if rank == "T":
        rank = "10"
    if rank not in RANK_POINTS:
        raise ValueError(f"not a card rank: {text!r} (use A, 2-10, J, Q, K)")
    return RANK_POINTS[rank]


def one_deck() -> list[Card]:
    """The 52 cards of one deck, in a fixed order: a new list of the same (immutable) cards,
    made once, since every fresh shoe starts from it.

    >>> len(one_deck()), str(one_deck()[0]), one_deck() is one_deck()
    (52, 'A♠', False)
    """
    return list(_ONE_DECK)


_ONE_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)


def new_shoe(decks: int, rng: Random | None = None) -> list[Card]:
    """``decks`` decks shuffled.  Without ``rng`` the shuffle uses the operating system's
    cryptographically secure source; tests pass a seeded :class:`random.Random`.

    The first card to be dealt is the *last* element, so dealing is ``list.pop()``.
    """
    cards = one_deck() * decks
    if type(rng) is Random:
        shuffle_like_random(cards, rng)
    else:
        (rng if rng is not None else secrets.SystemRandom()).shuffle(cards)
    return cards


def shuffle_like_random(items: list[Card], rng: Random) -> None:
    """``rng.shuffle(items)``, the same draws and the same order, at twice the speed.

    A simulation shuffles a fresh shoe every few dozen rounds; ``Random.shuffle`` spends half
    its time in a method call per card.  This is its loop (Python 3.11: Fisher–Yates, each
    index by ``getrandbits`` with rejection) with the call inlined.  Only for a plain
    :class:`random.Random`; a test checks it against ``Random.shuffle`` itself.

    >>> a, b = list(one_deck()), list(one_deck())
    >>> shuffle_like_random(a, Random(7)); Random(7).shuffle(b); a == b
    True
    """
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


# --- Compositions: counts by points, the form the mathematics works with -----------------

Composition = tuple[int, ...]
"""Ten counts: index 0 holds aces, index 1 twos, … index 9 all ten-value cards."""


def full_composition(decks: int) -> Composition:
    """The composition of ``decks`` full decks."""
    return (4 * decks,) * 9 + (16 * decks,)


def composition_of(cards: Iterable[Card | int]) -> Composition:
    """Counts by points of the given cards (or bare point values 1–10)."""
    counts = [0] * 10
    for c in cards:
        counts[(c.points if isinstance(c, Card) else c) - 1] += 1
    return tuple(counts)


def remove_cards(comp: Composition, cards: Sequence[Card | int]) -> Composition:
    """The composition less ``cards``; raises ``ValueError`` when a card is not there."""
    counts = list(comp)
    for c in cards:
        i = (c.points if isinstance(c, Card) else c) - 1
        if counts[i] == 0:
            raise ValueError("card not in the shoe")
        counts[i] -= 1
    return tuple(counts)
