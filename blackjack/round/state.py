"""The values a round is made of: hands, boxes, events and the round state itself.

Everything here is immutable; :mod:`blackjack.round.play` makes new values from old ones.  The
small values made many times per move (events, hands, boxes) are named tuples rather than
frozen dataclasses: they build about three times faster, which the 10,000 five-box rounds
per second target needs; the round state itself is a frozen dataclass.

Money conventions (every amount is an ``int`` or, when a 3:2 or 6:5 payout or a half stake
of an odd bet makes it fractional, an exact :class:`~fractions.Fraction`; never a float):

* *staked*: chips leaving the wallet for the table: the bet at the deal, a double, a split,
  an insurance bet.
* *paid*: chips coming back from the table, **stake included**: a 1:1 win on 100 pays 200,
  a push pays 100, a 3:2 blackjack on 100 pays 250, a loss pays 0, a surrender pays 50,
  insurance of 50 that wins pays 150.

So ``staked - paid`` summed over a round is what the house keeps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple

from blackjack.cards import Card
from blackjack.hand import best_total, hand_total
from blackjack.moves import Move
from blackjack.rules import Rules
from blackjack.shoe import Shoe

Money = int | Fraction

# Why a move is refused: ``(code, message)``; see :mod:`blackjack.round.legal`.
Refusal = tuple[str, str]
# The rules' verdict on every move of a state, and the set of moves they allow.
Verdicts = tuple[dict[Move, Refusal | None], frozenset[Move]]

MAX_BOXES = 5


def money(numerator: int, denominator: int = 1) -> Money:
    """An exact amount: an ``int`` when whole, else a ``Fraction``.

    >>> money(300, 2), money(15, 2)
    (150, Fraction(15, 2))
    """
    if numerator % denominator == 0:
        return numerator // denominator
    return Fraction(numerator, denominator)


def times(amount: int, ratio: Fraction) -> Money:
    """``amount * ratio`` exactly.

    >>> times(100, Fraction(3, 2)), times(5, Fraction(6, 5))
    (150, 6)
    """
    return money(amount * ratio.numerator, ratio.denominator)


class Phase(StrEnum):
    """Where the round stands.  The dealer's play has no phase: it happens inside ``apply``."""

    INSURANCE = "insurance"
    PLAYERS = "players"
    SETTLED = "settled"


class Outcome(StrEnum):
    BLACKJACK = "blackjack"
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    BUST = "bust"
    SURRENDER = "surrender"
    EVEN_MONEY = "even_money"


class EventKind(StrEnum):
    """What an :class:`Event` records.  Amounts: see the module docstring."""

    BET = "bet"  # staked: the box's bet, at the start
    DEAL = "deal"  # a card to a player hand
    DEALER_UP = "dealer_up"  # the dealer's up card
    HOLE = "hole"  # the hole card, face down: its card is secret until REVEAL
    MOVE = "move"  # a player's move; staked: a double, a split or insurance
    PEEK = "peek"  # the dealer checked the hole card; ``blackjack`` says what was found
    REVEAL = "reveal"  # the hole card turned up
    DRAW = "draw"  # a card to the dealer after the reveal
    RESHUFFLE = "reshuffle"  # a shuffled shoe ran out mid-round and the discards were shuffled
    SETTLE = "settle"  # paid: a hand's result
    INSURANCE = "insurance"  # paid: an insurance bet's result


class Event(NamedTuple):
    """One thing that happened, in order.  ``seat``/``hand`` name the box and its hand."""

    kind: EventKind
    seat: int | None = None
    hand: int | None = None
    card: Card | None = None
    move: Move | None = None
    staked: Money = 0
    paid: Money = 0
    outcome: Outcome | None = None
    blackjack: bool | None = None


class Hand(NamedTuple):
    """One hand of a box.  ``bet`` is the hand's own first bet; a double adds as much again.

    ``split_aces``: the hand began as one of a pair of split aces.  ``outcome`` and ``paid``
    are set when the hand is settled (a bust or a surrender at once, the rest at the end).
    """

    cards: tuple[Card, ...]
    bet: int
    doubled: bool = False
    from_split: bool = False
    split_aces: bool = False
    finished: bool = False
    surrendered: bool = False
    outcome: Outcome | None = None
    paid: Money | None = None

    @property
    def stake(self) -> int:
        """Everything at risk on this hand: the bet, twice it when doubled."""
        return self.bet * 2 if self.doubled else self.bet

    @property
    def total(self) -> int:
        return best_total(self.cards)

    @property
    def display(self) -> str:
        return hand_total(self.cards).display


