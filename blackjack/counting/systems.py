"""Card-counting systems as data, and the running and true count.

A count system gives every rank a *tag*; the running count is the sum of the tags of the cards
seen since the shuffle.  Tags are by points (index 0 the ace, 1 the two, … 9 every ten-value
card), as the engine's compositions are.  The tag values are the published ones:

=========  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ========
system      A   2   3   4   5   6   7   8   9  10  balanced
=========  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ========
Hi-Lo      −1  +1  +1  +1  +1  +1   0   0   0  −1  yes
KO         −1  +1  +1  +1  +1  +1  +1   0   0  −1  no (+4 a deck)
Hi-Opt I    0   0  +1  +1  +1  +1   0   0   0  −1  yes
Zen        −1  +1  +1  +2  +2  +2  +1   0   0  −2  yes
=========  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ========

**Conventions, chosen once.**

* *Decks remaining* are the cards left divided by 52, **rounded to the nearest half deck**
  (a quarter rounds up: 195 cards are 4 decks, not 3½), and never less than half a deck.
  Half a deck is what a player can judge from the discard tray; rounding up at the quarter
  divides by the larger number, so it never makes a count look bigger than it is.
* The *true count* is the running count divided by the decks remaining, **floored toward
  −∞** (+2.9 is +2, −0.3 is −1).  With the floor, "TC ≥ i" means the same for every index
  ``i``, negative or positive: the exact count is at least ``i``.  Truncation toward 0 would
  put every count from −0.99 to +0.99 in the one bin 0, twice as wide as the others, and
  make "TC ≥ 0" mean "the exact count is above −1".
* An index play is played **when the true count is at least its index** (the move that
  gains at high counts), the other move below it (:mod:`blackjack.counting.indices`).
* An unbalanced system's true count first takes out the drift a neutral shoe would give
  (KO: 4 for each deck seen), so that 0 means a neutral shoe for every system; a KO player
  who keeps the plain running count reads the same figure as ``running − 4 × decks seen``.

>>> running_count(HI_LO, [10, 5, 6, 1, 2])
1
>>> true_count(HI_LO, running=7, cards_left=130, decks=6)
2
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from blackjack.cards import Card, Composition

DECK = 52
# Cards of each points value in one deck: four of each, sixteen ten-value cards.
PER_DECK: Composition = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)


@dataclass(frozen=True, slots=True)
class CountSystem:
    """A card-counting system: a tag per points value (ace first, ten-value cards last).

    >>> HI_LO.tag(10), KO.balanced, KO.per_deck
    (-1, False, 4)
    """

    key: str  # a short stable name, used in URLs and stored tables
    name: str  # the system's published name (the same in every language)
    tags: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.tags) != 10:
            raise ValueError("a count system tags ten points values, ace to ten")

    def tag(self, points: int) -> int:
        """The tag of a card by its points (ace = 1, every ten-value card 10)."""
        return self.tags[points - 1]

    @property
    def per_deck(self) -> int:
        """The running count of one whole deck: 0 for a balanced system."""
        return sum(n * t for n, t in zip(PER_DECK, self.tags, strict=True))

    @property
    def balanced(self) -> bool:
        return self.per_deck == 0

    @property
    def level(self) -> int:
        """The largest tag in size: 1 for Hi-Lo, 2 for Zen."""
        return max(abs(t) for t in self.tags)


HI_LO = CountSystem("hilo", "Hi-Lo", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1))
KO = CountSystem("ko", "KO", (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1))
HI_OPT_I = CountSystem("hiopt1", "Hi-Opt I", (0, 0, 1, 1, 1, 1, 0, 0, 0, -1))
ZEN = CountSystem("zen", "Zen", (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2))

SYSTEMS: dict[str, CountSystem] = {s.key: s for s in (HI_LO, KO, HI_OPT_I, ZEN)}
DEFAULT_SYSTEM = HI_LO.key


def _points(card: Card | int) -> int:
    return card.points if isinstance(card, Card) else card


def running_count(system: CountSystem, cards: Iterable[Card | int], start: int = 0) -> int:
    """The running count after ``cards`` (cards or points, ace = 1), from ``start``.

    >>> from blackjack.cards import parse_cards
    >>> running_count(HI_LO, parse_cards("Ks 5h 5d 9c As")), running_count(KO, [7, 7], start=-20)
    (0, -18)
    """
    return start + sum(system.tags[_points(c) - 1] for c in cards)


def count_of(system: CountSystem, comp: Composition) -> int:
    """The running count of every card of a composition (ten counts, aces first).

    >>> count_of(HI_LO, (24,) * 9 + (96,)), count_of(KO, PER_DECK)
    (0, 4)
    """
    return sum(n * t for n, t in zip(comp, system.tags, strict=True))


def decks_remaining(cards_left: int) -> Fraction:
    """The decks left to deal, to the nearest half deck (a quarter rounds up), at least ½.

    >>> [str(decks_remaining(n)) for n in (312, 195, 194, 100, 13, 1)]
    ['6', '4', '7/2', '2', '1/2', '1/2']
    """
    if cards_left < 0:
        raise ValueError("cards left cannot be negative")
    halves = (2 * cards_left + DECK // 2) // DECK  # nearest half deck, a quarter up
    return Fraction(max(halves, 1), 2)


def true_count(system: CountSystem, *, running: int, cards_left: int, decks: int) -> int:
    """The true count, floored toward −∞: the running count (less an unbalanced system's
    drift over the cards seen) over the decks remaining (:func:`decks_remaining`).

    ``decks`` is the shoe's size, for an unbalanced system's drift (``running`` counted from
    0 at the shuffle).

    >>> true_count(HI_LO, running=-1, cards_left=208, decks=6)
    -1
    >>> true_count(KO, running=8, cards_left=208, decks=6)  # 2 decks seen: 8 is neutral
    0
    >>> true_count(ZEN, running=9, cards_left=104, decks=6)
    4
    """
    if not 0 <= cards_left <= decks * DECK:
        raise ValueError("cards left must lie between 0 and the shoe's size")
    drift = Fraction(system.per_deck * (decks * DECK - cards_left), DECK)
    return math.floor((running - drift) / decks_remaining(cards_left))


def exact_true_count(system: CountSystem, unseen: Composition, decks: int) -> float:
    """The true count, not rounded, of a shoe whose unseen cards are ``unseen``: the count of
    every card seen (the full shoe less ``unseen``) less the drift, over the exact decks left.

    >>> exact_true_count(HI_LO, (16,) * 9 + (64,), 6)
    0.0
    """
    seen = [n * decks - u for n, u in zip(PER_DECK, unseen, strict=True)]
    if min(seen) < 0:
        raise ValueError("more cards unseen than the shoe holds")
    left = sum(unseen)
    if left == 0:
        raise ValueError("no card left")
    drift = system.per_deck * sum(seen) / DECK
    return (count_of(system, tuple(seen)) - drift) / (left / DECK)


def balanced_tags(system: CountSystem) -> tuple[float, ...]:
    """The tags less their mean over a deck: what an unbalanced system's true count counts.

    >>> balanced_tags(HI_LO) == tuple(float(t) for t in HI_LO.tags)
    True
    """
    mean = system.per_deck / DECK
    return tuple(t - mean for t in system.tags)


def tag_variance(system: CountSystem) -> float:
    """The variance of one card's (balanced) tag over a full deck.

    >>> round(tag_variance(HI_LO), 4)  # 40 cards tagged ±1 of 52
    0.7692
    """
    return sum(n * w * w for n, w in zip(PER_DECK, balanced_tags(system), strict=True)) / DECK


def system_from_key(key: str) -> CountSystem:
    """The system of that key; ``ValueError`` for an unknown one.

    >>> system_from_key("zen").name
    'Zen'
    """
    try:
        return SYSTEMS[key]
    except KeyError:
        raise ValueError(f"unknown count system {key!r} (one of {', '.join(SYSTEMS)})") from None


def tags_text(system: CountSystem) -> Sequence[str]:
    """The tags signed, ace first: ``['−1', '+1', …]`` as printed in a table.

    >>> tags_text(HI_LO)[:3]
    ['−1', '+1', '+1']
    """
    return [f"+{t}" if t > 0 else f"−{-t}" if t < 0 else "0" for t in system.tags]
