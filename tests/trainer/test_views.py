import re
from random import Random

import pytest
from django.utils import translation

from accounts.models import User
from blackjack import PRESETS, Move
from computed import services as computed_services
from computed.models import ChartJob
from decisions.models import Decision
from decisions.services import decision_record
from trainer import services
from trainer.models import Situation
from trainer.services import situation_deal

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]
HTMX = {"HTTP_HX_REQUEST": "true"}
SETTINGS = {"focus": "all", "up": "6", "preset": "thoth"}


@pytest.fixture
def user():
    return User.objects.create_user(username="ani", password="x")


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def _situation(user, **kw):
    return situation_deal(user=user, rules=THOTH, rng=Random(kw.pop("seed", 1)), **kw)


def test_drill_page_without_a_hand(client):
    r = client.get("/en/trainer/")
    html = r.content.decode()
    assert r.status_code == 200 and "<html" in html
    assert "Deal a hand" in html and 'name="focus"' in html


def test_deal_makes_a_guest_and_redirects_to_the_situation(client, thoth_tables):
    r = client.post("/en/trainer/deal/", SETTINGS)
    s = Situation.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/en/trainer/s/{s.pk}/"
    assert s.user.is_guest
    page = client.get(r["Location"]).content.decode()
    assert 'name="move"' in page
    for move in s.ev:
        assert f'value="{move}"' in page


def test_deal_by_htmx_renders_the_situation_fragment(signed_in, thoth_tables):
    r = signed_in.post("/en/trainer/deal/", {**SETTINGS, "focus": "pair"}, **HTMX)
    html = r.content.decode()
    assert r.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="situation"')
    assert "pair" in html


def test_invalid_settings_are_a_bad_request(signed_in):
    r = signed_in.post("/en/trainer/deal/", {**SETTINGS, "focus": "everything"})
    assert r.status_code == 400


def test_answer_by_htmx_shows_every_ev_and_the_best(signed_in, user, thoth_tables):
    s = _situation(user, focus="hard", seed=8)
    r = signed_in.post("/en/trainer/answer/", {"situation": s.pk, "move": "stand"}, **HTMX)
    html = r.content.decode()
    assert r.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div id="answer-area"')
    best = max(s.ev, key=s.ev.get)
    rows = dict(
        re.findall(
            r'data-move="(\w+)">\s*<th scope="row">[^<]+</th>\s*<td class="num">([^<]+)</td>', html
        )
    )
    assert set(rows) == set(s.ev)
    for move, ev in s.ev.items():
        shown = rows[move].replace("−", "-").replace("%", "").replace("+", "")
        assert float(shown) == round(100 * ev, 2)
    assert re.search(rf'class="is-best[^"]*" data-move="{best}"', html)
    assert 'hx-swap-oob="true"' in html  # the session summary follows
    assert Decision.objects.get().choice == "stand"


def test_answer_without_htmx_redirects_to_the_result_page(signed_in, user, thoth_tables):
    s = _situation(user)
    move = next(iter(s.ev))
    r = signed_in.post("/en/trainer/answer/", {"situation": s.pk, "move": move})
    assert r.status_code == 302 and r["Location"] == f"/en/trainer/s/{s.pk}/"
    page = signed_in.get(r["Location"]).content.decode()
    assert "<html" in page and "Next hand" in page and 'class="ev-table"' in page


def test_second_answer_rerenders_without_a_second_record(signed_in, user, thoth_tables):
    s = _situation(user)
    moves = list(s.ev)
    signed_in.post("/en/trainer/answer/", {"situation": s.pk, "move": moves[0]}, **HTMX)
    r = signed_in.post("/en/trainer/answer/", {"situation": s.pk, "move": moves[-1]}, **HTMX)
    assert r.status_code == 200
    assert Decision.objects.count() == 1 and Decision.objects.get().choice == moves[0]


@pytest.mark.parametrize("pk", ["999999", "abc", ""])
def test_forged_situation_id_is_not_found(signed_in, thoth_tables, pk):
    r = signed_in.post("/en/trainer/answer/", {"situation": pk, "move": "hit"})
    assert r.status_code == 404


