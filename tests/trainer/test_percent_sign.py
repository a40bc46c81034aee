"""Every percentage the drill's result, the statistics and the table's review show has its sign
placed as the language writes it (:func:`core.numbers.percent`): "−22.39%" in English, with a
no-break space in Czech and Ukrainian ("−22,39 %").  The table review's cost is checked in
``tests/game/test_views.py``."""

import re

import pytest

from accounts.models import User
from blackjack import PRESETS, Move, parse_cards
from decisions.services import decision_record
from trainer.models import Situation
from trainer.services import situation_evaluate

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]
HTMX = {"HTTP_HX_REQUEST": "true"}
NBSP = "\u00a0"


def _text(html: str) -> str:
    """The page's text, tags dropped (a figure and its sign never straddle a tag)."""
    return re.sub(r"<[^>]+>", " ", html)


@pytest.fixture
def signed_in(client):
    user = User.objects.create_user(username="ani", password="x")
    client.force_login(user)
    client.user = user
    return client


def _wrong_answer(client, thoth_tables, lang, hand="4s 4d 4c 4h", up="10h"):
    cards, (up_card,) = parse_cards(hand), parse_cards(up)
    ev, chart, bust = situation_evaluate(rules=THOTH, hand=cards, up=up_card, tables=thoth_tables)
    s = Situation.objects.create(
        user=client.user, rules=THOTH.to_dict(), rules_key=THOTH.key(),
        hand=[c.code for c in cards], dealer_up=up_card.code, focus="exact", kind="play",
        ev={str(m): v for m, v in ev.items()}, chart_move=str(chart), dealer_bust=bust,
    )  # fmt: skip
    # The chart's move, which costs here: the cost, the chart check and the why line all show
    # percentages.
    r = client.post(f"/{lang}/trainer/answer/", {"situation": s.pk, "move": "hit"}, **HTMX)
    assert r.status_code == 200
    return _text(r.content.decode())


def test_the_drill_result_writes_no_space_before_the_sign_in_english(signed_in, thoth_tables):
    text = _wrong_answer(signed_in, thoth_tables, "en")
    assert "Your choice cost 1.02% of the bet." in text
    assert "is better by 1.02% of the bet" in text
    assert "beats Hit (−55.34%)" in text
    assert not re.search(r"\d[ \u00a0]%", text), re.findall(r".{30}\d[ \u00a0]%.{5}", text)


@pytest.mark.parametrize("lang", ["cs", "uk"])
def test_the_drill_result_keeps_the_space_in_czech_and_ukrainian(signed_in, thoth_tables, lang):
    text = _wrong_answer(signed_in, thoth_tables, lang)
    assert f"1,02{NBSP}%" in text  # the cost
    assert f"55,34{NBSP}%" in text  # an EV in the why line
    assert not re.search(r"\d%", text), re.findall(r".{30}\d%.{5}", text)


def test_statistics_plot_titles_in_english_and_czech(signed_in):
    ev = {Move.STAND: -0.54, Move.HIT: -0.53}
    for choice in (Move.STAND, Move.HIT, Move.HIT):
        decision_record(
            user=signed_in.user, source="table", rules=THOTH, hand=parse_cards("10s 6d"),
            up=parse_cards("10h")[0], choice=choice, ev=ev, chart_move=Move.HIT,
        )  # fmt: skip
    en = signed_in.get("/en/trainer/stats/").content.decode()
    cs = signed_in.get("/cs/trainer/stats/").content.decode()
    assert "66.7%" in en and not re.search(r"\d %", en)
    assert f"66,7{NBSP}%" in cs and not re.search(r"\d%", _text(cs))
