"""Whether a move is legal now, and why not: the one place the round, the views, the AI
players and the tests ask.

The rules' verdict on each move depends only on the state, which never changes, so it is
computed once per state and kept on it.  The wallet is a separate, later step: a double, a
split or insurance that ``balance`` cannot cover is refused with ``insufficient_balance``.
Every refusal is a ``(code, message)`` constant here, for the callers and the tests to reuse.
"""

from __future__ import annotations

from typing import Final

from blackjack.hand import hard_and_ace, is_blackjack, is_pair
from blackjack.moves import INSURANCE_MOVES, PLAY_MOVES, Move
from blackjack.round_state import Money, Phase, RoundState, money
from blackjack.rules import DoubleOn, Surrender


class IllegalMove(ValueError):
    """A move refused in the current state; ``code`` is one of the ``*_CODE`` constants."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


Refusal = tuple[str, str]
Verdicts = tuple[dict[Move, Refusal | None], frozenset[Move]]

ROUND_OVER: Final[Refusal] = ("round_over", "The round is over.")
NOT_YOUR_TURN: Final[Refusal] = ("not_your_turn", "It is another box's turn.")
INSURANCE_PENDING: Final[Refusal] = (
    "insurance_pending",
    "First answer the insurance offer: yes or no.",
)
NO_INSURANCE_NOW: Final[Refusal] = ("no_insurance_now", "Insurance is not on offer now.")
UNKNOWN_MOVE: Final[Refusal] = ("unknown_move", "There is no such move.")
INSUFFICIENT_BALANCE: Final[Refusal] = (
    "insufficient_balance",
    "The balance cannot cover this move.",
)
SPLIT_ACES_ONE_CARD: Final[Refusal] = (
    "hit_not_allowed",
    "Split aces receive one card each and nothing more.",
)
DOUBLE_FIRST_TWO: Final[Refusal] = (
    "double_not_allowed",
    "A hand may be doubled only on its first two cards.",
)
DOUBLE_SPLIT_ACES: Final[Refusal] = (
    "double_not_allowed",
    "Split aces receive one card each and may not be doubled.",
)
DOUBLE_AFTER_SPLIT: Final[Refusal] = (
    "double_not_allowed",
    "These rules allow no double after a split.",
)
DOUBLE_SOFT: Final[Refusal] = ("double_not_allowed", "These rules allow no double on a soft hand.")
DOUBLE_9_11: Final[Refusal] = (
    "double_not_allowed",
    "These rules allow a double on 9, 10 or 11 only.",
)
DOUBLE_10_11: Final[Refusal] = (
    "double_not_allowed",
    "These rules allow a double on 10 or 11 only.",
)
SPLIT_NOT_PAIR: Final[Refusal] = (
    "split_not_allowed",
    "Only a pair may be split, on the first two cards.",
)
SPLIT_LIMIT: Final[Refusal] = (
    "split_not_allowed",
    "The box already has as many hands as the rules allow.",
)
SPLIT_ACES_ONCE: Final[Refusal] = ("split_not_allowed", "Aces may be split once only.")
SURRENDER_NONE: Final[Refusal] = ("surrender_not_allowed", "These rules have no surrender.")
SURRENDER_FIRST_TWO: Final[Refusal] = (
    "surrender_not_allowed",
    "Surrender only on the first two cards, before any other move.",
)
SURRENDER_VS_ACE: Final[Refusal] = (
    "surrender_not_allowed",
    "These rules allow no surrender against an ace.",
)

_ALL_MOVES = tuple(Move)


def half(bet: int) -> Money:
    """Half a bet, exactly: the insurance stake and what a surrender returns.

    >>> half(100), half(5)
    (50, Fraction(5, 2))
    """
    return money(bet, 2)


# --- legality ------------------------------------------------------------------------------


def _rule_verdicts(state: RoundState) -> Verdicts:
    """Every move mapped to ``None`` (the rules allow it now) or the reason they do not, and
    the set of moves allowed.

    The wallet is not considered here (see :func:`verdicts`).  A state never changes, so
    the answer is kept on it: asking twice (``legal_moves``, then ``apply``) costs once.
    The dictionaries may be shared between states; nobody changes them.
    """
    memo = state._verdicts
    if memo is None:
        memo = _compute_rule_verdicts(state)
        _set_memo(state, memo)
    return memo


# The memo slot's own setter: a third of the cost of ``object.__setattr__`` by name.
_set_memo = RoundState.__dict__["_verdicts"].__set__


def _compute_rule_verdicts(state: RoundState) -> Verdicts:
    phase = state.phase
    if phase is Phase.SETTLED or state.turn is None:
        return _OVER_MEMO
    if phase is Phase.INSURANCE:
        return _INSURANCE_MEMO
    seat, h = state.turn
    box = state.box(seat)
    rules = state.rules
    hand = box.hands[h]
    cards = hand.cards
    locked_aces = hand.split_aces and not rules.hit_split_aces
    if len(cards) != 2:  # a hit (or doubled) hand: only hit or stand, whatever the rules
        return _LATER_SURRENDER_MEMO if rules.surrender is Surrender.LATE else _LATER_MEMO

    hard, ace = hard_and_ace(cards)
    soft = ace and hard <= 11
    total = hard + 10 if soft else hard
    double: Refusal | None = None
    if hand.split_aces and (locked_aces or not rules.double_after_split):
        double = DOUBLE_SPLIT_ACES
    elif hand.from_split and not rules.double_after_split:
        double = DOUBLE_AFTER_SPLIT
    elif soft and not rules.double_soft:
        double = DOUBLE_SOFT
    elif rules.double_on is DoubleOn.NINE_TO_ELEVEN and not 9 <= total <= 11:
        double = DOUBLE_9_11
    elif rules.double_on is DoubleOn.TEN_TO_ELEVEN and not 10 <= total <= 11:
        double = DOUBLE_10_11

    split: Refusal | None = None
    if not is_pair(cards, rules):
        split = SPLIT_NOT_PAIR
    elif len(box.hands) >= rules.max_hands:
        split = SPLIT_LIMIT
    elif hand.split_aces and not rules.resplit_aces:
        split = SPLIT_ACES_ONCE

    surrender: Refusal | None = None
    if rules.surrender is Surrender.NONE:
        surrender = SURRENDER_NONE
    elif len(box.hands) > 1:
        surrender = SURRENDER_FIRST_TWO
    elif not rules.surrender_vs_ace and state.dealer[0].rank == "A":
        surrender = SURRENDER_VS_ACE
    return _memo(
        {
            Move.HIT: SPLIT_ACES_ONE_CARD if locked_aces else None,
            Move.STAND: None,
            Move.DOUBLE: double,
            Move.SPLIT: split,
            Move.SURRENDER: surrender,
            Move.INSURE: NO_INSURANCE_NOW,
            Move.DECLINE: NO_INSURANCE_NOW,
        }
    )


def _memo(out: dict[Move, Refusal | None]) -> Verdicts:
    return out, frozenset(m for m, why in out.items() if why is None)


_OVER: dict[Move, Refusal | None] = dict.fromkeys(_ALL_MOVES, ROUND_OVER)
_INSURANCE: dict[Move, Refusal | None] = {
    **dict.fromkeys(PLAY_MOVES, INSURANCE_PENDING),
    Move.INSURE: None,
    Move.DECLINE: None,
}
_LATER: dict[Move, Refusal | None] = {
    **dict.fromkeys(INSURANCE_MOVES, NO_INSURANCE_NOW),
    Move.HIT: None,
    Move.STAND: None,
    Move.DOUBLE: DOUBLE_FIRST_TWO,
    Move.SPLIT: SPLIT_NOT_PAIR,
    Move.SURRENDER: SURRENDER_NONE,
}
_LATER_SURRENDER = {**_LATER, Move.SURRENDER: SURRENDER_FIRST_TWO}
# The verdicts that do not depend on the hand, with their legal sets, made once.
_OVER_MEMO = _memo(_OVER)
_INSURANCE_MEMO = _memo(_INSURANCE)
_LATER_MEMO = _memo(_LATER)
_LATER_SURRENDER_MEMO = _memo(_LATER_SURRENDER)


def cost(state: RoundState, move: Move) -> Money:
    """What ``move`` takes from the wallet now: a double or a split the hand's bet, insurance
    half the box's bet (even money nothing), anything else nothing.
    """
    if state.turn is None:
        return 0
    seat, h = state.turn
    box = state.box(seat)
    if move is Move.DOUBLE or move is Move.SPLIT:
        return box.hands[h].bet
    if move is Move.INSURE and not is_blackjack(box.hands[0].cards, from_split=False):
        return half(box.bet)
    return 0


_PAID_MOVES = (Move.DOUBLE, Move.SPLIT, Move.INSURE)


def verdicts(state: RoundState, balance: int | None) -> dict[Move, Refusal | None]:
    """The rules' verdicts, then the wallet's: a move the balance cannot cover is refused."""
    out = _rule_verdicts(state)[0]
    if balance is None:
        return out
    short = [m for m in _PAID_MOVES if out[m] is None and cost(state, m) > balance]
    if not short:
        return out
    out = dict(out)
    for m in short:
        out[m] = INSUFFICIENT_BALANCE
    return out


_HIT, _STAND, _DECLINE = Move.HIT, Move.STAND, Move.DECLINE


def verdict(state: RoundState, move: Move, balance: int | None = None) -> Refusal | None:
    """The verdict on ``move`` alone: what :func:`apply` asks before it plays a move.

    Hit, stand and a declined insurance cost nothing and depend on little, so they are
    judged here without working out every other move; the rest ask :func:`verdicts`.

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.round import Shoe, start_round
    >>> from blackjack.rules import PRESETS
    >>> shoe = Shoe.from_cards(parse_cards("9c 6h 2d 10c"))
    >>> state = start_round(rules=PRESETS["thoth"], bets={0: 10}, shoe=shoe)
    >>> verdict(state, Move.STAND), verdict(state, Move.SPLIT)
    (None, ('split_not_allowed', 'Only a pair may be split, on the first two cards.'))
    """
    memo = state._verdicts
    if memo is not None and balance is None:
        return memo[0][move]
    turn = state.turn
    if turn is not None:
        phase = state.phase
        if phase is Phase.PLAYERS:
            if move is _STAND:
                return None
            if move is _HIT:
                hand = state.box(turn[0]).hands[turn[1]]
                if hand.split_aces and len(hand.cards) == 2 and not state.rules.hit_split_aces:
                    return SPLIT_ACES_ONE_CARD
                return None
        elif phase is Phase.INSURANCE and move is _DECLINE:
            return None
    return verdicts(state, balance)[move]


def legal_moves(state: RoundState, *, balance: int | None = None) -> frozenset[Move]:
    """The moves the hand (or box, when insurance is asked) in turn may make now.

    This is the one place that says what is legal: :func:`apply` refuses everything else.
    ``balance`` is what the wallet still holds; a double, a split or insurance it cannot cover
    is not legal.  ``None``: no limit.
    """
    if balance is None:
        return _rule_verdicts(state)[1]
    return frozenset(m for m, why in verdicts(state, balance).items() if why is None)


def refusal(state: RoundState, move: Move | str, *, balance: int | None = None) -> Refusal | None:
    """Why ``move`` is not legal now, as ``(code, message)``, or ``None`` when it is."""
    try:
        move = Move(move)
    except ValueError:
        return UNKNOWN_MOVE
    return verdicts(state, balance)[move]
