"""The index page: the stored table shown, "being computed" and the Compute button as on the
chart page, the worker's job, and bad settings answered 400."""

import pytest

from blackjack import PRESETS, Move, Surrender, save_json
from blackjack.counting import HI_LO, KO, IndexPlay, IndexTable
from computed import indices as computed_indices
from computed import services as computed_services
from computed.models import ChartJob, ComputedTable
from computed.store import DatabaseTableStore

pytestmark = pytest.mark.django_db
THOTH = PRESETS["thoth"]
HTMX = {"HTTP_HX_REQUEST": "true"}

PLAYS = (
    IndexPlay("hard", 16, 10, Move.HIT, Move.STAND, 0, True, 0.08, 0.00576, 0.0031),
    IndexPlay("hard", 12, 4, Move.STAND, Move.HIT, 0, False, -0.09, 0.01205, 0.0061),
    IndexPlay("pair", 10, 5, Move.STAND, Move.SPLIT, 4, True, 4.41, 0.00312, 0.0039),
    IndexPlay("insurance", 0, 1, Move.DECLINE, Move.INSURE, 3, True, 3.33, 0.00137, 0.002),
)


@pytest.fixture(autouse=True)
def _forget():
    computed_indices.indices_forget()
    yield
    computed_indices.indices_forget()


def _store(rules=THOTH, system=HI_LO, plays=PLAYS):
    table = IndexTable(rules, system, 208, plays, {0: 1.0})
    save_json(DatabaseTableStore(), computed_indices.indices_key(rules, system), table.to_dict())


def test_page_shows_the_stored_plays(client):
    _store()
    r = client.get("/en/trainer/indices/")
    html = r.content.decode()
    assert r.status_code == 200
    assert "4 index plays" in html
    assert '<td>Hit</td><td>Stand</td><td class="index-when">TC ≥ 0</td>' in html
    assert '<td>Stand</td><td>Hit</td><td class="index-when">TC &lt; 0</td>' in html
    assert '<th scope="row">10-10</th><td>5</td>' in html and "TC ≥ +4" in html
    assert '<th scope="row">Insurance</th><td>A</td>' in html
    assert '<td class="num">+0.58</td>' in html  # 16 v 10's gain, percent of the bet
    assert "every 2s" not in html and "Count system: Hi-Lo." in html


def test_chart_page_links_to_the_indices(client, thoth_tables):
    html = client.get("/en/trainer/chart/", {"preset": "sixdeck"}).content.decode()
    assert '<a href="/en/trainer/indices/?preset=sixdeck">' in html


def test_a_system_alone_takes_the_house_rules(client):
    _store(system=KO)
    r = client.get("/en/trainer/indices/", {"system": "ko"})
    assert r.status_code == 200 and "Count system: KO." in r.content.decode()


def test_htmx_poll_gets_the_fragment(client):
    _store()
    r = client.get("/en/trainer/indices/", {"preset": "thoth", "poll": "1"}, **HTMX)
    body = r.content.decode().lstrip()
    assert r.status_code == 200 and body.startswith('<div id="indices-body"')
    assert "<html" not in body and "TC ≥ +3" in body


def test_another_system_not_computed_starts_nothing_on_get(client, monkeypatch):
    _store()  # Hi-Lo only
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: pytest.fail("enqueued"))
    r = client.get("/en/trainer/indices/", {"preset": "thoth", "system": "ko"})
    html = r.content.decode()
    assert r.status_code == 200 and "have not been computed yet" in html
    assert 'name="system" value="ko"' in html and 'method="post"' in html
    assert ChartJob.objects.count() == 0


@pytest.mark.parametrize(
    "query",
    [
        {"preset": "nope"},
        {"preset": "thoth", "system": "wong"},
        {"preset": "thoth", "decks": "3"},
        {"preset": "thoth", "system": "hilo\x00"},
        {"preset": "thoth", "surrender": "early"},
    ],
)
def test_bad_settings_answer_400(client, query):
    r = client.get("/en/trainer/indices/", query)
    assert r.status_code == 400
    if not any(
        "\x00" in v for v in query.values()
    ):  # a NUL is refused before the view (core's middleware)
        assert "These settings are not valid" in r.content.decode()
    assert client.post("/en/trainer/indices/", query).status_code == 400
    assert ChartJob.objects.count() == 0


def test_compute_post_queues_an_index_job_and_shows_progress(client, monkeypatch):
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)
    query = {"preset": "sixdeck", "system": "hilo"}
    r = client.post("/en/trainer/indices/", query, REMOTE_ADDR="10.9.2.3")
    assert r.status_code == 302 and r["Location"].startswith("/en/trainer/indices/?")
    job = ChartJob.objects.get()
    assert (job.status, job.kind) == (ChartJob.Status.QUEUED, ChartJob.Kind.INDICES)
    html = client.get(r["Location"]).content.decode()
    assert 'hx-trigger="every 2s"' in html and "being computed" in html


def test_the_worker_computes_and_stores_every_system(monkeypatch):
    """The job's work: the tables first when missing, then each system in order, Hi-Lo
    first, each stored under its key; the page's "stored" test then holds."""
    rules = PRESETS["sixdeck"]
    done = []
    monkeypatch.setattr(computed_services, "tables_stored", lambda r: True)
    monkeypatch.setattr(
        computed_indices,
        "load_json",
        lambda store, key: (
            {"rules": {}, "cells": []}
            if key.startswith("chart")
            else ComputedTable.objects.filter(key=key).values_list("data", flat=True).first()
        ),
    )

    def build(rules, system, chart, progress):
        done.append(system.key)
        progress(10, 10)
        return IndexTable(rules, system, 208, PLAYS[:1], {})

    monkeypatch.setattr(computed_indices, "indices_build", build)
    steps = []
    computed_indices.indices_compute(rules, lambda d, t: steps.append((d, t)))
    assert done == ["hilo", "ko", "hiopt1", "zen"]
    assert steps[-1] == (40, 40)
    assert computed_indices.indices_stored(rules)
    assert computed_indices.indices_get(rules, KO).plays == PLAYS[:1]
    assert (
        computed_services.job_request(
            rules=rules, kind=ChartJob.Kind.INDICES, user_key=None, address="10.9.9.9"
        )
        is None
    )  # stored: nothing to ask for


def test_surrender_rules_keep_their_own_table(client):
    late = PRESETS["sixdeck"]
    assert late.surrender == Surrender.LATE
    _store(rules=late, plays=PLAYS[:1])
    html = client.get("/en/trainer/indices/", {"preset": "sixdeck"}).content.decode()
    assert "1 index play<" in html


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("uk", ("Індексні гри", "Істинний рахунок", "4 індексні гри", "% ставки")),
        ("ru", ("Индексные игры", "Истинный счёт", "4 индексные игры", "% ставки")),
        ("be", ("Хады па індэксе", "Ісцінны лік", "4 хады па індэксе", "% стаўкі")),
        ("cs", ("Indexové hry", "Skutečný počet", "4 indexové hry", "% sázky")),
        ("hy", ("Ինդեքսային խաղեր", "Իրական հաշիվ", "4 ինդեքսային խաղ", "խաղադրույքի %")),
    ],
)
def test_page_in_every_language(client, lang, words):
    _store()
    html = client.get(f"/{lang}/trainer/indices/").content.decode()
    for word in words:
        assert word in html, word
    assert "%%" not in html
