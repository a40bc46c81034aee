"""The trainer in a real browser: twenty answers by keyboard, the statistics and the chart, in
two languages, each page axe-clean, with screenshots at phone and desktop widths."""

import pytest
from playwright.sync_api import expect

from blackjack import PRESETS
from computed import selectors, services
from decisions.models import Decision
from tests.computed.docs import thoth_docs
from trainer.services import ILLEGAL_MOVE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tables():
    """The house rules' tables (a transactional test flushes the database: store them anew)."""
    selectors.tables_forget()
    services.tables_store(rules=PRESETS["thoth"], **thoth_docs())
    yield
    selectors.tables_forget()


def _answer_by_keyboard(page, count):
    for n in range(count):
        page.wait_for_selector("[data-trainer-moves] button")
        key = page.locator("[data-trainer-moves] button").first.get_attribute("data-key")
        page.keyboard.press(key)
        page.wait_for_selector("[data-trainer-result]")
        assert page.locator(".ev-table tr.is-best").count() == 1
        if n < count - 1:
            page.keyboard.press("Enter")
            page.wait_for_selector("[data-trainer-moves] button")


@pytest.mark.parametrize(
    ("lang", "title", "best"), [("en", "Trainer", "best"), ("uk", "Тренажер", "найкращий")]
)
def test_twenty_answers_by_keyboard(
    page, live_server, axe_check, screenshot, tables, lang, title, best
):
    page.goto(f"{live_server.url}/{lang}/trainer/")
    assert page.locator("h1").inner_text() == title
    axe_check(page)
    page.keyboard.press("Enter")  # deals the first hand
    _answer_by_keyboard(page, 20)
    assert Decision.objects.filter(source="drill").count() == 20
    assert page.locator(".tag-best").first.inner_text() == best
    assert page.locator("#drill-summary dd").nth(1).inner_text() == "20"
    axe_check(page)
    screenshot(page, f"trainer-drill-{lang}-1280")


def test_drill_on_a_phone(phone_page, live_server, axe_check, screenshot, tables):
    page = phone_page
    page.goto(f"{live_server.url}/en/trainer/")
    page.get_by_role("button", name="Deal a hand").click()
    page.wait_for_selector("[data-trainer-moves] button")
    screenshot(page, "trainer-drill-question-360")
    page.locator("[data-trainer-moves] button").first.click()
    page.wait_for_selector("[data-trainer-result]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe_check(page)
    screenshot(page, "trainer-drill-result-360")


@pytest.mark.parametrize(("lang", "heading"), [("en", "Statistics"), ("cs", "Statistika")])
def test_stats_page_after_a_drill(page, live_server, axe_check, screenshot, tables, lang, heading):
    page.goto(f"{live_server.url}/{lang}/trainer/")
    page.keyboard.press("Enter")
    _answer_by_keyboard(page, 5)
    page.goto(f"{live_server.url}/{lang}/trainer/stats/")
    assert page.locator("h1").inner_text() == heading
    assert page.locator("svg.plot-svg").count() == 2
    assert page.locator(".heat-grid").count() == 3
    axe_check(page)
    screenshot(page, f"trainer-stats-{lang}-1280")


@pytest.mark.parametrize(("lang", "caption"), [("en", "Hard totals"), ("hy", None)])
def test_chart_page_shows_ev_on_focus(
    page, live_server, axe_check, screenshot, tables, lang, caption
):
    page.goto(f"{live_server.url}/{lang}/trainer/chart/")
    grids = page.locator("table.chart-grid")
    assert grids.count() == 3
    if caption:
        assert grids.first.locator("caption").inner_text() == caption
    cell = grids.first.locator("tbody td").first
    assert not cell.locator(".cell-ev").is_visible()
    cell.focus()
    assert cell.locator(".cell-ev").is_visible()
    assert "%" in cell.locator(".cell-ev").inner_text()
    axe_check(page)
    screenshot(page, f"trainer-chart-{lang}-1280")


def test_chart_page_on_a_phone(phone_page, live_server, axe_check, screenshot, tables):
    phone_page.goto(f"{live_server.url}/en/trainer/chart/")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
    axe_check(phone_page)
    screenshot(phone_page, "trainer-chart-360")


@pytest.mark.parametrize("debug", [False, True])
def test_a_forged_answer_is_refused_inside_the_drill(
    page, live_server, settings, tables, debug, refusals
):
    refusals.add(400)
    # The app answers a move that is not an option with 400 and the answer area saying why;
    # htmx must swap it in (it does not by default), and with DEBUG on (``make run``)
    # django-htmx's helper must not put it in place of the whole page.
    settings.DEBUG = debug
    page.goto(f"{live_server.url}/en/trainer/")
    page.get_by_role("button", name="Deal a hand").click()
    button = page.locator("[data-trainer-moves] button").first
    button.evaluate("b => b.value = 'fly'")
    button.click()
    expect(page.locator("#answer-area .message-error")).to_have_text(str(ILLEGAL_MOVE))
    expect(page.locator("h1")).to_have_text("Trainer")
    expect(page.locator(".site-header")).to_be_visible()
    assert Decision.objects.count() == 0
