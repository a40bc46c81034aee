"""Reads of accounts: what the user's own data download says about the account itself."""

from __future__ import annotations

from typing import Any

from accounts.models import User


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
