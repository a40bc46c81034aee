"""Writes on accounts: guests, sign-up, the saved language. Views stay thin and call these."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import translation

from accounts.backends import PATH as SIGN_IN_BACKEND
from accounts.models import Role, User
from accounts.signals import forget_user
from core.languages import is_supported

GUEST_USERNAME_PREFIX = "guest-"
ALREADY_SIGNED_UP = "This browser is already signed in to a full account."
USERNAME_TAKEN = "A user with that username already exists."


class SignUpRefused(ValueError):
    """``code``: "taken" (the name went to someone else meanwhile) or "already" (this
    browser's guest became a full account meanwhile, e.g. by a second click)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


UNKNOWN_LANGUAGE = "Unknown language code."


def _new_guest_username() -> str:
    while True:
        name = f"{GUEST_USERNAME_PREFIX}{secrets.token_hex(6)}"
        if not User.objects.filter(username=name).exists():
            return name


def _guest_new() -> User:
    language = translation.get_language()
    user = User(
        username=_new_guest_username(),
        is_guest=True,
        role=Role.LEARNER,
        preferred_language=language if language and is_supported(language) else "en",
    )
    user.set_unusable_password()
    user.save()
    return user


@contextmanager
def user_or_new_guest(*, request: HttpRequest) -> Iterator[User]:
    """The signed-in user; else a new guest that is kept, and logged in, only if the block
    finishes without an exception. A refused first bet thus leaves no user behind::

        with user_or_new_guest(request=request) as user:
            round_deal(user=user, ...)  # a PlayError rolls the guest back too
    """
    current = request.user
    if current.is_authenticated:
        assert isinstance(current, User)
        yield current
        return
    with transaction.atomic():
        user = _guest_new()
        yield user
    login(request, user, backend=SIGN_IN_BACKEND)


def user_get_or_create_guest(*, request: HttpRequest) -> User:
    """The signed-in user; else a new guest, logged in so that it is bound to this session.

    Called by the first action that needs an account (a bet, a drill answer), so a visitor
    can play before deciding to sign up.
    """
    current = request.user
    if current.is_authenticated:
        assert isinstance(current, User)
        return current
    user = _guest_new()
    login(request, user, backend=SIGN_IN_BACKEND)
    return user


def user_sign_up(
    *,
    request: HttpRequest,
    username: str,
    password: str,
    display_name: str = "",
    role: str = Role.LEARNER,
    preferred_language: str = "en",
) -> User:
    """Make the full account and log it in.

    A guest is turned into the account in place (same primary key), so everything that
    points at it — wallet, rounds, answers — now belongs to the full account.
    """
    if not is_supported(preferred_language):
        raise ValueError(UNKNOWN_LANGUAGE)
    current = request.user
    try:
        with transaction.atomic():
            if current.is_authenticated:
                user = User.objects.select_for_update().get(pk=current.pk)
                if not user.is_guest:
                    raise SignUpRefused(ALREADY_SIGNED_UP, "already")
            else:
                user = User()
            user.username = username
            user.display_name = display_name
            user.role = role
            user.preferred_language = preferred_language
            user.is_guest = False
            user.set_password(password)
            user.save()
    except IntegrityError:
        # Two sign-ups with one name at once: the form's check passed for both.
        raise SignUpRefused(USERNAME_TAKEN, "taken") from None
    # Logging in again keeps the session's data for the same user and rotates its key.
    login(request, user, backend=SIGN_IN_BACKEND)
    return user


def user_set_preferred_language(*, user: User, language: str) -> None:
    if not is_supported(language):
        raise ValueError(UNKNOWN_LANGUAGE)
    User.objects.filter(pk=user.pk).update(preferred_language=language)
    forget_user(user.pk)
    user.preferred_language = language


GUEST_CANNOT_TEACH = "A guest signs up before becoming a teacher."


def user_become_teacher(*, user: User) -> None:
    """A learner becomes a teacher too: a teacher still drills and plays like a learner."""
    if user.is_guest:
        raise ValueError(GUEST_CANNOT_TEACH)
    User.objects.filter(pk=user.pk).update(role=Role.TEACHER)
    forget_user(user.pk)
    user.role = Role.TEACHER


def user_update_names(*, user: User, display_name: str, real_name: str) -> None:
    User.objects.filter(pk=user.pk).update(display_name=display_name, real_name=real_name)
    forget_user(user.pk)
    user.display_name, user.real_name = display_name, real_name


def user_delete(*, user: User) -> None:
    """Delete the account row itself, and the log-in records kept under its name.

    Called last by the account deletion (``privacy.services``), inside its transaction, once
    every app has removed or handed on its own rows; whatever still points at the user
    (admin log entries, permissions) goes with it by the foreign keys' own rules.  The
    django-axes rows (failed and successful log-ins: addresses, browsers) are keyed by the
    username, not the row, so they would outlive it and greet the name's next owner.
    """
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    name = user.get_username()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=name).delete()
    User.objects.filter(pk=user.pk).delete()
