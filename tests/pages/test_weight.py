"""Page weight and origin (issue 17): every page is at most 60 KB of HTML, CSS and JavaScript
as sent compressed, and asks nothing of another origin.  The app sends its HTML uncompressed:
the load balancer compresses it (README), weighed here at level 1, nginx's default."""

from __future__ import annotations

import gzip
import re
from random import Random

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from accounts.models import Role, User
from articles.content import SLUGS
from classroom.models import Membership
from classroom.services import class_create
from core.languages import language_codes
from tests.pages.test_anonymous_reads import anonymous_paths

pytestmark = pytest.mark.django_db

LIMIT = 60 * 1024
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
# Attributes that make a browser fetch or go somewhere.
URL_ATTRIBUTE = re.compile(r'\s(?:src|href|action|hx-get|hx-post|poster|data)="([^"]*)"')
ASSET = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*rel="stylesheet"[^>]*\shref)="/static/([^"]+)"')


def _decisions(user: User, n: int) -> None:
    from tests.pages.helpers import decisions_for

    decisions_for(user, n, Random(5))


def _html(response) -> str:
    assert not response.has_header("Content-Encoding")  # the balancer's work, not the app's
    return response.content.decode()


def _asset_bytes(name: str) -> int:
    path = finders.find(name)
    assert path, name
    with open(path, "rb") as f:
        return len(gzip.compress(f.read(), compresslevel=9))


def _weigh(client: Client, path: str) -> tuple[int, str]:
    response = client.get(path, **GZIP)
    assert response.status_code == 200, (path, response.status_code)
    html = _html(response)
    sent = len(gzip.compress(response.content, compresslevel=1))
    assets = sorted(set(ASSET.findall(html)))
    return sent + sum(_asset_bytes(a) for a in assets), html


@pytest.fixture
def signed_in(tables) -> dict[str, Client]:
    """A learner with a history, a teacher with a class of students with theirs."""
    learner = User.objects.create_user(username="meryt", password="x")
    _decisions(learner, 800)
    teacher = User.objects.create_user(username="imhotep", password="x", role=Role.TEACHER)
    klass = class_create(owner=teacher, name="Morning")
    for i in range(30):
        student = User.objects.create_user(username=f"s{i}", password="x")
        Membership.objects.create(classroom=klass, student=student)
        _decisions(student, 20)
    clients = {}
    for user in (learner, teacher):
        c = Client()
        c.force_login(user)
        clients[user.username] = c
    clients["class"] = f"/classes/{klass.pk}/"  # type: ignore[assignment]
    return clients


def _signed_in_pages(signed_in) -> list[tuple[Client, str]]:
    learner, teacher, base = signed_in["meryt"], signed_in["imhotep"], signed_in["class"]
    return [
        (learner, "/trainer/stats/"), (learner, "/trainer/"), (learner, "/play/history/"),
        (learner, "/accounts/"), (teacher, f"{base}"), (teacher, f"{base}heat/"),
        (teacher, "/classes/"),
    ]  # fmt: skip


def _ok_pages(client: Client, lang: str) -> list[str]:
    return [p for p in anonymous_paths(lang) if client.get(p).status_code == 200]


@pytest.mark.parametrize("lang", language_codes())
def test_every_page_weighs_at_most_60_kb_compressed(signed_in, lang):
    anonymous = Client()
    weighed = {}
    for path in _ok_pages(anonymous, lang):
        if path.endswith((".txt", ".xml")) or path == "/healthz":
            continue
        weighed[path], _html = _weigh(anonymous, path)
    for client, path in _signed_in_pages(signed_in):
        weighed[f"/{lang}{path}"], _html = _weigh(client, f"/{lang}{path}")
    heavy = {path: size for path, size in weighed.items() if size > LIMIT}
    assert heavy == {}, heavy
    assert f"/{lang}/trainer/chart/" in weighed
    assert f"/{lang}/rules/{SLUGS[0]}/" in weighed


def _same_origin(url: str) -> bool:
    if url.startswith(("http://testserver/", "#", "?", "mailto:")) or url == "":
        return True
    return url.startswith("/") and not url.startswith("//")


def test_no_page_asks_another_origin_for_anything(signed_in):
    anonymous = Client()
    foreign: dict[str, list[str]] = {}
    pages = [(anonymous, p) for p in _ok_pages(anonymous, "en") if not p.endswith((".txt", ".xml"))]
    pages += [(client, f"/en{path}") for client, path in _signed_in_pages(signed_in)]
    for client, path in pages:
        html = _html(client.get(path, **GZIP))
        urls = URL_ATTRIBUTE.findall(html) + re.findall(r"url\(([^)]*)\)", html)
        bad = [u for u in urls if not _same_origin(u)]
        if bad:
            foreign[path] = bad
    assert foreign == {}
    # Nor do the style sheets and scripts.
    assets = ["css/site.css", "css/trainer.css", "css/table.css", "css/articles.css"]
    assets += ["css/classroom.css", "js/table.js", "js/trainer.js", "js/htmx-refusals.js"]
    for name in assets:
        path = finders.find(name)
        assert path, name
        with open(path, encoding="utf-8") as f:
            text = f.read()
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), name
