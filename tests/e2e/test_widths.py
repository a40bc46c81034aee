"""No page is wider than a 360 px phone, in any language, signed out or in: the home page, the
lobby, a table mid-round, past rounds and one round, the drill (a hand, then its answer), the
statistics, the chart, the rules, the classes, the account pages and the error pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from accounts.models import User
from game.models import Round
from tests.e2e.test_play import rig, sign_in
from tests.e2e.test_trainer import tables  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGS = ["en", "uk", "ru", "be", "cs", "hy"]
PHONE = 360
SIGNED_OUT = ["", "play/", "trainer/", "rules/", "classes/", "accounts/signup/",
              "accounts/login/", "no-such-page/", "play/top-up/"]  # fmt: skip
SIGNED_IN = ["play/", "play/table/scribes/", "play/table/pharaohs/",
             "play/history/", "trainer/stats/", "trainer/chart/", "accounts/password/"]  # fmt: skip

# Which elements stick out, to make a failure say where to look.
OFFENDERS = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .slice(0, 6).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')
  + ' ' + Math.round(e.getBoundingClientRect().right))"""


def width(page: Page) -> tuple[int, list[str]]:
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    return scroll_width, (page.evaluate(OFFENDERS) if scroll_width > PHONE else [])


def measure(page: Page, url: str, too_wide: dict[str, object], label: str = "") -> None:
    page.goto(url)
    page.wait_for_timeout(50)
    w, offenders = width(page)
    if w > PHONE:
        too_wide[label or url] = (w, offenders)


@pytest.mark.usefixtures("tables")
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_fits_a_phone(phone_page, live_server, lang, refusals):
    refusals.update({404, 405})  # the error pages, opened on purpose
    page = phone_page
    base = f"{live_server.url}/{lang}/"
    too_wide: dict[str, object] = {}
    for path in SIGNED_OUT:
        measure(page, base + path, too_wide)

    from game import bootstrap

    bootstrap.run()
    player = User.objects.create_user(username=f"width-{lang}", password="Scarab-Lapis-9173")
    from game.models import Table

    scribes = Table.objects.get(slug="scribes")
    rig(player, scribes, ["10s 9d", "8c 8h"], "10h 7c", "4s 4d 4h")
    sign_in(page, live_server, player)
    # The drill: a hand, then its answer, so that the statistics have something to show.
    page.goto(base + "trainer/")
    page.locator("[data-trainer-next] button").click()
    page.wait_for_selector("[data-trainer-moves] button")
    w, offenders = width(page)
    if w > PHONE:
        too_wide["trainer/ (a hand)"] = (w, offenders)
    page.locator("[data-trainer-moves] button").first.click()
    page.wait_for_selector("[data-trainer-result]")
    w, offenders = width(page)
    if w > PHONE:
        too_wide["trainer/ (its answer)"] = (w, offenders)
    # A round at the Scribes' table: one box of the learner's, one of a seat-mate's.
    page.goto(base + "play/table/scribes/")
    page.fill("#bet-0", "200")
    page.select_option("#ai-1", "normal")
    page.click("[data-deal]")
    page.wait_for_selector(".actions")
    page.wait_for_timeout(400)
    w, offenders = width(page)
    if w > PHONE:
        too_wide["play/table/scribes/ (mid-round)"] = (w, offenders)
    rnd = Round.objects.get(user=player)
    for path in [*SIGNED_IN, f"play/history/{rnd.pk}/"]:
        measure(page, base + path, too_wide)
    assert too_wide == {}, f"wider than {PHONE} px in {lang}: {too_wide}"
