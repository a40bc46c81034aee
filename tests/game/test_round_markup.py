"""The play area (#round, the ``round`` partial of game/table.html and its includes) keeps its
structure in every language: the ids, classes, htmx and aria attributes the script, the
styles and screen readers rely on, every form posting with its CSRF token, and every word
translated.  The table is played through the views as a learner and a visitor would, in many
states (no round yet, a round in play with hints or coach mode's warning, a finished round
with its review, a refused deal, a stale move, the free top-up, a fresh shoe, variant tables)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from core.languages import language_codes
from game.models import Wallet
from game.services import wallet_get_or_create
from tests.game.markup import Element, parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
MOVE_KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r",
             "insure": "y", "decline": "n"}  # fmt: skip
MOVE_WORDS = {"hit": "Hit", "stand": "Stand", "double": "Double", "split": "Split",
              "surrender": "Surrender", "decline": "No"}  # fmt: skip


def _moves(html: str) -> tuple[str, str, list[str]] | None:
    """The move form's address, its seq and the legal moves, or None between rounds."""
    url = re.search(r'hx-post="(/[^"]+/round/\d+/move/)"', html)
    if url is None:
        return None
    seq = re.search(r'name="seq" value="(\d+)"', html)
    assert seq is not None
    legal = re.findall(r'name="move" value="(\w+)" data-key="\w" class="move">', html)
    return url.group(1), seq.group(1), legal


def _play_out(client, html: str, order: tuple[str, ...], drawn: list[str]) -> str:
    """Play the round to its end, each time the first of ``order`` that is legal."""
    while (form := _moves(html)) is not None:
        url, seq, legal = form
        move = next(m for m in order if m in legal)
        html = client.post(url, {"move": move, "seq": seq}, **HTMX).content.decode()
        drawn.append(html)
    return html


def _check_form(form: Element) -> None:
    """A form posts, with one CSRF token; an htmx form posts where its action does and swaps
    the play area."""
    assert form.attrs["method"] == "post"
    tokens = form.find_all("input", name="csrfmiddlewaretoken")
    assert len(tokens) == 1
    assert tokens[0].attrs["type"] == "hidden" and tokens[0].attrs["value"]
    if "hx-post" in form.attrs:
        assert form.attrs["hx-post"] == form.attrs["action"]
        assert (form.attrs["hx-target"], form.attrs["hx-swap"]) == ("#round", "outerHTML")


def _check_moves(form: Element, seq: str) -> None:
    assert form.classes == ["actions"]
    assert re.fullmatch(r"/\w+/play/round/\d+/move/", form.attrs["action"] or "")
    assert (form.attrs["hx-sync"], form.attrs["hx-disabled-elt"]) == ("this:drop", "find fieldset")
    assert form.one("input", name="seq").attrs["value"] == seq
    fieldset = form.one("fieldset")
    legend = fieldset.one("legend").text
    question = "data-question" in fieldset.attrs
    asks = (
        ("Box %(n)s: even money?", "Box %(n)s: insurance?") if question else ("Box %(n)s to play",)
    )
    assert legend in [gettext(a) % {"n": n} for a in asks for n in range(1, 6)], legend
    if question:
        assert fieldset.attrs["tabindex"] == "-1"
    buttons = fieldset.find_all("button")
    assert buttons, legend
    for button in buttons:
        move = button.attrs["value"] or ""
        assert (button.attrs["type"], button.attrs["name"], button.classes) == (
            "submit",
            "move",
            ["move"],
        )
        assert button.attrs["data-key"] == MOVE_KEYS[move]
        assert button.one("kbd").text == MOVE_KEYS[move].upper()
        if move in MOVE_WORDS:
            assert button.text == f"{gettext(MOVE_WORDS[move])} {MOVE_KEYS[move].upper()}"
    values = [b.attrs["value"] for b in buttons]
    if question:
        assert values == ["insure", "decline"]
    else:
        assert values[:4] == ["hit", "stand", "double", "split"] and values[4:] in (
            [],
            ["surrender"],
        )
    coach = form.find_all("div", cls="coach")
    if coach:
        (warning,) = coach
        assert (warning.attrs["role"], warning.attrs["aria-labelledby"]) == ("alert", "coach-title")
        assert warning.one("p", id="coach-title").text.startswith(
            gettext("Wait: the cost of %(move)s is %(cost)s.").split("%")[0]
        )
        assert warning.one("p", id="coach-evs-title").text == gettext(
            "Expected value of each option, as a percentage of the bet"
        )
        assert warning.one("table", cls="coach-evs").attrs["aria-labelledby"] == "coach-evs-title"
        assert warning.one("input", name="confirm").attrs["value"] == "1"
        best = warning.one("button", cls="button-gold")
        assert "data-coach-best" in best.attrs and best.attrs["name"] == "move"
        rows = warning.find_all("tr")
        assert [r.classes for r in rows if "best" in r.classes] == [["best"]]
        assert [r.find_all("td")[1].text for r in rows if "best" in r.classes] == [gettext("best")]


