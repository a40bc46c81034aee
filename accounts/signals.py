"""A user's row changed or went: the copy ``accounts.selectors.session_user`` keeps goes too.

Dropped at once and again after the commit: a request that read the row before the commit
could otherwise put the old row back for the cache's lifetime (a name, a password hash that
ends other sessions, an account switched off)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from accounts.models import User
from accounts.selectors import session_user_key


def forget_user(pk: Any) -> None:
    key = session_user_key(pk)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def _changed(sender: type[User], instance: User, **kwargs: Any) -> None:
    forget_user(instance.pk)


def connect() -> None:
    post_save.connect(_changed, sender=User, dispatch_uid="accounts.forget_user.save")
    post_delete.connect(_changed, sender=User, dispatch_uid="accounts.forget_user.delete")
