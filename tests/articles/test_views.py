"""The rules pages: index, articles, head tags, the calculator, sitemap.xml and robots.txt."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from urllib.parse import urlsplit

import pytest
from django.urls import resolve
from django.utils.html import escape

from articles import content, figures
from blackjack import Chart
from computed import services as computed_services
from computed.models import ChartJob
from computed.tables import chart_key
from tests.computed.docs import docs_for

HOST = "testserver"


def present() -> list[tuple[str, str]]:
    return [(lang, slug) for lang in content.language_codes() for slug in content.SLUGS
            if content.source(lang, slug) is not None]  # fmt: skip


def test_index_lists_every_article(client, house_figures):
    html = client.get("/en/rules/").content.decode()
    for slug in content.SLUGS:
        assert f'href="/en/rules/{slug}/"' in html


@pytest.mark.parametrize(("lang", "slug"), present())
def test_article_page_head(client, house_figures, lang, slug):
    src = content.source(lang, slug)
    assert src is not None
    response = client.get(f"/{lang}/rules/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<title>{escape(src.title)} · " in html
    assert f'<meta name="description" content="{escape(src.description)}">' in html
    assert f'<link rel="canonical" href="http://{HOST}/{lang}/rules/{slug}/">' in html
    alternates = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"', html))
    langs = [c for c in content.language_codes() if content.source(c, slug) is not None]
    assert set(alternates) == {*langs, "x-default"}
    for code in langs:
        assert alternates[code] == f"http://{HOST}/{code}/rules/{slug}/"
    assert alternates["x-default"] == f"http://{HOST}/en/rules/{slug}/"
    assert 'class="breadcrumbs"' in html
    assert html.count("<h1") == 1


def test_hreflang_lists_all_six_languages_when_all_are_written(client, house_figures):
    """The sitemap and the head name all six: a language without the article fails the
    existence test, not this one."""
    html = client.get("/en/rules/rules/").content.decode()
    codes = re.findall(r'hreflang="([^"]+)" href', html)
    written = [c for c in content.language_codes() if content.source(c, "rules") is not None]
    assert codes == [*written, "x-default"]


def test_long_page_has_a_table_of_contents(client, house_figures):
    html = client.get("/en/rules/rules/").content.decode()
    assert 'class="toc"' in html and 'href="#worked-round"' in html


def test_unknown_article_is_404(client, db):
    assert client.get("/en/rules/no-such-article/").status_code == 404


def test_chart_block_has_the_stored_cells(client, house_figures):
    from computed.tables import Tables
    from tests.trainer.conftest import thoth_docs

    html = client.get("/en/rules/basic-strategy/").content.decode()
    docs = thoth_docs()
    tables = Tables.from_json(docs["data"], Chart.from_dict(docs["chart"]))
    row = re.search(r"<tr><th scope=\"row\">16\s*</th>(.*?)</tr>", html)
    assert row is not None
    codes = re.findall(r"<td class=\"mv-[^\"]+\">([A-Za-z]+)</td>", row.group(1))
    assert codes == [tables.cell("hard", 16, up).code() for up in figures.UPS]


def test_worked_round_shows_the_table_cards(client, house_figures):
    html = client.get("/en/rules/rules/").content.decode()
    assert html.count('class="playing-card') >= 8
    assert 'aria-label="eight of spades"' in html


def test_figures_in_the_page(client, house_figures):
    html = (
        client.get("/uk/rules/basic-strategy/").content.decode()
        if content.source("uk", "basic-strategy")
        else client.get("/en/rules/basic-strategy/").content.decode()
    )
    assert "42,3\u00a0%" in html or "42.3%" in html


# --- the calculator -----------------------------------------------------------------------

HOUSE_QUERY = {
    "c": "1", "decks": "6", "bj_pays": "3:2", "peek": "ace_and_ten", "double_on": "any_two",
    "double_soft": "on", "das": "on", "max_hands": "4",
}  # fmt: skip


def test_calculator_answers_the_house_rules(client, house_figures):
    html = client.get("/en/rules/house-edge/calculator/", HOUSE_QUERY).content.decode()
    assert f'data-edge="basic">{100 * house_figures["edge.basic"]:.3f}%' in html


def test_calculator_stored_h17_moves_by_the_stored_difference(client, house_figures):
    h17 = replace(figures.HOUSE, dealer_hits_soft_17=True)
    # Plumbing: a stored edge (the browser test uses the engine's own H17 figure).
    figures.edge_store(rules=h17, basic=house_figures["edge.basic"] + 0.0021, cd=0.006)
    html = client.get("/en/rules/house-edge/calculator/", {**HOUSE_QUERY, "h17": "on"}).content
    assert b'data-delta="total">+0.210%' in html
    assert ChartJob.objects.count() == 0


def test_calculator_get_of_a_new_rule_set_starts_nothing(client, house_figures):
    response = client.get("/en/rules/house-edge/", {**HOUSE_QUERY, "decks": "2"})
    assert response.status_code == 200
    assert b"Compute the exact edge" in response.content
    assert ChartJob.objects.count() == 0


def test_calculator_post_computes_a_new_rule_set(client, house_figures, monkeypatch):
    calls = []

    def fake_work(rules, progress):
        calls.append(rules)
        figures.edge_store(rules=rules, basic=0.0077, cd=0.0076)

    def fake_tables(rules, progress, store):
        docs = docs_for(rules)
        store.put(chart_key(rules), json.dumps(docs["chart"]).encode())
        return docs["data"]

    # The immediate task backend of the tests runs the queued job at once.
    monkeypatch.setattr(computed_services, "compute_tables", fake_tables)
    monkeypatch.setitem(computed_services.KIND_WORK, ChartJob.Kind.EDGE, fake_work)
    response = client.post(
        "/en/rules/house-edge/compute/", {**HOUSE_QUERY, "decks": "2"}, REMOTE_ADDR="10.3.0.1"
    )
    assert response.status_code == 302
    assert urlsplit(response["Location"]).path == "/en/rules/house-edge/"
    assert [r.decks for r in calls] == [2]
    html = client.get(response["Location"]).content.decode()
    assert 'data-edge="basic">0.770%' in html
    assert ChartJob.objects.get().status == ChartJob.Status.DONE


def test_calculator_post_is_rate_limited(client, house_figures, monkeypatch):
    from computed import limits

    monkeypatch.setattr(computed_services, "_enqueue", lambda job: None)
    monkeypatch.setattr(limits, "JOB_LIMITS", {"user": (50, 600), "address": (1, 600)})
    post = {"REMOTE_ADDR": "10.3.0.2"}
    client.post("/en/rules/house-edge/compute/", {**HOUSE_QUERY, "decks": "2"}, **post)
    response = client.post("/en/rules/house-edge/compute/", {**HOUSE_QUERY, "decks": "4"}, **post)
    assert response.status_code == 429
    assert re.search(
        r'<p class="message message-error" role="alert">[^<]*many new computations[^<]*</p>',
        response.content.decode(),
    )


BUSY_TEXT = {
    "en": "Too many computations are waiting just now, so nothing was started.",
    "uk": "Зараз у черзі чекає забагато обчислень, тож нічого не запущено.",
}


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("htmx", [False, True])
def test_calculator_says_busy_when_the_line_is_full_and_starts_nothing(
    client, house_figures, monkeypatch, lang, htmx
):
    # Issue 33, finding 2: beyond the line's bound the reader is told, in their language.
    monkeypatch.setattr(computed_services, "_enqueue", lambda job: pytest.fail("enqueued"))
    monkeypatch.setattr(computed_services, "MAX_WAITING", 0)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    query = {**HOUSE_QUERY, "decks": "2", "h17": "on"}  # its edge and two options' own
    response = client.post(
        f"/{lang}/rules/house-edge/compute/", query, REMOTE_ADDR="10.3.0.3", **headers
    )
    assert response.status_code == 503 and response["Retry-After"] == "60"
    html = response.content.decode()
    assert f'<p class="message message-error" role="alert">{BUSY_TEXT[lang]}' in html
    assert ("<h1" in html) is not htmx  # the whole article, or the calculator alone
    assert f'action="/{lang}/rules/house-edge/compute/"' in html  # try again later
    assert ChartJob.objects.count() == 0


def test_calculator_progress_while_computing(client, house_figures):
    rules = replace(figures.HOUSE, decks=2)
    ChartJob.objects.create(
        rules_key=rules.key(), rules=rules.to_dict(), done=5, total=10, status="running", slot=0
    )
    html = client.get("/en/rules/house-edge/calculator/", {**HOUSE_QUERY, "decks": "2"})
    assert b'<progress max="100" value="47"' in html.content  # the chart is 95 % of the job
    assert b'hx-trigger="every 0.5s"' in html.content  # the reader waits for the edge


def test_calculator_shows_the_edge_while_the_options_effects_are_computed(client, house_figures):
    """The reader's answer first: the chosen rules' edge as soon as it is stored, each single
    option's effect following with its progress."""
    both = {**HOUSE_QUERY, "decks": "2", "h17": "on"}
    rules = replace(figures.HOUSE, decks=2, dealer_hits_soft_17=True)
    figures.edge_store(rules=rules, basic=house_figures["edge.basic"] + 0.003, cd=0.006)
    for slot, single in enumerate(
        (replace(figures.HOUSE, decks=2), replace(figures.HOUSE, dealer_hits_soft_17=True))
    ):
        ChartJob.objects.create(
            rules_key=single.key(),
            rules=single.to_dict(),
            done=4,
            total=10,
            status="running",
            slot=slot,  # an active job holds one of the pending places
        )
    html = client.get("/en/rules/house-edge/calculator/", both).content.decode()
    assert 'data-edge="basic">' in html and 'data-delta="total">+0.300%' in html
    assert html.count("…</td>") == 2
    assert "own effect is being computed" in html and '<progress max="100" value="38"' in html
    assert 'hx-trigger="every 1s"' in html