def _check_bets(form: Element) -> None:
    assert form.classes == ["bets"]
    assert form.attrs["hx-sync"] == "this:drop"
    assert form.attrs["hx-disabled-elt"] == "find .deal-buttons"
    rack = form.one("fieldset", cls="chip-rack")
    assert rack.one("legend").text == gettext("Chip")
    chips = rack.find_all("input", name="chip")
    assert chips and all(c.attrs["type"] == "radio" and c.inside("label") for c in chips)
    assert len([c for c in chips if "checked" in c.attrs]) <= 1
    assert not [c for c in chips if "checked" in c.attrs and "disabled" in c.attrs]
    boxes = form.one("ol", cls="bet-boxes").find_all("li", cls="bet-box")
    assert len(boxes) == 5
    for i, box in enumerate(boxes):
        n = {"n": i + 1}
        spot = box.one("button", cls="bet-spot")
        assert (spot.attrs["type"], spot.attrs["data-box"]) == ("button", str(i))
        assert spot.attrs["aria-describedby"] == f"bet-{i}-label"
        assert spot.text == gettext("Box %(n)s") % n
        assert box.one("label", id=f"bet-{i}-label").attrs["for"] == f"bet-{i}"
        assert box.one("label", id=f"bet-{i}-label").text == gettext("Bet on box %(n)s") % n
        bet = box.one("input", id=f"bet-{i}")
        assert (bet.attrs["type"], bet.attrs["name"], bet.attrs["min"]) == (
            "number",
            f"bet_{i}",
            "0",
        )
        assert bet.attrs["max"] and bet.attrs["step"] and bet.attrs["inputmode"] == "numeric"
        assert box.one("label", for_=f"ai-{i}").text == gettext("AI player on box %(n)s") % n
        options = box.one("select", id=f"ai-{i}").find_all("option")
        assert [o.attrs["value"] for o in options] == ["", "easy", "normal", "hard"]
        assert options[0].text == gettext("Empty")
        assert options[1].text == f"{gettext('AI')} · {gettext('Easy')}"
    deal = form.one("button", cls="deal-button")
    assert "data-deal" in deal.attrs and deal.text == f"{gettext('Deal')} Enter"
    assert form.one("button", type="reset").text == gettext("Clear bets")
    for repeat in form.find_all("button", name="repeat"):
        assert repeat.text == gettext("Repeat last bet") and "data-repeat" in repeat.attrs


