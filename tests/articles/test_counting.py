"""The counting article: its figures (the worker's simulation) in every language, "…" and no
work started while they are not stored, and the worker's job that stores them."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings

from articles import bootstrap, content, figures, selectors
from blackjack.counting import HI_LO
from computed import indices as computed_indices
from computed import services as computed_services
from computed.models import ChartJob, ComputedTable
from computed.store import DatabaseTableStore
from computed.tables import chart_key
from tests.articles.conftest import count_doc, count_table, house_doc
from tests.trainer.conftest import THOTH, thoth_docs

SLUG = "counting"
LANGS = [code for code, _name in settings.LANGUAGES]


@pytest.mark.parametrize("lang", LANGS)
def test_the_article_shows_every_figure_in_every_language(client, house_figures, lang):
    response = client.get(f"/{lang}/rules/{SLUG}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert selectors.MISSING not in html and "{{" not in html
    src = content.source(lang, SLUG)
    assert src is not None
    names = {name for name, _fmt in src.placeholders()}
    assert {"count.flat.edge", "count.ramp.return", "count.ramp.sigma", "count.rounds",
            "index.16v10", "index.insurance"} <= names  # fmt: skip
    page = selectors.page(lang, SLUG)
    assert page is not None
    f = count_doc()["figures"]
    rounds = selectors.figure_text(f, "count.rounds", None)
    assert rounds in page.rendered.html  # 3,000 / 3 000: the page's own number format
    assert f'href="/{lang}/trainer/indices/"' in html


def test_every_language_prints_the_same_figures_as_english():
    en = content.source("en", SLUG)
    assert en is not None
    for lang in LANGS:
        src = content.source(lang, SLUG)
        assert src is not None
        assert sorted(set(src.placeholders())) == sorted(set(en.placeholders())), lang


def test_the_index_page_links_the_article(client, db):
    html = client.get("/en/trainer/indices/").content.decode()
    assert f'href="/en/rules/{SLUG}/"' in html


def test_an_anonymous_get_before_the_simulation_writes_nothing(client, db):
    """The figure set is stored, the simulation not yet: the page shows "…" for its figures,
    writes no row and asks no worker; the next read after the worker stored them shows them."""
    figures.figures_store(doc=house_doc())
    rows = ComputedTable.objects.count()
    html = client.get(f"/en/rules/{SLUG}/").content.decode()
    assert selectors.MISSING in html
    assert ComputedTable.objects.count() == rows and ChartJob.objects.count() == 0
    figures.count_store(rules=figures.HOUSE, doc=count_doc())
    html = client.get(f"/en/rules/{SLUG}/").content.decode()
    assert selectors.MISSING not in html
    assert ChartJob.objects.count() == 0


def test_an_anonymous_get_with_everything_stored_writes_nothing(
    client, house_figures, django_assert_max_num_queries
):
    client.get(f"/en/rules/{SLUG}/")  # warm
    rows = ComputedTable.objects.count()
    with django_assert_max_num_queries(3):  # the session-free page reads no figure again
        response = client.get(f"/en/rules/{SLUG}/")
    assert response.status_code == 200
    assert ComputedTable.objects.count() == rows and ChartJob.objects.count() == 0


def test_the_other_articles_do_not_read_the_simulation(house_figures, django_assert_num_queries):
    selectors.forget()
    figures.figures_get()
    with django_assert_num_queries(0):
        selectors.page("en", "insurance")


def test_the_worker_stores_the_indices_then_the_simulation(db, monkeypatch):
    """The job of kind "count": the Hi-Lo index table when missing (stored where the index
    page reads it), then the rounds, with progress rising to the end; the bootstrap asks for
    it once, and not again when it is stored."""
    store = DatabaseTableStore()
    docs = thoth_docs()
    store.put(chart_key(THOTH), json.dumps(docs["chart"]).encode())
    monkeypatch.setattr(computed_services, "tables_stored", lambda rules: True)
    built = []

    def build(rules, system, chart, progress):
        built.append(system.key)
        progress(1, 1)
        return count_table()

    monkeypatch.setattr(computed_indices, "indices_build", build)
    monkeypatch.setattr(figures, "COUNT_ROUNDS", 400)
    steps: list[tuple[int, int]] = []
    figures.count_compute(THOTH, lambda done, total: steps.append((done, total)))
    assert built == ["hilo"]
    assert computed_indices.indices_get(THOTH, HI_LO) is not None
    assert steps[-1][0] == steps[-1][1] and steps == sorted(steps, key=lambda s: s[0] / s[1])
    stored = figures.count_get(THOTH)
    assert stored is not None and stored["count.rounds"] == 400
    assert stored["index.16v10"] == 0 and stored["index.insurance"] == 3
    assert figures.count_stored(THOTH)
    assert figures.count_request(THOTH) is False  # stored: nothing asked


def test_the_bootstrap_asks_a_worker(db, monkeypatch, settings):
    """With the setting on (make run), the bootstrap queues one job of kind "count" for the
    house rules; the test settings leave it off, their task backend running jobs at once."""
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)
    figures.figures_store(doc=house_doc())
    h17 = figures.rules_from_options({"dealer_hits_soft_17": True})
    figures.edge_store(rules=h17, basic=0.006, cd=0.006)
    settings.ARTICLES_COUNT_AT_START = True
    lines = bootstrap.run()
    assert any("counting" in line for line in lines)
    job = ChartJob.objects.get()
    assert (job.kind, job.rules_key) == (ChartJob.Kind.COUNT, figures.HOUSE.key())
    assert job.status == ChartJob.Status.QUEUED
    bootstrap.run()
    assert ChartJob.objects.count() == 1


def test_figure_formats():
    f = count_doc()["figures"]
    from django.utils import translation

    with translation.override("en"):
        assert selectors.figure_text(f, "index.16v10", None) == "0"
        assert selectors.figure_text(f, "index.insurance", None) == "+3"
        assert re.fullmatch(r"[+−]\d\.\d\d%", selectors.figure_text(f, "count.ramp.return", None))
        assert selectors.figure_text(f, "count.penetration", None) == "75%"
        assert selectors.figure_text(f, "count.ramp.top", None) == "+5"
    # A seed is an identifier: printed as it is typed back, without grouping, in any language.
    with translation.override("ru"):
        assert selectors.figure_text({**f, "count.seed": 20261204}, "count.seed", None) == (
            "20261204"
        )
