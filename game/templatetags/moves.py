"""``{% move_buttons view seat offer_amount %}``: the fieldset of the hand in turn's moves
built in Python, the markup the template made byte for byte (issue 17): every deal and move
of a round in play draws it, and bench/pages.py's and the browser tests' scripts read its
``name="move" value=… data-key=… class="move"`` buttons.

The translated words are inserted as ``{% translate %}`` and ``{% blocktranslate %}``
inserted them, the values escaped as template variables were;
``tests/game/test_moves_markup.py`` keeps the old template and compares.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from core.escape import esc
from core.per_language import per_language
from game.presenters import RoundView

register = template.Library()


def _button(move: str, key: str, label: str, legal: frozenset[str]) -> str:
    disabled = "" if move in legal else " disabled"
    return (
        f'<button type="submit" name="move" value="{move}" data-key="{key}" class="move"'
        f"{disabled}>{label} <kbd>{key.upper()}</kbd></button>"
    )


@register.simple_tag
def move_buttons(view: RoundView, seat: Any, offer_amount: str) -> SafeString:
    surrender = seat.rules["surrender"] != "none"
    return mark_safe(
        _fieldset(
            view.turn_box, view.legal, view.insurance, view.even_money, surrender, offer_amount
        )
    )


@per_language  # the same few fieldsets recur: each is written once per language
def _fieldset(
    turn_box: int | None,
    legal: frozenset[str],
    insurance: bool,
    even_money: bool,
    surrender_offered: bool,
    offer_amount: str,
) -> str:
    n = {"n": esc(turn_box)}
    if insurance:
        if even_money:
            legend = gettext("Box %(n)s: even money?") % n
            yes = gettext("Even money (%(amount)s paid now)") % {"amount": esc(offer_amount)}
        else:
            legend = gettext("Box %(n)s: insurance?") % n
            yes = gettext("Insure (half the bet: %(cost)s)") % {"cost": esc(offer_amount)}
        no = gettext("No")  # (xgettext does not read inside f-strings' braces)
        buttons = (
            f"\n        {_button('insure', 'y', yes, legal)}"
            f"\n        {_button('decline', 'n', no, legal)}\n      "
        )
        opening = '<fieldset tabindex="-1" data-question>'
    else:
        legend = gettext("Box %(n)s to play") % n
        surrender = ""
        if surrender_offered:
            surrender = _button("surrender", "r", gettext("Surrender"), legal)
        hit, stand = gettext("Hit"), gettext("Stand")
        double, split = gettext("Double"), gettext("Split")
        buttons = (
            f"\n        {_button('hit', 'h', hit, legal)}"
            f"\n        {_button('stand', 's', stand, legal)}"
            f"\n        {_button('double', 'd', double, legal)}"
            f"\n        {_button('split', 'p', split, legal)}"
            f"\n        {surrender}\n      "
        )
        opening = "<fieldset>"
    return f"{opening}\n      <legend>{legend}</legend>\n      {buttons}\n    </fieldset>"
