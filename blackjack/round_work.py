"""The general machinery of a round: a mutable work area that one ``start_round`` or
``apply`` call changes and freezes into the next :class:`~blackjack.round_state.RoundState`.

Every move and every rule goes through here; :mod:`blackjack.round_fast` handles the most
frequent moves (hit, stand, a declined insurance) without it and hands the rest back.
The rules of play are described in :mod:`blackjack.round`.
"""

from __future__ import annotations

from blackjack.cards import RANK_POINTS, Card
from blackjack.hand import best_total, hard_and_ace, is_blackjack
from blackjack.legal import half
from blackjack.moves import Move
from blackjack.round_state import (
    Box,
    Event,
    EventKind,
    Hand,
    Money,
    Outcome,
    Phase,
    RoundState,
    times,
)
from blackjack.rules import Rules
from blackjack.shoe import Shoe

_DEALT = frozenset({EventKind.DEAL, EventKind.DEALER_UP, EventKind.HOLE, EventKind.DRAW})


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
) -> RoundState:
    """A new state built through the slots: a frozen dataclass's ``__init__`` costs about
    twice as much, more than the rest of a simple move."""
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
    s_memo(state, None)
    return state


def box_index(boxes: tuple[Box, ...] | list[Box], seat: int) -> int:
    """Where the box on ``seat`` is in ``boxes``."""
    for i, b in enumerate(boxes):
        if b[0] == seat:
            return i
    raise KeyError(f"no bet on box {seat}")


# --- the work area: a mutable copy used inside one call, frozen on the way out --------------


