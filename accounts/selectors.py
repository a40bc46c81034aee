"""Reads of accounts: the signed-in user's row, and what the user's own data download says
about the account itself."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache

from accounts.models import User


def session_user_key(user_id: Any) -> str:
    return f"accounts:user:{user_id}"


def session_user(user_id: Any) -> User | None:
    """The user a session names, from the shared cache when it has the row (every change of the
    row drops it: ``accounts.signals``), else from the database, kept for the next request.

    Kept for ``ACCOUNTS_USER_CACHE_SECONDS`` at most, and not at all where that is 0 (a cache
    of each process's own memory, which another process's change would never reach)."""
    seconds = settings.ACCOUNTS_USER_CACHE_SECONDS
    if seconds:
        key = session_user_key(user_id)
        user = cache.get(key)
        if isinstance(user, User):
            return user
    try:
        user = User.objects.get(pk=user_id)
    except (User.DoesNotExist, ValueError, TypeError):
        return None
    if seconds:
        cache.set(key, user, seconds)
    return user


def profile_export(*, user: User) -> dict[str, Any]:
    """Everything the account row stores about its user, except the password hash (a secret
    even from its owner: it only helps someone who steals the file)."""
    return {
        "username": user.username,
        "display_name": user.display_name,
        "real_name": user.real_name,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "preferred_language": user.preferred_language,
        "role": user.role,
        "is_guest": user.is_guest,
        "is_staff": user.is_staff,
        "has_password": user.has_usable_password(),
        "date_joined": user.date_joined,
        "last_login": user.last_login,
    }
