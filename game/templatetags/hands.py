"""``{% hands view %}``: the dealer's and the five boxes' cards built in Python, the markup the
``_hands.html`` include made, byte for byte, without its include and loops (issue 17): the
table page, every deal and move, and a past round draw them.

The translated words are inserted as ``{% translate %}`` and ``{% blocktranslate %}``
inserted them (the catalogue's text as it is), the values escaped as template variables
were; ``tests/game/test_hands_markup.py`` keeps the old template and compares.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from core.escape import esc
from core.per_language import per_language
from game.presenters import BoxView, HandView, RoundView
from game.templatetags.table import card

register = template.Library()


def _hand(box: BoxView, hand: HandView) -> str:
    classes = "hand"
    if hand.active:
        classes += " active"
    if hand.outcome:
        classes += f" outcome-{esc(hand.outcome)}"
    cards = "".join(card(c) for c in hand.cards)
    doubled = " ×2" if hand.doubled else ""
    result = ""
    if hand.outcome:
        paid = f" · {esc(hand.paid)}" if box.kind == "you" else ""
        result = f'<p class="result result-{esc(hand.outcome)}">{esc(hand.outcome_label)}{paid}</p>'
    return (
        f'\n    <div class="{classes}">\n'
        f'      <div class="hand-cards">{cards}</div>\n'
        f'      <p class="hand-meta"><span class="total">{esc(hand.display)}</span>'
        f' <span class="stake">{esc(hand.bet)}{doubled}</span></p>\n'
        f"      {result}\n"
        "    </div>\n    "
    )


def _box(box: BoxView, box_word: str, ai: str, you: str, insured: str) -> str:
    name = box_word % {"n": box.number}
    active = " active" if box.active else ""
    current = ' aria-current="true"' if box.active else ""
    badge = ""
    if box.kind == "ai":
        label = esc(box.level_label)
        badge = f'<span class="ai-badge" title="{label}">{ai} · {label}</span>'
    elif box.kind == "you":
        badge = f'<span class="you-badge">{you}</span>'
    hands = "".join(_hand(box, h) for h in box.hands)
    insurance = ""
    if box.insurance:
        insurance = f'<p class="insured">{insured % {"amount": esc(box.insurance)}}</p>'
    return (
        f'\n  <li class="box box-{esc(box.kind)}{active}" aria-label="{name}"{current}>\n'
        f'    <p class="spot-label">{name}\n'
        f"      {badge}</p>\n"
        f"    {hands}\n"
        f"    {insurance}\n"
        "  </li>\n  "
    )


@per_language
def _words() -> tuple[str, str, tuple[str, str, str, str]]:
    """The dealer's name, the face-down card's, and the boxes' words (see :func:`_box`)."""
    boxes = (gettext("Box %(n)s"), gettext("AI"), gettext("You"), gettext("Insured: %(amount)s"))
    return gettext("Dealer"), gettext("face-down card"), boxes


@register.simple_tag
def hands(view: RoundView) -> SafeString:
    dealer, back, words = _words()
    hidden = ""
    if view.dealer_hidden:
        hidden = f'<span class="pcard back" role="img" aria-label="{back}"></span>'
    boxes = "".join(_box(b, *words) for b in view.boxes)
    return mark_safe(
        f'\n<div class="dealer" aria-label="{dealer}" role="group">\n'
        f'  <p class="spot-label">{dealer} <span class="total">{esc(view.dealer_display)}'
        "</span></p>\n"
        '  <div class="hand-cards">\n'
        f"    {''.join(card(c) for c in view.dealer_cards)}\n"
        f"    {hidden}\n"
        "  </div>\n"
        "</div>\n"
        '<ol class="boxes">\n'
        f"  {boxes}\n"
        "</ol>\n"
    )
