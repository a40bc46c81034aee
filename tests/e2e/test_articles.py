"""The rules pages in a real browser: read an article, switch language in place, use the
house-edge calculator (toggle H17: the edge moves by the engine's figure), axe-clean, and
screenshots at 360 px and 1280 px."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from articles import content, figures, numbers, selectors
from blackjack import MemoryStore, house_edge
from computed.store import DatabaseTableStore
from computed.tables import chart_key
from tests.articles.conftest import house_doc
from tests.trainer.conftest import THOTH, thoth_docs

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
H17 = replace(figures.HOUSE, dealer_hits_soft_17=True)
_H17: dict[str, float] = {}


def h17_edge(kind: str = "basic") -> float:
    """The engine's house edge of the house rules with H17."""
    if "basic" not in _H17:
        e = house_edge(H17, store=MemoryStore())
        _H17["basic"], _H17["cd"] = -e.basic_strategy, -e.composition_dependent
    return _H17[kind]


@pytest.fixture
def stored(db):
    doc = house_doc()
    figures.figures_store(doc=doc)
    DatabaseTableStore().put(chart_key(THOTH), json.dumps(thoth_docs()["chart"]).encode())
    f = doc["figures"]
    figures.edge_store(rules=figures.HOUSE, basic=f["edge.basic"], cd=f["edge.cd"])
    figures.edge_store(rules=H17, basic=h17_edge(), cd=h17_edge("cd"))
    selectors.forget()
    yield f
    selectors.forget()


def written(slug: str) -> list[str]:
    return [c for c in content.language_codes() if content.source(c, slug) is not None]


def test_read_an_article_and_switch_language(page, live_server, stored, axe_check, screenshot):
    page.goto(f"{live_server.url}/en/rules/")
    page.get_by_role("link", name=content.source("en", "rules").title).click()
    page.wait_for_url(f"{live_server.url}/en/rules/rules/")
    assert page.locator("h1").inner_text() == content.source("en", "rules").title
    assert page.locator(".worked-round .playing-card").count() >= 8
    switcher = page.get_by_role("navigation", name="Language")
    for code in content.language_codes():
        href = switcher.locator(f'a[hreflang="{code}"]').get_attribute("href")
        assert href == f"/{code}/rules/rules/", "the switcher keeps the article"
    axe_check(page)
    screenshot(page, "articles-rules-1280")
    for code in written("rules"):
        if code == "en":
            continue
        # The switcher's name is in the page's language after the first switch.
        page.locator(f'nav.language-switcher a[hreflang="{code}"]').click()
        page.wait_for_url(f"{live_server.url}/{code}/rules/rules/")
        assert page.locator("html").get_attribute("lang") == code
        assert page.locator("h1").inner_text() == content.source(code, "rules").title
        axe_check(page)


def test_rules_on_a_phone(phone_page, live_server, stored, axe_check, screenshot):
    phone_page.goto(f"{live_server.url}/en/rules/rules/")
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, "no sideways scrolling of the page"
    axe_check(phone_page)
    screenshot(phone_page, "articles-rules-360")
    phone_page.goto(f"{live_server.url}/en/rules/basic-strategy/#chart")
    axe_check(phone_page)
    screenshot(phone_page, "articles-chart-360")


@pytest.mark.parametrize("size", ["1280", "360"])
def test_calculator_h17_moves_the_edge(
    page, phone_page, live_server, stored, axe_check, screenshot, size
):
    p = page if size == "1280" else phone_page
    p.goto(f"{live_server.url}/en/rules/house-edge/#calculator")
    edge = p.locator('[data-edge="basic"]')
    with_numbers = numbers.percent
    assert edge.inner_text() == with_numbers(stored["edge.basic"], 3)
    p.get_by_label("Dealer hits soft 17").check()
    delta = p.locator('[data-delta="total"]')
    delta.wait_for()
    assert edge.inner_text() == with_numbers(h17_edge(), 3)
    assert delta.inner_text() == numbers.signed_percent(h17_edge() - stored["edge.basic"], 3)
    axe_check(p)
    screenshot(p, f"articles-calculator-{size}")


def test_calculator_says_busy_in_place_when_the_line_is_full(
    page, live_server, stored, axe_check, screenshot, refusals, monkeypatch
):
    # Issue 33, finding 2: the 503 of a full line is shown where the reader pressed Compute.
    from computed import services as computed_services
    from computed.models import ChartJob

    refusals.add(503)
    monkeypatch.setattr(computed_services, "MAX_WAITING", 0)
    page.goto(f"{live_server.url}/uk/rules/house-edge/#calculator")
    page.select_option('select[name="decks"]', "2")
    compute = page.locator('form[hx-post] button[type="submit"]')
    compute.click()
    notice = page.locator("#calculator-box .message-error[role=alert]")
    notice.wait_for()
    assert notice.inner_text().startswith("Зараз у черзі чекає забагато обчислень")
    assert page.locator('select[name="decks"]').input_value() == "2"  # the reader's choice kept
    assert ChartJob.objects.count() == 0
    axe_check(page)
    screenshot(page, "articles-calculator-busy")
