"""Count practice at the table on a phone: switch it on, play, ask for the count with the
keyboard (C, type, Enter), read the answer; axe-clean and no wider than 360 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from game import bootstrap
from game.models import Table
from tests.e2e.test_play import htmx_idle, open_table, press, rig, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scribes() -> Table:
    bootstrap.run()
    return Table.objects.get(slug="scribes")


@pytest.fixture
def player(db) -> User:
    return User.objects.create_user(username="khaemwaset", password="Scarab-Lapis-9173")


def test_count_practice_with_the_keyboard_at_360_px(
    phone_page, live_server, scribes, player, axe_check, screenshot
):
    page = phone_page
    # Box 1: 10s 6d; box 2 (AI, easy): 2c 3d, then 9c; the dealer 10h, 7c face down.
    rig(player, scribes, ["10s 6d", "2c 3d"], "10h 7c", "9c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.locator(".count-toggle button[aria-pressed]").click()  # a plain form: the page anew
    expect(page.locator(".count-toggle button[aria-pressed]")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#count-title")).to_have_text("Count practice (Hi-Lo)")
    expect(page.locator(".count-ramp")).to_be_visible()  # before the deal: the ramp
    page.fill("#bet-0", "100")
    page.select_option("#ai-1", "easy")
    page.locator("[data-deal]").click()
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    expect(page.locator(".count-ramp")).to_have_count(0)
    # C: the cursor into the running count. Seen: 10s 2c 10h 6d 3d, +1; the hole card not.
    press(page, "c")
    expect(page.locator("#count-running")).to_be_focused()
    page.keyboard.type("+1")
    page.keyboard.press("Enter")
    htmx_idle(page)
    answer = page.locator("[data-count-answer]")
    expect(answer).to_contain_text("Right: the running count is +1.")
    expect(answer.locator("dd")).to_have_text(["+1", "5", "6", "0"])
    expect(answer).to_be_focused()
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")  # nothing was played
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.wait_for_timeout(1500)
    axe_check(page)
    screenshot(page, "table-count-360")
    # Play on: the hole card is revealed, then it counts too.
    press(page, "s")
    expect(page.locator(".round-result")).to_be_visible()
    press(page, "c")
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    htmx_idle(page)
    expect(page.locator("[data-count-answer] p").first).to_contain_text("running count is")
    page.wait_for_timeout(1500)
    axe_check(page)
