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
from blackjack.round_build import (
    box_index,
    make_box,
    make_event,
    make_hand,
    make_shoe,
    make_state,
    tnew,
)
from blackjack.round_state import (
    Box,
    Event,
    EventKind,
    Hand,
    Money,
    Outcome,
    Phase,
    RoundState,
    dealt_cards,
    times,
)
from blackjack.rules import Rules
from blackjack.shoe import Shoe

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
            on_table = dealt_cards(self.events)
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
        self.events.append(
            tnew(Event, (_REVEAL, None, None, self.dealer[1], None, 0, 0, None, None))
        )

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
        if self.any_needs_dealer_total():
            hits_soft_17 = self.rules.dealer_hits_soft_17
            dealer = self.dealer
            events = self.events
            while True:
                hard, ace = hard_and_ace(dealer)
                soft = ace and hard <= 11
                total = hard + 10 if soft else hard
                if total > 17 or (total == 17 and not (soft and hits_soft_17)):
                    break
                card = self.draw()
                dealer.append(card)
                events.append(tnew(Event, (_DRAW, None, None, card, None, 0, 0, None, None)))
        self.settle_all()

    def any_needs_dealer_total(self) -> bool:
        """Does some hand's result depend on more than whether the dealer has blackjack?"""
        for b in self.boxes:
            for hand in b[2]:
                # Not settled, not surrendered, not a blackjack.
                if (
                    hand[7] is None
                    and not hand[6]
                    and not is_blackjack(hand[0], from_split=hand[3])
                ):
                    return True
        return False

    def settle_all(self) -> None:
        """Settle every hand still open against the dealer's final cards, each box's hands
        rebuilt once (this runs once a round, on every box)."""
        dealer = self.dealer
        dealer_bj = self.dealer_blackjack()
        dealer_total = best_total(dealer)
        pays = self.rules.blackjack_pays
        boxes = self.boxes
        events = self.events
        for bi in range(len(boxes)):
            b = boxes[bi]
            if b.insurance and b.insurance_paid is None:
                self.settle_insurance(bi, 3 * b.insurance if dealer_bj else 0)
                b = boxes[bi]
            seat = b[0]
            hands = list(b[2])
            for h, hand in enumerate(hands):
                if hand[7] is not None:  # settled already
                    continue
                bet = hand[1]
                cards = hand[0]
                hard, ace = hard_and_ace(cards)
                if hand[6]:  # surrendered
                    outcome, paid = (_LOSE, 0) if dealer_bj else (_SURRENDER, half(bet))
                elif hard == 11 and ace and len(cards) == 2 and not hand[3]:  # a blackjack
                    if dealer_bj:
                        outcome, paid = _PUSH, bet
                    else:
                        outcome, paid = _BLACKJACK, bet + times(bet, pays)
                else:
                    total = hard + 10 if ace and hard <= 11 else hard
                    stake = bet * 2 if hand[2] else bet
                    if dealer_bj or (dealer_total <= 21 and total < dealer_total):
                        outcome, paid = _LOSE, 0
                    elif total == dealer_total:
                        outcome, paid = _PUSH, stake
                    else:
                        outcome, paid = _WIN, 2 * stake
                hands[h] = tnew(
                    Hand, (hand[0], bet, hand[2], hand[3], hand[4], True, hand[6], outcome, paid)
                )
                events.append(tnew(Event, (_SETTLE, seat, h, None, None, 0, paid, outcome, None)))
            boxes[bi] = tnew(Box, (seat, b[1], tuple(hands), b[3], b[4], b[5]))
        self.phase = Phase.SETTLED


_LOSE, _PUSH, _WIN = Outcome.LOSE, Outcome.PUSH, Outcome.WIN
_SURRENDER, _BLACKJACK = Outcome.SURRENDER, Outcome.BLACKJACK
_SETTLE = EventKind.SETTLE


def _finished(hand: Hand) -> Hand:
    return make_hand(hand.cards, hand.bet, hand.doubled, hand.from_split, hand.split_aces, True)


_REVEAL, _DRAW = EventKind.REVEAL, EventKind.DRAW
