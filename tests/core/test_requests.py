"""Finding 7 and 9: NUL characters anywhere in a request, ``next=``, the language cookie."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "Scarab-Lapis-9173"


@pytest.fixture
def client():
    return Client(raise_request_exception=True)


@pytest.mark.parametrize(
    "path",
    [
        "/en/play/variants/?preset=%00",
        "/en/play/variants/?pre%00set=live",
        "/en/trainer/?preset=thoth&focus=%00",
        "/en/trainer/chart/?preset=%00",
        "/en/play/history/?x=a%00b",
        "/en/admin/accounts/user/%00/change/",
        "/uk/%00/",
    ],
)
def test_a_nul_in_the_address_is_a_400(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert "400" in response.content.decode()


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/en/accounts/login/", {"username": "a\x00b", "password": "x"}),
        ("/en/admin/login/", {"username": "a\x00b", "password": "x"}),
        ("/en/accounts/signup/", {"username": "nefer", "display_name": "\x00"}),
        ("/en/play/table/scribes/deal/", {"bet_0": "100\x00"}),
        ("/en/play/round/1/move/", {"move": "hit\x00", "seq": "1"}),
        ("/en/trainer/answer/", {"situation": "1", "move": "\x00"}),
    ],
)
def test_a_nul_in_a_form_is_a_400_and_stores_nothing(client, path, data):
    response = client.post(path, data)
    assert response.status_code == 400
    assert User.objects.count() == 0


def test_a_nul_in_a_cookie_is_a_400(client):
    client.cookies["sessionid"] = "abc\x00def"
    assert client.get("/en/play/").status_code == 400


def test_the_400_page_is_in_the_language_of_the_address(client):
    response = client.get("/cs/play/variants/?preset=%00")
    assert response.status_code == 400
    assert '<html lang="cs"' in response.content.decode()


@pytest.mark.parametrize(
    "target",
    [
        "http://testserver/en/trainer/",  # our own host, over plain HTTP
        "https://testserver/en/trainer/",
        "//testserver/en/trainer/",
        "/\\evil.example/",
        "https://evil.example/",
        "javascript:alert(1)",
    ],
)
def test_login_next_must_be_a_local_path(client, target):
    User.objects.create_user(username="ramses", password=PASSWORD)
    response = client.post(
        "/en/accounts/login/", {"username": "ramses", "password": PASSWORD, "next": target}
    )
    assert response.status_code == 302
    assert response["Location"] == "/en/"


def test_login_next_local_path_is_followed(client):
    User.objects.create_user(username="ramses", password=PASSWORD)
    response = client.post(
        "/en/accounts/login/",
        {"username": "ramses", "password": PASSWORD, "next": "/en/trainer/"},
    )
    assert response["Location"] == "/en/trainer/"


def test_the_language_cookie_is_samesite_lax(client):
    response = client.get("/uk/")
    cookie = response.cookies["django_language"]
    assert cookie.value == "uk"
    assert cookie["samesite"] == "Lax"
