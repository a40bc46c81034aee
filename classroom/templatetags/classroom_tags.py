"""Filters of the class pages: cells, cards, moves and signed numbers."""

from __future__ import annotations

from typing import Any

from django import template

from blackjack import Card, Move
from classroom import presenters, records
from classroom.selectors import Progress
from core import display

register = template.Library()


@register.filter
def move_label(value: Any) -> Any:
    try:
        return records.MOVE_LABELS[Move(str(value))]
    except (ValueError, KeyError):
        return value


@register.filter
def card_text(code: str) -> str:
    try:
        return str(Card.parse(code))
    except ValueError:
        return code


@register.filter
def hand_text(codes: list[str]) -> str:
    return " ".join(card_text(c) for c in codes)


@register.simple_tag
def cell_label(kind: str, row: int) -> str:
    """A chart row as the chart names it: 16, A-7, 8-8, A-A."""
    return presenters.cell_label(kind, row)


@register.inclusion_tag("classroom/_progress.html")
def progress(p: Progress) -> dict[str, presenters.ProgressBar]:
    """An assignment's progress bar and "12 of 30 · 83% · done"."""
    return {"bar": presenters.progress_bar(p)}


@register.filter
def up_label(up: int) -> str:
    """An up card as the chart's column heads write it (the ace in the language's letter)."""
    return display.up_label(up)


@register.filter
def signed(value: float | None, digits: int = 1) -> str:
    """+3.0 / −2.5 (a true minus sign); empty for no value."""
    return presenters.signed(value, digits)


@register.filter
def percent_of(value: float) -> float:
    return 100.0 * float(value)


@register.filter
def ev_options(ev: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(ev.items(), key=lambda item: -item[1])


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key, "")


def _focus(assignment: Any) -> str:
    settings = assignment.settings or {}
    return str(settings.get("focus") or assignment.focus)


@register.filter
def counts_drill(assignment: Any) -> bool:
    """Whether an assignment's drill asks for counts (the running or the true count): its
    answers are numbers typed, counted as counts, not hands."""
    return _focus(assignment) in records.NUMBER_FOCUSES


@register.filter
def drill_label(assignment: Any) -> str:
    """What an assignment drills: the focus's label, and a counting drill's system."""
    settings = assignment.settings or {}
    focus = _focus(assignment)
    label = str(dict(records.FOCUS_CHOICES).get(focus, focus))
    if focus in records.SYSTEM_FOCUSES:
        system = dict(records.SYSTEM_CHOICES).get(settings.get("system", "hilo"), "")
        return f"{label} ({system})" if system else label
    return label
