"""Classes in a real browser: a teacher opens a class and sets an assignment, a student joins
with the code and answers ten hands of it, the teacher sees the progress, the heat map and the
costliest mistakes, makes the remedial assignment and downloads the CSV; every page axe-clean,
screenshots at 1280 and 360 px."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from playwright.sync_api import expect

from accounts.models import Role, User
from blackjack import PRESETS
from classroom.models import Assignment, Classroom, Membership
from classroom.services import class_create
from computed import selectors, services
from decisions.models import Decision
from tests.trainer.conftest import thoth_docs
from trainer.models import Situation

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "Scarab-Lapis-9173"
KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r"}


@pytest.fixture
def tables():
    selectors.tables_forget()
    services.tables_store(rules=PRESETS["thoth"], **thoth_docs())
    yield
    selectors.tables_forget()


def _log_in(page, url, username):
    page.goto(f"{url}/en/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"{url}/en/")


def _log_out(page):
    page.get_by_role("button", name="Log out").click()


def _both_widths(page, screenshot, name):
    screenshot(page, f"{name}-1280")
    page.set_viewport_size({"width": 360, "height": 740})
    screenshot(page, f"{name}-360")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_teacher_and_student(page, live_server, axe_check, screenshot, tables):
    url = live_server.url
    User.objects.create_user(
        username="thoth", password=PASSWORD, role=Role.TEACHER, display_name="Thoth"
    )
    # The teacher opens a class and sets an assignment.
    _log_in(page, url, "thoth")
    page.goto(f"{url}/en/classes/")
    axe_check(page)
    page.fill("input[name=name]", "Year 9 — Ані")
    page.get_by_role("button", name="Open the class").click()
    expect(page.locator("h1")).to_contain_text("Year 9")
    code = page.locator("[data-join-code]").inner_text()
    assert len(code) == 9 and code[4] == "-"
    page.fill("#assignments ~ details input[name=title], details input[name=title]", "Pairs")
    page.select_option("details select[name=focus]", "pair")
    page.fill("details input[name=hands]", "10")
    page.fill("details input[name=target_accuracy]", "60")
    page.get_by_role("button", name="Set the assignment").click()
    expect(page.locator(".messages")).to_contain_text("The assignment is set.")
    axe_check(page)
    _log_out(page)

    # A student signs up, joins with the code typed in lower case and answers ten hands.
    page.goto(f"{url}/en/accounts/signup/")
    page.fill("input[name=username]", "ani")
    page.fill("input[name=display_name]", "Ani")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.goto(f"{url}/en/classes/")
    page.fill("input[name=code]", code.lower())
    page.get_by_role("button", name="Join the class").click()
    expect(page.locator("h1")).to_contain_text("Year 9")
    axe_check(page)
    page.get_by_role("button", name="Start the drill").click()
    page.wait_for_url(f"{url}/en/trainer/")
    notice = page.locator("#drill-notice")
    expect(notice).to_contain_text("Assignment for Year 9 — Ані: Pairs")
    expect(notice).to_contain_text("0 of 10")
    page.keyboard.press("Enter")
    for n in range(10):
        page.wait_for_selector("[data-trainer-moves] button")
        s = Situation.objects.filter(decision__isnull=True).latest("id")
        best = max(s.ev, key=s.ev.get)
        # every other answer wrong, so that the class has costly mistakes
        move = best if n % 2 else min(s.ev, key=s.ev.get)
        page.keyboard.press(KEYS[move])
        page.wait_for_selector("[data-trainer-result]")
        expect(notice).to_contain_text(f"{n + 1} of 10")  # swapped in with each answer
        if n < 9:
            page.keyboard.press("Enter")
    axe_check(page)
    _both_widths(page, screenshot, "classroom-drill")
    a = Assignment.objects.get()
    assert Decision.objects.filter(context=a.context).count() == 10
    page.goto(f"{url}/en/classes/{a.classroom_id}/mine/")
    expect(page.locator(".progress").first).to_contain_text("10 of 10")
    _log_out(page)

    # The teacher sees the progress, the heat map and the costliest mistakes.
    _log_in(page, url, "thoth")
    klass = Classroom.objects.get()
    page.goto(f"{url}/en/classes/{klass.pk}/")
    row = page.locator("tr[data-student=ani]")
    expect(row).to_contain_text("10 of 10")
    expect(row.locator("td").nth(0)).to_contain_text("10")
    axe_check(page)
    _both_widths(page, screenshot, "classroom-dashboard")
    page.get_by_role("link", name="Heat map and mistakes").click()
    assert page.locator(".heat-grid a").count() >= 1
    assert page.locator("[data-mistakes] tbody tr").count() >= 1
    axe_check(page)
    _both_widths(page, screenshot, "classroom-heat")
    page.locator(".heat-grid a").first.click()
    expect(page.locator("main table")).to_contain_text("Ani")
    axe_check(page)
    page.go_back()
    page.get_by_role("button", name="Make an assignment of these weak spots").click()
    expect(page.locator(".messages")).to_contain_text("Weak spots of the class")
    remedial = Assignment.objects.get(focus="cells")
    assert remedial.cells and all(k == "pair" for k, _r, _u in remedial.cells)
    page.goto(f"{url}/en/classes/{klass.pk}/students/{User.objects.get(username='ani').pk}/")
    axe_check(page)
    _both_widths(page, screenshot, "classroom-student")
    page.goto(f"{url}/en/classes/{klass.pk}/")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download as CSV").click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:])))
    assert rows[0][:3] == ["Student", "Username", "Moves"]
    assert rows[0][-2:] == ["Weak spots of the class", "Pairs"]
    (ani,) = rows[1:]
    assert ani[:5] == ["Ani", "ani", "10", "10", "0"] and ani[5] == "50.0"
    assert ani[-1] == "10/10" and ani[-2] == "0/30"
    assert Membership.objects.filter(classroom=klass).count() == 1


def test_a_kept_dashboard_posts_and_shows_its_message_once(page, live_server, axe_check,
                                                            screenshot):  # fmt: skip
    """The dashboard served as kept (core.kept) carries this browser's CSRF token: its forms
    post; the message after a post is shown once; each language has its own page."""
    url = live_server.url
    teacher = User.objects.create_user(
        username="seshat", password=PASSWORD, role=Role.TEACHER, display_name="Seshat"
    )
    klass = class_create(owner=teacher, name="Scribes")
    _log_in(page, url, "seshat")
    for _ in range(2):  # drawn, then served as kept
        page.goto(f"{url}/en/classes/{klass.pk}/")
        expect(page.locator("h1")).to_contain_text("Scribes")
        expect(page.locator(".who")).to_have_text("Seshat")
    old_code = page.locator("[data-join-code]").inner_text()
    page.get_by_role("button", name="New join code").click()
    expect(page.locator(".messages")).not_to_be_empty()
    new_code = page.locator("[data-join-code]").inner_text()
    assert new_code != old_code
    page.reload()
    expect(page.locator(".messages")).to_be_empty()
    assert page.locator("[data-join-code]").inner_text() == new_code
    page.get_by_role("link", name="Українська").click()
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.locator("h1")).to_contain_text("Scribes")
    page.set_viewport_size({"width": 360, "height": 740})
    page.reload()  # the Ukrainian page, kept
    axe_check(page)
    screenshot(page, "classroom-kept-uk-360")
    page.set_viewport_size({"width": 1280, "height": 800})
