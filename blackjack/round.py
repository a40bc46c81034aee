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
from typing import Final

from blackjack.cards import RANK_POINTS, Card
from blackjack.hand import best_total, hard_and_ace, is_blackjack, is_pair
from blackjack.moves import INSURANCE_MOVES, PLAY_MOVES, Move
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
    money,
    times,
)
from blackjack.rules import DoubleOn, Rules, Surrender
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
    "from_json",
    "legal_moves",
    "player_view",
    "prepare_shoe",
    "replay",
    "start_round",
    "to_json",
]


class IllegalMove(ValueError):
    """A move refused in the current state; ``code`` is one of the ``*_CODE`` constants."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


Refusal = tuple[str, str]

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
_DEALT = frozenset({EventKind.DEAL, EventKind.DEALER_UP, EventKind.HOLE, EventKind.DRAW})


# Named tuples built through ``tuple.__new__``: a third of the cost of calling the class,
# which matters on the path that must play 10,000 five-box rounds a second.
_tnew = tuple.__new__


def _event(
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
    return _tnew(Event, (kind, seat, hand, card, move, staked, paid, outcome, blackjack))


def _hand(
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
    return _tnew(
        Hand, (cards, bet, doubled, from_split, split_aces, finished, surrendered, outcome, paid)
    )


def _box(
    seat: int,
    bet: int,
    hands: tuple[Hand, ...],
    insurance: Money = 0,
    insurance_answer: Move | None = None,
    insurance_paid: Money | None = None,
) -> Box:
    return _tnew(Box, (seat, bet, hands, insurance, insurance_answer, insurance_paid))


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
_MOVE = EventKind.MOVE
_DEAL = EventKind.DEAL


def _make_shoe(cards: tuple[Card, ...], position: int, decks: int) -> Shoe:
    """``Shoe(cards, position, decks)`` without the frozen dataclass's slow ``__init__``."""
    shoe: Shoe = _onew(Shoe)
    s_cards, s_pos, s_decks = _SHOE_SLOTS
    s_cards(shoe, cards)
    s_pos(shoe, position)
    s_decks(shoe, decks)
    return shoe


def half(bet: int) -> Money:
    """Half a bet, exactly: the insurance stake and what a surrender returns.

    >>> half(100), half(5)
    (50, Fraction(5, 2))
    """
    return money(bet, 2)


# --- legality ------------------------------------------------------------------------------


def _rule_verdicts(state: RoundState) -> tuple[dict[Move, Refusal | None], frozenset[Move]]:
    """Every move mapped to ``None`` (the rules allow it now) or the reason they do not, and
    the set of moves allowed.

    The wallet is not considered here (see :func:`_verdicts`).  A state never changes, so
    the answer is kept on it: asking twice (``legal_moves``, then ``apply``) costs once.
    The dictionaries may be shared between states; nobody changes them.
    """
    memo = state._verdicts
    if memo is not None:
        return memo
    out = _compute_rule_verdicts(state)
    memo = (out, frozenset(m for m, why in out.items() if why is None))
    object.__setattr__(state, "_verdicts", memo)
    return memo


def _compute_rule_verdicts(state: RoundState) -> dict[Move, Refusal | None]:
    phase = state.phase
    if phase is Phase.SETTLED or state.turn is None:
        return _OVER
    if phase is Phase.INSURANCE:
        return _INSURANCE
    seat, h = state.turn
    box = state.box(seat)
    rules = state.rules
    hand = box.hands[h]
    cards = hand.cards
    locked_aces = hand.split_aces and not rules.hit_split_aces
    if len(cards) != 2:  # a hit (or doubled) hand: only hit or stand, whatever the rules
        return _LATER_SURRENDER if rules.surrender is Surrender.LATE else _LATER

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
    return {
        Move.HIT: SPLIT_ACES_ONE_CARD if locked_aces else None,
        Move.STAND: None,
        Move.DOUBLE: double,
        Move.SPLIT: split,
        Move.SURRENDER: surrender,
        Move.INSURE: NO_INSURANCE_NOW,
        Move.DECLINE: NO_INSURANCE_NOW,
    }


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


