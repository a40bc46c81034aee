"""Small filters for the trainer's pages: move names, signed percentages, heat levels."""

from __future__ import annotations

from typing import Any

from django import template

from blackjack import MOVE_ORDER, Card, Move
from core.display import MOVE_LABELS, signed
from decisions.models import Decision
from trainer.display import EVEN_MONEY_LABELS

register = template.Library()


@register.filter
def move_label(value: Any) -> Any:
    """The translated name of a move given as a ``Move`` or its value."""
    try:
        return MOVE_LABELS[Move(str(value))]
    except ValueError:
        return value


@register.filter
def decision_label(decision: Any, field: str) -> Any:
    """The name of a decision's ``choice`` or ``best``: even money and keeping the blackjack
    where the decision is the even-money question, else the move's name."""
    value = getattr(decision, field)
    if decision.category == Decision.Category.EVEN_MONEY:
        try:
            return EVEN_MONEY_LABELS[Move(value)]
        except (KeyError, ValueError):
            pass
    return move_label(value)


register.filter("signed", signed)


@register.filter
def percent_of(value: float) -> float:
    """A fraction of the bet as a percentage."""
    return 100.0 * float(value)


@register.filter
def heat_level(score: Any) -> str:
    """The colour class of a heat-map cell: by accuracy, ``none`` without decisions."""
    if not score.count:
        return "none"
    acc = score.accuracy
    if acc >= 90:
        return "good"
    if acc >= 70:
        return "fair"
    return "poor"


@register.filter
def ev_items(ev: dict[Move, float]) -> list[tuple[Move, float]]:
    """A cell's EVs in the order of the moves (stand, hit, double, split, surrender)."""
    return sorted(ev.items(), key=lambda item: MOVE_ORDER.index(Move(item[0])))


@register.filter
def card_text(code: str) -> str:
    """A card code as it is printed: ``"Ac"`` becomes ``"A♣"``."""
    try:
        return str(Card.parse(code))
    except ValueError:
        return code
