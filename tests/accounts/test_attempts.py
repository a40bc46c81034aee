"""Finding 4, 5 and 9 (password change): log-in attempts behind a load balancer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.test import Client, RequestFactory, override_settings
from django.utils import timezone

from accounts import attempts
from accounts.attempts import DEVICE_COOKIE, SLOWDOWN_AFTER, client_address
from accounts.models import User
from tests.conftest import database_is_postgres

pytestmark = pytest.mark.django_db

PASSWORD = "Scarab-Lapis-9173"
BALANCER = "10.0.0.5"
behind_the_balancer = override_settings(TRUSTED_PROXIES=["10.0.0.0/24"])


def _client(address: str) -> Client:
    """A browser at ``address``, reaching us through the load balancer."""
    return Client(REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR=address)


def _login(client: Client, username: str, password: str):
    return client.post("/en/accounts/login/", {"username": username, "password": password})


@pytest.fixture
def owner(db):
    return User.objects.create_user(username="nefer", password=PASSWORD)


# --- the client address ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trusted", "remote", "forwarded", "expected"),
    [
        ([], "203.0.113.9", "198.51.100.1", "203.0.113.9"),  # no proxy: the header is a lie
        (["10.0.0.0/24"], "203.0.113.9", "198.51.100.1", "203.0.113.9"),  # not via the proxy
        (["10.0.0.0/24"], "10.0.0.5", "198.51.100.1", "198.51.100.1"),
        (["10.0.0.0/24"], "10.0.0.5", "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # forged left
        (["10.0.0.0/24"], "10.0.0.5", "198.51.100.1, 10.0.0.7", "198.51.100.1"),  # two proxies
        (["10.0.0.0/24"], "10.0.0.5", "", "10.0.0.5"),
        (["10.0.0.0/24"], "10.0.0.5", "not-an-address", "10.0.0.5"),
        (["10.0.0.0/24"], "10.0.0.5", "2001:db8::1", "2001:db8::1"),
        ([], "garbage", "", None),
    ],
)
def test_client_address(settings, trusted, remote, forwarded, expected):
    settings.TRUSTED_PROXIES = trusted
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


# --- one address cannot lock anyone else out ------------------------------------------------


@behind_the_balancer
def test_five_failures_lock_the_attackers_address_not_the_owner(owner):
    attacker = _client("203.0.113.9")
    for _ in range(4):
        assert _login(attacker, "nefer", "wrong").status_code == 200
    assert _login(attacker, "nefer", "wrong").status_code == 429
    assert _login(attacker, "nefer", PASSWORD).status_code == 429  # that pair stays locked
    # The owner, through the same balancer, from home: not locked.
    home = _client("198.51.100.7")
    response = _login(home, "nefer", PASSWORD)
    assert response.status_code == 302
    assert home.session[SESSION_KEY] == str(owner.pk)


@behind_the_balancer
def test_one_address_locking_many_users_locks_only_its_own_pairs(db):
    names = [f"scribe{i}" for i in range(4)]
    for name in names:
        User.objects.create_user(username=name, password=PASSWORD)
    attacker = _client("203.0.113.9")
    for name in names:
        for _ in range(5):
            _login(attacker, name, "wrong")
        assert _login(attacker, name, PASSWORD).status_code == 429
    for i, name in enumerate(names):
        assert _login(_client(f"198.51.100.{i + 1}"), name, PASSWORD).status_code == 302


# --- many addresses against one user --------------------------------------------------------


def _spread_attack(failures: int) -> None:
    for i in range(failures):
        _login(_client(f"203.0.113.{i // 4 + 1}"), "nefer", "wrong")  # 4 per address: no lock


@behind_the_balancer
def test_many_addresses_against_one_user_are_slowed_down(owner):
    _spread_attack(SLOWDOWN_AFTER)
    assert AccessAttempt.objects.filter(username="nefer").count() > 1
    failures_before = attempts.username_failures(username="nefer")[0]
    # A fresh address, even with the right password, must wait.
    fresh = _client("192.0.2.77")
    response = _login(fresh, "nefer", PASSWORD)
    assert response.status_code == 200
    assert "Please wait" in response.content.decode()
    assert SESSION_KEY not in fresh.session
    # The refusal is not one more failure: it cannot stretch the wait.
    assert attempts.username_failures(username="nefer")[0] == failures_before


@behind_the_balancer
def test_the_slow_down_ends_after_its_seconds(owner):
    _spread_attack(SLOWDOWN_AFTER)
    earlier = timezone.now() - timedelta(seconds=attempts.SLOWDOWN_SECONDS + 1)
    AccessAttempt.objects.filter(username="nefer").update(attempt_time=earlier)
    assert _login(_client("192.0.2.77"), "nefer", PASSWORD).status_code == 302


@behind_the_balancer
def test_the_owners_own_browser_is_never_slowed_down(owner):
    laptop = _client("198.51.100.7")
    response = _login(laptop, "nefer", PASSWORD)
    assert response.status_code == 302
    assert DEVICE_COOKIE in response.cookies
    assert response.cookies[DEVICE_COOKIE]["httponly"]
    laptop.post("/en/accounts/logout/")
    _spread_attack(SLOWDOWN_AFTER * 3)  # an attack that goes on and on
    assert attempts.slowdown_wait(request=RequestFactory().get("/"), username="nefer") > 0
    assert _login(laptop, "nefer", PASSWORD).status_code == 302


def test_a_forged_device_cookie_is_ignored(owner):
    request = RequestFactory().get("/", HTTP_COOKIE=f"{DEVICE_COOKIE}=nefer")
    assert attempts.device_names(request) == []


@behind_the_balancer
def test_the_admin_login_is_slowed_down_too(db):
    User.objects.create_superuser(username="nefer", password=PASSWORD)
    _spread_attack(SLOWDOWN_AFTER)
    fresh = _client("192.0.2.77")
    response = fresh.post("/en/admin/login/", {"username": "nefer", "password": PASSWORD})
    assert response.status_code == 200
    assert "Please wait" in response.content.decode()


# --- finding 5: an over-long username ----------------------------------------------------


@pytest.mark.parametrize("path", ["/en/accounts/login/", "/en/admin/login/"])
@pytest.mark.parametrize("length", [151, 256, 5000])
def test_an_over_long_username_is_a_form_error(path, length):
    client = Client(raise_request_exception=True)
    response = client.post(path, {"username": "a" * length, "password": "x"})
    assert response.status_code == 200
    stored = AccessAttempt.objects.values_list("username", flat=True)
    assert all(len(name) <= attempts.USERNAME_MAX for name in stored)
    if database_is_postgres():
        assert stored.count() == 1


# --- finding 9: the password-change form counts wrong old passwords ----------------------


def test_password_change_is_locked_after_five_wrong_old_passwords(owner, client):
    client.force_login(owner)
    data = {"new_password1": "Obelisk-Granite-5512", "new_password2": "Obelisk-Granite-5512"}
    for _ in range(4):
        response = client.post("/en/accounts/password/", {**data, "old_password": "wrong"})
        assert response.status_code == 200
    response = client.post("/en/accounts/password/", {**data, "old_password": "wrong"})
    assert response.status_code == 429
    response = client.post("/en/accounts/password/", {**data, "old_password": PASSWORD})
    assert response.status_code == 429
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


@behind_the_balancer
def test_the_browser_that_signed_up_is_never_slowed_down(db):
    # Issue 33, finding 3: a new account that never logged in on its browser was slowed down.
    laptop = _client("198.51.100.8")
    response = laptop.post(
        "/en/accounts/signup/",
        {"username": "khufu", "display_name": "Khufu", "role": "learner",
         "preferred_language": "en", "password1": PASSWORD, "password2": PASSWORD},
    )  # fmt: skip
    assert response.status_code == 302
    assert response.cookies[DEVICE_COOKIE]["httponly"]
    laptop.post("/en/accounts/logout/")
    for i in range(SLOWDOWN_AFTER):
        _login(_client(f"203.0.113.{i // 4 + 1}"), "khufu", "wrong")
    assert attempts.slowdown_wait(request=RequestFactory().get("/"), username="khufu") > 0
    assert _login(_client("192.0.2.78"), "khufu", PASSWORD).status_code == 200  # slowed down
    response = _login(laptop, "khufu", PASSWORD)
    assert response.status_code == 302 and laptop.session[SESSION_KEY] == str(
        User.objects.get(username="khufu").pk
    )
