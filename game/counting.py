"""Count practice at the table: the count of the cards a seat has seen, and the betting ramp.

The count is worked out on the server from the stored round and shoe, never from anything the
browser sends.  *Seen* means dealt face up from the current shoe: the cards of earlier rounds
of this shoe, every box's cards in the round (the seat-mates' too) and the dealer's cards face
up.  The hole card counts only once it is revealed, and a card not yet dealt never counts.
Nothing here reads the hole card before the reveal or a card of the shoe past the ones dealt:
the cards before the round are ``shoe.cards[:start]``, where ``start`` is where this round's
dealing began, and the round's own cards are read from the boxes and the dealer's shown cards.

A test shoe (a fixed card order, ``decks`` 0) stands for a shoe of the table's size, so that
the decks remaining and an unbalanced system's drift are the table's.  A shoe that ran out in
the middle of a round and was refilled (the discards shuffled, never seen with the reshuffle
point of every preset) starts the count again from the cards on the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from blackjack import Card, RoundState, Shoe
from blackjack.counting import CountSystem, decks_remaining, running_count, true_count

DECK = 52

# The betting ramp: (true count, units).  One unit up to +1 (no edge yet), then growing to
# eight units from +5: a 1–8 spread, the common one for a six-deck shoe.
RAMP: tuple[tuple[int, int], ...] = ((1, 1), (2, 2), (3, 4), (4, 6), (5, 8))


@dataclass(frozen=True, slots=True)
class SeenCount:
    """The count of the cards a seat has seen since the shuffle."""

    system: CountSystem
    running: int
    cards_seen: int
    cards_left: int  # the shoe's size less the cards seen (the hole card is among these)
    decks_left: Fraction  # to the nearest half deck
    true: int  # floored


def seen_cards(*, shoe: Shoe | None, state: RoundState | None) -> list[Card]:
    """The cards dealt face up from the current shoe: ``state``'s round (if any) and the
    rounds of its shoe before it; without a round, the cards dealt from ``shoe``.

    >>> from blackjack import PRESETS, Shoe, parse_cards, start_round
    >>> cards = parse_cards("10s 5d 9h 6c 2s 3s")
    >>> state = start_round(rules=PRESETS["thoth"], bets={0: 100}, shoe=Shoe.from_cards(cards))
    >>> [c.code for c in seen_cards(shoe=None, state=state)]  # the hole card, 6c, is not seen
    ['10s', '9h', '5d']
    """
    if state is None:
        return [] if shoe is None else list(shoe.cards[: shoe.position])
    on_table = [c for box in state.boxes for hand in box.hands for c in hand.cards]
    shown = state.dealer if state.revealed else state.dealer[:1]
    start = state.shoe.position - len(on_table) - len(state.dealer)
    # A negative start: the shoe was refilled in this round; its count starts again here.
    earlier = state.shoe.cards[:start] if start >= 0 else ()
    return [*earlier, *on_table, *shown]


def count_of_seen(system: CountSystem, cards: Sequence[Card], *, decks: int) -> SeenCount:
    """The running count, decks remaining and true count after ``cards``, in a shoe of
    ``decks`` decks (the conventions of :mod:`blackjack.counting.systems`).

    >>> from blackjack import parse_cards
    >>> from blackjack.counting import HI_LO
    >>> c = count_of_seen(HI_LO, parse_cards("2s 3d 4h 5c 6s 10d"), decks=6)
    >>> c.running, c.cards_left, str(c.decks_left), c.true
    (4, 306, '6', 0)
    """
    size = decks * DECK
    left = max(0, size - len(cards))
    running = running_count(system, cards)
    return SeenCount(
        system=system,
        running=running,
        cards_seen=len(cards),
        cards_left=left,
        decks_left=decks_remaining(left),
        true=true_count(system, running=running, cards_left=left, decks=decks),
    )


def ramp_units(true: int) -> int:
    """The ramp's units at a true count.

    >>> [ramp_units(t) for t in (-3, 1, 2, 3, 4, 5, 9)]
    [1, 1, 2, 4, 6, 8, 8]
    """
    units = RAMP[0][1]
    for at, n in RAMP:
        if true >= at:
            units = n
    return units


def ramp_bet(true: int, *, unit: int, max_bet: int) -> int:
    """The ramp's bet a box at a true count: the units times the table's smallest bet,
    never above its largest.

    >>> ramp_bet(3, unit=100, max_bet=5000), ramp_bet(6, unit=1000, max_bet=5000)
    (400, 5000)
    """
    return min(ramp_units(true) * unit, max_bet)


def state_count(system: CountSystem, state: RoundState) -> SeenCount:
    """The count of the cards seen at ``state``, in a shoe of its rules' size."""
    return count_of_seen(system, seen_cards(shoe=None, state=state), decks=state.rules.decks)
