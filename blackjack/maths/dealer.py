"""The dealer's outcomes and what the batches share: the multisets the dealer can end on, and
the integer code of a shoe.

The dealer has no choices, so the chance of one ordered draw sequence (hole card first) depends
only on the multiset of cards it draws: the product of the falling factorials of the counts
drawn, over the falling factorial of the shoe size.  For each up card and soft-17 rule we
therefore list once every multiset the dealer can end on, with the number of its orderings that
are legal dealer sequences (the dealer stops on the last card and not before)
(:func:`final_multisets`).  A multiset fixes the final total, so a composition's distribution is
one weighted sum over that list.  The engine asks for thousands of related compositions at once
(a shoe less every hand that can be dealt from it); the compiled kernel
(:mod:`blackjack.maths.kernel`) or, where it is not built, numpy (:mod:`blackjack.maths.batch`)
sums them with the ranks summed out one at a time (:mod:`blackjack.maths.backend` chooses).

The outcome vector has seven entries: totals 17, 18, 19, 20, 21, bust, blackjack.  A dealer
blackjack is the one-card multiset (the hole card) that completes 21 with the up card, so the
distribution *joint* with "no blackjack" is simply the vector with that entry left out.

This module imports no numpy: with the kernel built, the command line and the engine never load
it (its import is a good part of a cold start).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from blackjack.cards import Composition

OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST = 5
BLACKJACK = 6


@dataclass(frozen=True, slots=True)
class DealerOutcome:
    """Probabilities of the dealer's final result; the seven fields sum to 1."""

    p17: float
    p18: float
    p19: float
    p20: float
    p21: float
    bust: float
    blackjack: float

    @property
    def probabilities(self) -> tuple[float, ...]:
        """In the order of :data:`OUTCOMES`."""
        return (self.p17, self.p18, self.p19, self.p20, self.p21, self.bust, self.blackjack)

    def to_dict(self) -> dict[str, float]:
        return dict(zip(OUTCOMES, self.probabilities, strict=True))


def final_multisets(up: int, h17: bool) -> dict[tuple[int, ...], list[int]]:
    """Every multiset the dealer can end on (counts of the cards drawn) -> [outcome, number
    of its orderings that are legal dealer sequences].  Counted card by card over the
    multisets drawn so far, each with the number of orderings that reach it without stopping:
    the dealer's next move depends on the multiset only, so no sequence is walked alone."""
    found: dict[tuple[int, ...], list[int]] = {}
    # multiset drawn -> [orderings, hard total with the up card, ace held]
    layer: dict[tuple[int, ...], list[int]] = {(0,) * 10: [1, up, up == 1]}
    while layer:
        grown: dict[tuple[int, ...], list[int]] = {}
        for counts, (ways, hard, ace) in layer.items():
            for card in range(1, 11):
                kid = (*counts[: card - 1], counts[card - 1] + 1, *counts[card:])
                h = hard + card
                a = ace or card == 1
                total = h + 10 if a and h <= 11 else h
                if total > 21:
                    outcome: int | None = BUST
                elif total == 21 and not any(counts):  # the hole card completes 21
                    outcome = BLACKJACK
                elif total > 17 or (total == 17 and not (h17 and total != h)):
                    outcome = total - 17
                else:
                    outcome = None
                if outcome is not None:
                    found.setdefault(kid, [outcome, 0])[1] += ways
                elif kid in grown:
                    grown[kid][0] += ways
                else:
                    grown[kid] = [ways, h, a]
        layer = grown
    return found


# A composition as one integer, for dict keys and one-card steps: six bits per rank for aces to
# nines (at most 32 each in eight decks), the ten-values (at most 128) on top; it fits an int64.
SHIFTS: tuple[int, ...] = tuple(6 * i for i in range(10))
UNITS: tuple[int, ...] = tuple(1 << s for s in SHIFTS)
MASKS: tuple[int, ...] = (63,) * 9 + (255,)


def encode(comp: Composition) -> int:
    """The integer code of a composition; removing a card of rank ``i`` subtracts ``UNITS[i]``.

    >>> encode((1, 0, 0, 0, 0, 0, 0, 0, 0, 2)) == 1 + (2 << 54)
    True
    """
    a, b, c, d, e, f, g, h, i, j = comp  # written out: the engine encodes thousands a second
    low = a + (b << 6) + (c << 12) + (d << 18) + (e << 24)
    return low + (f << 30) + (g << 36) + (h << 42) + (i << 48) + (j << 54)


def decode(code: int) -> Composition:
    """The composition of an integer code.

    >>> decode(encode((24, 24, 24, 24, 24, 24, 24, 24, 24, 96)))[8:]
    (24, 96)
    """
    return tuple((code >> s) & m for s, m in zip(SHIFTS, MASKS, strict=True))


@cache
def multisets(limit: int) -> tuple[Composition, ...]:
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
