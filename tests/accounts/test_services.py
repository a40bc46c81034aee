import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from django.utils import translation

from accounts.models import Role, User
from accounts.services import (
    ALREADY_SIGNED_UP,
    GUEST_USERNAME_PREFIX,
    UNKNOWN_LANGUAGE,
    user_get_or_create_guest,
    user_set_preferred_language,
    user_sign_up,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def request_():
    request = RequestFactory().get("/en/play/")
    request.session = SessionStore()
    request.user = AnonymousUser()
    return request


def test_guest_is_made_once_and_bound_to_the_session(request_):
    with translation.override("cs"):
        guest = user_get_or_create_guest(request=request_)
    assert guest.is_guest is True
    assert guest.username.startswith(GUEST_USERNAME_PREFIX)
    assert guest.has_usable_password() is False
    assert guest.preferred_language == "cs"
    assert guest.role == Role.LEARNER
    assert request_.user == guest
    assert request_.session["_auth_user_id"] == str(guest.pk)
    assert user_get_or_create_guest(request=request_) == guest
    assert User.objects.count() == 1


def test_two_visitors_get_two_guests(request_):
    other = RequestFactory().get("/")
    other.session = SessionStore()
    other.user = AnonymousUser()
    first = user_get_or_create_guest(request=request_)
    second = user_get_or_create_guest(request=other)
    assert first.pk != second.pk
    assert first.username != second.username


def test_signed_in_user_is_returned_as_is(request_):
    user = User.objects.create_user(username="anna", password="pw-unused-1")
    request_.user = user
    assert user_get_or_create_guest(request=request_) == user
    assert User.objects.count() == 1


def test_sign_up_turns_the_guest_into_the_account_in_place(request_):
    guest = user_get_or_create_guest(request=request_)
    user = user_sign_up(
        request=request_,
        username="hatshepsut",
        password="Papyrus-Scroll-42",
        display_name="Hatshepsut",
        role=Role.TEACHER,
        preferred_language="uk",
    )
    assert user.pk == guest.pk
    assert User.objects.count() == 1
    user.refresh_from_db()
    assert (user.username, user.display_name, user.role) == ("hatshepsut", "Hatshepsut", "teacher")
    assert user.is_guest is False
    assert user.preferred_language == "uk"
    assert user.check_password("Papyrus-Scroll-42")
    assert request_.session["_auth_user_id"] == str(guest.pk)


def test_sign_up_without_guest_creates_a_user(request_):
    user = user_sign_up(request=request_, username="imhotep", password="Papyrus-Scroll-42")
    assert User.objects.get(username="imhotep").pk == user.pk
    assert request_.user == user


def test_full_account_cannot_sign_up_again(request_):
    request_.user = User.objects.create_user(username="anna", password="pw-unused-1")
    with pytest.raises(ValueError, match=ALREADY_SIGNED_UP):
        user_sign_up(request=request_, username="anna2", password="Papyrus-Scroll-42")


def test_sign_up_refuses_unknown_language(request_):
    with pytest.raises(ValueError, match=UNKNOWN_LANGUAGE):
        user_sign_up(
            request=request_, username="x1", password="Papyrus-Scroll-42", preferred_language="xx"
        )
    assert User.objects.count() == 0


def test_set_preferred_language():
    user = User.objects.create_user(username="anna", password="pw-unused-1")
    user_set_preferred_language(user=user, language="hy")
    user.refresh_from_db()
    assert user.preferred_language == "hy"
    with pytest.raises(ValueError, match=UNKNOWN_LANGUAGE):
        user_set_preferred_language(user=user, language="de")
