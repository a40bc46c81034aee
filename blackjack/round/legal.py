"""Whether a move is legal, and why not: the one answer the round, the EV engine, the AI
players, the views and the tests ask.

Two layers, one rule book:

* :func:`hand_verdicts` (and :func:`hand_options`) judge a hand described by what the rules
  look at, not by its cards: the playing total and whether it is soft, how many cards it
  holds, whether it is a pair, how many hands its box holds, whether it came from a split (of
  aces) and whether the dealer shows an ace.  :func:`legal_moves_for_points` describes a hand
  given as points (ace = 1): the EV engine's question.
* :func:`legal_moves` (and :func:`verdicts`, :func:`verdict`, :func:`refusal`) judge a round
  state: its phase and turn, then the hand in turn through :func:`hand_verdicts`, then the
  wallet.  The round asks the same functions to decide when a split hand is finished.

The rules' verdict on each move of a state depends only on the state, which never changes,
so it is computed once per state and kept on it.  The wallet is a separate, later step: a
double, a split or insurance that ``balance`` cannot cover is refused with
``insufficient_balance``.  Every refusal is a ``(code, message)`` constant here, for the
callers and the tests to reuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from blackjack.cards import RANK_POINTS, Card
from blackjack.hand import is_blackjack, is_pair, points_total
from blackjack.moves import INSURANCE_MOVES, PLAY_MOVES, Move
from blackjack.round.state import Money, Phase, Refusal, RoundState, Verdicts, money
from blackjack.rules import DoubleOn, Rules, Surrender

# --- the hand: what the rules allow on it --------------------------------------------------

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


def legal_moves_for_points(
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

    >>> sorted(str(m) for m in legal_moves_for_points(Rules(), [8, 8], 10))
    ['double', 'hit', 'split', 'stand']
    >>> split_ace = legal_moves_for_points(Rules(), [1, 5], 10, split_hands=2, from_split=True)
    >>> sorted(str(m) for m in split_ace)
    ['stand']
    """
    total, soft = points_total(cards)
    return hand_options(
        rules,
        total=total,
        soft=soft,
        cards=len(cards),
        pair=is_pair(cards, rules) if pair is None else pair,
        hands=split_hands,
        from_split=from_split,
        split_aces=from_split and cards[0] == 1,
        up_ace=up == 1,
    )


# --- the round state: the phase, the turn, the hand in turn and the wallet ------------------


