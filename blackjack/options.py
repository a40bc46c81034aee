"""Which play moves the rules allow on a hand, and why not: the one answer to "is it legal?"
that the round engine (:mod:`blackjack.legal`) and the EV engine (:mod:`blackjack.ev_legal`)
both use, so the two agree by construction.

A hand is described by what the rules look at, not by its cards: the playing total and
whether it is soft, how many cards it holds, whether it is a pair (the caller knows the ranks
and ``rules.pairs_by``), how many hands its box holds, whether it came from a split (of aces)
and whether the dealer shows an ace.  The turn, the phase and the wallet are the round's
business (:mod:`blackjack.legal`); insurance is asked of a box, not of a hand.

Every refusal is a ``(code, message)`` constant here, for the callers and the tests to reuse.
"""

from __future__ import annotations

from typing import Final

from blackjack.moves import Move
from blackjack.rules import DoubleOn, Rules, Surrender

Refusal = tuple[str, str]

# The codes the refusals share: a caller may act on the code and show the message.
_HIT_NO, _DOUBLE_NO = "hit_not_allowed", "double_not_allowed"
_SPLIT_NO, _SURRENDER_NO = "split_not_allowed", "surrender_not_allowed"

HAND_FINISHED: Final[Refusal] = ("hand_finished", "A hand of 21 or more takes no more moves.")
SPLIT_ACES_ONE_CARD: Final = (_HIT_NO, "Split aces receive one card each and nothing more.")
DOUBLE_FIRST_TWO: Final = (_DOUBLE_NO, "A hand may be doubled only on its first two cards.")
DOUBLE_SPLIT_ACES: Final = (_DOUBLE_NO, "Split aces receive one card each and may not be doubled.")
DOUBLE_AFTER_SPLIT: Final = (_DOUBLE_NO, "These rules allow no double after a split.")
DOUBLE_SOFT: Final = (_DOUBLE_NO, "These rules allow no double on a soft hand.")
DOUBLE_9_11: Final = (_DOUBLE_NO, "These rules allow a double on 9, 10 or 11 only.")
DOUBLE_10_11: Final = (_DOUBLE_NO, "These rules allow a double on 10 or 11 only.")
SPLIT_NOT_PAIR: Final = (_SPLIT_NO, "Only a pair may be split, on the first two cards.")
SPLIT_LIMIT: Final = (_SPLIT_NO, "The box already has as many hands as the rules allow.")
SPLIT_ACES_ONCE: Final = (_SPLIT_NO, "Aces may be split once only.")
SURRENDER_NONE: Final = (_SURRENDER_NO, "These rules have no surrender.")
SURRENDER_FIRST_TWO: Final = (
    _SURRENDER_NO,
    "Surrender only on the first two cards, before any other move.",
)
SURRENDER_VS_ACE: Final = (_SURRENDER_NO, "These rules allow no surrender against an ace.")

# Enum members looked up once: the round asks this for every two-card hand it deals.
_NO_SURRENDER = Surrender.NONE
_NINE_TO_ELEVEN, _TEN_TO_ELEVEN = DoubleOn.NINE_TO_ELEVEN, DoubleOn.TEN_TO_ELEVEN
_HIT, _STAND, _DOUBLE, _SPLIT, _SURRENDER = (
    Move.HIT,
    Move.STAND,
    Move.DOUBLE,
    Move.SPLIT,
    Move.SURRENDER,
)