class Work:
    """The round being changed inside one ``start_round`` or ``apply`` call.

    ``shoe`` is the shoe the call began with; ``cards``/``pos`` where the dealing stands now
    (``cards`` differs from ``shoe.cards`` once a mid-round refill happened).  ``bi`` is the
    index in ``boxes`` of the box in turn.
    """

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

    def __init__(
        self,
        rules: Rules,
        boxes: list[Box],
        dealer: list[Card],
        shoe: Shoe,
        pos: int,
        events: list[Event],
        phase: Phase = Phase.PLAYERS,
        turn: tuple[int, int] | None = None,
        revealed: bool = False,
        peeked: bool = False,
        bi: int = 0,
    ) -> None:
        self.rules = rules
        self.boxes = boxes
        self.dealer = dealer
        self.shoe = shoe
        self.cards = shoe.cards
        self.pos = pos
        self.decks = shoe.decks
        self.events = events
        self.phase = phase
        self.turn = turn
        self.revealed = revealed
        self.peeked = peeked
        self.bi = bi

    @classmethod
    def of(cls, state: RoundState) -> Work:
        """A work area holding ``state``, to change."""
        turn = state.turn
        return cls(
            state.rules,
            list(state.boxes),
            list(state.dealer),
            state.shoe,
            state.shoe.position,
            list(state.events),
            state.phase,
            turn,
            state.revealed,
            state.peeked,
            0 if turn is None else box_index(state.boxes, turn[0]),
        )

    def freeze(self) -> RoundState:
        """The new state."""
        shoe = self.shoe
        if shoe.position != self.pos or shoe.cards is not self.cards:
            shoe = make_shoe(self.cards, self.pos, self.decks)
        return make_state(
            self.rules,
            tuple(self.boxes),
            tuple(self.dealer),
            shoe,
            self.phase,
            self.turn,
            self.revealed,
            self.peeked,
            tuple(self.events),
        )

    def draw(self) -> Card:
        if self.pos >= len(self.cards):
            # Every card dealt in this round is on the table, whatever it belongs to now.
            on_table = [e.card for e in self.events if e.card is not None and e.kind in _DEALT]
            fresh = Shoe(self.cards, self.pos, self.decks).refilled(on_table)
            self.cards, self.pos = fresh.cards, 0
            self.events.append(make_event(EventKind.RESHUFFLE))
        card = self.cards[self.pos]
        self.pos += 1
        return card

    def set_hand(self, bi: int, h: int, hand: Hand) -> None:
        b = self.boxes[bi]
        old = b[2]
        hands = (hand,) if len(old) == 1 else (*old[:h], hand, *old[h + 1 :])
        self.boxes[bi] = tnew(Box, (b[0], b[1], hands, b[3], b[4], b[5]))

    def settle(self, bi: int, h: int, hand: Hand, outcome: Outcome, paid: Money) -> Hand:
        hand = make_hand(
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
            make_event(EventKind.SETTLE, self.boxes[bi].seat, h, paid=paid, outcome=outcome)
        )
        return hand

    def settle_insurance(self, bi: int, paid: Money) -> None:
        b = self.boxes[bi]
        self.boxes[bi] = make_box(b.seat, b.bet, b.hands, b.insurance, b.insurance_answer, paid)
        outcome = Outcome.WIN if paid else Outcome.LOSE
        self.events.append(make_event(EventKind.INSURANCE, b.seat, paid=paid, outcome=outcome))

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
        self.events.append(make_event(EventKind.MOVE, b.seat, 0, move=move, staked=stake))
        self.boxes[bi] = make_box(b.seat, b.bet, b.hands, stake, move, None)
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
            self.events.append(make_event(EventKind.PEEK, blackjack=bj))
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
        self.events.append(make_event(EventKind.REVEAL, card=self.dealer[1]))

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
                    self.events.append(make_event(EventKind.DEAL, b.seat, h, card=card))
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
                    hand = make_hand(cards, hand.bet, False, True, hand.split_aces, done)
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
            self.events.append(tnew(Event, (EventKind.MOVE, seat, h, None, move, 0, 0, None, None)))
            self.set_hand(bi, h, _finished(hand))
            self.advance(bi, h + 1)
        elif move is Move.HIT or move is Move.DOUBLE:
            doubled = move is Move.DOUBLE
            staked = hand.bet if doubled else 0
            events = self.events
            events.append(tnew(Event, (EventKind.MOVE, seat, h, None, move, staked, 0, None, None)))
            card = self.draw()
            events.append(tnew(Event, (EventKind.DEAL, seat, h, card, None, 0, 0, None, None)))
            cards = (*hand.cards, card)
            hard, ace = hard_and_ace(cards)
            total = hard + 10 if ace and hard <= 11 else hard
            done = doubled or total >= 21
            hand = make_hand(cards, hand.bet, doubled, hand.from_split, hand.split_aces, done)
            if hard > 21:
                self.settle(bi, h, hand, Outcome.BUST, 0)
            else:
                self.set_hand(bi, h, hand)
            if done:
                self.advance(bi, h + 1)
        elif move is Move.SPLIT:
            self.events.append(make_event(EventKind.MOVE, seat, h, move=move, staked=hand.bet))
            aces = hand.cards[0].rank == "A"
            first = make_hand(hand.cards[:1], hand.bet, False, True, aces)
            second = make_hand(hand.cards[1:], hand.bet, False, True, aces)
            b = self.boxes[bi]
            self.boxes[bi] = make_box(
                b.seat,
                b.bet,
                (*b.hands[:h], first, second, *b.hands[h + 1 :]),
                b.insurance,
                b.insurance_answer,
                b.insurance_paid,
            )
            self.advance(bi, h)
        elif move is Move.SURRENDER:
            self.events.append(make_event(EventKind.MOVE, seat, h, move=move))
            hand = make_hand(hand.cards, hand.bet, False, False, False, True, True)
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
                self.events.append(make_event(EventKind.DRAW, card=card))
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
    return make_hand(hand.cards, hand.bet, hand.doubled, hand.from_split, hand.split_aces, True)


def _needs_dealer_total(hand: Hand) -> bool:
    """A hand whose result depends on more than whether the dealer has blackjack."""
    return (
        hand.outcome is None
        and not hand.surrendered
        and not is_blackjack(hand.cards, from_split=hand.from_split)
    )