class Box(NamedTuple):
    """A betting box (seat 0 is the dealer's left) and its hands, more than one after splits.

    ``insurance`` is the insurance stake (0 when none was taken); ``insurance_answer`` the
    answer to the offer (``None``: not asked); ``insurance_paid`` its result once known.
    """

    seat: int
    bet: int
    hands: tuple[Hand, ...]
    insurance: Money = 0
    insurance_answer: Move | None = None
    insurance_paid: Money | None = None

    @property
    def staked(self) -> Money:
        """All chips this box put on the table: bets, doubles, splits, insurance."""
        return sum((h.stake for h in self.hands), self.insurance)

    @property
    def paid(self) -> Money:
        """All chips paid back to this box so far, stakes included."""
        total: Money = self.insurance_paid or 0
        for h in self.hands:
            if h.paid is not None:
                total += h.paid
        return total


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of one hand: what was staked on it and what came back (stake included)."""

    seat: int
    hand: int
    outcome: Outcome
    staked: int
    paid: Money

    @property
    def net(self) -> Money:
        return self.paid - self.staked


@dataclass(frozen=True, slots=True)
class RoundState:
    """One round at a table.  Never mutated: :func:`blackjack.round.apply` returns a new one.

    ``dealer`` holds the up card, the hole card and the cards drawn after the reveal; the hole
    card (``dealer[1]``) and ``shoe`` are secret: show a player :func:`player_view` instead.
    ``turn`` is ``(seat, hand index)`` of the hand (or, in the insurance phase, the box) that
    acts now, ``None`` once the round is settled.
    """

    rules: Rules
    boxes: tuple[Box, ...]
    dealer: tuple[Card, ...]
    shoe: Shoe
    phase: Phase
    turn: tuple[int, int] | None
    revealed: bool
    peeked: bool
    events: tuple[Event, ...]
    # Memo of the rules' verdicts on every move and of the legal set, for this (immutable)
    # state: filled by the first question, so asking twice costs once.
    _verdicts: Verdicts | None = field(default=None, init=False, repr=False, compare=False)

    def box(self, seat: int) -> Box:
        for b in self.boxes:
            if b.seat == seat:
                return b
        raise KeyError(f"no bet on box {seat}")

    @property
    def up_card(self) -> Card:
        return self.dealer[0]

    @property
    def current_hand(self) -> Hand | None:
        turn = self.turn
        if turn is None:
            return None
        seat, h = turn
        for b in self.boxes:  # asked before every decision: no call to box()
            if b.seat == seat:
                return b.hands[h]
        raise KeyError(f"no bet on box {seat}")

    @property
    def dealer_total(self) -> int:
        """The dealer's total (of the up card alone until the reveal)."""
        return best_total(self.dealer if self.revealed else self.dealer[:1])

    def staked(self, seat: int) -> Money:
        return self.box(seat).staked

    def paid(self, seat: int) -> Money:
        return self.box(seat).paid

    def settlements(self) -> list[Settlement]:
        """Every settled hand, box by box, hand by hand."""
        out = []
        for b in self.boxes:
            for i, h in enumerate(b.hands):
                if h.outcome is not None and h.paid is not None:
                    out.append(Settlement(b.seat, i, h.outcome, h.stake, h.paid))
        return out

    def dealt_cards(self) -> list[Card]:
        """Every card dealt in this round, in the order it left the shoe."""
        return dealt_cards(self.events)

    def moves(self) -> list[tuple[int, int, Move]]:
        """Every move taken, in order, as ``(seat, hand, move)``."""
        return list(self._moves())

    def _moves(self) -> Iterator[tuple[int, int, Move]]:
        for e in self.events:
            if e.kind == EventKind.MOVE and e.move is not None and e.seat is not None:
                yield e.seat, e.hand or 0, e.move


_DEALT = frozenset({EventKind.DEAL, EventKind.DEALER_UP, EventKind.HOLE, EventKind.DRAW})


def dealt_cards(events: Sequence[Event]) -> list[Card]:
    """The cards that left the shoe, in order, as ``events`` record them: a round's own
    state asks it, and so does a round refilling its shoe mid-round (those cards stay out).

    >>> from blackjack.cards import parse_cards
    >>> ace = parse_cards("As")[0]
    >>> dealt_cards([Event(EventKind.BET, 0, staked=10), Event(EventKind.DEAL, 0, 0, ace)])
    [Card(rank='A', suit=<Suit.SPADES: 's'>)]
    """
    return [e.card for e in events if e.card is not None and e.kind in _DEALT]


# --- building the values cheaply -----------------------------------------------------------
#
# The round makes several of these per move, and the class constructors (a named tuple's
# ``__new__`` with its keyword defaults, a frozen dataclass's ``__init__``) cost more than
# the rest of a simple move; these build the same values through ``tuple.__new__`` and the
# slots.

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
    on it, when the caller knows them already (see :func:`blackjack.round.legal.later_verdicts`)."""
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
        if b.seat == seat:
            return i
    raise KeyError(f"no bet on box {seat}")
