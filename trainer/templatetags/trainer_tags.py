"""Small filters for the trainer's pages: move names, signed percentages, heat levels."""

from __future__ import annotations

from typing import Any

from django import template

from blackjack import MOVE_ORDER, Card, Move
from core.display import MOVE_LABELS, signed

register = template.Library()


@register.filter
def move_label(value: Any) -> Any:
    """The translated name of a move given as a ``Move`` or its value."""
    try:
        return MOVE_LABELS[Move(str(value))]
    except ValueError:
        return value


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
