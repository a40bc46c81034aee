"""The statistics page's words and figures: a chart row's name, a plot's points in words and
a point's value, made as plain text (the template escapes and places them): ``floatformat``'s
rounding and the language's decimal mark without the filter's general-purpose cost for each
of a plot's points (issue 17)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import template
from django.utils.formats import get_format

from core.display import row_label
from core.numbers import percent

register = template.Library()


register.simple_tag(row_label, name="row_label")


TENTH = Decimal("0.1")


def _value(value: float, is_percent: bool, mark: str) -> str:
    """``value|floatformat:1`` (with ``|percent`` when ``is_percent``): the same rounding (half
    up, from the shortest decimal) and the language's decimal ``mark`` (no grouping: values
    under 1,000), without the filter's general-purpose cost for each of a plot's points."""
    rounded = Decimal(repr(float(value))).quantize(TENTH, rounding=ROUND_HALF_UP)
    text = f"{rounded:f}".replace(".", mark)
    return percent(text) if is_percent else text


def _mark() -> str:
    return str(get_format("DECIMAL_SEPARATOR"))


@register.simple_tag
def plot_desc(plot: Any, unit: bool) -> str:
    """The points of a plot in words, for its ``<desc>`` (escaped by the template)."""
    mark = _mark()
    return "; ".join(f"{p.label} {_value(p.value, unit, mark)}" for p in plot.points)


@register.simple_tag
def plot_value(value: float, unit: bool) -> str:
    """A point's value for its ``<title>`` (escaped by the template)."""
    return _value(value, unit, _mark())