def test_another_learners_situation_is_not_found(signed_in, thoth_tables):
    other = User.objects.create_user(username="bes", password="x")
    s = _situation(other)
    assert (
        signed_in.post("/en/trainer/answer/", {"situation": s.pk, "move": "hit"}).status_code == 404
    )
    assert signed_in.get(f"/en/trainer/s/{s.pk}/").status_code == 404
    assert not Decision.objects.exists()


@pytest.mark.parametrize(("lang", "message"), [("en", "That move is not one of the options")])
def test_forged_move_is_a_bad_request_with_a_message(signed_in, user, thoth_tables, lang, message):
    s = _situation(user, focus="soft")
    r = signed_in.post(f"/{lang}/trainer/answer/", {"situation": s.pk, "move": "split"}, **HTMX)
    assert r.status_code == 400
    assert message in r.content.decode()
    assert not Decision.objects.exists()


def test_forged_move_message_is_translated(signed_in, user, thoth_tables):
    s = _situation(user, focus="soft")
    r = signed_in.post("/uk/trainer/answer/", {"situation": s.pk, "move": "split"})
    with translation.override("uk"):
        expected = str(services.ILLEGAL_MOVE)
    assert r.status_code == 400 and expected in r.content.decode()
    assert expected != "That move is not one of the options in this situation."


def test_get_is_refused_on_the_answer(signed_in):
    assert signed_in.get("/en/trainer/answer/").status_code == 405


def test_stats_page_empty_and_with_decisions(signed_in, user):
    assert "No answers yet" in signed_in.get("/en/trainer/stats/").content.decode()
    ev = {Move.STAND: -0.54, Move.HIT: -0.53}
    from blackjack import parse_cards

    for choice in (Move.STAND, Move.HIT, Move.HIT):
        decision_record(
            user=user, source="table", rules=THOTH, hand=parse_cards("10s 6d"),
            up=parse_cards("10h")[0], choice=choice, ev=ev, chart_move=Move.HIT,
        )  # fmt: skip
    html = signed_in.get("/en/trainer/stats/").content.decode()
    assert "<svg" in html and "<polyline" in html
    assert "66.7%" in html  # 2 of 3 right
    assert "0.33 bets" in html  # 1 % lost once in 3 decisions: 0.33 bets per 100
    assert "1/3" not in html and "2/3" in html  # the heat map cell hard 16 v 10
    assert "heat-poor" in html and "1.00%" in html  # the costly mistake


def test_chart_page_shows_the_grid(client, thoth_tables):
    r = client.get("/en/trainer/chart/")
    html = r.content.decode()
    assert r.status_code == 200
    assert html.count('class="chart-grid"') == 3
    assert 'class="mv-Ds"' in html and "Hit −" in html
    assert "mv-Rh" not in html  # no surrender under the house rules: not in the legend
    assert "every 2s" not in html


def test_chart_page_get_of_rules_not_computed_starts_nothing(client, monkeypatch):
    # Issue 15, finding 1: 16 anonymous GETs started 12 computations in a web process.
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: pytest.fail("enqueued"))
    for decks in ("1", "2", "4", "8"):
        r = client.get("/en/trainer/chart/", {"preset": "live", "decks": decks, "h17": "1"})
        html = r.content.decode()
        assert r.status_code == 200 and "has not been computed yet" in html
        assert 'method="post"' in html and "csrfmiddlewaretoken" in html
        assert f'name="decks" value="{decks}"' in html
        assert "every 2s" not in html
    assert ChartJob.objects.count() == 0


def test_chart_compute_needs_its_csrf_token():
    from django.test import Client

    r = Client(enforce_csrf_checks=True).post(
        "/en/trainer/chart/", {"preset": "sixdeck", "decks": "2"}
    )
    assert r.status_code == 403
    assert ChartJob.objects.count() == 0


