"""Finding 3 and /healthz: the database away means a 503 in the visitor's language, never a
bare 500, and the app comes back by itself."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from core import views
from core.outage import RETRY_AFTER_SECONDS
from tests.conftest import database_is_postgres

pytestmark = pytest.mark.django_db

PAGES = ["/en/", "/uk/play/", "/cs/trainer/", "/hy/accounts/login/", "/ru/play/history/"]


@pytest.fixture
def client():
    """As a browser sees it: the handlers' response, not the exception re-raised."""
    return Client(raise_request_exception=False)


@pytest.fixture
def database_away(monkeypatch):
    """Every query fails as when PostgreSQL is restarting; undo() brings it back."""

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused (test)")

    class Switch:
        def undo(self) -> None:
            monkeypatch.undo()

    monkeypatch.setattr(connection, "_cursor", refuse)
    return Switch()


@pytest.fixture
def signed_in(client):
    user = User.objects.create_user(username="nefer", password="Scarab-Lapis-9173")
    client.force_login(user)
    return client


def _assert_outage_page(response, lang: str) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response["Content-Language"] == lang
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert response["Cache-Control"] == "no-store"
    html = response.content.decode()
    assert f'<html lang="{lang}"' in html
    assert "503" in html
    assert f'href="/{lang}/"' in html  # the home link, in the same language


@pytest.mark.parametrize("path", PAGES)
def test_every_page_answers_503_with_a_session_cookie(signed_in, database_away, path):
    response = signed_in.get(path)
    _assert_outage_page(response, path.split("/")[1])


@pytest.mark.parametrize(
    "path", ["/uk/play/", "/hy/play/table/scribes/", "/be/play/variants/?preset=live"]
)
def test_pages_that_read_the_database_answer_503_without_a_session(client, database_away, path):
    response = client.get(path)
    _assert_outage_page(response, path.split("/")[1])


def test_a_page_that_needs_no_database_still_serves(client, database_away):
    assert client.get("/en/").status_code == 200


def test_a_post_answers_503_too(signed_in, database_away):
    response = signed_in.post("/uk/play/top-up/")
    _assert_outage_page(response, "uk")


def test_the_app_recovers_by_itself(signed_in, database_away):
    assert signed_in.get("/en/play/").status_code == 503
    database_away.undo()
    assert signed_in.get("/en/play/").status_code == 200


def test_the_500_handler_touches_no_database(django_assert_num_queries):
    request = RequestFactory().get("/cs/play/", HTTP_COOKIE="sessionid=abc")
    try:
        raise ValueError("a bug")
    except ValueError:
        with django_assert_num_queries(0):
            response = views.server_error(request)
    assert response.status_code == 500
    assert '<html lang="cs"' in response.content.decode()


def test_a_bug_is_still_a_500_not_a_503(database_away):
    request = RequestFactory().get("/en/")
    try:
        raise ValueError("a bug")
    except ValueError:
        assert views.server_error(request).status_code == 500


def test_healthz_answers_200_when_the_database_does(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "sessionid" not in response.cookies
    assert "Cookie" not in response.get("Vary", "")
    assert reverse("healthz") == "/healthz"


def test_healthz_answers_503_when_the_database_does_not(client, database_away):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    database_away.undo()
    assert client.get("/healthz").status_code == 200


def test_healthz_needs_no_session_even_with_a_cookie(signed_in, database_away):
    # A stale session cookie from a browser must not make the probe read the session.
    response = signed_in.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unavailable\n"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_on_a_closed_port_then_back():
    """A real refused connection (nothing listens on port 9), then the real server again."""
    assert database_is_postgres()
    client = Client(raise_request_exception=False)
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict["PORT"] = 9
    connection.settings_dict["HOST"] = "127.0.0.1"
    try:
        _assert_outage_page(client.get("/be/play/"), "be")
        assert client.get("/healthz").status_code == 503
    finally:
        connection.close()
        connection.settings_dict.update(saved)
    assert client.get("/healthz").status_code == 200
    assert client.get("/be/play/").status_code == 200