def _verdicts(state: RoundState, balance: int | None) -> dict[Move, Refusal | None]:
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


def legal_moves(state: RoundState, *, balance: int | None = None) -> frozenset[Move]:
    """The moves the hand (or box, when insurance is asked) in turn may make now.

    This is the one place that says what is legal: :func:`apply` refuses everything else.
    ``balance`` is what the wallet still holds; a double, a split or insurance it cannot cover
    is not legal.  ``None``: no limit.
    """
    if balance is None:
        return _rule_verdicts(state)[1]
    return frozenset(m for m, why in _verdicts(state, balance).items() if why is None)


def refusal(state: RoundState, move: Move | str, *, balance: int | None = None) -> Refusal | None:
    """Why ``move`` is not legal now, as ``(code, message)``, or ``None`` when it is."""
    try:
        move = Move(move)
    except ValueError:
        return UNKNOWN_MOVE
    return _verdicts(state, balance)[move]


# --- the work area: a mutable copy used inside one call, frozen on the way out --------------


class _Work:
    """The round being changed inside one ``start_round`` or ``apply`` call."""

    __slots__ = (
        "bi",
        "boxes",
        "cards",
        "dealer",
        "decks",
        "events",
        "peeked",
        "phase",
        "pos",
        "revealed",
        "rules",
        "shoe",
        "turn",
    )

    def __init__(self, state: RoundState) -> None:
        self.rules = state.rules
        self.boxes = list(state.boxes)
        self.dealer = list(state.dealer)
        self.shoe = state.shoe
        self.cards = state.shoe.cards
        self.pos = state.shoe.position
        self.decks = state.shoe.decks
        self.events: list[Event] = list(state.events)
        self.phase = state.phase
        self.turn = state.turn
        self.revealed = state.revealed
        self.peeked = state.peeked
        self.bi = 0
        if state.turn is not None:
            seat = state.turn[0]
            self.bi = next(i for i, b in enumerate(self.boxes) if b.seat == seat)

    def freeze(self) -> RoundState:
        """The new state, built through the slots (a frozen dataclass's ``__init__`` costs
        more than the rest of a simple move)."""
        shoe = self.shoe
        if shoe.position != self.pos or shoe.cards is not self.cards:
            shoe = _make_shoe(self.cards, self.pos, self.decks)
        state: RoundState = _onew(RoundState)
        s_rules, s_boxes, s_dealer, s_shoe, s_phase, s_turn, s_rev, s_peek, s_ev, s_memo = (
            _STATE_SLOTS
        )
        s_rules(state, self.rules)
        s_boxes(state, tuple(self.boxes))
        s_dealer(state, tuple(self.dealer))
        s_shoe(state, shoe)
        s_phase(state, self.phase)
        s_turn(state, self.turn)
        s_rev(state, self.revealed)
        s_peek(state, self.peeked)
        s_ev(state, tuple(self.events))
        s_memo(state, None)
        return state

    def draw(self) -> Card:
        if self.pos >= len(self.cards):
            # Every card dealt in this round is on the table, whatever it belongs to now.
            on_table = [e.card for e in self.events if e.card is not None and e.kind in _DEALT]
            fresh = Shoe(self.cards, self.pos, self.decks).refilled(on_table)
            self.cards, self.pos = fresh.cards, 0
            self.events.append(_event(EventKind.RESHUFFLE))
        card = self.cards[self.pos]
        self.pos += 1
        return card

    def set_hand(self, bi: int, h: int, hand: Hand) -> None:
        b = self.boxes[bi]
        old = b[2]
        hands = (hand,) if len(old) == 1 else (*old[:h], hand, *old[h + 1 :])
        self.boxes[bi] = _tnew(Box, (b[0], b[1], hands, b[3], b[4], b[5]))

    def settle(self, bi: int, h: int, hand: Hand, outcome: Outcome, paid: Money) -> Hand:
        hand = _hand(
            hand.cards,
            hand.bet,
            hand.doubled,
            hand.from_split,
            hand.split_aces,
            True,
            hand.surrendered,
            outcome,
            paid,
        )
        self.set_hand(bi, h, hand)
        self.events.append(
            _event(EventKind.SETTLE, self.boxes[bi].seat, h, paid=paid, outcome=outcome)
        )
        return hand

    def settle_insurance(self, bi: int, paid: Money) -> None:
        b = self.boxes[bi]
        self.boxes[bi] = _box(b.seat, b.bet, b.hands, b.insurance, b.insurance_answer, paid)
        outcome = Outcome.WIN if paid else Outcome.LOSE
        self.events.append(_event(EventKind.INSURANCE, b.seat, paid=paid, outcome=outcome))

    def dealer_blackjack(self) -> bool:
        return is_blackjack(self.dealer[:2], from_split=False)

    # --- the flow of the round ---------------------------------------------------------

    def after_deal(self) -> None:
        rules = self.rules
        up = RANK_POINTS[self.dealer[0].rank]
        if rules.early_blackjack_payout and 2 <= up <= 9:
            for bi, b in enumerate(self.boxes):
                hand = b.hands[0]
                if is_blackjack(hand.cards, from_split=False):
                    self.settle(
                        bi,
                        0,
                        hand,
                        Outcome.BLACKJACK,
                        hand.bet + times(hand.bet, rules.blackjack_pays),
                    )
        if up == 1 and rules.insurance:
            self.phase = Phase.INSURANCE
            self.bi = 0
            self.turn = (self.boxes[0].seat, 0)
            return
        self.after_insurance()

    def answer_insurance(self, move: Move) -> None:
        bi = self.bi
        b = self.boxes[bi]
        hand = b.hands[0]
        stake: Money = 0
        if move is Move.INSURE and not is_blackjack(hand.cards, from_split=False):
            stake = half(b.bet)
        self.events.append(_event(EventKind.MOVE, b.seat, 0, move=move, staked=stake))
        self.boxes[bi] = _box(b.seat, b.bet, b.hands, stake, move, None)
        if move is Move.INSURE and not stake:
            self.settle(bi, 0, hand, Outcome.EVEN_MONEY, 2 * hand.bet)
        if bi + 1 < len(self.boxes):
            self.bi = bi + 1
            self.turn = (self.boxes[bi + 1].seat, 0)
        else:
            self.after_insurance()

    def after_insurance(self) -> None:
        up = RANK_POINTS[self.dealer[0].rank]
        if self.rules.peeks_under(up):
            self.peeked = True
            bj = self.dealer_blackjack()
            self.events.append(_event(EventKind.PEEK, blackjack=bj))
            if bj:
                self.end_on_peeked_blackjack()
                return
            for bi, b in enumerate(self.boxes):
                if b.insurance:
                    self.settle_insurance(bi, 0)
        self.phase = Phase.PLAYERS
        self.advance(0, 0)

    def end_on_peeked_blackjack(self) -> None:
        """Every box loses its main bet only; a box's own blackjack pushes."""
        self.reveal()
        for bi, b in enumerate(self.boxes):
            if b.insurance:
                self.settle_insurance(bi, 3 * b.insurance)
            hand = b.hands[0]
            if hand.outcome is None:
                if is_blackjack(hand.cards, from_split=False):
                    self.settle(bi, 0, hand, Outcome.PUSH, hand.bet)
                else:
                    self.settle(bi, 0, hand, Outcome.LOSE, 0)
        self.phase = Phase.SETTLED
        self.turn = None

    def reveal(self) -> None:
        self.revealed = True
        self.events.append(_event(EventKind.REVEAL, card=self.dealer[1]))

    def advance(self, bi: int, h: int) -> None:
        """Give the turn to the first unfinished hand from ``(bi, h)`` on, else to the dealer."""
        rules = self.rules
        boxes = self.boxes
        while bi < len(boxes):
            b = boxes[bi]
            while h < len(b.hands):
                hand = b.hands[h]
                if not hand.finished and len(hand.cards) == 1:
                    card = self.draw()
                    self.events.append(_event(EventKind.DEAL, b.seat, h, card=card))
                    cards = (*hand.cards, card)
                    done = best_total(cards) == 21 or (
                        hand.split_aces
                        and not rules.hit_split_aces
                        and not (
                            rules.resplit_aces
                            and card.rank == "A"
                            and len(b.hands) < rules.max_hands
                        )
                    )
                    hand = _hand(cards, hand.bet, False, True, hand.split_aces, done)
                    self.set_hand(bi, h, hand)
                    b = boxes[bi]
                if not hand.finished:
                    self.bi = bi
                    self.turn = (b.seat, h)
                    return
                h += 1
            bi += 1
            h = 0
        self.dealer_play()

    def play(self, move: Move) -> None:
        bi = self.bi
        assert self.turn is not None
        seat, h = self.turn
        hand = self.boxes[bi].hands[h]
        if move is Move.STAND:
            self.events.append(_tnew(Event, (_MOVE, seat, h, None, move, 0, 0, None, None)))
            self.set_hand(bi, h, _finished(hand))
            self.advance(bi, h + 1)
        elif move is Move.HIT or move is Move.DOUBLE:
            doubled = move is Move.DOUBLE
            staked = hand.bet if doubled else 0
            events = self.events
            events.append(_tnew(Event, (_MOVE, seat, h, None, move, staked, 0, None, None)))
            card = self.draw()
            events.append(_tnew(Event, (_DEAL, seat, h, card, None, 0, 0, None, None)))
            cards = (*hand.cards, card)
            hard, ace = hard_and_ace(cards)
            total = hard + 10 if ace and hard <= 11 else hard
            done = doubled or total >= 21
            hand = _hand(cards, hand.bet, doubled, hand.from_split, hand.split_aces, done)
            if hard > 21:
                self.settle(bi, h, hand, Outcome.BUST, 0)
            else:
                self.set_hand(bi, h, hand)
            if done:
                self.advance(bi, h + 1)
        elif move is Move.SPLIT:
            self.events.append(_event(EventKind.MOVE, seat, h, move=move, staked=hand.bet))
            aces = hand.cards[0].rank == "A"
            first = _hand(hand.cards[:1], hand.bet, False, True, aces)
            second = _hand(hand.cards[1:], hand.bet, False, True, aces)
            b = self.boxes[bi]
            self.boxes[bi] = _box(
                b.seat,
                b.bet,
                (*b.hands[:h], first, second, *b.hands[h + 1 :]),
                b.insurance,
                b.insurance_answer,
                b.insurance_paid,
            )
            self.advance(bi, h)
        elif move is Move.SURRENDER:
            self.events.append(_event(EventKind.MOVE, seat, h, move=move))
            hand = _hand(hand.cards, hand.bet, False, False, False, True, True)
            up = RANK_POINTS[self.dealer[0].rank]
            if self.peeked or up not in (1, 10):
                self.settle(bi, h, hand, Outcome.SURRENDER, half(hand.bet))
            else:
                self.set_hand(bi, h, hand)
            self.advance(bi, h + 1)

    def dealer_play(self) -> None:
        self.turn = None
        self.reveal()
        rules = self.rules
        if any(_needs_dealer_total(hand) for b in self.boxes for hand in b.hands):
            dealer = self.dealer
            while True:
                hard, ace = hard_and_ace(dealer)
                soft = ace and hard <= 11
                total = hard + 10 if soft else hard
                if total > 17 or (total == 17 and not (soft and rules.dealer_hits_soft_17)):
                    break
                card = self.draw()
                dealer.append(card)
                self.events.append(_event(EventKind.DRAW, card=card))
        self.settle_all()

    def settle_all(self) -> None:
        dealer_bj = self.dealer_blackjack()
        dealer_total = best_total(self.dealer)
        pays = self.rules.blackjack_pays
        for bi, b in enumerate(self.boxes):
            if b.insurance and b.insurance_paid is None:
                self.settle_insurance(bi, 3 * b.insurance if dealer_bj else 0)
            for h, hand in enumerate(self.boxes[bi].hands):
                if hand.outcome is not None:
                    continue
                if hand.surrendered:
                    if dealer_bj:
                        self.settle(bi, h, hand, Outcome.LOSE, 0)
                    else:
                        self.settle(bi, h, hand, Outcome.SURRENDER, half(hand.bet))
                elif is_blackjack(hand.cards, from_split=hand.from_split):
                    if dealer_bj:
                        self.settle(bi, h, hand, Outcome.PUSH, hand.bet)
                    else:
                        self.settle(
                            bi, h, hand, Outcome.BLACKJACK, hand.bet + times(hand.bet, pays)
                        )
                else:
                    total = best_total(hand.cards)
                    stake = hand.stake
                    if dealer_bj or (dealer_total <= 21 and total < dealer_total):
                        self.settle(bi, h, hand, Outcome.LOSE, 0)
                    elif total == dealer_total:
                        self.settle(bi, h, hand, Outcome.PUSH, stake)
                    else:
                        self.settle(bi, h, hand, Outcome.WIN, 2 * stake)
        self.phase = Phase.SETTLED


