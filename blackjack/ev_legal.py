"""Which moves RULES.md allows on a hand, in points (ace = 1): the EV engine's view.

The answer itself is :func:`blackjack.options.hand_options`, which the round engine
(:mod:`blackjack.legal`) asks too; this module only describes a hand given as points.
"""

from __future__ import annotations

from collections.abc import Sequence

from blackjack.moves import Move
from blackjack.options import hand_options
from blackjack.rules import Rules

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
    return hand_options(
        rules,
        total=total,
        soft=soft,
        cards=len(cards),
        pair=is_pair(rules, cards) if pair is None else pair,
        hands=split_hands,
        from_split=from_split,
        split_aces=from_split and cards[0] == 1,
        up_ace=up == 1,
    )
