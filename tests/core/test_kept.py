"""``core.kept.render_kept``: a whole page rendered once per key, language and layout, then
served as kept, with each request's own CSRF token and never a message meant for one request."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import info
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.cache import caches
from django.test import RequestFactory
from django.urls import resolve
from django.utils import translation

from accounts.models import User
from core import kept

TEMPLATE = "classroom/refused.html"  # the layout and one value: {{ message }}
TOKEN = re.compile(r'"X-CSRFToken": "(\w+)"')


class Counter:
    """A value that counts how often the page was drawn."""

    def __init__(self) -> None:
        self.calls = 0

    def __str__(self) -> str:
        self.calls += 1
        return f"drawn {self.calls}"


@pytest.fixture(autouse=True)
def _fresh():
    kept.forget()
    with translation.override("en"):
        yield
    kept.forget()


def _request(user: object = None, path: str = "/en/classes/") -> object:
    request = RequestFactory().get(path)
    SessionMiddleware(lambda r: None).process_request(request)
    request._messages = FallbackStorage(request)
    request.user = user or AnonymousUser()
    request.resolver_match = resolve(path)
    return request


def _names(key: object) -> dict[str, object] | None:
    """The page's key: each context name by what determines it."""
    return None if key is None else {"message": key, "back": "/"}


def _page(count: Counter, key: object, **kwargs: object) -> str:
    request = kwargs.pop("request", None) or _request(**kwargs)
    context = {"message": count, "back": "/"}
    response = kept.render_kept(request, TEMPLATE, context, key=_names(key))
    assert response.status_code == 200
    return response.content.decode()


def test_a_page_is_drawn_once_per_key():
    count = Counter()
    assert "drawn 1" in _page(count, "a")
    assert "drawn 1" in _page(count, "a")
    assert "drawn 2" in _page(count, "b")
    assert "drawn 3" in _page(count, None)  # None: drawn anew each time
    assert "drawn 4" in _page(count, None)
    assert count.calls == 4


def test_a_page_of_another_status_is_drawn_anew_and_not_kept():
    count = Counter()
    for n in (1, 2):
        response = kept.render_kept(
            _request(), TEMPLATE, {"message": count, "back": "/"}, key=_names("a"), status=400
        )
        assert response.status_code == 400 and f"drawn {n}" in response.content.decode()
    assert "drawn 3" in _page(count, "a")


def test_each_address_and_language_has_its_own():
    count = Counter()
    _page(count, "a")
    assert "drawn 2" in _page(count, "a", path="/en/classes/new/")
    with translation.override("uk"):
        assert "drawn 3" in _page(count, "a", path="/uk/classes/")
    assert "drawn 1" in _page(count, "a")


@pytest.mark.django_db
def test_each_signed_in_user_sees_their_own_header():
    count = Counter()
    ra = User.objects.create_user(username="ra", display_name="Ra", password="x")
    nut = User.objects.create_user(username="nut", display_name="Nut", password="x")
    first = _page(count, "a", user=ra)
    second = _page(count, "a", user=nut)
    assert '<span class="who">Ra</span>' in first and "Nut" not in first
    assert '<span class="who">Nut</span>' in second and "Ra<" not in second
    ra.display_name = "Amun-Ra"
    assert '<span class="who">Amun-Ra</span>' in _page(count, "a", user=ra)
    assert count.calls == 3


def test_a_message_is_shown_once_and_never_kept():
    count = Counter()
    request = _request()
    info(request, "Your class was made.")
    with_message = _page(count, "a", request=request)
    assert "Your class was made." in with_message and "drawn 1" in with_message
    after = _page(count, "a")
    assert "Your class was made." not in after and "drawn 2" in after
    assert "drawn 2" in _page(count, "a")


def test_each_response_carries_its_own_token_and_none_is_kept(monkeypatch):
    cache = caches[kept.CACHE]
    stored: list[str] = []
    real_set = cache.set
    monkeypatch.setattr(cache, "set", lambda k, v, t: (stored.append(v), real_set(k, v, t)))
    count = Counter()
    pages = [_page(count, "a") for _ in range(3)]
    tokens = [TOKEN.search(p).group(1) for p in pages]
    assert len(set(tokens)) == 3
    assert all(kept.TOKEN_PLACEHOLDER not in p for p in pages)
    stored = [text for text in stored if "<html" in text]  # the page, not its fragments
    assert len(stored) == 1 and kept.TOKEN_PLACEHOLDER in stored[0]
    assert not any(t in stored[0] for t in tokens)


def test_a_context_name_the_key_does_not_name_is_refused():
    with pytest.raises(ValueError, match=r"context names without a key: \['back'\]"):
        kept.render_kept(_request(), TEMPLATE, {"message": "m", "back": "/"}, key={"message": 1})


def test_a_key_must_be_plain_values():
    with pytest.raises(TypeError, match="must be plain values"):
        kept.render_kept(_request(), TEMPLATE, {"message": "m"}, key={"message": object()})