def _check_area(html: str, *, signed_in: bool) -> None:
    """Everything the play area must hold, in the active language."""
    area = parse(html).one("div", id="round")
    assert (area.classes, area.attrs["hx-history"]) == (["play-area"], "false")
    assert area.one("div", id="announce").attrs["hx-swap-oob"] == "innerHTML"
    status = area.one("div", cls="status-bar")
    texts = [p.text for p in status.find_all("p")]
    assert texts[0].startswith(gettext("Balance:") + " ")
    assert texts[1].startswith(gettext("Cards left in the shoe:") + " ")
    assert status.one("strong", cls="balance").text and status.one("strong", cls="shoe-left").text
    for form in area.find_all("form"):
        _check_form(form)
    felt = area.one("div", cls="felt")
    if not felt.find_all("p", cls="felt-empty"):
        dealer = felt.one("div", cls="dealer")
        assert (dealer.attrs["aria-label"], dealer.attrs["role"]) == (gettext("Dealer"), "group")
        boxes = felt.one("ol", cls="boxes").find_all("li", cls="box")
        assert [b.attrs["aria-label"] for b in boxes] == [
            gettext("Box %(n)s") % {"n": n} for n in range(1, 6)
        ]
        for back in dealer.find_all("span", cls="back"):
            assert (back.attrs["role"], back.attrs["aria-label"]) == (
                "img",
                gettext("face-down card"),
            )
    else:
        assert felt.one("p", cls="felt-empty").text == gettext("Place your bets to begin.")
    moves = area.find_all("form", cls="actions")
    if moves:
        _check_moves(moves[0], area.attrs["data-seq"] or "0")  # a first seq 0 is written ""
        assert not area.find_all("form", cls="bets")
    else:
        _check_bets(area.one("form", cls="bets"))
    toggles = area.find_all("form", cls="hints-toggle")
    assert len(toggles) == (2 if signed_in else 1)
    for toggle in toggles:
        pressed = toggle.one("button").attrs["aria-pressed"]
        assert pressed in ("true", "false")
        assert toggle.one("input", name="on").attrs["value"] == ("0" if pressed == "true" else "1")
    assert toggles[0].one("button").text == gettext("Show the chart's move")
    if signed_in:
        assert toggles[1].one("button").attrs["aria-describedby"] == "coach-help"
        assert toggles[1].one("button").text == gettext("Coach mode")
        assert toggles[1].one("span", id="coach-help").text == gettext(
            "Before a move that costs EV, the table stops and shows every option's EV."
        )
    for log in area.find_all("details", cls="log-box"):
        assert log.one("summary", id="log-title").text == gettext("At the table")
        scroll = log.one("div", cls="log-scroll")
        assert (scroll.attrs["tabindex"], scroll.attrs["role"]) == ("0", "region")
        assert scroll.attrs["aria-labelledby"] == "log-title"
    for review in area.find_all("section", cls="review"):
        assert review.one("h2", id="review-heading").text == gettext("Your decisions")
        heads = [th.text for th in review.one("thead").find_all("th")]
        assert heads == [gettext(w) for w in ("Box", "Hand", "Your move", "Best move", "EV lost")]
        for row in review.one("tbody").find_all("tr"):
            assert row.classes in (["right"], ["wrong"])
            assert [td.attrs["data-label"] for td in row.find_all("td")] == heads
            if row.classes == ["right"]:
                assert row.find_all("td")[-1].text == pgettext("EV lost", "none")


