"""``{% card c %}``: one card as a picture with its name for screen readers.

A tag rather than an ``{% include %}``: a table shows up to forty cards and a tag renders
one in a fraction of the time an included template takes.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from core.display import CardView, fmt
from game.presenters import chip_face

register = template.Library()


@register.simple_tag
def card(c: CardView, small: bool = False) -> SafeString:
    return _card(c, small)


@lru_cache(maxsize=4096)  # a card view names its card in its language already: the key
def _card(c: CardView, small: bool) -> SafeString:
    classes = ["pcard"]
    if c.red:
        classes.append("red")
    if c.new:
        classes += ["new", f"delay-{c.delay}"]
    if small:
        classes.append("small")
    return format_html(
        '<span class="{}" role="img" aria-label="{}"><span class="rank" aria-hidden="true">{}'
        '</span><span class="suit" aria-hidden="true">{}</span></span>',
        " ".join(classes),
        c.name,
        c.rank,
        c.symbol,
    )


@register.simple_tag
def chip(value: int, tier: int) -> SafeString:
    """A chip: its short face for the eye, its full amount for screen readers."""
    return format_html(
        '<span class="chip chip-tier-{}"><span aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        tier,
        chip_face(value),
        fmt(value),
    )


@register.filter
def debens(amount: int) -> str:
    """An amount grouped as the visitor's language writes numbers (5 000, 5,000)."""
    return fmt(amount)
