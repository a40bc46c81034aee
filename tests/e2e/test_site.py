"""The site in a real browser: languages, sign-up, log-in, the switcher, accessibility."""

import pytest

from accounts.models import User

LANGS = ["en", "uk", "ru", "be", "cs", "hy"]
HOME_H1 = {
    "en": "Hall of Thoth",
    "uk": "Чертог Тота",
    "ru": "Зал Тота",
    "be": "Зала Тота",
    "cs": "Síň Thovta",
    "hy": "Թովթի դահլիճ",
}
PAGES = ["", "play/", "trainer/", "rules/", "classes/", "accounts/signup/", "accounts/login/"]
PASSWORD = "Scarab-Lapis-9173"

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", LANGS)
def test_home_page_in_each_language(page, live_server, axe_check, lang):
    page.goto(f"{live_server.url}/{lang}/")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("h1").inner_text() == HOME_H1[lang]
    assert page.title().endswith(HOME_H1[lang])
    assert page.locator("link[rel=alternate][hreflang]").count() == 7
    assert page.locator(".main-nav a").count() == 4
    axe_check(page)


@pytest.mark.parametrize("path", PAGES[1:])
def test_each_page_passes_axe(page, live_server, axe_check, path):
    page.goto(f"{live_server.url}/en/{path}")
    axe_check(page)


def test_error_page_passes_axe(page, live_server, axe_check, refusals):
    refusals.add(404)
    response = page.goto(f"{live_server.url}/uk/no-such-page/")
    assert response is not None and response.status == 404
    assert page.locator("h1").inner_text() == "Сторінку не знайдено"
    axe_check(page)


def test_root_redirects_to_browser_language(browser, live_server):
    context = browser.new_context(locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"})
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    assert page.url == f"{live_server.url}/cs/"
    context.close()


def test_language_switcher_keeps_the_page(page, live_server):
    page.goto(f"{live_server.url}/en/trainer/")
    page.get_by_role("navigation", name="Language").get_by_role("link", name="Հայերեն").click()
    page.wait_for_url(f"{live_server.url}/hy/trainer/")
    assert page.locator("html").get_attribute("lang") == "hy"
    assert page.locator("h1").inner_text() == "Մարզիչ"
    # The choice is remembered: the bare address now leads to Armenian.
    page.goto(f"{live_server.url}/")
    assert page.url == f"{live_server.url}/hy/"


def test_sign_up_then_log_out_and_in(page, live_server):
    page.goto(f"{live_server.url}/uk/accounts/signup/")
    page.locator("#id_username").fill("khufu")
    page.get_by_label("Відображуване ім’я").fill("Khufu")
    page.get_by_label("Викладач").check()
    page.get_by_role("combobox", name="Мова").select_option("cs")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Створити обліковий запис").click()
    page.wait_for_url(f"{live_server.url}/cs/")
    assert page.get_by_role("status").inner_text() == "Vítejte v\u00a0Síni Thovta, Khufu."
    user = User.objects.get(username="khufu")
    assert (user.role, user.preferred_language) == ("teacher", "cs")

    page.get_by_role("button", name="Odhlásit se").click()
    page.wait_for_url(f"{live_server.url}/cs/")
    page.goto(f"{live_server.url}/en/accounts/login/")
    page.get_by_label("Username").fill("khufu")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # Logging in brings the saved language back.
    page.wait_for_url(f"{live_server.url}/cs/")
    assert page.locator(".who").inner_text() == "Khufu"


def test_log_in_with_a_wrong_password_says_so(page, live_server):
    User.objects.create_user(username="khafre", password=PASSWORD)
    page.goto(f"{live_server.url}/ru/accounts/login/")
    page.get_by_label("Имя пользователя").fill("khafre")
    page.get_by_label("Пароль").fill("wrong-password")
    page.get_by_role("button", name="Войти").click()
    assert "Введите правильные имя пользователя и пароль" in page.locator(".errorlist").inner_text()


@pytest.mark.parametrize(("page_fixture", "width"), [("phone_page", 360), ("page", 1280)])
def test_home_page_layout_fits(request, live_server, screenshot, page_fixture, width):
    page = request.getfixturevalue(page_fixture)
    page.goto(f"{live_server.url}/en/")
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width
    screenshot(page, f"home-{width}")


def test_skip_link_is_first_and_visible_on_focus(page, live_server):
    page.goto(f"{live_server.url}/en/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    assert focused == "#main"
    box = page.locator(".skip-link").bounding_box()
    assert box is not None and box["y"] >= 0