class IllegalMove(ValueError):
    """A move refused in the current state; ``code`` is one of the ``*_CODE`` constants."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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


def _compute_rule_verdicts(state: RoundState) -> Verdicts:
    turn = state.turn
    phase = state.phase
    if phase is _SETTLED or turn is None:
        return _OVER_MEMO
    if phase is _INSURANCE_PHASE:
        return _INSURANCE_MEMO
    seat, h = turn
    for box in state.boxes:  # state.box(seat), inline: asked for every new hand in turn
        if box.seat == seat:
            break
    else:
        raise KeyError(f"no bet on box {seat}")
    hands = box.hands
    hand = hands[h]
    cards = hand.cards
    rules = state.rules
    if len(cards) != 2:
        return later_verdicts(rules)  # a hand in turn holds less than 21
    up = state.dealer[0]
    # hand_in_turn_verdicts's memo probed here first: this runs for every new hand in turn.
    per_rules = _STATE_MEMOS.get(id(rules))
    if per_rules is not None and per_rules[0] is rules:
        first, second = cards
        key = (first.rank, second.rank, len(hands), hand.from_split, hand.split_aces, up.rank)
        memo = per_rules[1].get(key)
        if memo is not None:
            return memo
    return hand_in_turn_verdicts(
        rules,
        cards,
        hands=len(hands),
        from_split=hand.from_split,
        split_aces=hand.split_aces,
        up=up,
    )


def hand_in_turn_verdicts(
    rules: Rules,
    cards: tuple[Card, ...],
    *,
    hands: int,
    from_split: bool,
    split_aces: bool,
    up: Card,
) -> Verdicts:
    """The verdicts on a two-card hand of a box holding ``hands`` hands, the dealer showing
    ``up``: what :func:`legal_moves` says of the hand in turn, and what the round asks when a
    split hand receives its second card (a hand whose only move is to stand is finished).

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.rules import PRESETS
    >>> aces, up = tuple(parse_cards("As Ad")), parse_cards("6h")[0]
    >>> sorted(hand_in_turn_verdicts(PRESETS["sixdeck"], aces, hands=2, from_split=True,
    ...                              split_aces=True, up=up)[1])
    [<Move.SPLIT: 'split'>, <Move.STAND: 'stand'>]
    >>> sorted(hand_in_turn_verdicts(PRESETS["thoth"], aces, hands=2, from_split=True,
    ...                              split_aces=True, up=up)[1])
    [<Move.STAND: 'stand'>]
    """
    first, second = cards
    # The verdicts depend only on this description of the hand: looked up by it, they cost a
    # tuple and a dictionary probe, not the points, the pair test and the two-card key.
    key = (first.rank, second.rank, hands, from_split, split_aces, up.rank)
    per_rules = _STATE_MEMOS.get(id(rules))
    if per_rules is None or per_rules[0] is not rules:
        if len(_STATE_MEMOS) >= 64:  # rule sets built per request: keep the memo small
            _STATE_MEMOS.clear()
        per_rules = _STATE_MEMOS[id(rules)] = (rules, {})
    memo = per_rules[1].get(key)
    if memo is None:
        a, b = RANK_POINTS[first.rank], RANK_POINTS[second.rank]
        memo = per_rules[1][key] = two_card_verdicts(
            rules,
            a + b,
            a == 1 or b == 1,
            is_pair(cards, rules),
            hands,
            from_split,
            split_aces,
            up.rank == "A",
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


def verdicts(state: RoundState, balance: Money | None) -> dict[Move, Refusal | None]:
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


def verdict(state: RoundState, move: Move, balance: Money | None = None) -> Refusal | None:
    """The verdict on ``move`` alone: what :func:`apply` asks before it plays a move.

    The same answer as ``verdicts(state, balance)[move]``, without building the wallet's
    dictionary: the rules' verdict (kept on the state), then the wallet's for a paid move.

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.round import Shoe, start_round
    >>> from blackjack.rules import PRESETS
    >>> shoe = Shoe.from_cards(parse_cards("9c 6h 2d 10c"))
    >>> state = start_round(rules=PRESETS["thoth"], bets={0: 10}, shoe=shoe)
    >>> verdict(state, Move.STAND), verdict(state, Move.SPLIT)
    (None, ('split_not_allowed', 'Only a pair may be split, on the first two cards.'))
    """
    memo = state._verdicts  # usually there: the caller asked legal_moves first
    why = (memo if memo is not None else _rule_verdicts(state))[0][move]
    if why is None and balance is not None and move in _PAID_MOVES and cost(state, move) > balance:
        return INSUFFICIENT_BALANCE
    return why


def legal_moves(state: RoundState, *, balance: Money | None = None) -> frozenset[Move]:
    """The moves the hand (or box, when insurance is asked) in turn may make now.

    This is the one place that says what is legal: :func:`apply` refuses everything else.
    ``balance`` is what the wallet still holds; a double, a split or insurance it cannot cover
    is not legal.  ``None``: no limit.
    """
    if balance is None:
        memo = state._verdicts  # asked before every decision: the memo without a call
        return (memo if memo is not None else _rule_verdicts(state))[1]
    return frozenset(m for m, why in verdicts(state, balance).items() if why is None)


def refusal(state: RoundState, move: Move | str, *, balance: Money | None = None) -> Refusal | None:
    """Why ``move`` is not legal now, as ``(code, message)``, or ``None`` when it is."""
    try:
        move = Move(move)
    except ValueError:
        return UNKNOWN_MOVE
    return verdicts(state, balance)[move]
