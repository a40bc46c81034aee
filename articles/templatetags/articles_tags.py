"""Figures in the page's language for the calculator (see articles.numbers)."""

from __future__ import annotations

from django import template

from articles import numbers

register = template.Library()


@register.filter
def pct(value: float, places: int = 2) -> str:
    return numbers.percent(value, int(places))


@register.filter
def spct(value: float, places: int = 2) -> str:
    return numbers.signed_percent(value, int(places))


@register.filter
def minus(value: float, other: float) -> float:
    return value - other