def hand_verdicts(
    rules: Rules,
    *,
    total: int,
    soft: bool,
    cards: int = 2,
    pair: bool = False,
    hands: int = 1,
    from_split: bool = False,
    split_aces: bool = False,
    up_ace: bool = False,
) -> dict[Move, Refusal | None]:
    """Each play move mapped to ``None`` (the rules allow it on this hand) or the reason not.

    ``total`` is the playing total (a soft hand counts its ace as 11), ``cards`` how many
    cards the hand holds, ``hands`` how many hands its box holds now.  A hand of 21 or more is
    finished: it may only stand (at 21) or nothing (bust).  Split aces take one card each
    unless the rules let them be hit; double on 9–11 or 10–11 counts the playing total.

    >>> from blackjack.rules import PRESETS
    >>> v = hand_verdicts(PRESETS["thoth"], total=16, soft=False, pair=True)
    >>> sorted(str(m) for m, why in v.items() if why is None)
    ['double', 'hit', 'split', 'stand']
    >>> hand_verdicts(PRESETS["thoth"], total=17, soft=False, cards=3)[Move.DOUBLE]
    ('double_not_allowed', 'A hand may be doubled only on its first two cards.')
    """
    if total >= 21:
        over = HAND_FINISHED
        return {
            _HIT: over,
            _STAND: over if total > 21 else None,
            _DOUBLE: over,
            _SPLIT: over,  # no pair reaches 21 on two cards
            _SURRENDER: over,
        }
    if cards != 2:
        late = SURRENDER_NONE if rules.surrender is _NO_SURRENDER else SURRENDER_FIRST_TWO
        return {
            _HIT: None,
            _STAND: None,
            _DOUBLE: DOUBLE_FIRST_TWO,
            _SPLIT: SPLIT_NOT_PAIR,
            _SURRENDER: late,
        }

    locked_aces = split_aces and not rules.hit_split_aces
    double: Refusal | None = None
    if split_aces and (locked_aces or not rules.double_after_split):
        double = DOUBLE_SPLIT_ACES
    elif from_split and not rules.double_after_split:
        double = DOUBLE_AFTER_SPLIT
    elif soft and not rules.double_soft:
        double = DOUBLE_SOFT
    elif rules.double_on is _NINE_TO_ELEVEN and not 9 <= total <= 11:
        double = DOUBLE_9_11
    elif rules.double_on is _TEN_TO_ELEVEN and not 10 <= total <= 11:
        double = DOUBLE_10_11

    split: Refusal | None = None
    if not pair:
        split = SPLIT_NOT_PAIR
    elif hands >= rules.max_hands:
        split = SPLIT_LIMIT
    elif split_aces and not rules.resplit_aces:
        split = SPLIT_ACES_ONCE

    surrender: Refusal | None = None
    if rules.surrender is _NO_SURRENDER:
        surrender = SURRENDER_NONE
    elif hands > 1 or from_split:
        surrender = SURRENDER_FIRST_TWO
    elif up_ace and not rules.surrender_vs_ace:
        surrender = SURRENDER_VS_ACE

    return {
        _HIT: SPLIT_ACES_ONE_CARD if locked_aces else None,
        _STAND: None,
        _DOUBLE: double,
        _SPLIT: split,
        _SURRENDER: surrender,
    }


def hand_options(
    rules: Rules,
    *,
    total: int,
    soft: bool,
    cards: int = 2,
    pair: bool = False,
    hands: int = 1,
    from_split: bool = False,
    split_aces: bool = False,
    up_ace: bool = False,
) -> frozenset[Move]:
    """The play moves the rules allow on this hand: those :func:`hand_verdicts` does not refuse.

    >>> from blackjack.rules import PRESETS
    >>> sorted(str(m) for m in hand_options(PRESETS["thoth"], total=11, soft=False))
    ['double', 'hit', 'stand']
    >>> sorted(str(m) for m in hand_options(
    ...     PRESETS["thoth"], total=12, soft=True, pair=True, hands=2, from_split=True,
    ...     split_aces=True))
    ['stand']
    """
    verdicts = hand_verdicts(
        rules,
        total=total,
        soft=soft,
        cards=cards,
        pair=pair,
        hands=hands,
        from_split=from_split,
        split_aces=split_aces,
        up_ace=up_ace,
    )
    return frozenset(m for m, why in verdicts.items() if why is None)
