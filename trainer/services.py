"""Writes of the trainer app."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from accounts.models import User
from blackjack.cards import Card
from blackjack.hand import hand_total, is_pair
from blackjack.moves import Move
from blackjack.rules import Rules
from trainer.models import Decision

# Two EVs closer than this are the same decision: a choice within it of the best is correct.
EV_TIE = 1e-9


def chart_cell(*, rules: Rules, hand: Sequence[Card], up: Card) -> tuple[str, int, int]:
    """The chart cell a hand falls in: ("pair", pair card points, up) for a splittable first two
    cards, else ("soft" | "hard", total, up)."""
    if len(hand) == 2 and is_pair(hand, rules):
        return "pair", hand[0].points, up.points
    total = hand_total(hand)
    return ("soft" if total.soft else "hard"), total.best, up.points


def decision_record(
    *,
    user: User,
    source: str,
    rules: Rules,
    hand: Sequence[Card],
    up: Card,
    choice: Move,
    ev: Mapping[Move, float],
    chart_move: Move,
    removed: Sequence[Card] = (),
    time_taken_ms: int | None = None,
    source_ref: str = "",
) -> Decision:
    """Store one decision.  ``ev`` holds the EV of every legal option (per unit of the initial
    bet); for an insurance decision its keys are INSURE and DECLINE."""
    if choice not in ev:
        raise ValueError(f"{choice} is not among the options {sorted(ev)}")
    best = max(ev, key=lambda m: ev[m])
    kind, row, dealer = chart_cell(rules=rules, hand=hand, up=up)
    if choice in (Move.INSURE, Move.DECLINE):
        category = Decision.Category.INSURANCE
    else:
        category = {"pair": Decision.Category.PAIR, "soft": Decision.Category.SOFT}.get(
            kind, Decision.Category.HARD
        )
    lost = max(0.0, ev[best] - ev[choice])
    return Decision.objects.create(
        user=user,
        source=source,
        source_ref=source_ref,
        rules=rules.to_dict(),
        rules_key=rules.key(),
        hand=[c.code for c in hand],
        dealer_up=up.code,
        removed=[c.code for c in removed],
        category=category,
        chart_kind=kind,
        chart_row=row,
        dealer_points=dealer,
        choice=choice.value,
        best=best.value,
        chart_move=chart_move.value,
        ev={m.value: v for m, v in ev.items()},
        ev_lost=lost,
        correct=lost <= EV_TIE,
        time_taken_ms=time_taken_ms,
    )