def _drawn(client, learner, tables, rig, play: str) -> list[tuple[str, bool]]:
    """Every play area of a visitor's and a learner's evening at the tables."""
    scribes = f"{play}/table/scribes"
    # A visitor has no coach mode; a first bet makes them a guest, who has.
    visitor = client.get(f"{scribes}/", **HTMX).content.decode()
    drawn: list[str] = [client.post(f"{scribes}/deal/", {"bet_0": "100"}, **HTMX).content.decode()]
    _play_out(client, drawn[-1], ("stand", "decline"), drawn)
    client.force_login(learner)
    drawn.append(client.get(f"{scribes}/", **HTMX).content.decode())
    drawn.append(client.post(f"{scribes}/hints/", {"on": "1"}, **HTMX).content.decode())
    rig(learner, tables["scribes"], boxes=["8s 8d", "As Kd", "9c 9h"], dealer="Ah 7c",
        rest="10d 10h 10s 3c 9c 5d")  # fmt: skip
    drawn.append(client.post(
        f"{scribes}/deal/", {"bet_0": "100", "bet_1": "200", "ai_2": "hard"}, **HTMX
    ).content.decode())  # fmt: skip
    _play_out(client, drawn[-1], ("insure", "split", "double", "stand"), drawn)
    refused = client.post(f"{scribes}/deal/", {"bet_0": "7", "ai_3": "easy"}, **HTMX)
    assert refused.status_code == 400
    drawn.append(refused.content.decode())
    drawn.append(client.post(f"{scribes}/deal/", {"repeat": "1"}, **HTMX).content.decode())
    form = _moves(drawn[-1])
    assert form is not None
    stale = client.post(form[0], {"move": "stand", "seq": "9"}, **HTMX)
    assert stale.status_code == 409
    drawn.append(stale.content.decode())
    _play_out(client, drawn[-1], ("stand", "decline"), drawn)
    drawn.append(client.post(f"{scribes}/coach/", {"on": "1"}, **HTMX).content.decode())
    rig(learner, tables["scribes"], boxes=["10s 6d"], dealer="10h 7c", rest="9c")
    drawn.append(client.post(f"{scribes}/deal/", {"bet_0": "100"}, **HTMX).content.decode())
    form = _moves(drawn[-1])
    assert form is not None
    drawn.append(client.post(form[0], {"move": "double", "seq": form[1]}, **HTMX).content.decode())
    drawn.append(client.post(
        form[0], {"move": "double", "seq": form[1], "confirm": "1"}, **HTMX
    ).content.decode())  # fmt: skip
    for slug, boxes in (("sixdeck", ["10s 6d"]), ("european", ["10s 6d", "8c 8h"])):
        rig(learner, tables[slug], boxes=boxes, dealer="10h 7c", rest="10c 5d 9s 2d")
        bets = {f"bet_{i}": str(tables[slug].min_bet) for i in range(len(boxes))}
        drawn.append(client.post(f"{play}/table/{slug}/deal/", bets, **HTMX).content.decode())
        _play_out(client, drawn[-1], ("surrender", "hit", "stand"), drawn)
    wallet = wallet_get_or_create(user=learner)
    Wallet.objects.filter(pk=wallet.pk).update(balance=Decimal(40))
    drawn.append(client.get(f"{scribes}/", **HTMX).content.decode())
    return [(visitor, False)] + [(html, True) for html in drawn]


@pytest.mark.parametrize("lang", language_codes())
def test_the_play_area_keeps_its_structure_in_every_language(lang, client, learner, tables, rig):
    drawn = _drawn(client, learner, tables, rig, f"/{lang}/play")
    with translation.override(lang):
        for html, signed_in in drawn:
            _check_area(html, signed_in=signed_in)
        top_up = ngettext("Free top-up: %(amount)s deben", "Free top-up: %(amount)s debens", 500)
        shuffled = gettext("The dealer shuffled a fresh shoe before this round.")
    everything = "".join(html for html, _signed_in in drawn)
    # The evening drew every state the area has (each check above ran on some area).
    for part in (
        "shuffle-notice", 'class="hint"', 'value="insure"', "review-heading", "log-box",
        "message-error", "play-notice", "data-repeat", "coach-title", "box-counts", "top-up",
        'value="easy" selected', 'class="net won"', 'class="net lost"', 'value="surrender"',
        '" disabled>', "pcard back", "data-question",
    ):  # fmt: skip
        assert part in everything, part
    assert shuffled in everything
    assert top_up.split("%")[0] in everything
    if lang != "en":  # the words are the catalogue's, not English
        assert "Cards left in the shoe:" not in everything
        assert "Bet on box" not in everything and "to play</legend>" not in everything


def test_a_refused_deal_shows_what_was_entered_again(client, learner, tables):
    client.force_login(learner)
    response = client.post(
        "/en/play/table/scribes/deal/", {"bet_0": "7", "bet_3": "200", "ai_1": "hard"}, **HTMX
    )
    assert response.status_code == 400
    form = parse(response.content.decode()).one("form", cls="bets")
    assert [form.one("input", name=f"bet_{i}").attrs["value"] for i in range(5)] == [
        "7", "", "", "200", "",
    ]  # fmt: skip
    assert [o.attrs["value"] for o in form.one("select", name="ai_1").find_all("option")
            if "selected" in o.attrs] == ["hard"]  # fmt: skip
    # The same form with nothing entered is another fragment, not the kept one.
    fresh = parse(client.get("/en/play/table/scribes/", **HTMX).content.decode())
    assert fresh.one("input", name="bet_0").attrs["value"] == ""
    assert not [
        o for o in fresh.one("select", name="ai_1").find_all("option") if "selected" in o.attrs
    ]
