"""A round as plain JSON and back, and the part of it a player may see.

:func:`to_json` keeps everything (the hole card, the undealt shoe) so that a stored round
resumes exactly; it must stay on the server.  :func:`player_view` is what may be sent to a
browser: the hole card only once revealed, of the shoe only how many cards remain.

The JSON carries ``"version"``; :func:`from_json` reads every version it has ever written,
so stored rounds keep loading after the code changes.  Amounts are integers, or
``"numerator/denominator"`` strings when fractional (a 3:2 payout on an odd bet).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from blackjack.cards import Card
from blackjack.hand import hand_total
from blackjack.moves import Move
from blackjack.round.legal import legal_moves
from blackjack.round.state import (
    Box,
    Event,
    EventKind,
    Hand,
    Money,
    Outcome,
    Phase,
    RoundState,
)
from blackjack.rules import Rules
from blackjack.shoe import Shoe

FORMAT_VERSION = 1


def money_to_json(amount: Money) -> int | str:
    """``150`` stays ``150``; ``Fraction(15, 2)`` becomes ``"15/2"``.

    >>> money_to_json(Fraction(15, 2)), money_to_json(Fraction(4, 2))
    ('15/2', 2)
    """
    if isinstance(amount, Fraction):
        if amount.denominator == 1:
            return amount.numerator
        return f"{amount.numerator}/{amount.denominator}"
    return amount


def money_from_json(value: int | str) -> Money:
    """Inverse of :func:`money_to_json`.

    >>> money_from_json("15/2"), money_from_json(3)
    (Fraction(15, 2), 3)
    """
    if isinstance(value, int):
        return value
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else f


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in cards]


def _parse(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def _hand_to_json(hand: Hand) -> dict[str, Any]:
    return {
        "cards": _cards(hand.cards),
        "bet": hand.bet,
        "doubled": hand.doubled,
        "from_split": hand.from_split,
        "split_aces": hand.split_aces,
        "finished": hand.finished,
        "surrendered": hand.surrendered,
        "outcome": hand.outcome.value if hand.outcome else None,
        "paid": None if hand.paid is None else money_to_json(hand.paid),
    }


def _hand_from_json(d: dict[str, Any]) -> Hand:
    return Hand(
        cards=_parse(d["cards"]),
        bet=d["bet"],
        doubled=d["doubled"],
        from_split=d["from_split"],
        split_aces=d["split_aces"],
        finished=d["finished"],
        surrendered=d["surrendered"],
        outcome=Outcome(d["outcome"]) if d["outcome"] else None,
        paid=None if d["paid"] is None else money_from_json(d["paid"]),
    )


def _box_to_json(box: Box) -> dict[str, Any]:
    return {
        "seat": box.seat,
        "bet": box.bet,
        "hands": [_hand_to_json(h) for h in box.hands],
        "insurance": money_to_json(box.insurance),
        "insurance_answer": box.insurance_answer.value if box.insurance_answer else None,
        "insurance_paid": None if box.insurance_paid is None else money_to_json(box.insurance_paid),
    }


def _box_from_json(d: dict[str, Any]) -> Box:
    return Box(
        seat=d["seat"],
        bet=d["bet"],
        hands=tuple(_hand_from_json(h) for h in d["hands"]),
        insurance=money_from_json(d["insurance"]),
        insurance_answer=Move(d["insurance_answer"]) if d["insurance_answer"] else None,
        insurance_paid=None
        if d["insurance_paid"] is None
        else money_from_json(d["insurance_paid"]),
    )


def _event_to_json(e: Event, *, hide_card: bool = False) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": e.kind.value}
    if e.seat is not None:
        d["seat"] = e.seat
    if e.hand is not None:
        d["hand"] = e.hand
    if e.card is not None and not hide_card:
        d["card"] = e.card.code
    if e.move is not None:
        d["move"] = e.move.value
    if e.staked:
        d["staked"] = money_to_json(e.staked)
    if e.kind in (EventKind.SETTLE, EventKind.INSURANCE):
        d["paid"] = money_to_json(e.paid)
    if e.outcome is not None:
        d["outcome"] = e.outcome.value
    if e.blackjack is not None:
        d["blackjack"] = e.blackjack
    return d


def _event_from_json(d: dict[str, Any]) -> Event:
    return Event(
        kind=EventKind(d["kind"]),
        seat=d.get("seat"),
        hand=d.get("hand"),
        card=Card.parse(d["card"]) if "card" in d else None,
        move=Move(d["move"]) if "move" in d else None,
        staked=money_from_json(d.get("staked", 0)),
        paid=money_from_json(d.get("paid", 0)),
        outcome=Outcome(d["outcome"]) if "outcome" in d else None,
        blackjack=d.get("blackjack"),
    )


def to_json(state: RoundState) -> dict[str, Any]:
    """Everything about the round as JSON-able data, secrets included: server side only.

    >>> from blackjack.cards import parse_cards
    >>> from blackjack.round import start_round
    >>> from blackjack.rules import PRESETS
    >>> s = start_round(rules=PRESETS["thoth"], bets={0: 100},
    ...                 shoe=Shoe.from_cards(parse_cards("9c 6h 2d 10c 5s")))
    >>> from_json(to_json(s)) == s
    True
    """
    return {
        "version": FORMAT_VERSION,
        "rules": state.rules.to_dict(),
        "phase": state.phase.value,
        "turn": list(state.turn) if state.turn is not None else None,
        "revealed": state.revealed,
        "peeked": state.peeked,
        "dealer": _cards(state.dealer),
        "boxes": [_box_to_json(b) for b in state.boxes],
        "shoe": {
            "cards": _cards(state.shoe.cards),
            "position": state.shoe.position,
            "decks": state.shoe.decks,
        },
        "events": [_event_to_json(e) for e in state.events],
    }


def from_json(data: dict[str, Any]) -> RoundState:
    """Inverse of :func:`to_json`, for every format version written so far."""
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise ValueError(f"unknown round format version {version!r}")
    shoe = data["shoe"]
    turn = data["turn"]
    return RoundState(
        rules=Rules.from_dict(data["rules"]),
        boxes=tuple(_box_from_json(b) for b in data["boxes"]),
        dealer=_parse(data["dealer"]),
        shoe=Shoe(_parse(shoe["cards"]), shoe["position"], shoe["decks"]),
        phase=Phase(data["phase"]),
        turn=(turn[0], turn[1]) if turn is not None else None,
        revealed=data["revealed"],
        peeked=data["peeked"],
        events=tuple(_event_from_json(e) for e in data["events"]),
    )


def player_view(state: RoundState, *, balance: Money | None = None) -> dict[str, Any]:
    """What any player at the table may see, as JSON-able data.

    The hole card appears only once revealed (before that the dealer shows the up card and a
    face-down card); the shoe appears only as the number of cards left.  ``legal_moves`` is
    what the hand in turn may do with ``balance`` in the wallet.
    """
    shown = state.dealer if state.revealed else state.dealer[:1]
    total = hand_total(shown)
    boxes = []
    for b in state.boxes:
        box = _box_to_json(b)
        for hd, h in zip(box["hands"], b.hands, strict=True):
            t = hand_total(h.cards)
            hd["total"] = t.best
            hd["display"] = t.display
            hd["soft"] = t.soft
            hd["blackjack"] = not h.from_split and len(h.cards) == 2 and t.best == 21 and t.soft
        box["staked"] = money_to_json(b.staked)
        box["paid"] = money_to_json(b.paid)
        boxes.append(box)
    return {
        "version": FORMAT_VERSION,
        "rules": state.rules.to_dict(),
        "phase": state.phase.value,
        "turn": list(state.turn) if state.turn is not None else None,
        "legal_moves": sorted(m.value for m in legal_moves(state, balance=balance)),
        "dealer": {
            "cards": _cards(shown),
            "hidden": 0 if state.revealed else 1,
            "total": total.best,
            "display": total.display,
            "revealed": state.revealed,
        },
        "boxes": boxes,
        "shoe_remaining": state.shoe.remaining,
        "events": [
            _event_to_json(e, hide_card=e.kind is EventKind.HOLE and not state.revealed)
            for e in state.events
        ],
    }
