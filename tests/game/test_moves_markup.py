"""The Python-built move buttons (game/templatetags/moves.py) are, byte for byte, what the
table template made: its fieldset is kept here, and both are rendered for rounds in play in
every state of the hands test (moves, insurance, even money, surrender or not) in every
language."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from core.languages import language_codes
from game import presenters
from game.chips import offer_amount
from game.models import Seat
from game.services import round_deal
from game.templatetags.moves import move_buttons
from tests.game.test_hands_markup import ROUNDS, _play

pytestmark = pytest.mark.django_db

OLD_FIELDSET = """{% load i18n %}<fieldset{% if view.insurance %} tabindex="-1" data-question{% endif %}>
      <legend>{% if view.insurance %}{% if view.even_money %}{% blocktranslate with n=view.turn_box %}Box {{ n }}: even money?{% endblocktranslate %}{% else %}{% blocktranslate with n=view.turn_box %}Box {{ n }}: insurance?{% endblocktranslate %}{% endif %}{% else %}{% blocktranslate with n=view.turn_box %}Box {{ n }} to play{% endblocktranslate %}{% endif %}</legend>
      {% if view.insurance %}
        <button type="submit" name="move" value="insure" data-key="y" class="move"{% if "insure" not in view.legal %} disabled{% endif %}>{% if view.even_money %}{% blocktranslate trimmed with amount=offer_amount %}Even money ({{ amount }} paid now){% endblocktranslate %}{% else %}{% blocktranslate trimmed with cost=offer_amount %}Insure (half the bet: {{ cost }}){% endblocktranslate %}{% endif %} <kbd>Y</kbd></button>
        <button type="submit" name="move" value="decline" data-key="n" class="move"{% if "decline" not in view.legal %} disabled{% endif %}>{% translate "No" %} <kbd>N</kbd></button>
      {% else %}
        <button type="submit" name="move" value="hit" data-key="h" class="move"{% if "hit" not in view.legal %} disabled{% endif %}>{% translate "Hit" %} <kbd>H</kbd></button>
        <button type="submit" name="move" value="stand" data-key="s" class="move"{% if "stand" not in view.legal %} disabled{% endif %}>{% translate "Stand" %} <kbd>S</kbd></button>
        <button type="submit" name="move" value="double" data-key="d" class="move"{% if "double" not in view.legal %} disabled{% endif %}>{% translate "Double" %} <kbd>D</kbd></button>
        <button type="submit" name="move" value="split" data-key="p" class="move"{% if "split" not in view.legal %} disabled{% endif %}>{% translate "Split" %} <kbd>P</kbd></button>
        {% if seat.rules.surrender != "none" %}<button type="submit" name="move" value="surrender" data-key="r" class="move"{% if "surrender" not in view.legal %} disabled{% endif %}>{% translate "Surrender" %} <kbd>R</kbd></button>{% endif %}
      {% endif %}
    </fieldset>"""  # noqa: E501


@pytest.mark.parametrize("lang", language_codes())
def test_the_move_buttons_are_the_template_s(lang, learner, tables, rig):
    old = Template(OLD_FIELDSET)
    drawn = []
    with translation.override(lang):
        for slug, boxes, dealer, rest, bets, levels, moves in ROUNDS:
            rig(learner, tables[slug], boxes=boxes, dealer=dealer, rest=rest)
            rnd = round_deal(user=learner, table=tables[slug], bets=bets, ai_levels=levels)
            seat = Seat.objects.get(user=learner, table=tables[slug])
            for move in [*moves, None]:
                if not rnd.is_playing:
                    break
                view = presenters.round_view(rnd, balance=900)
                offer = offer_amount(view)
                context = {"view": view, "seat": seat, "offer_amount": offer}
                new = move_buttons(view, seat, offer)
                assert new == old.render(Context(context))
                drawn.append(new)
                if move is not None:
                    rnd = _play(learner, rnd, move)
    if lang == "en":  # every kind of question was asked
        text = "".join(drawn)
        for part in (
            "data-question",
            "insurance?",
            "even money?",
            'value="surrender"',
            "to play",
            " disabled>",
        ):
            assert part in text, part  # fmt: skip
