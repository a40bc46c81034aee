"""The round as any player at the table may see it, as frozen dataclasses.

:func:`blackjack.round.player_view` gives JSON-able data (the hole card only once revealed, of
the shoe only the number of cards left); :func:`seen_round` reads it once into typed values,
amounts as the engine's exact ``Money`` and events by their :class:`EventKind`, so that the
presenters never read a dict by string keys.  Nothing here sees more than ``player_view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from blackjack import EventKind, Money, Move, RoundState, money_from_json, player_view


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """One event of the log; ``card`` is ``None`` where none is shown (the hole card face
    down, a move), ``outcome`` the result's value for a settlement."""

    kind: EventKind
    seat: int | None
    hand: int | None
    card: str | None
    move: Move | None
    outcome: str | None
    paid: Money
    blackjack: bool | None

    @classmethod
    def of(cls, e: Mapping[str, Any]) -> SeenEvent:
        move = e.get("move")
        return cls(
            kind=EventKind(e["kind"]),
            seat=e.get("seat"),
            hand=e.get("hand"),
            card=e.get("card"),
            move=Move(move) if move else None,
            outcome=e.get("outcome"),
            paid=money_from_json(e.get("paid", 0)),
            blackjack=e.get("blackjack"),
        )


@dataclass(frozen=True, slots=True)
class SeenHand:
    cards: tuple[str, ...]  # card codes
    display: str  # the total as shown: "17", "7 / 17"
    total: int  # the total that plays: 17
    bet: int
    doubled: bool
    outcome: str | None
    paid: Money | None  # None until settled
    blackjack: bool


@dataclass(frozen=True, slots=True)
class SeenBox:
    seat: int
    bet: int
    hands: tuple[SeenHand, ...]
    insurance: Money  # the insurance bet, 0 without one


@dataclass(frozen=True, slots=True)
class SeenDealer:
    cards: tuple[str, ...]  # the cards face up
    hidden: int  # cards face down (the hole card until it is revealed)
    display: str
    total: int  # the total that plays, of the cards face up


@dataclass(frozen=True, slots=True)
class SeenRound:
    phase: str  # blackjack.round.Phase's value: "insurance", "players", ...
    turn: tuple[int, int] | None  # (box, hand) in turn
    legal: frozenset[Move]
    dealer: SeenDealer
    boxes: tuple[SeenBox, ...]
    shoe_remaining: int
    events: tuple[SeenEvent, ...]

    def box(self, seat: int) -> SeenBox | None:
        return next((b for b in self.boxes if b.seat == seat), None)


def _hand(h: Mapping[str, Any]) -> SeenHand:
    paid = h["paid"]
    return SeenHand(
        cards=tuple(h["cards"]),
        display=h["display"],
        total=h["total"],
        bet=h["bet"],
        doubled=h["doubled"],
        outcome=h["outcome"],
        paid=None if paid is None else money_from_json(paid),
        blackjack=bool(h["blackjack"]),
    )


def seen_round(state: RoundState, *, balance: Fraction | None = None) -> SeenRound:
    """What a player sees of ``state``; ``legal`` is what the hand in turn may do with
    ``balance`` in the wallet (``None``: no limit)."""
    view = player_view(state, balance=balance)
    dealer = view["dealer"]
    turn = view["turn"]
    return SeenRound(
        phase=view["phase"],
        turn=None if turn is None else (turn[0], turn[1]),
        legal=frozenset(Move(m) for m in view["legal_moves"]),
        dealer=SeenDealer(
            tuple(dealer["cards"]), dealer["hidden"], dealer["display"], dealer["total"]
        ),
        boxes=tuple(
            SeenBox(
                seat=b["seat"],
                bet=b["bet"],
                hands=tuple(_hand(h) for h in b["hands"]),
                insurance=money_from_json(b["insurance"]),
            )
            for b in view["boxes"]
        ),
        shoe_remaining=view["shoe_remaining"],
        events=tuple(SeenEvent.of(e) for e in view["events"]),
    )
