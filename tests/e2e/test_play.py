"""Play mode in a real browser: a keyboard round with a split and a double, insurance, a
top-up, a reload mid-round; axe-core on every state; screenshots at 360 and 1280 px."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from accounts.models import User
from game import bootstrap
from game.models import Table, Wallet
from tests.blackjack.helpers import deal_order
from tests.game.conftest import set_shoe

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scribes() -> Table:
    bootstrap.run()
    return Table.objects.get(slug="scribes")


@pytest.fixture
def player(db) -> User:
    return User.objects.create_user(username="khaemwaset", password="Scarab-Lapis-9173")


def sign_in(page: Page, live_server, user: User) -> None:
    """Put a logged-in session cookie into the browser (no need to drive the log-in form)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )


def rig(user: User, table: Table, boxes: list[str], dealer: str, rest: str = "") -> None:
    set_shoe(user, table, [c.code for c in deal_order(boxes, dealer, rest)])


def open_table(page: Page, live_server) -> None:
    page.goto(f"{live_server.url}/en/play/table/scribes/")
    expect(page.locator("h1")).to_have_text("Scribes' table")


def htmx_idle(page: Page) -> None:
    """Wait until no htmx request, swap or settle is under way: a key pressed meanwhile goes to
    buttons about to be replaced (htmx drops the move), and the focus a settle sets is not
    there yet."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def press(page: Page, key: str) -> None:
    """A key press on the page itself, not inside a form field, once htmx is idle."""
    htmx_idle(page)
    page.locator("main").focus()
    page.keyboard.press(key)


def test_keyboard_round_with_a_split_and_a_double(
    page, live_server, scribes, player, axe_check, screenshot
):
    rig(player, scribes, ["8s 8d"], "6h 10c", "3s 10d 10h 9c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    axe_check(page)
    screenshot(page, "play-betting-1280")
    # Chip then box, by keyboard: choose the 100 chip, then activate the spot of box 1.
    page.locator('input[name="chip"][value="100"]').focus()
    page.keyboard.press("Space")
    page.locator('.bet-spot[data-box="0"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#bet-0")).to_have_value("100")
    press(page, "Enter")  # deal
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    expect(page.locator('button[data-key="p"]')).to_be_enabled()
    expect(page.locator("#announce")).to_contain_text("Box 1: eight of spades")
    page.wait_for_timeout(2500)  # let the deal's animation finish before axe and the picture
    axe_check(page)
    screenshot(page, "play-round-1280")
    press(page, "p")  # split
    expect(page.locator(".box-you .hand")).to_have_count(2)
    expect(page.locator('button[data-key="p"]')).to_be_disabled()
    press(page, "d")  # double the first hand (8 3 = 11)
    expect(page.locator(".box-you .hand.active .total")).to_have_text("18")
    press(page, "s")  # stand on the second hand; the dealer draws and busts
    expect(page.locator(".round-result .net")).to_have_text("You won 300 debens.")
    expect(page.locator(".status-bar .balance")).to_have_text("1,300")
    expect(page.locator("#announce")).to_contain_text("You won 300 debens.")
    expect(page.locator(".review tbody tr")).to_have_count(3)
    page.wait_for_timeout(2500)
    axe_check(page)
    screenshot(page, "play-settled-1280")
    wallet = Wallet.objects.get(user=player)
    assert wallet.balance == Decimal(1300)


def test_insurance_offer_by_keyboard(page, live_server, scribes, player, axe_check):
    rig(player, scribes, ["10s 9d"], "As 7c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "500")
    page.keyboard.press("Enter")  # Enter in the bet field submits the bets
    expect(page.locator(".actions legend")).to_have_text("Box 1: insurance?")
    page.wait_for_timeout(2500)
    axe_check(page)
    press(page, "n")
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    press(page, "s")
    expect(page.locator(".round-result .net")).to_have_text("You won 500 debens.")


def test_reload_in_the_middle_of_a_round_resumes_it(page, live_server, scribes, player):
    rig(player, scribes, ["10s 2d"], "9h 8c", "2c 5s")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "100")
    page.click("[data-deal]")
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    press(page, "h")
    expect(page.locator(".box-you .total")).to_have_text("14")
    page.reload()
    expect(page.locator(".box-you .total")).to_have_text("14")
    expect(page.locator('button[data-key="h"]')).to_be_enabled()
    press(page, "s")
    expect(page.locator(".round-result .net")).to_have_text("You lost 100 debens.")


def test_top_up_when_broke(page, live_server, scribes, player, axe_check, screenshot):
    # 50 debens: enough for a variant's 1-200 table, too little for any house table.
    wallet = Wallet.objects.create(user=player, balance=Decimal(50))
    wallet.entries.create(kind="opening", amount=Decimal(1000), balance_after=Decimal(1000))
    wallet.entries.create(kind="bet", amount=Decimal(-950), balance_after=Decimal(50))
    sign_in(page, live_server, player)
    page.goto(f"{live_server.url}/en/play/")
    expect(page.locator(".lobby-hero .balance")).to_have_text("50")
    expect(page.locator(".top-up-rule")).to_contain_text("Scribes' table (100)")
    axe_check(page)
    screenshot(page, "play-lobby-1280")
    page.get_by_role("button", name="Free top-up: 1,000 debens").click()
    expect(page.locator(".lobby-hero .balance")).to_have_text("1,050")
    expect(page.get_by_role("button", name="Free top-up: 1,000 debens")).to_have_count(0)


def test_phone_width_round_and_history(
    phone_page, live_server, scribes, player, axe_check, screenshot
):
    page = phone_page
    rig(player, scribes, ["As 6d", "10c 6h"], "10h 7c", "4s")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    screenshot(page, "play-betting-360")
    page.fill("#bet-0", "200")
    page.select_option("#ai-1", "normal")
    page.click("[data-deal]")
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    expect(page.locator(".box-you .total")).to_have_text("7 / 17")
    expect(page.locator(".box-ai .ai-badge")).to_have_text("AI · Normal")
    page.wait_for_timeout(2500)
    axe_check(page)
    screenshot(page, "play-round-360")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    press(page, "s")
    expect(page.locator(".round-result .net")).to_be_visible()
    page.wait_for_timeout(2500)
    screenshot(page, "play-settled-360")
    page.goto(f"{live_server.url}/en/play/history/")
    axe_check(page)
    page.locator("table.history a").first.click()
    expect(page.locator(".full-log")).to_contain_text("Box 1: ace of spades")
    axe_check(page)
    screenshot(page, "play-history-360")


def test_refused_bet_keeps_the_table_page_with_debug_on(
    page, live_server, scribes, player, settings, refusals
):
    refusals.add(400)
    # With DEBUG on (``make run``), django-htmx's helper would put any 400 response in place
    # of the whole page; a refused bet must still show inside the table.
    settings.DEBUG = True
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "5000")
    page.click("[data-deal]")
    expect(page.locator(".play-error")).to_have_text(
        "Your balance cannot cover these bets: they come to 5,000, and your balance is 1,000."
    )
    expect(page.locator("h1")).to_have_text("Scribes' table")
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.locator("[data-deal]")).to_be_focused()
    # The refused bet stays, to be mended; "Clear bets" empties it (a plain reset would bring
    # back the refused value the page came with).
    expect(page.locator("#bet-0")).to_have_value("5000")
    page.get_by_role("button", name="Clear bets").click()
    expect(page.locator("#bet-0")).to_have_value("")


def test_mouse_bet_then_enter_deals_and_enter_repeats_after_the_round(
    page, live_server, scribes, player
):
    rig(player, scribes, ["10s 9d"], "10h 7c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.locator(".chip-choice").first.click()
    page.locator('.bet-spot[data-box="0"]').click()
    expect(page.locator("#bet-0")).to_have_value("100")
    page.keyboard.press("Enter")  # deals, as the Deal button says; no second chip on box 1
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    expect(page.locator(".box-you .stake")).to_have_text("100")
    press(page, "s")
    expect(page.locator(".round-result .net")).to_have_text("You won 100 debens.")
    htmx_idle(page)  # the focus is set when the swap has settled
    # The bet fields start empty again: the focus waits on "Repeat last bet", not on a Deal
    # that would be refused.
    expect(page.locator("[data-repeat]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".actions legend")).to_have_text("Box 1 to play")
    expect(page.locator(".play-error")).to_have_count(0)
    expect(page.locator(".status-bar .balance")).to_have_text("1,000")


def test_phone_review_and_history_fit_360_in_ukrainian(
    phone_page, live_server, scribes, player, axe_check, screenshot
):
    page = phone_page
    rig(player, scribes, ["8s 8d"], "6h 10c", "3s 10d 10h 9c")
    sign_in(page, live_server, player)
    page.goto(f"{live_server.url}/uk/play/table/scribes/")
    page.fill("#bet-0", "100")
    page.click("[data-deal]")
    expect(page.locator('button[data-key="p"]')).to_be_enabled()
    press(page, "p")
    expect(page.locator(".box-you .hand")).to_have_count(2)
    press(page, "d")
    expect(page.locator(".box-you .hand.active .total")).to_have_text("18")
    press(page, "s")
    expect(page.locator(".review tbody tr")).to_have_count(3)
    page.wait_for_timeout(2500)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe_check(page)
    screenshot(page, "play-review-360-uk")
    page.goto(f"{live_server.url}/uk/play/history/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    expect(page.locator("table.history td[data-label]").last).to_have_text("+300")
    axe_check(page)
    page.locator("table.history a").first.click()
    expect(page.locator(".review tbody tr")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe_check(page)


@pytest.mark.parametrize(("fixture", "width"), [("page", 1280), ("phone_page", 360)])
def test_coach_mode_stops_a_costly_move_shows_the_evs_and_plays_it_when_confirmed(
    request, live_server, scribes, player, axe_check, screenshot, fixture, width
):
    page = request.getfixturevalue(fixture)
    rig(player, scribes, ["10s 6d"], "10h 7c", "9c")
    sign_in(page, live_server, player)
    open_table(page, live_server)
    page.fill("#bet-0", "100")
    page.click("[data-deal]")
    expect(page.locator('button[data-key="d"]')).to_be_enabled()
    with page.expect_response(lambda r: "/coach/" in r.url):
        page.click('form.hints-toggle button:has-text("Coach mode")')
    expect(page.locator('button:has-text("Coach mode")')).to_have_attribute("aria-pressed", "true")
    # The toggle also redraws the round: press() waits for that (seen at 360 px, where a key
    # pressed before the swap settled went to the old buttons and htmx dropped the move).
    press(page, "d")  # doubling 16 against a ten costs EV: coach mode stops it
    coach = page.locator("[data-coach]")
    expect(coach).to_contain_text("Wait: the cost of Double is")
    expect(coach.locator(".coach-evs tr")).to_have_count(3)  # hit, stand, double
    expect(coach).to_be_focused()
    expect(page.locator(".box-you .hand .stake")).to_have_text("100")  # nothing played yet
    page.wait_for_timeout(2500)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    axe_check(page)
    screenshot(page, f"play-coach-{width}")
    page.click('button:has-text("Play Double anyway")')
    expect(page.locator(".review")).to_contain_text("Double")
    axe_check(page)
