"""The move fieldset (game/_moves.html) for rounds in play in every state of the hands test
(moves, insurance, even money, surrender or not) in every language: each fieldset is kept per
language and what it shows ({% cache %}), so a button is off exactly when its move is not
legal, whichever fieldset was kept before it."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from core.languages import language_codes
from game import presenters
from game.limits import rules_of
from game.models import Seat
from game.services import round_deal
from tests.game.markup import parse
from tests.game.test_hands_markup import ROUNDS, _play

pytestmark = pytest.mark.django_db

KEYS = {"hit": "H", "stand": "S", "double": "D", "split": "P", "surrender": "R", "insure": "Y",
        "decline": "N"}  # fmt: skip


@pytest.mark.parametrize("lang", language_codes())
def test_a_move_is_off_exactly_when_it_is_not_legal(lang, learner, tables, rig):
    asked = set()
    with translation.override(lang):
        for slug, boxes, dealer, rest, bets, levels, moves in ROUNDS:
            rig(learner, tables[slug], boxes=boxes, dealer=dealer, rest=rest)
            rnd = round_deal(user=learner, table=tables[slug], bets=bets, ai_levels=levels)
            seat = Seat.objects.get(user=learner, table=tables[slug])
            for move in [*moves, None]:
                if not rnd.is_playing:
                    break
                view = presenters.round_view(rnd, balance=900)
                form = presenters.move_form(view, rules_of(seat))
                assert form is not None
                context = {"view": view, "moves": form, "LANGUAGE_CODE": lang}
                fieldset = parse(render_to_string("game/_moves.html", context)).one("fieldset")
                buttons = {b.attrs["value"]: b for b in fieldset.find_all("button", name="move")}
                assert {m for m, b in buttons.items() if "disabled" not in b.attrs} == view.legal
                assert all(b.one("kbd").text == KEYS[m] for m, b in buttons.items())
                n = {"n": view.turn_box}
                legend = fieldset.one("legend").text
                if view.insurance:
                    assert set(buttons) == {"insure", "decline"}
                    ask = "Box %(n)s: even money?" if view.even_money else "Box %(n)s: insurance?"
                    offer = "Even money (%(amount)s paid now)" if view.even_money else None
                    yes = buttons["insure"].text
                    if offer:
                        assert yes == f"{gettext(offer) % {'amount': form.offer}} Y"
                    else:
                        cost = gettext("Insure (half the bet: %(cost)s)") % {"cost": form.offer}
                        assert yes == f"{cost} Y"
                else:
                    ask = "Box %(n)s to play"
                    shown = {"hit", "stand", "double", "split"} | (
                        {"surrender"} if form.surrender else set()
                    )
                    assert set(buttons) == shown
                assert legend == gettext(ask) % n
                asked.add(ask)
                asked |= {"surrender"} & set(buttons)
                if any("disabled" in b.attrs for b in buttons.values()):
                    asked.add("a move off")
                if move is not None:
                    rnd = _play(learner, rnd, move)
    assert asked >= {"Box %(n)s to play", "Box %(n)s: insurance?", "Box %(n)s: even money?",
                     "surrender", "a move off"}  # fmt: skip
