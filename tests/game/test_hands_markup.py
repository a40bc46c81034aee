"""The hands (game/_hands.html, included by the play area and a past round's page) in every
language, for rounds in many states (seat-mates, a face-down card, insurance, splits and
doubles, every outcome, a table without a hole card): the dealer, five boxes, each hand with
its cards, total, stake and result, as screen readers and the styles read them."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from blackjack import from_json, legal_moves
from core.languages import language_codes
from game import presenters
from game.models import Round
from game.services import round_apply_move, round_deal
from tests.game.markup import parse

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


def hands(view: presenters.RoundView) -> str:
    return render_to_string("game/_hands.html", {"view": view})


def _check_hands(view: presenters.RoundView, html: str) -> None:
    root = parse(html)
    dealer = root.one("div", cls="dealer")
    assert (dealer.attrs["aria-label"], dealer.attrs["role"]) == (gettext("Dealer"), "group")
    assert dealer.one("p", cls="spot-label").text == f"{gettext('Dealer')} {view.dealer_display}"
    faces = dealer.one("div", cls="hand-cards").find_all("span", role="img")
    assert [f.attrs["aria-label"] for f in faces if "back" not in f.classes] == [
        c.name for c in view.dealer_cards
    ]
    backs = [f for f in faces if "back" in f.classes]
    assert len(backs) == (1 if view.dealer_hidden else 0)
    assert all(b.attrs["aria-label"] == gettext("face-down card") for b in backs)
    boxes = root.one("ol", cls="boxes").find_all("li", cls="box")
    assert len(boxes) == len(view.boxes) == 5
    for box, shown in zip(view.boxes, boxes, strict=True):
        name = gettext("Box %(n)s") % {"n": box.number}
        assert shown.classes == ["box", f"box-{box.kind}", *(["active"] if box.active else [])]
        assert shown.attrs["aria-label"] == name
        assert ("aria-current" in shown.attrs) is box.active
        label = shown.one("p", cls="spot-label")
        if box.kind == "ai":
            badge = label.one("span", cls="ai-badge")
            assert badge.attrs["title"] == box.level_label
            assert badge.text == f"{gettext('AI')} · {box.level_label}"
        elif box.kind == "you":
            assert label.one("span", cls="you-badge").text == gettext("You")
        else:
            assert label.text == name
        hands_shown = shown.find_all("div", cls="hand")
        assert len(hands_shown) == len(box.hands)
        for hand, div in zip(box.hands, hands_shown, strict=True):
            assert ("active" in div.classes) is hand.active
            cards = div.one("div", cls="hand-cards").find_all("span", role="img")
            assert [c.attrs["aria-label"] for c in cards] == [c.name for c in hand.cards]
            assert div.one("span", cls="total").text == hand.display
            stake = hand.bet + (" ×2" if hand.doubled else "")
            assert div.one("span", cls="stake").text == stake
            results = div.find_all("p", cls="result")
            if hand.outcome:
                assert f"outcome-{hand.outcome}" in div.classes
                paid = f" · {hand.paid}" if box.kind == "you" else ""
                assert results[0].classes == ["result", f"result-{hand.outcome}"]
                assert results[0].text == f"{hand.outcome_label}{paid}"
            else:
                assert not results
        insured = shown.find_all("p", cls="insured")
        if box.insurance:
            assert insured[0].text == gettext("Insured: %(amount)s") % {"amount": box.insurance}
        else:
            assert not insured


@pytest.mark.parametrize("lang", language_codes())
def test_the_hands_show_every_box_and_card(lang, learner, tables, rig):
    with translation.override(lang):
        views = _views(learner, tables, rig)
        drawn = []
        for view in views:
            html = hands(view)
            _check_hands(view, html)
            drawn.append(html)
    # The rounds drew what the markup has to say: every kind of box, a card face down,
    # insurance taken, split and doubled hands, outcomes.
    text = "".join(drawn)
    for part in (
        "box-ai",
        "box-you",
        "box-empty",
        "pcard back",
        'class="insured"',
        "×2",
        "result-win",
        "result-lose",
        "result-bust",
        "result-surrender",
        "aria-current",
    ):
        assert part in text, part  # fmt: skip
