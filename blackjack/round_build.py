"""Building the round's immutable values cheaply: events, hands, boxes, shoes and states.

The round makes several of these per move, and the class constructors (a named tuple's
``__new__`` with its keyword defaults, a frozen dataclass's ``__init__``) cost more than
the rest of a simple move; these build the same values through ``tuple.__new__`` and the
slots.  Used by :mod:`blackjack.round_work` and :mod:`blackjack.round_fast`.
"""

from __future__ import annotations

from blackjack.cards import Card
from blackjack.legal import Verdicts
from blackjack.moves import Move
from blackjack.round_state import Box, Event, EventKind, Hand, Money, Outcome, Phase, RoundState
from blackjack.rules import Rules
from blackjack.shoe import Shoe

# Named tuples built through ``tuple.__new__``: a third of the cost of calling the class,
# which matters on the path that must play 10,000 five-box rounds a second.
tnew = tuple.__new__


def make_event(
    kind: EventKind,
    seat: int | None = None,
    hand: int | None = None,
    card: Card | None = None,
    move: Move | None = None,
    staked: Money = 0,
    paid: Money = 0,
    outcome: Outcome | None = None,
    blackjack: bool | None = None,
) -> Event:
    return tnew(Event, (kind, seat, hand, card, move, staked, paid, outcome, blackjack))


def make_hand(
    cards: tuple[Card, ...],
    bet: int,
    doubled: bool = False,
    from_split: bool = False,
    split_aces: bool = False,
    finished: bool = False,
    surrendered: bool = False,
    outcome: Outcome | None = None,
    paid: Money | None = None,
) -> Hand:
    return tnew(
        Hand, (cards, bet, doubled, from_split, split_aces, finished, surrendered, outcome, paid)
    )


def make_box(
    seat: int,
    bet: int,
    hands: tuple[Hand, ...],
    insurance: Money = 0,
    insurance_answer: Move | None = None,
    insurance_paid: Money | None = None,
) -> Box:
    return tnew(Box, (seat, bet, hands, insurance, insurance_answer, insurance_paid))


_STATE_SLOTS = tuple(
    RoundState.__dict__[name].__set__
    for name in (
        "rules",
        "boxes",
        "dealer",
        "shoe",
        "phase",
        "turn",
        "revealed",
        "peeked",
        "events",
        "_verdicts",
    )
)
_SHOE_SLOTS = tuple(Shoe.__dict__[name].__set__ for name in ("cards", "position", "decks"))
_onew = object.__new__


def make_shoe(cards: tuple[Card, ...], position: int, decks: int) -> Shoe:
    """``Shoe(cards, position, decks)`` without the frozen dataclass's slow ``__init__``."""
    shoe: Shoe = _onew(Shoe)
    s_cards, s_pos, s_decks = _SHOE_SLOTS
    s_cards(shoe, cards)
    s_pos(shoe, position)
    s_decks(shoe, decks)
    return shoe


def make_state(
    rules: Rules,
    boxes: tuple[Box, ...],
    dealer: tuple[Card, ...],
    shoe: Shoe,
    phase: Phase,
    turn: tuple[int, int] | None,
    revealed: bool,
    peeked: bool,
    events: tuple[Event, ...],
    verdicts: Verdicts | None = None,
) -> RoundState:
    """A new state built through the slots: a frozen dataclass's ``__init__`` costs about
    twice as much, more than the rest of a simple move.  ``verdicts``: the rules' verdicts
    on it, when the caller knows them already (see :func:`blackjack.legal.later_verdicts`)."""
    state: RoundState = _onew(RoundState)
    s_rules, s_boxes, s_dealer, s_shoe, s_phase, s_turn, s_rev, s_peek, s_ev, s_memo = _STATE_SLOTS
    s_rules(state, rules)
    s_boxes(state, boxes)
    s_dealer(state, dealer)
    s_shoe(state, shoe)
    s_phase(state, phase)
    s_turn(state, turn)
    s_rev(state, revealed)
    s_peek(state, peeked)
    s_ev(state, events)
    s_memo(state, verdicts)
    return state


def box_index(boxes: tuple[Box, ...] | list[Box], seat: int) -> int:
    """Where the box on ``seat`` is in ``boxes``."""
    for i, b in enumerate(boxes):
        if b[0] == seat:
            return i
    raise KeyError(f"no bet on box {seat}")