def _finished(hand: Hand) -> Hand:
    return _hand(hand.cards, hand.bet, hand.doubled, hand.from_split, hand.split_aces, True)


def _needs_dealer_total(hand: Hand) -> bool:
    """A hand whose result depends on more than whether the dealer has blackjack."""
    return (
        hand.outcome is None
        and not hand.surrendered
        and not is_blackjack(hand.cards, from_split=hand.from_split)
    )


# --- the public entry points ---------------------------------------------------------------


def start_round(*, rules: Rules, bets: Mapping[int, int], shoe: Shoe) -> RoundState:
    """Deal a round: ``bets`` maps a box (0–4, 0 the dealer's left) to its bet in chips.

    The returned state is in the insurance phase (an ace up and insurance offered), in the
    players' phase, or already settled (a peeked dealer blackjack, or nothing to play).
    """
    if not bets:
        raise ValueError("a round needs at least one bet")
    for seat, bet in bets.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_BOXES:
            raise ValueError(f"box must be 0 to {MAX_BOXES - 1}, not {seat!r}")
        if isinstance(bet, bool) or not isinstance(bet, int) or bet <= 0:
            raise ValueError(f"a bet must be a positive whole number of chips, not {bet!r}")
    seats = sorted(bets)
    empty = RoundState(rules, (), (), shoe, Phase.PLAYERS, None, False, False, ())
    w = _Work(empty)
    w.events = [_event(EventKind.BET, seat, 0, staked=bets[seat]) for seat in seats]
    first: list[Card] = []
    for seat in seats:
        card = w.draw()
        first.append(card)
        w.events.append(_event(EventKind.DEAL, seat, 0, card=card))
    up = w.draw()
    w.dealer.append(up)
    w.events.append(_event(EventKind.DEALER_UP, card=up))
    for seat, card in zip(seats, first, strict=True):
        second = w.draw()
        w.events.append(_event(EventKind.DEAL, seat, 0, card=second))
        cards = (card, second)
        natural = is_blackjack(cards, from_split=False)
        w.boxes.append(_box(seat, bets[seat], (_hand(cards, bets[seat], finished=natural),)))
    hole = w.draw()
    w.dealer.append(hole)
    w.events.append(_event(EventKind.HOLE, card=hole))
    w.after_deal()
    return w.freeze()


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
    why = _verdicts(state, balance)[move]
    if why is not None:
        raise IllegalMove(*why)
    w = _Work(state)
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
