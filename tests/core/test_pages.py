import re

import pytest
from django.test import Client

from accounts.models import User
from core.languages import NAMES_IN_THEMSELVES

LANGS = ["en", "uk", "ru", "be", "cs", "hy"]
PAGES = ["", "play/", "trainer/", "rules/", "classes/", "accounts/signup/", "accounts/login/"]
HOME_TITLES = {
    "en": "Learn blackjack strategy · Hall of Thoth",
    "uk": "Опануйте стратегію блекджеку · Чертог Тота",
    "ru": "Освойте стратегию блэкджека · Зал Тота",
    "be": "Асвойце стратэгію блэкджэка · Зала Тота",
    "cs": "Naučte se strategii blackjacku · Síň Thovta",
    "hy": "Սովորեք բլեքջեքի ռազմավարությունը · Թովթի դահլիճ",
}
NOT_FOUND = {
    "en": "Page not found",
    "uk": "Сторінку не знайдено",
    "ru": "Страница не найдена",
    "be": "Старонка не знойдзена",
    "cs": "Stránka nenalezena",
    "hy": "Էջը չի գտնվել",
}

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_in_every_language(client, lang, page):
    response = client.get(f"/{lang}/{page}")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<html lang="{lang}"' in html
    assert '<main id="main"' in html
    assert 'href="#main"' in html
    assert 'role="status"' in html
    # hreflang alternates: all six and x-default, each to the same page.
    for code in LANGS:
        assert (
            f'<link rel="alternate" hreflang="{code}" href="http://testserver/{code}/{page}">'
            in html
        )
    assert '<link rel="alternate" hreflang="x-default" href="http://testserver/">' in html
    # The switcher: each language named in itself, linking to the same page.
    for code, name in NAMES_IN_THEMSELVES.items():
        assert f'<a href="/{code}/{page}" lang="{code}" hreflang="{code}"' in html
        assert f">{name}</a>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_home_title_in_its_language(client, lang):
    html = client.get(f"/{lang}/").content.decode()
    assert f"<title>{HOME_TITLES[lang]}</title>" in html


def test_home_leads_to_the_four_sections(client):
    html = client.get("/en/").content.decode()
    for href in ("/en/play/", "/en/trainer/", "/en/rules/", "/en/classes/"):
        assert html.count(f'href="{href}"') == 2  # the navigation and the card


def test_no_inline_script_and_no_third_party_host(client):
    response = client.get("/en/")
    html = response.content.decode()
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts == [
        '<script src="/static/django_htmx/htmx-2.min.js" defer>',
        '<script src="/static/js/htmx-refusals.js" defer>',
    ]
    assert " style=" not in html
    assert re.findall(r'(?:src|href)="(https?://[^"]+)"', html) == [
        f"http://testserver/{code}/" for code in LANGS
    ] + ["http://testserver/"]


def test_security_headers(client):
    response = client.get("/en/")
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_htmx_config_and_csrf_header_on_body(client):
    html = client.get("/en/").content.decode()
    assert '"includeIndicatorStyles": false' in html
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else None
    match = re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"([A-Za-z0-9]+)\"\}'>", html)
    assert match is not None
    assert token is None or len(match.group(1)) == 64


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("uk,en;q=0.5", "/uk/"),
        ("ru-RU,ru;q=0.9", "/ru/"),
        ("be", "/be/"),
        ("cs-CZ", "/cs/"),
        ("hy", "/hy/"),
        ("de-DE,de", "/en/"),
        ("", "/en/"),
    ],
)
def test_root_follows_browser_language(client, accept, expected):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302
    assert response["Location"] == expected
    assert "Accept-Language" in response["Vary"]


def test_root_follows_the_language_last_visited(client):
    client.get("/cs/rules/")
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="uk")
    assert response["Location"] == "/cs/"


def test_root_follows_saved_preference_of_signed_in_user(client):
    user = User.objects.create_user(username="oksana", password="x", preferred_language="hy")
    client.force_login(user)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response["Location"] == "/hy/"


def test_switching_language_while_signed_in_saves_it(client):
    user = User.objects.create_user(username="pavel", password="x", preferred_language="en")
    client.force_login(user)
    client.get("/be/trainer/")
    user.refresh_from_db()
    assert user.preferred_language == "be"


def test_switcher_keeps_the_query_string(client):
    html = client.get("/en/rules/?section=faq").content.decode()
    assert 'href="/uk/rules/?section=faq"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_404_is_our_page_in_the_visitors_language(client, lang):
    response = client.get(f"/{lang}/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert f'<h1 id="page-title">{NOT_FOUND[lang]}</h1>' in html
    assert f'<html lang="{lang}"' in html
    # The switcher cannot offer the same missing page; it offers each home page instead.
    assert '<a href="/uk/" lang="uk"' in html


@pytest.mark.parametrize("path", ["/xx/", "/fr/play/", "/nothing"])
def test_unknown_language_prefix_is_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert '<p class="error-code">404</p>' in response.content.decode()


def test_forged_host_gets_our_400_page(client):
    response = client.get("/en/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert '<p class="error-code">400</p>' in response.content.decode()


@pytest.mark.parametrize(
    ("lang", "heading"), [("en", "The form has expired"), ("uk", "Термін дії форми минув")]
)
def test_post_without_csrf_token_is_403_in_visitors_language(lang, heading):
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/{lang}/accounts/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    assert heading in response.content.decode()
