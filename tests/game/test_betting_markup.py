"""The Python-built betting form (game/templatetags/betting.py) is, byte for byte, what the
template loops it replaced made: the loops are kept here and both are rendered for the same
chips, balances, bets and seat-mates in every language."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from core.languages import language_codes
from game.presenters import LEVEL_NAMES, BetBox, ChipView, chip_face
from game.templatetags.betting import bet_boxes, chip_rack

OLD_CHIP_RACK = """{% load table %}
        {% for chip in chips %}
        <label class="chip-choice"><input type="radio" name="chip" value="{{ chip.value }}"{% if chip.value == chip_selected %} checked{% endif %}{% if chip.value > balance %} disabled{% endif %}>{% chip chip.value chip.tier %}</label>
        {% endfor %}
      """  # noqa: E501
OLD_BET_BOXES = """{% load i18n %}
        {% for box in bet_boxes %}
        <li class="bet-box">
          <button type="button" class="bet-spot" data-box="{{ box.index }}" aria-describedby="bet-{{ box.index }}-label">{% blocktranslate with n=box.number %}Box {{ n }}{% endblocktranslate %}</button>
          <label for="bet-{{ box.index }}" id="bet-{{ box.index }}-label">{% blocktranslate with n=box.number %}Bet on box {{ n }}{% endblocktranslate %}</label>
          <input type="number" id="bet-{{ box.index }}" name="bet_{{ box.index }}" min="0" max="{{ table.max_bet }}" step="{{ step }}" value="{{ box.bet }}" placeholder="0" inputmode="numeric">
          <label for="ai-{{ box.index }}">{% blocktranslate with n=box.number %}AI player on box {{ n }}{% endblocktranslate %}</label>
          <select id="ai-{{ box.index }}" name="ai_{{ box.index }}">
            <option value="">{% translate "Empty" %}</option>
            {% for code, name in levels %}<option value="{{ code }}"{% if box.ai_level == code %} selected{% endif %}>{% translate "AI" %} · {{ name }}</option>{% endfor %}
          </select>
        </li>
        {% endfor %}
      """  # noqa: E501


def _chips(values: list[int]) -> list[ChipView]:
    return [ChipView(v, chip_face(v), str(v), i) for i, v in enumerate(values)]


CHIP_CASES = [
    ([100, 500, 1000, 5000], 1000, Decimal(1000)),
    ([100, 500, 1000, 5000], 500, Decimal("600.50")),
    ([1000, 5000, 25000, 100000], None, Decimal(50)),
    ([10_000, 50_000, 100_000, 500_000], 500_000, Decimal(10**9)),
]
BOX_CASES = [
    [BetBox(i, i + 1, "", "") for i in range(5)],
    [
        BetBox(0, 1, "3000", ""),
        BetBox(1, 2, "", "hard"),
        BetBox(2, 3, "", "easy"),
        BetBox(3, 4, "2000", "normal"),
        BetBox(4, 5, "", "nonsense"),
    ],
    # What a refused form sends back is shown escaped, as the template's {{ box.bet }} was.
    [BetBox(i, i + 1, '"><b>' if i == 2 else "100", "normal") for i in range(5)],
]


@pytest.mark.parametrize("lang", language_codes())
@pytest.mark.parametrize(("values", "selected", "balance"), CHIP_CASES)
def test_the_chip_rack_is_the_template_s(lang, values, selected, balance):
    chips = _chips(values)
    with translation.override(lang):
        old = Template(OLD_CHIP_RACK).render(
            Context({"chips": chips, "chip_selected": selected, "balance": balance})
        )
        assert chip_rack(chips, selected, balance) == old


@pytest.mark.parametrize("lang", language_codes())
@pytest.mark.parametrize("boxes", BOX_CASES)
@pytest.mark.parametrize(("max_bet", "step"), [(5000, 100), (500_000, 10_000)])
def test_the_bet_boxes_are_the_template_s(lang, boxes, max_bet, step):
    with translation.override(lang):
        levels = [(k, str(v)) for k, v in LEVEL_NAMES.items()]
        context = {
            "bet_boxes": boxes,
            "levels": levels,
            "table": {"max_bet": max_bet},
            "step": step,
        }
        old = Template(OLD_BET_BOXES).render(Context(context))
        assert bet_boxes(boxes, levels, max_bet, step) == old
