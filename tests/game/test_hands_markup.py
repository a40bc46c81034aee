"""The Python-built hands (game/templatetags/hands.py) are, byte for byte, what the
``_hands.html`` include they replaced made: its template is kept here, and both are rendered
for rounds in many states (seat-mates, a face-down card, insurance, splits and doubles,
every outcome, a table without a hole card) in every language."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from blackjack import from_json, legal_moves
from core.languages import language_codes
from game import presenters
from game.models import Round
from game.services import round_apply_move, round_deal
from game.templatetags.hands import hands

pytestmark = pytest.mark.django_db

OLD_HANDS = """{% load i18n table %}
<div class="dealer" aria-label="{% translate 'Dealer' %}" role="group">
  <p class="spot-label">{% translate "Dealer" %} <span class="total">{{ view.dealer_display }}</span></p>
  <div class="hand-cards">
    {% for card in view.dealer_cards %}{% card card %}{% endfor %}
    {% if view.dealer_hidden %}<span class="pcard back" role="img" aria-label="{% translate 'face-down card' %}"></span>{% endif %}
  </div>
</div>
<ol class="boxes">
  {% for box in view.boxes %}
  <li class="box box-{{ box.kind }}{% if box.active %} active{% endif %}" aria-label="{% blocktranslate with n=box.number %}Box {{ n }}{% endblocktranslate %}"{% if box.active %} aria-current="true"{% endif %}>
    <p class="spot-label">{% blocktranslate with n=box.number %}Box {{ n }}{% endblocktranslate %}
      {% if box.kind == "ai" %}<span class="ai-badge" title="{{ box.level_label }}">{% translate "AI" %} · {{ box.level_label }}</span>{% elif box.kind == "you" %}<span class="you-badge">{% translate "You" %}</span>{% endif %}</p>
    {% for hand in box.hands %}
    <div class="hand{% if hand.active %} active{% endif %}{% if hand.outcome %} outcome-{{ hand.outcome }}{% endif %}">
      <div class="hand-cards">{% for card in hand.cards %}{% card card %}{% endfor %}</div>
      <p class="hand-meta"><span class="total">{{ hand.display }}</span> <span class="stake">{{ hand.bet }}{% if hand.doubled %} ×2{% endif %}</span></p>
      {% if hand.outcome %}<p class="result result-{{ hand.outcome }}">{{ hand.outcome_label }}{% if box.kind == "you" %} · {{ hand.paid }}{% endif %}</p>{% endif %}
    </div>
    {% endfor %}
    {% if box.insurance %}<p class="insured">{% blocktranslate trimmed with amount=box.insurance %}Insured: {{ amount }}{% endblocktranslate %}</p>{% endif %}
  </li>
  {% endfor %}
</ol>
"""  # noqa: E501


def _play(user, rnd: Round, move: str) -> Round:
    """``move``, or where it is not legal now the first legal one (stand, decline)."""
    state = from_json(rnd.state)
    legal = {m.value for m in legal_moves(state)}
    if move not in legal:
        move = "stand" if "stand" in legal else "decline"
    return round_apply_move(round_id=rnd.pk, user=user, move=move, seq=rnd.seq).round


# (table, each seated box's cards in seat order, dealer, rest, bets, AI seat-mates, moves)
ROUNDS = [
    ("scribes", ["10s 6d", "9h 9d", "5c 6c", "7s 7d"], "10h 7c", "5s 8d 7h 2c 3d 9s 10d",
     {0: 100, 2: 300}, {1: "hard", 4: "easy"}, ["hit", "double"]),
    ("scribes", ["8s 8d"], "6h 10c", "10d 10h 10s 3c", {0: 100}, {}, ["split", "double", "stand"]),
    ("scribes", ["5s 6d", "As Kd", "9c 9h"], "Ah 7c", "10d 9c", {0: 100, 1: 200},
     {3: "normal"}, ["insure", "insure", "double"]),
    ("scribes", ["10s 9d"], "As Kc", "", {0: 100}, {}, ["insure"]),
    ("european", ["10s 6d", "8c 8h"], "10h 7c", "10c 5d 9s 2d", {0: 100}, {1: "normal"},
     ["hit", "stand"]),
    ("sixdeck", ["10s 6d"], "9h 7c", "", {0: 100}, {}, ["surrender"]),
]  # fmt: skip


def _views(learner, tables, rig) -> list[presenters.RoundView]:
    views = []
    for slug, boxes, dealer, rest, bets, levels, moves in ROUNDS:
        rig(learner, tables[slug], boxes=boxes, dealer=dealer, rest=rest)
        rnd = round_deal(user=learner, table=tables[slug], bets=bets, ai_levels=levels)
        views.append(presenters.round_view(rnd))
        for move in moves:
            if not rnd.is_playing:
                break
            rnd = _play(learner, rnd, move)
            views.append(presenters.round_view(rnd, hints=True))
    return views


@pytest.mark.parametrize("lang", language_codes())
def test_the_hands_are_the_include_s(lang, learner, tables, rig):
    with translation.override(lang):
        views = _views(learner, tables, rig)
        old = Template(OLD_HANDS)
        for view in views:
            assert hands(view) == old.render(Context({"view": view}))
    # The rounds drew what the markup has to say: every kind of box, a card face down,
    # insurance taken, split and doubled hands, outcomes.
    with translation.override("en"):
        drawn = "".join(hands(v) for v in views)
    for part in (
        "box-ai",
        "box-you",
        "box-empty",
        "pcard back",
        "Insured:",
        "×2",
        "result-win",
        "result-lose",
        "result-bust",
        "result-surrender",
        "aria-current",
    ):
        assert part in drawn, part  # fmt: skip