def test_chart_compute_post_queues_it_and_the_page_shows_progress(client, monkeypatch):
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)  # no worker here
    query = {"preset": "sixdeck", "decks": "2"}
    r = client.post("/en/trainer/chart/", query, REMOTE_ADDR="10.1.2.3")
    assert r.status_code == 302 and r["Location"].startswith("/en/trainer/chart/?")
    job = ChartJob.objects.get()
    assert job.status == ChartJob.Status.QUEUED
    html = client.get(r["Location"]).content.decode()
    assert 'hx-trigger="every 2s"' in html and "<progress" in html
    poll = client.get("/en/trainer/chart/", {**query, "poll": "1"}, **HTMX)
    assert poll.content.decode().lstrip().startswith('<div id="chart-body"')


def test_chart_compute_beyond_the_bound_shows_the_place_in_line(client, monkeypatch):
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)
    monkeypatch.setattr(computed_services, "MAX_PENDING", 1)
    client.post("/en/trainer/chart/", {"preset": "sixdeck", "decks": "2"}, REMOTE_ADDR="10.1.2.4")
    r = client.post(
        "/en/trainer/chart/", {"preset": "sixdeck", "decks": "4"}, REMOTE_ADDR="10.1.2.4", **HTMX
    )
    assert r.status_code == 200
    assert "Its place in the queue: 1." in r.content.decode()


def test_chart_compute_is_rate_limited_per_address(client, monkeypatch):
    from computed import limits

    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)
    monkeypatch.setattr(limits, "JOB_LIMITS", {"user": (50, 600), "address": (2, 600)})
    address = f"10.77.{Random().randrange(250)}.{Random().randrange(250)}"
    for decks in ("2", "4"):
        r = client.post(
            "/en/trainer/chart/", {"preset": "live", "decks": decks}, REMOTE_ADDR=address
        )
        assert r.status_code == 302
    r = client.post("/en/trainer/chart/", {"preset": "live", "decks": "8"}, REMOTE_ADDR=address)
    assert r.status_code == 429 and "many new charts" in r.content.decode()
    assert ChartJob.objects.count() == 2


def test_chart_compute_says_busy_when_the_line_is_full(client, monkeypatch):
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)
    monkeypatch.setattr(computed_services, "MAX_PENDING", 1)
    monkeypatch.setattr(computed_services, "MAX_WAITING", 1)
    for decks in ("2", "4"):
        r = client.post("/en/trainer/chart/", {"preset": "sixdeck", "decks": decks})
        assert r.status_code == 302
    r = client.post("/en/trainer/chart/", {"preset": "sixdeck", "decks": "8"}, **HTMX)
    assert r.status_code == 503 and r["Retry-After"] == "60"
    assert "Too many computations are waiting just now" in r.content.decode()
    assert ChartJob.objects.count() == 2
    # The rule set already waiting is joined: no refusal, no second row.
    r = client.post("/en/trainer/chart/", {"preset": "sixdeck", "decks": "4"}, **HTMX)
    assert r.status_code == 200 and "Its place in the queue: 1." in r.content.decode()
    assert ChartJob.objects.count() == 2


def test_chart_compute_refuses_bad_rules(client):
    r = client.post("/en/trainer/chart/", {"preset": "sixdeck", "decks": "3"})
    assert r.status_code == 400
    assert ChartJob.objects.count() == 0


def test_a_failed_chart_job_shows_failed_with_a_retry_button(client, monkeypatch):
    # Issue 15, finding 2: a failed job showed "being computed" for ever.
    rules = PRESETS["sixdeck"]
    ChartJob.objects.create(
        rules_key=rules.key(), rules=rules.to_dict(), status=ChartJob.Status.FAILED, error="x"
    )
    html = client.get("/en/trainer/chart/", {"preset": "sixdeck"}).content.decode()
    assert "Computing this chart failed." in html and "Try again" in html
    assert "every 2s" not in html and "being computed" not in html
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)
    r = client.post("/en/trainer/chart/", {"preset": "sixdeck"}, REMOTE_ADDR="10.1.2.5")
    assert r.status_code == 302
    assert ChartJob.objects.get().status == ChartJob.Status.QUEUED


def test_pages_in_another_language(client, thoth_tables):
    html = client.get("/uk/trainer/chart/").content.decode()
    assert "Жорсткі суми" in html or "Тверді суми" in html
