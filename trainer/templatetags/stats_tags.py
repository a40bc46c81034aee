"""The statistics page's big repeated parts (the heat map's rows, the plots' points) built in
Python: the same markup the template loops made, at a fraction of the cost of hundreds of
template nodes a page (issue 17)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django import template
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from core.display import row_label
from core.numbers import percent
from trainer.templatetags.trainer_tags import heat_level

register = template.Library()


@register.simple_tag
def heat_rows(kind: str, rows: list[tuple[int, list[Any]]]) -> SafeString:
    """The ``<tr>`` rows of one heat-map table."""
    words = escape(gettext("not seen"))
    not_seen = f'<span class="visually-hidden">{words}</span>'
    out = []
    for row, cells in rows:
        tds = []
        for cell in cells:
            score = cell.score
            inner = f"{score.correct}/{score.count}" if score.count else not_seen
            tds.append(f'<td class="heat-{heat_level(score)}">{inner}</td>')
        out.append(f'<tr><th scope="row">{escape(row_label(kind, row))}</th>{"".join(tds)}</tr>')
    return mark_safe("\n        ".join(out))


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
def plot_dots(plot: Any, unit: bool) -> SafeString:
    """A ``<circle>`` with its ``<title>`` for every point of a plot."""
    mark = _mark()
    return mark_safe(
        "".join(
            f'<circle cx="{p.x}" cy="{p.y}" r="1.8" class="dot">'
            f"<title>{escape(p.label)}: {escape(_value(p.value, unit, mark))}</title></circle>"
            for p in plot.points
        )
    )
