"""Whether a move is legal now, and why not: the one place the round, the views, the AI
players and the tests ask.

The rules' verdict on each move depends only on the state, which never changes, so it is
computed once per state and kept on it.  The wallet is a separate, later step: a double, a
split or insurance that ``balance`` cannot cover is refused with ``insufficient_balance``.
Every refusal is a ``(code, message)`` constant here, for the callers and the tests to reuse.
"""

from __future__ import annotations

from typing import Final

from blackjack.cards import RANK_POINTS
from blackjack.hand import is_blackjack
from blackjack.moves import INSURANCE_MOVES, PLAY_MOVES, Move
from blackjack.options import (  # the rules' refusals, named here too for the callers
    DOUBLE_9_11,
    DOUBLE_10_11,
    DOUBLE_AFTER_SPLIT,
    DOUBLE_FIRST_TWO,
    DOUBLE_SOFT,
    DOUBLE_SPLIT_ACES,
    HAND_FINISHED,
    SPLIT_ACES_ONCE,
    SPLIT_ACES_ONE_CARD,
    SPLIT_LIMIT,
    SPLIT_NOT_PAIR,
    SURRENDER_FIRST_TWO,
    SURRENDER_NONE,
    SURRENDER_VS_ACE,
    Refusal,
    hand_verdicts,
)
from blackjack.round_state import Money, Phase, RoundState, money
from blackjack.rules import PairsBy, Rules, Surrender


