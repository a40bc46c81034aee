"""Which moves RULES.md allows on a hand, in points (ace = 1): the EV engine's view.

The round engine (``blackjack.legal``) answers the same question for a dealt round, with
card ranks and the wallet; this module mirrors its rules for hands given as points.
"""

from __future__ import annotations

from collections.abc import Sequence

from blackjack.moves import Move
from blackjack.rules import DoubleOn, Rules, Surrender

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
