"""The signed-in user's row kept in the shared cache (accounts.backends, issue 17): read once,
and every change of the row seen on the very next request."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.hashers import check_password
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import backends
from accounts.models import User
from accounts.selectors import session_user_key
from accounts.services import user_become_teacher, user_set_preferred_language

pytestmark = pytest.mark.django_db

PASSWORD = "Scarab-Lapis-9173"


@pytest.fixture(autouse=True)
def _kept(settings):
    settings.ACCOUNTS_USER_CACHE_SECONDS = 300


@pytest.fixture
def nefer():
    user = User.objects.create_user(username="nefer", password=PASSWORD, display_name="Nefer")
    # An earlier test's user with this id (SQLite gives a rolled-back id again) is not ours.
    cache.delete(session_user_key(user.pk))
    yield user
    cache.delete(session_user_key(user.pk))


def signed_in(client, user):
    response = client.post("/en/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302, response.content[:300]
    assert client.session[BACKEND_SESSION_KEY] == backends.PATH
    return client


def user_rows_read(client, path="/en/trainer/stats/"):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200
    return sum('FROM "accounts_user"' in q["sql"] for q in ctx.captured_queries), response


def test_a_signed_in_page_reads_the_user_row_once(client, nefer):
    signed_in(client, nefer)
    client.get("/en/trainer/stats/")
    assert user_rows_read(client)[0] == 0


def test_without_a_shared_cache_the_row_is_read_each_time(client, nefer, settings):
    settings.ACCOUNTS_USER_CACHE_SECONDS = 0
    signed_in(client, nefer)
    client.get("/en/trainer/stats/")
    assert user_rows_read(client)[0] == 1


def test_a_new_name_shows_on_the_next_page(client, nefer):
    signed_in(client, nefer)
    client.get("/en/")
    response = client.post("/en/accounts/", {"display_name": "Nefertari", "real_name": ""})
    assert response.status_code == 302
    html = client.get("/en/").content.decode()
    assert "Nefertari" in html


@pytest.mark.parametrize(
    "change",
    [
        lambda user: user_become_teacher(user=user),
        lambda user: user_set_preferred_language(user=user, language="cs"),
    ],
    ids=["teacher", "language"],
)
def test_a_service_change_reaches_the_next_request(client, nefer, change):
    signed_in(client, nefer)
    client.get("/en/")
    change(User.objects.get(pk=nefer.pk))
    _reads, response = user_rows_read(client, "/en/")
    seen = response.wsgi_request.user
    fresh = User.objects.get(pk=nefer.pk)
    assert (seen.role, seen.preferred_language) == (fresh.role, fresh.preferred_language)


def test_a_switched_off_account_is_signed_out_at_once(client, nefer):
    signed_in(client, nefer)
    client.get("/en/")
    nefer.is_active = False
    nefer.save()
    assert not client.get("/en/").wsgi_request.user.is_authenticated


def test_a_deleted_account_is_signed_out_at_once(client, nefer):
    signed_in(client, nefer)
    client.get("/en/")
    User.objects.filter(pk=nefer.pk).delete()
    assert not client.get("/en/").wsgi_request.user.is_authenticated


def test_a_new_password_signs_out_the_other_browsers(client, nefer, django_user_model):
    from django.test import Client

    other = signed_in(Client(), nefer)
    other.get("/en/")
    signed_in(client, nefer)
    response = client.post(
        "/en/accounts/password/",
        {"old_password": PASSWORD, "new_password1": "Obelisk-Natron-4412",
         "new_password2": "Obelisk-Natron-4412"},
    )  # fmt: skip
    assert response.status_code == 302
    assert client.get("/en/").wsgi_request.user.is_authenticated
    assert not other.get("/en/").wsgi_request.user.is_authenticated


def test_a_session_signed_in_by_the_model_backend_stays_signed_in(client, nefer):
    client.force_login(nefer, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get("/en/").wsgi_request.user == nefer


def test_a_wrong_password_is_hashed_once(client, nefer, monkeypatch):
    checked = []

    def counted(self, raw_password):
        checked.append(raw_password)
        return check_password(raw_password, self.password)

    monkeypatch.setattr(User, "check_password", counted)
    response = client.post("/en/accounts/login/", {"username": "nefer", "password": "wrong"})
    assert response.status_code == 200
    assert checked == ["wrong"]


def test_the_kept_row_is_a_copy(client, nefer):
    """What one request changes on its user object reaches no other request."""
    signed_in(client, nefer)
    first = client.get("/en/").wsgi_request.user
    first.display_name = "Changed in memory"
    assert client.get("/en/").wsgi_request.user.display_name == "Nefer"
