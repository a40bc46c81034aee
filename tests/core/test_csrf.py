"""The forms' CSRF token (core.csrf): Django's kind of token, its mask drawn from one read."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CSRF_TOKEN_LENGTH,
    _check_token_format,
    _unmask_cipher_token,
)
from django.test import Client, RequestFactory

from core import csrf

SECRET = "abcdefghijklmnopqrstuvwxyzABCDEF"


def _request(secret: str | None = SECRET):
    request = RequestFactory().get("/")
    if secret is not None:
        request.META["CSRF_COOKIE"] = secret
    return request


def test_the_token_is_the_cookies_secret_masked_afresh_each_time():
    request = _request()
    tokens = {csrf.get_token(request) for _ in range(50)}
    assert len(tokens) == 50  # fresh for every response: a compressed page never repeats one
    for token in tokens:
        assert len(token) == CSRF_TOKEN_LENGTH
        _check_token_format(token)  # Django's checks, as its middleware runs them
        assert _unmask_cipher_token(token) == SECRET
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True  # the cookie's expiry renewed


def test_a_request_without_the_cookie_gets_a_new_secret():
    request = _request(None)
    token = csrf.get_token(request)
    assert _unmask_cipher_token(token) == request.META["CSRF_COOKIE"] != SECRET
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True


def test_every_character_is_drawn_as_often():
    masks = Counter("".join(csrf.get_token(_request())[:32] for _ in range(3000)))
    assert set(masks) == set(CSRF_ALLOWED_CHARS)
    expected = 3000 * 32 / len(CSRF_ALLOWED_CHARS)  # 1,548 each; a standard deviation of 39
    assert all(abs(n - expected) < 0.2 * expected for n in masks.values()), masks


def test_a_read_with_too_few_even_bytes_falls_back_to_djangos_mask(monkeypatch):
    monkeypatch.setattr(csrf.os, "urandom", lambda n: bytes([250]) * n)
    token = csrf.get_token(_request())
    assert _unmask_cipher_token(token) == SECRET


@pytest.mark.django_db
def test_a_pages_form_posts_with_its_token_through_djangos_check():
    client = Client(enforce_csrf_checks=True)
    html = client.get("/en/accounts/login/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', html)
    assert token and len(token.group(1)) == CSRF_TOKEN_LENGTH
    assert _unmask_cipher_token(token.group(1)) == client.cookies["csrftoken"].value
    form = {"username": "nobody", "password": "wrong"}
    assert client.post("/en/accounts/login/", form).status_code == 403  # no token
    r = client.post("/en/accounts/login/", {**form, "csrfmiddlewaretoken": token.group(1)})
    assert r.status_code == 200  # past the check: the form's own error, not a 403