class IllegalMove(ValueError):
    """A move refused in the current state; ``code`` is one of the ``*_CODE`` constants."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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


# Enum members looked up once: ``Phase.SETTLED`` costs a class attribute lookup each time.
_SETTLED, _INSURANCE_PHASE = Phase.SETTLED, Phase.INSURANCE
_LATE = Surrender.LATE
_BY_RANK = PairsBy.RANK


def _compute_rule_verdicts(state: RoundState) -> Verdicts:
    turn = state.turn
    phase = state.phase
    if phase is _SETTLED or turn is None:
        return _OVER_MEMO
    if phase is _INSURANCE_PHASE:
        return _INSURANCE_MEMO
    seat, h = turn
    for box in state.boxes:  # state.box(seat), inline: asked for every new hand in turn
        if box[0] == seat:
            break
    else:
        raise KeyError(f"no bet on box {seat}")
    rules = state.rules
    hands = box[2]
    hand = hands[h]
    cards = hand[0]
    if len(cards) != 2:
        return later_verdicts(rules)  # a hand in turn holds less than 21
    first, second = cards
    r1, r2 = first.rank, second.rank
    # The verdicts depend only on this description of the hand: looked up by it, they cost a
    # tuple and a dictionary probe, not the points, the pair test and the two-card key.
    key = (r1, r2, len(hands), hand[3], hand[4], state.dealer[0].rank)  # from_split, split_aces
    per_rules = _STATE_MEMOS.get(id(rules))
    if per_rules is None or per_rules[0] is not rules:
        if len(_STATE_MEMOS) >= 64:  # rule sets built per request: keep the memo small
            _STATE_MEMOS.clear()
        per_rules = _STATE_MEMOS[id(rules)] = (rules, {})
    memo = per_rules[1].get(key)
    if memo is None:
        a, b = RANK_POINTS[r1], RANK_POINTS[r2]
        pair = r1 == r2 if rules.pairs_by is _BY_RANK else a == b
        memo = per_rules[1][key] = two_card_verdicts(
            rules,
            a + b,
            a == 1 or b == 1,
            pair,
            len(hands),
            hand.from_split,
            hand.split_aces,
            key[5] == "A",
        )
    return memo


# Keyed like ``_TWO_CARD_MEMOS`` below: the rule set's id, the entry holding the rule set.
_STATE_MEMOS: dict[int, tuple[Rules, dict[tuple[str, str, int, bool, bool, str], Verdicts]]] = {}


def two_card_verdicts(
    rules: Rules,
    hard: int,
    ace: bool,
    pair: bool,
    hands: int,
    from_split: bool,
    split_aces: bool,
    up_ace: bool,
) -> Verdicts:
    """The verdicts on a two-card hand (hard total, an ace in it), as
    :func:`blackjack.options.hand_verdicts` gives them, with insurance not on offer.

    Few hands ever occur: each answer is worked out once per rule set and shared.

    >>> from blackjack.rules import PRESETS
    >>> legal = two_card_verdicts(PRESETS["thoth"], 16, False, True, 1, False, False, False)[1]
    >>> sorted(str(m) for m in legal)
    ['double', 'hit', 'split', 'stand']
    """
    key = (hard, ace, pair, hands, from_split, split_aces, up_ace)
    per_rules = _TWO_CARD_MEMOS.get(id(rules))
    if per_rules is None or per_rules[0] is not rules:
        if len(_TWO_CARD_MEMOS) >= 64:  # rule sets built per request: keep the memo small
            _TWO_CARD_MEMOS.clear()
        per_rules = _TWO_CARD_MEMOS[id(rules)] = (rules, {})
    memo = per_rules[1].get(key)
    if memo is None:
        soft = ace and hard <= 11
        out = hand_verdicts(
            rules,
            total=hard + 10 if soft else hard,
            soft=soft,
            pair=pair,
            hands=hands,
            from_split=from_split,
            split_aces=split_aces,
            up_ace=up_ace,
        )
        memo = per_rules[1][key] = _memo({**out, **_NO_INSURANCE})
    return memo


# Keyed by the rule set's id, which cannot be reused while the entry holds the rule set: a
# frozen dataclass of eighteen fields is slow to hash, and this is asked for each new hand.
_TWO_CARD_MEMOS: dict[
    int, tuple[Rules, dict[tuple[int, bool, bool, int, bool, bool, bool], Verdicts]]
] = {}


def later_verdicts(rules: Rules) -> Verdicts:
    """The verdicts on a hand of three or more cards: hit or stand, whatever the rules.

    The fast path gives them to the state a hit makes, so nobody works them out again.

    >>> from blackjack.rules import PRESETS
    >>> sorted(later_verdicts(PRESETS["thoth"])[1])
    [<Move.HIT: 'hit'>, <Move.STAND: 'stand'>]
    """
    return _LATER_SURRENDER_MEMO if rules.surrender is _LATE else _LATER_MEMO


def _memo(out: dict[Move, Refusal | None]) -> Verdicts:
    return out, frozenset(m for m, why in out.items() if why is None)


_NO_INSURANCE: dict[Move, Refusal | None] = dict.fromkeys(INSURANCE_MOVES, NO_INSURANCE_NOW)
_OVER: dict[Move, Refusal | None] = dict.fromkeys(_ALL_MOVES, ROUND_OVER)
_INSURANCE: dict[Move, Refusal | None] = {
    **dict.fromkeys(PLAY_MOVES, INSURANCE_PENDING),
    Move.INSURE: None,
    Move.DECLINE: None,
}
# The verdicts that do not depend on the hand, with their legal sets, made once.  A hand of
# three or more cards below 21 depends only on whether the rules have surrender.
_OVER_MEMO = _memo(_OVER)
_INSURANCE_MEMO = _memo(_INSURANCE)
_LATER_MEMO, _LATER_SURRENDER_MEMO = (
    _memo({**hand_verdicts(Rules(surrender=s), total=12, soft=False, cards=3), **_NO_INSURANCE})
    for s in (Surrender.NONE, Surrender.LATE)
)


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
        memo = state._verdicts  # asked before every decision: the memo without a call
        return (memo if memo is not None else _rule_verdicts(state))[1]
    return frozenset(m for m, why in verdicts(state, balance).items() if why is None)


def refusal(state: RoundState, move: Move | str, *, balance: int | None = None) -> Refusal | None:
    """Why ``move`` is not legal now, as ``(code, message)``, or ``None`` when it is."""
    try:
        move = Move(move)
    except ValueError:
        return UNKNOWN_MOVE
    return verdicts(state, balance)[move]


__all__ = [
    "DOUBLE_9_11",
    "DOUBLE_10_11",
    "DOUBLE_AFTER_SPLIT",
    "DOUBLE_FIRST_TWO",
    "DOUBLE_SOFT",
    "DOUBLE_SPLIT_ACES",
    "HAND_FINISHED",
    "INSUFFICIENT_BALANCE",
    "INSURANCE_PENDING",
    "NOT_YOUR_TURN",
    "NO_INSURANCE_NOW",
    "ROUND_OVER",
    "SPLIT_ACES_ONCE",
    "SPLIT_ACES_ONE_CARD",
    "SPLIT_LIMIT",
    "SPLIT_NOT_PAIR",
    "SURRENDER_FIRST_TWO",
    "SURRENDER_NONE",
    "SURRENDER_VS_ACE",
    "UNKNOWN_MOVE",
    "IllegalMove",
    "Refusal",
    "Verdicts",
    "cost",
    "half",
    "later_verdicts",
    "legal_moves",
    "refusal",
    "two_card_verdicts",
    "verdict",
    "verdicts",
]
