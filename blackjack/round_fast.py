"""The frequent moves without the work area: hit, stand and a declined insurance.

Most moves of a round are hits and stands, and each changes one hand: the next state is
the old one with that hand, its box, the shoe position, the turn and two or three events
new, and everything else shared.  Building just that, straight from the old state, is what
lets :func:`blackjack.round.apply` play 10,000 five-box rounds a second; copying the whole
round into a :class:`~blackjack.round_work.Work` and back costs several times more.

Whatever is less usual is handed to the work area at the point where it begins: the
dealer's turn, a split hand waiting for its second card, the end of the insurance offers.
A shoe that runs out mid-move is refilled there too (:func:`apply_fast` answers ``None``).
The results are exactly those of the work area; ``tests/blackjack/test_round_fast.py``
plays random rounds both ways to hold it to that.
"""

from __future__ import annotations

from blackjack.hand import hard_and_ace
from blackjack.legal import later_verdicts
from blackjack.moves import Move
from blackjack.round_build import make_shoe, make_state, tnew
from blackjack.round_state import Box, Event, EventKind, Hand, Outcome, Phase, RoundState
from blackjack.round_work import Work

_HIT, _STAND, _DECLINE = Move.HIT, Move.STAND, Move.DECLINE
_MOVE, _DEAL, _SETTLE = EventKind.MOVE, EventKind.DEAL, EventKind.SETTLE
_PLAYERS, _INSURANCE = Phase.PLAYERS, Phase.INSURANCE
_BUST = Outcome.BUST


def apply_fast(state: RoundState, move: Move) -> RoundState | None:
    """The state after ``move`` (already found legal) when it is a hit, a stand or a
    declined insurance; ``None`` for any other move, or when the shoe must be refilled,
    for the general machinery to play it.

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.round import Shoe, start_round
    >>> from blackjack.rules import PRESETS
    >>> shoe = Shoe.from_cards(parse_cards("9c 6h 2d 10c 5s"))
    >>> state = start_round(rules=PRESETS["thoth"], bets={0: 10}, shoe=shoe)
    >>> apply_fast(state, Move.HIT).box(0).hands[0].total
    16
    >>> apply_fast(state, Move.DOUBLE) is None
    True
    """
    phase = state.phase
    if phase is _PLAYERS:
        if move is _HIT:
            return _hit(state)
        if move is _STAND:
            return _stand(state)
    elif phase is _INSURANCE and move is _DECLINE:
        return _decline(state)
    return None


def _where(state: RoundState) -> tuple[int, int, int, Box]:
    """The seat and hand in turn, the box's index in ``state.boxes`` and the box."""
    turn = state.turn
    assert turn is not None
    seat, h = turn
    for bi, box in enumerate(state.boxes):
        if box[0] == seat:
            return seat, h, bi, box
    raise KeyError(f"no bet on box {seat}")


def _with_hand(boxes: tuple[Box, ...], bi: int, box: Box, h: int, hand: Hand) -> tuple[Box, ...]:
    """``boxes`` with hand ``h`` of box ``bi`` (which is ``box``) replaced by ``hand``."""
    hands = box[2]
    hands = (hand,) if len(hands) == 1 else (*hands[:h], hand, *hands[h + 1 :])
    box = tnew(Box, (box[0], box[1], hands, box[3], box[4], box[5]))
    return (*boxes[:bi], box, *boxes[bi + 1 :])


def _hit(state: RoundState) -> RoundState | None:
    turn = state.turn
    assert turn is not None
    seat, h = turn
    boxes = state.boxes
    bi = 0
    while boxes[bi][0] != seat:  # _where, inline: hits are the most frequent move
        bi += 1
    box = boxes[bi]
    hand = box[2][h]
    shoe = state.shoe
    cards = shoe.cards
    pos = shoe.position
    if pos >= len(cards):
        return None
    card = cards[pos]
    held = (*hand[0], card)
    hard, ace = hard_and_ace(held)
    total = hard + 10 if ace and hard <= 11 else hard
    events = (
        *state.events,
        tnew(Event, (_MOVE, seat, h, None, _HIT, 0, 0, None, None)),
        tnew(Event, (_DEAL, seat, h, card, None, 0, 0, None, None)),
    )
    if total < 21:
        hand = tnew(Hand, (held, hand[1], False, hand[3], hand[4], False, False, None, None))
        hands = box[2]
        hands = (hand,) if len(hands) == 1 else (*hands[:h], hand, *hands[h + 1 :])
        box = tnew(Box, (seat, box[1], hands, box[3], box[4], box[5]))
        rules = state.rules
        return make_state(
            rules,
            (*boxes[:bi], box, *boxes[bi + 1 :]),  # _with_hand, inline
            state.dealer,
            make_shoe(cards, pos + 1, shoe.decks),
            _PLAYERS,
            state.turn,
            state.revealed,
            state.peeked,
            events,
            later_verdicts(rules),
        )
    if hard > 21:
        hand = tnew(Hand, (held, hand[1], False, hand[3], hand[4], True, False, _BUST, 0))
        events = (*events, tnew(Event, (_SETTLE, seat, h, None, None, 0, 0, _BUST, None)))
    else:
        hand = tnew(Hand, (held, hand[1], False, hand[3], hand[4], True, False, None, None))
    return _next_turn(state, _with_hand(boxes, bi, box, h, hand), bi, h, pos + 1, events)


