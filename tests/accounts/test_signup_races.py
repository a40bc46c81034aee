"""Finding 6: two sign-ups at once get the form's error or the account just made, no 500."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.test import Client

from accounts import views
from accounts.models import User
from accounts.views import SIGNED_UP_ELSEWHERE
from tests.accounts.test_views import GOOD_PASSWORD, signup_data
from tests.trainer.conftest import _no_threads_and_fresh_cache, thoth_tables  # noqa: F401

pytestmark = pytest.mark.django_db


def _guest_browser() -> tuple[Client, str]:
    client = Client(raise_request_exception=True)
    client.get("/en/play/")
    response = client.post("/en/trainer/deal/", {"focus": "all", "up": "6", "preset": "thoth"})
    assert response.status_code == 302, response.status_code
    guest = User.objects.get()
    assert guest.is_guest
    return client, client.cookies["sessionid"].value


def test_the_name_taken_between_the_check_and_the_write(monkeypatch):
    real = views.user_sign_up

    def someone_else_first(**kwargs):
        User.objects.create_user(username=kwargs["username"], password="x")
        return real(**kwargs)

    monkeypatch.setattr(views, "user_sign_up", someone_else_first)
    client = Client(raise_request_exception=True)
    response = client.post("/en/accounts/signup/", signup_data())
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1
    assert SESSION_KEY not in client.session


def _first_request_commits_meanwhile(monkeypatch, guest: User, username: str) -> None:
    """The other click's sign-up commits after this request loaded its (guest) session."""
    real = views.user_sign_up

    def after_the_other(**kwargs):
        User.objects.filter(pk=guest.pk).update(
            username=username, is_guest=False, password=make_password(GOOD_PASSWORD)
        )
        return real(**kwargs)

    monkeypatch.setattr(views, "user_sign_up", after_the_other)


@pytest.mark.usefixtures("thoth_tables")
def test_a_second_click_of_the_same_sign_up_gets_the_account_just_made(monkeypatch):
    client, _cookie = _guest_browser()
    guest = User.objects.get()
    _first_request_commits_meanwhile(monkeypatch, guest, "nefertari")
    response = client.post("/en/accounts/signup/", signup_data())
    assert response.status_code == 302
    user = User.objects.get()
    assert user.pk == guest.pk
    assert user.username == "nefertari" and not user.is_guest
    assert client.session[SESSION_KEY] == str(user.pk)


@pytest.mark.usefixtures("thoth_tables")
def test_a_different_sign_up_from_the_same_guest_is_a_form_error(monkeypatch):
    client, _cookie = _guest_browser()
    _first_request_commits_meanwhile(monkeypatch, User.objects.get(), "nefertari")
    response = client.post("/en/accounts/signup/", signup_data(username="ramses"))
    assert response.status_code == 200
    assert str(SIGNED_UP_ELSEWHERE) in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["nefertari"]
    assert User.objects.get().check_password(GOOD_PASSWORD)
