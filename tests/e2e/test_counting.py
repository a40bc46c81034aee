"""The running-count drill (issue 31) on a 360×740 phone, with the keyboard only: the cards
shown one at a time at the pace chosen, the count typed, Enter for the next question."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from blackjack import PRESETS, Move, save_json
from blackjack.counting import HI_LO, IndexPlay, IndexTable
from computed import indices
from computed.store import DatabaseTableStore
from decisions.models import Decision
from trainer.models import CountQuestion

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_running_count_with_the_keyboard_at_360(phone_page, live_server, axe_check, screenshot):
    page = phone_page
    page.goto(f"{live_server.url}/en/trainer/")
    page.locator('select[name="focus"]').select_option("running")
    # The pace and the cards show only for the running count (they stay for no-JS).
    expect(page.locator('select[name="pace"]')).to_be_visible()
    expect(page.locator('select[name="up"]')).to_be_hidden()
    page.locator('select[name="pace"]').select_option("500")
    page.locator('select[name="cards"]').select_option("6")
    page.locator(".drill-settings button[type=submit]").focus()
    page.keyboard.press("Enter")
    # One card at a time: while showing, exactly one step is in view.
    page.wait_for_selector(".count-cards.count-running")
    expect(page.locator(".count-step:visible")).to_have_count(1)
    axe_check(page)
    screenshot(page, "count-running-360")
    # After the last card the answer box has the focus: type the count and Enter.
    expect(page.locator("#count-input")).to_be_focused(timeout=8000)
    expect(page.locator(".count-step:visible")).to_have_count(0)
    question = CountQuestion.objects.latest("id")
    assert len(question.cards) == 6
    page.keyboard.type(str(question.right_answer))
    page.keyboard.press("Enter")
    result = page.locator("[data-trainer-result]")
    expect(result).to_contain_text("Right: the running count is")
    expect(result).to_be_focused()
    box = result.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    axe_check(page)
    # Enter deals the next question, through htmx: its cards run again.
    page.keyboard.press("Enter")
    expect(page.locator("#count-input")).to_be_focused(timeout=8000)
    assert CountQuestion.objects.count() == 2


@pytest.mark.parametrize(("lang", "insure"), [("en", "Take insurance"), ("uk", "Взяти страховку")])
def test_the_insurance_index_play_at_360(phone_page, live_server, axe_check, screenshot, lang,
                                         insure):  # fmt: skip
    """The index drill asks the insurance play at the count (issue 31): the question, the two
    buttons, Y by keyboard, the verdict and the sentence on the index."""
    thoth = PRESETS["thoth"]
    play = IndexPlay("insurance", 0, 1, Move.DECLINE, Move.INSURE, 3, True, 3.33, 0.0014, 0.002)
    table = IndexTable(thoth, HI_LO, 208, (play,), {0: 1.0})
    indices.indices_forget()
    save_json(DatabaseTableStore(), indices.indices_key(thoth, HI_LO), table.to_dict())
    page = phone_page
    page.goto(f"{live_server.url}/{lang}/trainer/")
    page.locator('select[name="focus"]').select_option("index")
    page.locator(".drill-settings button[type=submit]").click()
    page.wait_for_selector("[data-trainer-moves] button")
    expect(page.locator("[data-trainer-moves] button")).to_have_count(2)
    expect(page.locator("[data-trainer-moves] button").first).to_contain_text(insure)
    expect(page.locator("p.question")).to_have_count(1)
    axe_check(page)
    screenshot(page, f"count-index-insurance-{lang}-360")
    page.keyboard.press("y")
    result = page.locator("[data-trainer-result]")
    expect(result.locator(".index-check")).to_contain_text("≥ +3")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe_check(page)
    screenshot(page, f"count-index-insurance-result-{lang}-360")
    d = Decision.objects.get()
    assert (d.category, d.choice, d.count_system) == ("insurance", "insure", "hilo")
    indices.indices_forget()
