"""One round at a five-box table, as a state machine: ``apply(state, move) -> state``.

:func:`start_round` takes the bets and a shoe and deals in the order of RULES.md: a card to
each betting box from the dealer's left, the dealer's up card, a second card to each box, the
hole card.  The round then asks each box about insurance (or even money) when an ace is up,
lets the dealer peek where the rules say, and gives the turn to the hands one by one.  When
the last hand finishes, :func:`apply` plays the dealer and settles every bet before it
returns; the caller never drives the dealer.

:func:`legal_moves` is the one place that says what is legal now; :func:`apply` refuses
anything else with :class:`IllegalMove`, leaving the state as it was (states are immutable).
Money conventions and the event log: see :mod:`blackjack.round_state`.

Choices the rules leave open, made as a real table with these rules would make them:

* The second card of a split hand is dealt when that hand's turn comes (the first hand is
  played out before the second receives its card), as the live source describes.
* The hole card is dealt in the RULES.md order under every rule set; with ``peek="none"`` it
  is simply not checked until the players are done.  (A no-hole-card dealer takes that card
  after the players; for a shuffled shoe this changes nothing.)
* Insuring one's own blackjack is even money: it pays 1:1 at once whatever the dealer holds,
  which is what the insurance bet would come to.  Even money costs nothing from the wallet.
* Insurance stakes are exactly half the bet, so an odd bet insures with a fraction.
* Double on 9–11 / 10–11 counts the hand's playing total, so a soft hand never qualifies.
  Split aces may be doubled only when the rules let them be hit and allow double after split.
* Late surrender returns half the bet once the dealer is known not to hold blackjack: at once
  after a peek or with 2–9 up; against an ace or a ten that was not peeked under, the
  surrender is settled at the reveal and loses the whole bet to a dealer blackjack.
* A hand that reaches 21 is finished; a bust is settled (lost) at once.  The dealer draws only
  when some hand still needs the dealer's total; otherwise the hole card is only revealed.

>>> from blackjack.cards import parse_cards
>>> from blackjack.rules import PRESETS
>>> cards = parse_cards("9c 6h 2d 10c Ks 7d")
>>> state = start_round(rules=PRESETS["thoth"], bets={1: 500}, shoe=Shoe.from_cards(cards))
>>> sorted(m.value for m in legal_moves(state))
['double', 'hit', 'stand']
>>> state = apply(state, Move.DOUBLE)
>>> state.phase, state.box(1).hands[0].outcome, state.box(1).hands[0].paid
(<Phase.SETTLED: 'settled'>, <Outcome.WIN: 'win'>, 2000)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from blackjack.cards import Card
from blackjack.hand import is_blackjack
from blackjack.legal import (
    NOT_YOUR_TURN,
    ROUND_OVER,
    UNKNOWN_MOVE,
    IllegalMove,
    cost,
    legal_moves,
    refusal,
    verdict,
)
from blackjack.moves import Move
from blackjack.round_state import (
    MAX_BOXES,
    Box,
    Event,
    EventKind,
    Hand,
    Money,
    Outcome,
    Phase,
    RoundState,
    Settlement,
)
from blackjack.round_work import Work, make_event, tnew
from blackjack.rules import Rules
from blackjack.serialize import from_json, player_view, to_json
from blackjack.shoe import Shoe, ShoeExhausted, prepare_shoe

__all__ = [
    "Box",
    "Event",
    "EventKind",
    "Hand",
    "IllegalMove",
    "Money",
    "Outcome",
    "Phase",
    "RoundState",
    "Settlement",
    "Shoe",
    "ShoeExhausted",
    "apply",
    "cost",
    "from_json",
    "legal_moves",
    "player_view",
    "prepare_shoe",
    "refusal",
    "replay",
    "start_round",
    "to_json",
]


# --- the public entry points ---------------------------------------------------------------


def start_round(*, rules: Rules, bets: Mapping[int, int], shoe: Shoe) -> RoundState:
    """Deal a round: ``bets`` maps a box (0–4, 0 the dealer's left) to its bet in chips.

    The returned state is in the insurance phase (an ace up and insurance offered), in the
    players' phase, or already settled (a peeked dealer blackjack, or nothing to play).
    """
    if not bets:
        raise ValueError("a round needs at least one bet")
    for seat, bet in bets.items():
        if type(seat) is not int or type(bet) is not int or not 0 <= seat < MAX_BOXES or bet <= 0:
            _check_bet(seat, bet)
    seats = sorted(bets)
    bet_kind, deal_kind = EventKind.BET, EventKind.DEAL
    w = Work(
        rules,
        [],
        [],
        shoe,
        shoe.position,
        [tnew(Event, (bet_kind, s, 0, None, None, bets[s], 0, None, None)) for s in seats],
    )
    events = w.events
    draw = w.draw
    first: list[Card] = []
    for s in seats:
        card = draw()
        first.append(card)
        events.append(tnew(Event, (deal_kind, s, 0, card, None, 0, 0, None, None)))
    up = draw()
    events.append(make_event(EventKind.DEALER_UP, card=up))
    boxes = w.boxes
    for s, card in zip(seats, first, strict=True):
        second = draw()
        events.append(tnew(Event, (deal_kind, s, 0, second, None, 0, 0, None, None)))
        cards = (card, second)
        bet = bets[s]
        natural = is_blackjack(cards, from_split=False)
        hand = tnew(Hand, (cards, bet, False, False, False, natural, False, None, None))
        boxes.append(tnew(Box, (s, bet, (hand,), 0, None, None)))
    hole = draw()
    w.dealer = [up, hole]
    events.append(make_event(EventKind.HOLE, card=hole))
    w.after_deal()
    return w.freeze()


def _check_bet(seat: object, bet: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_BOXES:
        raise ValueError(f"box must be 0 to {MAX_BOXES - 1}, not {seat!r}")
    if isinstance(bet, bool) or not isinstance(bet, int) or bet <= 0:
        raise ValueError(f"a bet must be a positive whole number of chips, not {bet!r}")


def apply(
    state: RoundState,
    move: Move | str,
    *,
    balance: int | None = None,
    seat: int | None = None,
) -> RoundState:
    """The state after ``move`` by the hand (or box) in turn.

    ``balance``: what the wallet still holds (``None``: no limit).  ``seat``: when given, the
    move is refused unless that box is in turn (a click on a box that is not playing now).
    Raises :class:`IllegalMove` when the move is not legal now; ``state`` is never changed.
    """
    if state.phase is Phase.SETTLED or state.turn is None:
        raise IllegalMove(*ROUND_OVER)
    if seat is not None and seat != state.turn[0]:
        raise IllegalMove(*NOT_YOUR_TURN)
    if not isinstance(move, Move):
        try:
            move = Move(move)
        except ValueError:
            raise IllegalMove(*UNKNOWN_MOVE) from None
    why = verdict(state, move, balance)
    if why is not None:
        raise IllegalMove(*why)
    return apply_general(state, move)


def apply_general(state: RoundState, move: Move) -> RoundState:
    """``move``, already found legal, played through the general machinery."""
    w = Work.of(state)
    if state.phase is Phase.INSURANCE:
        w.answer_insurance(move)
    else:
        w.play(move)
    return w.freeze()


def replay(
    rules: Rules,
    bets: Mapping[int, int],
    cards: Iterable[Card],
    moves: Iterable[Move | str | tuple[int, int, Move | str]],
) -> RoundState:
    """Play a stored round again: the same cards in the same order and the same moves give
    the same state.  ``moves`` are bare moves or ``(seat, hand, move)`` as
    :meth:`RoundState.moves` gives them (the seat is then checked against the turn).
    """
    state = start_round(rules=rules, bets=bets, shoe=Shoe.from_cards(cards))
    for m in moves:
        if isinstance(m, tuple):
            seat, hand, mv = m
            if state.turn != (seat, hand) and state.phase is not Phase.INSURANCE:
                raise IllegalMove(*NOT_YOUR_TURN)
            state = apply(state, mv, seat=seat)
        else:
            state = apply(state, m)
    return state