@pytest.mark.parametrize("bad", [{"decks": "3"}, {"max_hands": "9"}, {"peek": "<x>"}])
def test_calculator_refuses_bad_options(client, house_figures, bad):
    response = client.get("/en/rules/house-edge/calculator/", {**HOUSE_QUERY, **bad})
    assert response.status_code == 400
    response = client.post("/en/rules/house-edge/compute/", {**HOUSE_QUERY, **bad})
    assert response.status_code == 400
    assert ChartJob.objects.count() == 0


# --- internal links -----------------------------------------------------------------------


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize(("lang", "slug"), present())
def test_every_internal_link_resolves(client, house_figures, lang, slug):
    from game import bootstrap

    bootstrap.run()  # the tables the rule-sets article links to
    html = client.get(f"/{lang}/rules/{slug}/").content.decode()
    body = html[html.index('<div class="article-body">') :]
    for href in re.findall(r'<a href="([^"]+)"', body):
        parts = urlsplit(href)
        if parts.netloc:
            continue
        path = parts.path or f"/{lang}/rules/{slug}/"
        resolve(path)
        assert path.startswith(f"/{lang}/"), f"{href} leaves the page's language"
        target = client.get(path)
        assert target.status_code == 200, href
        if parts.fragment:
            assert parts.fragment in _ids(target.content.decode()), href


