"""The Python-built play area (game/templatetags/round_area.py) is, byte for byte, what the
``round`` partial's template made: that template (with the ``_review.html`` include it held)
is kept here, and both are rendered with the same context, that of real requests, for the
table in many states (no round yet, a round in play with hints or coach mode's warning, a
finished round with its review, a refused deal, a stale move, the free top-up, a fresh shoe,
a variant table, a visitor) in every language."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.template import Template

from core.languages import language_codes
from game.models import Wallet
from game.services import wallet_get_or_create
from game.templatetags import round_area

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

OLD_ROUND = (
    "{% load i18n static partials table betting hands moves %}"
    + """
<div id="round" class="play-area" data-seq="{{ view.seq|default:'' }}" hx-history="false">
  {% if request.htmx %}<div id="announce" hx-swap-oob="innerHTML">{{ view.announcement }}</div>{% endif %}
  <div class="status-bar">
    <p>{% translate "Balance:" %} <strong class="balance">{{ balance_text }}</strong></p>
    <p>{% translate "Cards left in the shoe:" %} <strong class="shoe-left">{{ shoe_left }}</strong></p>
    <p>{% blocktranslate trimmed with low=min_bet high=max_bet %}Bets: {{ low }} – {{ high }}{% endblocktranslate %}</p>
    {% if box_counts %}<p class="box-counts">{% blocktranslate with counts=box_counts %}Boxes per player: {{ counts }}{% endblocktranslate %}</p>{% endif %}
  </div>
  {% if error %}<p class="message message-error play-error" role="alert">{{ error }}</p>{% endif %}
  {% if notice %}<p class="message play-notice" role="status">{{ notice }}</p>{% endif %}
  {% if view and view.reshuffled and view.seq == 0 %}<p class="message shuffle-notice">{% translate "The dealer shuffled a fresh shoe before this round." %}</p>{% endif %}

  <div class="felt">
    <p class="felt-motto" aria-hidden="true">{{ rules_line }}</p>
    {% if view %}
      {% hands view %}
    {% else %}
      <p class="felt-empty">{% translate "Place your bets to begin." %}</p>
    {% endif %}
  </div>


  {% if view and view.playing %}{% url 'game:move' view.round_id as move_url %}
  <form method="post" action="{{ move_url }}" class="actions"
        hx-post="{{ move_url }}" hx-target="#round" hx-swap="outerHTML"
        hx-sync="this:drop" hx-disabled-elt="find fieldset">
    {% csrf_token %}<input type="hidden" name="seq" value="{{ view.seq }}">
    {% move_buttons view seat offer_amount %}
    {% if view.hint %}<p class="hint">{{ view.hint }}</p>{% endif %}
    {% if coach %}
    {# Coach mode held the move back: every option's EV, then play it anyway or the best. #}
    <div class="coach" role="alert" aria-labelledby="coach-title" tabindex="-1" data-coach>
      <p id="coach-title" class="coach-title">{% blocktranslate trimmed with move=coach.move_name cost=coach.cost %}Wait: the cost of {{ move }} is {{ cost }}.{% endblocktranslate %}</p>
      <p id="coach-evs-title" class="coach-evs-title">{% translate "Expected value of each option, per bet" %}</p>
      <table class="coach-evs" aria-labelledby="coach-evs-title">
        <tbody>
        {% for option in coach.options %}
          <tr class="{% if option.best %}best{% endif %}{% if option.chosen %} chosen{% endif %}"><th scope="row">{{ option.name }}</th><td>{{ option.ev }}</td><td>{% if option.best %}{% translate "best" %}{% elif option.chosen %}{% translate "your choice" %}{% endif %}</td></tr>
        {% endfor %}
        </tbody>
      </table>
      <input type="hidden" name="confirm" value="1">
      <p class="coach-buttons">
        <button type="submit" name="move" value="{{ coach.best }}" class="button button-gold" data-coach-best>{% blocktranslate trimmed with move=coach.best_name %}Play {{ move }}{% endblocktranslate %}</button>
        <button type="submit" name="move" value="{{ coach.move }}" class="button button-plain">{% blocktranslate trimmed with move=coach.move_name %}Play {{ move }} anyway{% endblocktranslate %}</button>
      </p>
    </div>
    {% endif %}
  </form>
  {% else %}
    {% if view %}
    <div class="round-result" role="status">
      {% if view.net_text %}<p class="net {% if view.net > 0 %}won{% elif view.net < 0 %}lost{% endif %}">{{ view.net_text }}</p>{% endif %}
    </div>
    {% if view.review %}
<section class="review" aria-labelledby="review-heading">
  <h2 id="review-heading">{% translate "Your decisions" %}</h2>
  <table class="stack-table">
    <thead><tr><th scope="col">{% translate "Box" %}</th><th scope="col">{% translate "Hand" %}</th><th scope="col">{% translate "Your move" %}</th><th scope="col">{% translate "Best move" %}</th><th scope="col">{% translate "EV lost" %}</th></tr></thead>
    <tbody>
    {% for line in view.review %}
      <tr class="{% if line.correct %}right{% else %}wrong{% endif %}">
        <td data-label="{% translate 'Box' %}">{{ line.box }}</td>
        <td class="review-hand" data-label="{% translate 'Hand' %}"><span>{% for card in line.cards %}{% card card small=True %}{% endfor %} <span class="vs">{% translate "vs" %}</span> {% card line.up small=True %}</span></td>
        <td data-label="{% translate 'Your move' %}">{{ line.choice }}</td>
        <td data-label="{% translate 'Best move' %}">{{ line.best }}{% if line.unaffordable %}<span class="review-note">{{ line.unaffordable }}</span>{% endif %}</td>
        <td data-label="{% translate 'EV lost' %}">{% if line.correct %}{% translate "none" context "EV lost" %}{% else %}{{ line.ev_lost }}{% endif %}</td>
      </tr>
    {% endfor %}
    </tbody>
  </table>
</section>
{% endif %}
    {% endif %}
    {% if top_up_due %}
    <form method="post" action="{% url 'game:top_up' %}" class="top-up">{% csrf_token %}
      <input type="hidden" name="next" value="{% url 'game:table' table.slug %}">
      <p>{% blocktranslate trimmed with minimum=top_up_minimum %}Your balance is below the smallest bet at the Scribes' table ({{ minimum }}).{% endblocktranslate %}</p>
      <button type="submit" class="button button-gold">{% blocktranslate trimmed count counter=top_up_count with amount=top_up_text %}Free top-up: {{ amount }} deben{% plural %}Free top-up: {{ amount }} debens{% endblocktranslate %}</button>
    </form>
    {% endif %}{% url 'game:deal' table.slug as deal_url %}
    <form method="post" action="{{ deal_url }}" class="bets"
          hx-post="{{ deal_url }}" hx-target="#round" hx-swap="outerHTML"
          hx-sync="this:drop" hx-disabled-elt="find .deal-buttons">
      {% csrf_token %}
      <fieldset class="chip-rack">
        <legend>{% translate "Chip" %}</legend>{% chip_rack chips chip_selected balance %}</fieldset>
      <ol class="bet-boxes">{% bet_boxes bet_boxes levels table.max_bet step %}</ol>
      <div class="deal-buttons">
        <button type="submit" class="button deal-button" data-deal>{% translate "Deal" %} <kbd>Enter</kbd></button>
        <button type="reset" class="button button-plain">{% translate "Clear bets" %}</button>
        {% if has_last_bets %}<button type="submit" name="repeat" value="1" class="button button-plain" data-repeat>{% translate "Repeat last bet" %}</button>{% endif %}
      </div>
    </form>
  {% endif %}
  {% if view and view.log %}
  <details class="log-box" open>
    <summary id="log-title">{% translate "At the table" %}</summary>
    {# A scroll box: focusable and named, so that it can be scrolled and read by keyboard. #}
    <div class="log-scroll" tabindex="0" role="region" aria-labelledby="log-title">
      <ol class="log">{% for text, delay in view.log %}<li class="new delay-{{ delay }}">{{ text }}</li>{% endfor %}</ol>
    </div>
  </details>
  {% endif %}{% url 'game:hints' table.slug as hints_url %}
  <form method="post" action="{{ hints_url }}" class="hints-toggle"
        hx-post="{{ hints_url }}" hx-target="#round" hx-swap="outerHTML">{% csrf_token %}
    <input type="hidden" name="on" value="{% if seat.hints %}0{% else %}1{% endif %}">
    <button type="submit" class="button button-plain" aria-pressed="{% if seat.hints %}true{% else %}false{% endif %}">{% translate "Show the chart's move" %}</button>
  </form>
  {% if user.is_authenticated %}{% url 'game:coach' table.slug as coach_url %}
  <form method="post" action="{{ coach_url }}" class="hints-toggle"
        hx-post="{{ coach_url }}" hx-target="#round" hx-swap="outerHTML">{% csrf_token %}
    <input type="hidden" name="on" value="{% if seat.coach %}0{% else %}1{% endif %}">
    <button type="submit" class="button button-plain" aria-pressed="{% if seat.coach %}true{% else %}false{% endif %}" aria-describedby="coach-help">{% translate "Coach mode" %}</button>
    <span id="coach-help" class="coach-help">{% translate "Before a move that costs EV, the table stops and shows every option's EV." %}</span>
  </form>
  {% endif %}
</div>
"""  # noqa: E501
)


@pytest.fixture
def drawn(monkeypatch):
    """Every play area the views draw, with what the old template drew from the same context."""
    pairs: list[tuple[str, str]] = []
    real, old = round_area.round_html, Template(OLD_ROUND)

    def both(context):
        new = real(context)
        pairs.append((new, old.render(context)))
        return new

    monkeypatch.setattr(round_area, "round_html", both)
    return pairs


def _moves(html: str) -> tuple[str, str, list[str]] | None:
    """The move form's address, its seq and the legal moves, or None between rounds."""
    url = re.search(r'hx-post="(/[^"]+/round/\d+/move/)"', html)
    if url is None:
        return None
    seq = re.search(r'name="seq" value="(\d+)"', html)
    assert seq is not None
    legal = re.findall(r'name="move" value="(\w+)" data-key="\w" class="move">', html)
    return url.group(1), seq.group(1), legal


def _play_out(client, html: str, order: tuple[str, ...]) -> str:
    """Play the round to its end, each time the first of ``order`` that is legal."""
    while (form := _moves(html)) is not None:
        url, seq, legal = form
        move = next(m for m in order if m in legal)
        html = client.post(url, {"move": move, "seq": seq}, **HTMX).content.decode()
    return html


@pytest.mark.parametrize("lang", language_codes())
def test_the_play_area_is_the_template_s(lang, client, learner, tables, rig, drawn):
    play = f"/{lang}/play"
    scribes = f"{play}/table/scribes"
    # A visitor: the page, then a first deal at a fresh shoe (the shuffle's notice).
    assert client.get(f"{scribes}/").status_code == 200
    html = client.post(f"{scribes}/deal/", {"bet_0": "100"}, **HTMX).content.decode()
    _play_out(client, html, ("stand", "decline"))
    # A learner: the page before a first round, seat-mates, hints, insurance, a split.
    client.force_login(learner)
    assert client.get(f"{scribes}/").status_code == 200
    client.post(f"{scribes}/hints/", {"on": "1"}, **HTMX)
    rig(learner, tables["scribes"], boxes=["8s 8d", "As Kd", "9c 9h"], dealer="Ah 7c",
        rest="10d 10h 10s 3c 9c 5d")  # fmt: skip
    html = client.post(
        f"{scribes}/deal/", {"bet_0": "100", "bet_1": "200", "ai_2": "hard"}, **HTMX
    ).content.decode()
    html = _play_out(client, html, ("insure", "split", "double", "stand"))
    # A refused deal keeps what was entered; the repeat button; a stale move.
    refused = client.post(f"{scribes}/deal/", {"bet_0": "7", "ai_3": "easy"}, **HTMX)
    assert refused.status_code == 400
    html = client.post(f"{scribes}/deal/", {"repeat": "1"}, **HTMX).content.decode()
    form = _moves(html)
    assert form is not None
    assert client.post(form[0], {"move": "stand", "seq": "9"}, **HTMX).status_code == 409
    _play_out(client, html, ("stand", "decline"))
    # Coach mode's warning, then the move played anyway.
    client.post(f"{scribes}/coach/", {"on": "1"}, **HTMX)
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="10h 7c", rest="9c")
    html = client.post(f"{scribes}/deal/", {"bet_0": "100"}, **HTMX).content.decode()
    form = _moves(html)
    assert form is not None
    client.post(form[0], {"move": "double", "seq": form[1]}, **HTMX)
    client.post(form[0], {"move": "double", "seq": form[1], "confirm": "1"}, **HTMX)
    # Variant tables: boxes per player and surrender; no hole card.
    for slug, boxes in (("sixdeck", ["10s 6d"]), ("european", ["10s 6d", "8c 8h"])):
        rig(learner, tables[slug], boxes=boxes, dealer="10h 7c", rest="10c 5d 9s 2d")
        bets = {f"bet_{i}": str(tables[slug].min_bet) for i in range(len(boxes))}
        html = client.post(f"{play}/table/{slug}/deal/", bets, **HTMX).content.decode()
        _play_out(client, html, ("surrender", "hit", "stand"))
    # The free top-up, offered below the smallest bet.
    wallet = wallet_get_or_create(user=learner)
    Wallet.objects.filter(pk=wallet.pk).update(balance=Decimal(40))
    assert client.get(f"{scribes}/").status_code == 200

    for new, old in drawn:
        assert new == old
    everything = "".join(new for new, _old in drawn)
    for part in (
        "felt-empty", "shuffle-notice", 'class="hint"', 'value="insure"', "review-heading",
        "stack-table", "log-box", "message-error", "play-notice",
        "data-repeat", "coach-title", "coach-help", "box-counts", "top-up", "hx-swap-oob",
        'value="easy" selected', 'class="net won"', 'class="net lost"', 'value="surrender"',
    ):  # fmt: skip
        assert part in everything, part
