"""``{{ value|percent }}``: a formatted number with the percent sign as its language writes it."""

from __future__ import annotations

from django import template

from core.numbers import percent as percent_text

register = template.Library()


@register.filter
def percent(value: object) -> str:
    """``{{ accuracy|floatformat:1|percent }}`` → "66.7%" in English, "66,7 %" in Czech."""
    if value in (None, ""):
        return "–"
    return percent_text(value)
