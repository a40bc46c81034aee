"""After a refused sign-up the focus starts on the first field with an error (issue 16)."""

from __future__ import annotations

import re

import pytest

from tests.accounts.test_views import signup_data

pytestmark = pytest.mark.django_db


def autofocused(html: str) -> list[str]:
    """The names of the inputs that carry ``autofocus``."""
    tags = re.findall(r"<input[^>]*>", html)
    return [re.search(r'name="(\w+)"', t).group(1) for t in tags if re.search(r"\bautofocus\b", t)]


def test_a_fresh_form_starts_on_the_username(client):
    assert autofocused(client.get("/en/accounts/signup/").content.decode()) == ["username"]


def test_mismatched_passwords_put_the_focus_on_the_second_password(client):
    response = client.post("/en/accounts/signup/", signup_data(password2="Other-Pass-5521"))
    assert response.status_code == 200
    assert autofocused(response.content.decode()) == ["password2"]


def test_a_taken_name_keeps_the_focus_on_the_username(client, django_user_model):
    django_user_model.objects.create_user(username="khufu", password="Scarab-Lapis-9173")
    response = client.post("/en/accounts/signup/", signup_data(username="khufu"))
    assert autofocused(response.content.decode()) == ["username"]
