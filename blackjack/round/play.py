"""One round at a five-box table, as a state machine: ``apply(state, move) -> state``.

:func:`start_round` takes the bets and a shoe and deals in the order of RULES.md: a card to
each betting box from the dealer's left, the dealer's up card, a second card to each box, the
hole card.  The round then asks each box about insurance (or even money) when an ace is up,
lets the dealer peek where the rules say, and gives the turn to the hands one by one.  When
the last hand finishes, :func:`apply` plays the dealer and settles every bet before it
returns; the caller never drives the dealer.

:func:`legal_moves` is the one place that says what is legal now; :func:`apply` refuses
anything else with :class:`IllegalMove`, leaving the state as it was (states are immutable).
Money conventions and the event log: see :mod:`blackjack.round.state`.

**One implementation, two speeds.**  Every move is played by :class:`Work`, a mutable copy of
the round that one call changes and freezes into the next state.  The most frequent moves
(a hit, a stand, a declined insurance) have a shortcut that builds the next state straight
from the old one, sharing everything unchanged: that is what lets :func:`apply` play
15,000 five-box rounds a second.  The shortcut and the work area share the turn order
(:func:`next_open_hand`) and the legality (:mod:`blackjack.round.legal`); whatever is less
usual (the dealer's turn, a split hand waiting for its second card, the end of the
insurance offers, a shoe to refill) the shortcut hands to the work area where it begins.
``tests/blackjack/test_round_fast.py`` plays random rounds with and without the shortcut.

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
>>> from blackjack.round.legal import legal_moves
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

from blackjack.cards import RANK_POINTS, Card
from blackjack.hand import best_total, hard_and_ace, is_blackjack
from blackjack.moves import Move
from blackjack.round.legal import (
    NOT_YOUR_TURN,
    ROUND_OVER,
    UNKNOWN_MOVE,
    IllegalMove,
    half,
    hand_in_turn_verdicts,
    later_verdicts,
    verdict,
)
from blackjack.round.state import (
    MAX_BOXES,
    Box,
    Event,
    EventKind,
    Hand,
    Money,
    Outcome,
    Phase,
    RoundState,
    box_index,
    dealt_cards,
    make_box,
    make_event,
    make_hand,
    make_shoe,
    make_state,
    times,
    tnew,
)
from blackjack.rules import Rules
from blackjack.shoe import Shoe

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
    need = 2 * len(seats) + 2
    if w.pos + need <= len(w.cards):  # the usual case: no refill, the cards come in a row
        draw = iter(w.cards[w.pos : w.pos + need]).__next__
        w.pos += need
    else:
        draw = w.draw
    first: list[Card] = []
    for s in seats:
        card = draw()
        first.append(card)
        events.append(tnew(Event, (deal_kind, s, 0, card, None, 0, 0, None, None)))
    up = draw()
    events.append(tnew(Event, (EventKind.DEALER_UP, None, None, up, None, 0, 0, None, None)))
    boxes = w.boxes
    for s, card in zip(seats, first, strict=True):
        second = draw()
        events.append(tnew(Event, (deal_kind, s, 0, second, None, 0, 0, None, None)))
        cards = (card, second)
        bet = bets[s]
        a, b = RANK_POINTS[card.rank], RANK_POINTS[second.rank]
        natural = a + b == 11 and (a == 1 or b == 1)  # is_blackjack, inline: five a round
        hand = tnew(Hand, (cards, bet, False, False, False, natural, False, None, None))
        boxes.append(tnew(Box, (s, bet, (hand,), 0, None, None)))
    hole = draw()
    w.dealer = [up, hole]
    events.append(tnew(Event, (EventKind.HOLE, None, None, hole, None, 0, 0, None, None)))
    w.after_deal()
    return w.freeze()


def _check_bet(seat: object, bet: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_BOXES:
        raise ValueError(f"box must be 0 to {MAX_BOXES - 1}, not {seat!r}")
    if isinstance(bet, bool) or not isinstance(bet, int) or bet <= 0:
        raise ValueError(f"a bet must be a positive whole number of chips, not {bet!r}")


_SETTLED = Phase.SETTLED


def apply(
    state: RoundState,
    move: Move | str,
    *,
    balance: Money | None = None,
    seat: int | None = None,
) -> RoundState:
    """The state after ``move`` by the hand (or box) in turn.

    ``balance``: what the wallet still holds (``None``: no limit).  ``seat``: when given, the
    move is refused unless that box is in turn (a click on a box that is not playing now).
    Raises :class:`IllegalMove` when the move is not legal now; ``state`` is never changed.
    """
    turn = state.turn
    if turn is None or state.phase is _SETTLED:
        raise IllegalMove(*ROUND_OVER)
    if seat is not None and seat != turn[0]:
        raise IllegalMove(*NOT_YOUR_TURN)
    if not isinstance(move, Move):
        try:
            move = Move(move)
        except ValueError:
            raise IllegalMove(*UNKNOWN_MOVE) from None
    memo = state._verdicts  # usually there: the caller asked legal_moves first
    why = memo[0][move] if memo is not None and balance is None else verdict(state, move, balance)
    if why is not None:
        raise IllegalMove(*why)
    return apply_shortcut(state, move) or apply_general(state, move)


def apply_general(state: RoundState, move: Move) -> RoundState:
    """``move``, already found legal, played through the work area without the shortcut:
    what :func:`apply` does for every move but a hit, a stand and a declined insurance, and
    what the tests compare the shortcut with."""
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
        self.boxes[bi] = _with_hand(self.boxes[bi], h, hand)

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
        """Give the turn to the first unfinished hand from ``(bi, h)`` on, else to the dealer.

        A split hand receives its second card when its turn comes; it is finished at once
        when the rules then leave it nothing but to stand (21, or split aces that take one
        card and may not be split again).
        """
        boxes = self.boxes
        while True:
            at = next_open_hand(boxes, bi, h)
            if at is None:
                self.dealer_play()
                return
            bi, h = at
            b = boxes[bi]
            hand = b.hands[h]
            if len(hand.cards) == 1:
                card = self.draw()
                self.events.append(make_event(EventKind.DEAL, b.seat, h, card=card))
                cards = (*hand.cards, card)
                legal = hand_in_turn_verdicts(
                    self.rules,
                    cards,
                    hands=len(b.hands),
                    from_split=True,
                    split_aces=hand.split_aces,
                    up=self.dealer[0],
                )[1]
                done = legal == _STAND_ONLY
                self.set_hand(bi, h, make_hand(cards, hand.bet, False, True, hand.split_aces, done))
                if done:
                    h += 1
                    continue
            self.bi = bi
            self.turn = (b.seat, h)
            return

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
            if self.peeked or not _may_make_blackjack(self.dealer[0]):
                # The dealer is known not to hold blackjack: half the bet back at once.
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
            for hand in b.hands:
                if (
                    hand.outcome is None
                    and not hand.surrendered
                    and not is_blackjack(hand.cards, from_split=hand.from_split)
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
            seat = b.seat
            hands = list(b.hands)
            for h, hand in enumerate(hands):
                if hand.outcome is not None:  # settled already
                    continue
                bet = hand.bet
                cards = hand.cards
                hard, ace = hard_and_ace(cards)
                if hand.surrendered:
                    outcome, paid = (_LOSE, 0) if dealer_bj else (_SURRENDER, half(bet))
                elif hard == 11 and ace and len(cards) == 2 and not hand.from_split:  # blackjack
                    if dealer_bj:
                        outcome, paid = _PUSH, bet
                    else:
                        outcome, paid = _BLACKJACK, bet + times(bet, pays)
                else:
                    total = hard + 10 if ace and hard <= 11 else hard
                    stake = bet * 2 if hand.doubled else bet
                    if dealer_bj or (dealer_total <= 21 and total < dealer_total):
                        outcome, paid = _LOSE, 0
                    elif total == dealer_total:
                        outcome, paid = _PUSH, stake
                    else:
                        outcome, paid = _WIN, 2 * stake
                hands[h] = make_hand(
                    cards,
                    bet,
                    hand.doubled,
                    hand.from_split,
                    hand.split_aces,
                    True,
                    hand.surrendered,
                    outcome,
                    paid,
                )
                events.append(tnew(Event, (_SETTLE, seat, h, None, None, 0, paid, outcome, None)))
            boxes[bi] = make_box(
                seat, b.bet, tuple(hands), b.insurance, b.insurance_answer, b.insurance_paid
            )
        self.phase = Phase.SETTLED


_LOSE, _PUSH, _WIN = Outcome.LOSE, Outcome.PUSH, Outcome.WIN
_SURRENDER, _BLACKJACK = Outcome.SURRENDER, Outcome.BLACKJACK
_SETTLE = EventKind.SETTLE


def _finished(hand: Hand) -> Hand:
    return make_hand(hand.cards, hand.bet, hand.doubled, hand.from_split, hand.split_aces, True)


_STAND_ONLY = frozenset({Move.STAND})


def _may_make_blackjack(up: Card) -> bool:
    """Can the dealer hold blackjack with this up card (an ace or a ten-value card)?"""
    return RANK_POINTS[up.rank] in (1, 10)


# --- the turn order, shared by the work area and the shortcut -------------------------------


def next_open_hand(boxes: tuple[Box, ...] | list[Box], bi: int, h: int) -> tuple[int, int] | None:
    """The first unfinished hand from hand ``h`` of box index ``bi`` on, as ``(box index,
    hand)``, in the order of play (box by box from the dealer's left, hand by hand); ``None``
    when every hand is finished and the dealer plays.
    """
    n = len(boxes)
    while bi < n:
        hands = boxes[bi].hands
        while h < len(hands):
            if not hands[h].finished:
                return bi, h
            h += 1
        bi += 1
        h = 0
    return None


def _with_hand(box: Box, h: int, hand: Hand) -> Box:
    """``box`` with its hand ``h`` replaced by ``hand``."""
    hands = box.hands
    hands = (hand,) if len(hands) == 1 else (*hands[:h], hand, *hands[h + 1 :])
    insurance = (box.insurance, box.insurance_answer, box.insurance_paid)
    return tnew(Box, (box.seat, box.bet, hands, *insurance))


_REVEAL, _DRAW = EventKind.REVEAL, EventKind.DRAW


# --- the shortcut for hit, stand and a declined insurance ------------------------------------

_HIT, _STAND, _DECLINE = Move.HIT, Move.STAND, Move.DECLINE
_MOVE, _DEAL = EventKind.MOVE, EventKind.DEAL
_PLAYERS, _INSURANCE = Phase.PLAYERS, Phase.INSURANCE
_BUST = Outcome.BUST


def apply_shortcut(state: RoundState, move: Move) -> RoundState | None:
    """The shortcut alone, what :func:`apply` tries first (the tests compare it with
    :func:`apply_general`): the state after ``move`` (already found legal) when it is a hit,
    a stand or a declined insurance; ``None`` for any other move, or when the shoe must be
    refilled, for the work area to play it.

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.rules import PRESETS
    >>> shoe = Shoe.from_cards(parse_cards("9c 6h 2d 10c 5s"))
    >>> state = start_round(rules=PRESETS["thoth"], bets={0: 10}, shoe=shoe)
    >>> apply_shortcut(state, Move.HIT).box(0).hands[0].total
    16
    >>> apply_shortcut(state, Move.DOUBLE) is None
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


def _in_turn(state: RoundState) -> tuple[int, int, int, Box]:
    """The seat and hand in turn, the box's index in ``state.boxes`` and the box."""
    turn = state.turn
    assert turn is not None
    seat, h = turn
    bi = 0
    boxes = state.boxes
    while boxes[bi].seat != seat:  # box_index, inline: asked for every hit and stand
        bi += 1
    return seat, h, bi, boxes[bi]


def _hit(state: RoundState) -> RoundState | None:
    turn = state.turn
    assert turn is not None
    seat, h = turn
    boxes = state.boxes
    bi = 0
    while boxes[bi].seat != seat:  # _in_turn, inline: hits are the most frequent move
        bi += 1
    box = boxes[bi]
    hand = box.hands[h]
    shoe = state.shoe
    cards = shoe.cards
    pos = shoe.position
    if pos >= len(cards):
        return None  # the shoe is refilled by the work area
    card = cards[pos]
    held = (*hand.cards, card)
    hard, ace = hard_and_ace(held)
    total = hard + 10 if ace and hard <= 11 else hard
    events = (
        *state.events,
        tnew(Event, (_MOVE, seat, h, None, _HIT, 0, 0, None, None)),
        tnew(Event, (_DEAL, seat, h, card, None, 0, 0, None, None)),
    )
    if total < 21:
        # The hand plays on: the turn stays, and its verdicts are those of any later hand.
        hand = tnew(
            Hand,
            (held, hand.bet, False, hand.from_split, hand.split_aces, False, False, None, None),
        )
        rules = state.rules
        return make_state(
            rules,
            (*boxes[:bi], _with_hand(box, h, hand), *boxes[bi + 1 :]),
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
        hand = make_hand(
            held, hand.bet, False, hand.from_split, hand.split_aces, True, False, _BUST, 0
        )
        events = (*events, make_event(EventKind.SETTLE, seat, h, paid=0, outcome=_BUST))
    else:
        hand = make_hand(held, hand.bet, False, hand.from_split, hand.split_aces, True)
    boxes = (*boxes[:bi], _with_hand(box, h, hand), *boxes[bi + 1 :])
    return _next_turn(state, boxes, bi, h, pos + 1, events)


def _stand(state: RoundState) -> RoundState:
    turn = state.turn
    assert turn is not None
    seat, h = turn
    boxes = state.boxes
    bi = 0
    while boxes[bi].seat != seat:  # _in_turn, inline: stands are the second most frequent move
        bi += 1
    box = boxes[bi]
    boxes = (*boxes[:bi], _with_hand(box, h, _finished(box.hands[h])), *boxes[bi + 1 :])
    events = (*state.events, tnew(Event, (_MOVE, seat, h, None, _STAND, 0, 0, None, None)))
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
    at = next_open_hand(boxes, bi, h + 1)
    if at is None or len(boxes[at[0]].hands[at[1]].cards) == 1:
        w = _work(state, boxes, bi, pos, events)
        w.advance(*(at or (len(boxes), 0)))
        return w.freeze()
    bi, h = at
    shoe = state.shoe
    if pos != shoe.position:
        shoe = make_shoe(shoe.cards, pos, shoe.decks)
    return make_state(
        state.rules,
        boxes,
        state.dealer,
        shoe,
        _PLAYERS,
        (boxes[bi].seat, h),
        state.revealed,
        state.peeked,
        events,
    )


def _work(
    state: RoundState, boxes: tuple[Box, ...], bi: int, pos: int, events: tuple[Event, ...]
) -> Work:
    """A work area holding the round as the shortcut has changed it so far."""
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


def _decline(state: RoundState) -> RoundState:
    seat, _h, bi, box = _in_turn(state)
    box = make_box(seat, box.bet, box.hands, 0, _DECLINE, None)
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
        (boxes[bi + 1].seat, 0),
        state.revealed,
        state.peeked,
        events,
    )
