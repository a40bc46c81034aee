"""The betting form's chips and five boxes built in Python: the markup the template loops made,
byte for byte, without their ~150 template nodes a request (issue 17).  The table page and
every move that ends a round render this form.

The translated words are inserted as the template's ``{% translate %}`` and
``{% blocktranslate %}`` inserted them (the catalogue's text as it is); only the values are
escaped, as template variables were.  ``tests/game/test_betting_markup.py`` holds the old
template loops and compares.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from core.escape import esc
from core.per_language import per_language
from game.presenters import BetBox, ChipView
from game.templatetags.table import chip

register = template.Library()


@register.simple_tag
def chip_rack(chips: Iterable[ChipView], selected: int | None, balance: Decimal) -> SafeString:
    """The chip rack's radio buttons: the chosen chip checked, those over the balance off."""
    chips = tuple(chips)
    return mark_safe(_chip_rack(chips, selected, tuple(c.value > balance for c in chips)))


# The rack and the boxes are the same few forms over and over: each written once per language.
@per_language
def _chip_rack(chips: tuple[ChipView, ...], selected: int | None, off: tuple[bool, ...]) -> str:
    out = ["\n        "]
    for c, over in zip(chips, off, strict=True):
        checked = " checked" if c.value == selected else ""
        disabled = " disabled" if over else ""
        out.append(
            f'\n        <label class="chip-choice"><input type="radio" name="chip"'
            f' value="{c.value}"{checked}{disabled}>{chip(c.value, c.tier)}</label>\n        '
        )
    out.append("\n      ")
    return "".join(out)


@register.simple_tag
def bet_boxes(
    boxes: Iterable[BetBox], levels: Sequence[tuple[str, str]], max_bet: int, step: int
) -> SafeString:
    """The five boxes: a spot to click, the bet's field and the AI seat-mate's choice."""
    return mark_safe(_bet_boxes(tuple(boxes), tuple(levels), max_bet, step))


@per_language
def _bet_boxes(
    boxes: tuple[BetBox, ...], levels: tuple[tuple[str, str], ...], max_bet: int, step: int
) -> str:
    box_word = gettext("Box %(n)s")
    bet_on = gettext("Bet on box %(n)s")
    ai_on = gettext("AI player on box %(n)s")
    empty = gettext("Empty")
    ai = gettext("AI")
    out = ["\n        "]
    for box in boxes:
        i, n = box.index, {"n": box.number}
        choices = "".join(
            f'<option value="{esc(code)}"{" selected" if box.ai_level == code else ""}>'
            f"{ai} · {esc(name)}</option>"
            for code, name in levels
        )
        out.append(
            f"""
        <li class="bet-box">
          <button type="button" class="bet-spot" data-box="{i}" aria-describedby="bet-{i}-label">{box_word % n}</button>
          <label for="bet-{i}" id="bet-{i}-label">{bet_on % n}</label>
          <input type="number" id="bet-{i}" name="bet_{i}" min="0" max="{max_bet}" step="{step}" value="{esc(box.bet)}" placeholder="0" inputmode="numeric">
          <label for="ai-{i}">{ai_on % n}</label>
          <select id="ai-{i}" name="ai_{i}">
            <option value="">{empty}</option>
            {choices}
          </select>
        </li>
        """  # noqa: E501  (the lines of the markup as the page has them)
        )
    out.append("\n      ")
    return "".join(out)