def _stand(state: RoundState) -> RoundState:
    turn = state.turn
    assert turn is not None
    seat, h = turn
    boxes = state.boxes
    bi = 0
    while boxes[bi][0] != seat:  # _where, inline: stands are the second most frequent move
        bi += 1
    box = boxes[bi]
    hand = box[2][h]
    hand = tnew(Hand, (hand[0], hand[1], hand[2], hand[3], hand[4], True, False, None, None))
    events = (*state.events, tnew(Event, (_MOVE, seat, h, None, _STAND, 0, 0, None, None)))
    boxes = _with_hand(boxes, bi, box, h, hand)
    return _next_turn(state, boxes, bi, h, state.shoe.position, events)


def _next_turn(
    state: RoundState,
    boxes: tuple[Box, ...],
    bi: int,
    h: int,
    pos: int,
    events: tuple[Event, ...],
) -> RoundState:
    """Hand ``h`` of box ``bi`` is finished: the turn goes to the next hand that holds its
    cards, or the work area takes over (a split hand to deal to, or the dealer's turn)."""
    h += 1
    n = len(boxes)
    while bi < n:
        box = boxes[bi]
        hands = box[2]
        while h < len(hands):
            hand = hands[h]
            if not hand[5]:  # not finished
                if len(hand[0]) == 1:  # a split hand: its second card comes now
                    return _handover(state, boxes, bi, h, pos, events)
                shoe = state.shoe
                if pos != shoe.position:
                    shoe = make_shoe(shoe.cards, pos, shoe.decks)
                return make_state(
                    state.rules,
                    boxes,
                    state.dealer,
                    shoe,
                    _PLAYERS,
                    (box[0], h),
                    state.revealed,
                    state.peeked,
                    events,
                )
            h += 1
        bi += 1
        h = 0
    return _handover(state, boxes, n, 0, pos, events)


def _work(
    state: RoundState, boxes: tuple[Box, ...], bi: int, pos: int, events: tuple[Event, ...]
) -> Work:
    """A work area holding the round as the fast path has changed it so far."""
    return Work(
        state.rules,
        list(boxes),
        list(state.dealer),
        state.shoe,
        pos,
        list(events),
        state.phase,
        state.turn,
        state.revealed,
        state.peeked,
        bi,
    )


def _handover(
    state: RoundState,
    boxes: tuple[Box, ...],
    bi: int,
    h: int,
    pos: int,
    events: tuple[Event, ...],
) -> RoundState:
    """The work area goes on from hand ``h`` of box ``bi``: the turn, or the dealer's."""
    w = _work(state, boxes, bi, pos, events)
    w.advance(bi, h)
    return w.freeze()


def _decline(state: RoundState) -> RoundState:
    seat, _h, bi, box = _where(state)
    box = tnew(Box, (seat, box[1], box[2], 0, _DECLINE, None))
    boxes = state.boxes
    boxes = (*boxes[:bi], box, *boxes[bi + 1 :])
    events = (*state.events, tnew(Event, (_MOVE, seat, 0, None, _DECLINE, 0, 0, None, None)))
    if bi + 1 == len(boxes):
        w = _work(state, boxes, bi, state.shoe.position, events)
        w.after_insurance()
        return w.freeze()
    return make_state(
        state.rules,
        boxes,
        state.dealer,
        state.shoe,
        _INSURANCE,
        (boxes[bi + 1][0], 0),
        state.revealed,
        state.peeked,
        events,
    )