def test_trainer_why_links_land_on_anchors(client, house_figures):
    from django.template.loader import render_to_string

    from trainer.display import ARTICLE_ANCHORS

    for lang in content.language_codes():
        if content.source(lang, content.STRATEGY_SLUG) is None:
            continue
        page = client.get(f"/{lang}/rules/{content.STRATEGY_SLUG}/").content.decode()
        for anchor in ARTICLE_ANCHORS.values():
            from django.utils import translation

            with translation.override(lang):
                html = render_to_string(
                    "trainer/_why.html",
                    {"r": {"why": "hit", "anchor": anchor, "gap": 0}, "view": {}},
                )
            href = re.search(r'href="([^"]+)"', html).group(1)  # type: ignore[union-attr]
            path, _, fragment = href.partition("#")
            assert path == f"/{lang}/rules/{content.STRATEGY_SLUG}/"
            assert fragment in _ids(page), (lang, anchor)


# --- sitemap and robots -------------------------------------------------------------------


def test_sitemap_lists_every_article_in_every_language(client, db):
    xml = client.get("/sitemap.xml").content.decode()
    locs = re.findall(r"<loc>([^<]+)</loc>", xml)
    for slug in content.SLUGS:
        found = [u for u in locs if u.endswith(f"/rules/{slug}/")]
        assert len(found) == 6, slug
    assert len([u for u in locs if "/rules/" in u and u.count("/") == 6]) == 6 * len(content.SLUGS)
    assert 'hreflang="x-default"' in xml and 'hreflang="hy"' in xml
    assert f"http://{HOST}/en/trainer/" in locs


def test_robots_txt_points_at_the_sitemap(client):
    text = client.get("/robots.txt").content.decode()
    assert f"Sitemap: http://{HOST}/sitemap.xml" in text


def test_nav_rules_goes_to_the_index_and_home_links_the_rules_article(client, db):
    html = client.get("/en/").content.decode()
    assert 'href="/en/rules/"' in html
    assert 'href="/en/rules/rules/"' in html
