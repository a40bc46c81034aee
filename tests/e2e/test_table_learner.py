"""The table as a learner meets it (issue 16): a top-up from the table, the Back button, the
chips the balance covers, the phone layout after Deal, the insurance offer, the log box, and
a console free of errors (a strict CSP, refusals only where provoked)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from accounts.models import User
from game import bootstrap
from game.models import Table, Wallet
from tests.e2e.test_play import open_table, press, rig, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scribes() -> Table:
    bootstrap.run()
    return Table.objects.get(slug="scribes")


@pytest.fixture
def player(db) -> User:
    return User.objects.create_user(username="nebet", password="Scarab-Lapis-9173")


def set_balance(user: User, amount: int) -> None:
    wallet = Wallet.objects.create(user=user, balance=Decimal(amount))
    wallet.entries.create(kind="opening", amount=Decimal(1000), balance_after=Decimal(1000))
    if amount != 1000:
        wallet.entries.create(
            kind="bet", amount=Decimal(amount - 1000), balance_after=Decimal(amount)
        )


def test_a_top_up_from_the_table_comes_back_to_the_table(page, live_server, scribes, player):
    set_balance(player, 150)
    rig(player, scribes, ["10s 6d"], "10h 9c", "10c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "100")
    page.click("[data-deal]")
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    press(page, "h")  # 26: bust, 50 left
    expect(page.locator(".round-result .net")).to_have_text("You lost 100 debens.")
    page.get_by_role("button", name="Free top-up: 1,000 debens").click()
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/en/play/table/scribes/"
    expect(page.locator(".status-bar .balance")).to_have_text("1,050")
    expect(page.locator("h1")).to_have_text("Scribes' table")


def test_a_405_is_a_page_in_the_visitor_s_language(page, live_server, refusals):
    refusals.add(405)
    response = page.goto(f"{live_server.url}/uk/play/top-up/")
    assert response is not None and response.status == 405
    assert page.locator("html").get_attribute("lang") == "uk"
    expect(page.locator(".error-code")).to_have_text("405")
    expect(page.locator("h1")).not_to_be_empty()
    expect(page.locator(".site-header")).to_be_visible()


def test_back_from_past_rounds_shows_the_round_as_it_ended(page, live_server, scribes, player):
    rig(player, scribes, ["10s 9d"], "10h 7c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "100")
    page.click("[data-deal]")
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    page.reload()  # the page as the browser received it: a round in play
    expect(page.locator('button[data-key="s"]')).to_be_enabled()
    press(page, "s")
    expect(page.locator(".round-result .net")).to_have_text("You won 100 debens.")
    page.get_by_role("link", name="Past rounds").click()
    page.wait_for_url("**/play/history/")
    page.go_back()
    page.wait_for_load_state()
    expect(page.locator(".round-result .net")).to_have_text("You won 100 debens.")
    expect(page.locator(".actions")).to_have_count(0)
    expect(page.locator(".status-bar .balance")).to_have_text("1,100")


def test_live_pages_are_never_stored_by_the_browser(page, live_server, scribes, player):
    sign_in(page, live_server, player)
    for path in ("/en/play/table/scribes/", "/en/play/", "/en/trainer/", "/en/play/history/"):
        response = page.goto(live_server.url + path)
        assert response is not None
        assert "no-store" in response.headers["cache-control"], path


def test_a_chip_the_balance_cannot_cover_is_never_selected_nor_bet(
    page, live_server, scribes, player, refusals
):
    set_balance(player, 1050)
    sign_in(page, live_server, player)
    page.goto(f"{live_server.url}/en/play/table/pharaohs/")
    expect(page.locator('input[name="chip"]:checked')).to_have_count(0)
    page.locator('.bet-spot[data-box="0"]').click()
    expect(page.locator("#bet-0")).to_have_value("0")
    # At the Scribes' table the largest chip the balance covers is selected: 1,000, not 5,000.
    open_table(page, live_server)
    expect(page.locator('input[name="chip"]:checked')).to_have_value("1000")
    page.locator('.bet-spot[data-box="0"]').click()
    expect(page.locator("#bet-0")).to_have_value("1000")
    # Even a disabled chip checked by hand (devtools, an old page) adds nothing.
    page.evaluate(
        """() => { const c = document.querySelector('input[name="chip"][value="5000"]');
        c.disabled = true; c.checked = true; }"""
    )
    page.locator('.bet-spot[data-box="1"]').click()
    expect(page.locator("#bet-1")).to_have_value("0")


def test_after_deal_a_phone_shows_up_card_hand_and_buttons_together(
    phone_page, live_server, scribes, player, axe_check, screenshot
):
    page = phone_page
    rig(player, scribes, ["10s 6d", "9c 7h", "5c 5h"], "10h 7c", "4s")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "200")
    page.select_option("#ai-1", "normal")
    page.select_option("#ai-4", "easy")
    page.locator("[data-deal]").scroll_into_view_if_needed()
    page.click("[data-deal]")
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    page.wait_for_timeout(2500)  # the deal's animation and the scroll
    up = page.locator(".dealer .pcard").first.bounding_box()
    hand = page.locator(".box-you .hand.active").bounding_box()
    buttons = page.locator(".actions fieldset").bounding_box()
    assert up and hand and buttons
    for box in (up, hand, buttons):
        assert box["y"] >= 0 and box["y"] + box["height"] <= 740, (up, hand, buttons)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe_check(page)
    screenshot(page, "table-mid-round-360")
    page.screenshot(path=str(screenshot(page, "table-mid-round-360")).replace(".png", "-view.png"))


def test_the_insurance_offer_has_no_default_and_says_its_cost(
    page, live_server, scribes, player, axe_check
):
    rig(player, scribes, ["10s 9d"], "As 7c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "500")
    page.click("[data-deal]")
    expect(page.locator(".actions legend")).to_have_text("Box 1: insurance?")
    insure = page.locator('button[value="insure"]')
    expect(insure).to_contain_text("half the bet: 250")
    expect(insure).not_to_be_focused()
    expect(page.locator('button[value="decline"]')).not_to_be_focused()
    expect(page.locator(".actions fieldset")).to_be_focused()
    page.keyboard.press("n")  # the keys still answer
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    page.wait_for_timeout(2500)
    axe_check(page)


def test_the_log_is_a_keyboard_scroll_box_and_axe_clean_while_lines_appear(
    page, live_server, scribes, player, axe_check, screenshot
):
    rig(player, scribes, ["2s 3d"], "9h 8c", "2c 2d 2h 3s 3c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "100")
    page.click("[data-deal]")
    for _ in range(4):
        press(page, "h")
        page.wait_for_timeout(150)
    axe_check(page)  # lines still appearing: no half-transparent text
    log = page.get_by_role("region", name="At the table")
    expect(log).to_have_attribute("tabindex", "0")
    log.focus()
    expect(log).to_be_focused()
    page.wait_for_timeout(2500)
    axe_check(page)
    screenshot(page, "table-mid-round-1280")


def test_no_inline_style_reaches_the_csp_through_a_swap(
    page, live_server, scribes, player, refusals
):
    # An extension, or any script, that sets a style on the betting form's fields: htmx's
    # settling copied that attribute onto the fields of the same id in the swapped-in form (a
    # refused deal, a finished round), which the strict CSP (style-src 'self') refuses with
    # one console error per field.  The page fixture fails on any console error.
    refusals.add(400)
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.evaluate(
        """() => document.querySelectorAll('.bets input[id], .bets select')
        .forEach(e => { e.style.outline = '1px solid red'; })"""
    )
    page.fill("#bet-0", "5000")
    page.click("[data-deal]")
    expect(page.locator(".play-error")).to_be_visible()
    page.wait_for_timeout(300)


def test_a_refused_deal_logs_only_its_own_400(page, live_server, scribes, player, refusals):
    refusals.add(400)  # Chromium logs it whatever the page does; nothing else may be logged
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "5000")
    page.click("[data-deal]")
    expect(page.locator(".play-error")).to_be_visible()
