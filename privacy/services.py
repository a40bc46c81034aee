"""Deleting an account: every app removes (or hands on) its own rows, in one transaction.

The apps sit below this one (import-linter's layers), each owning one kind of row, so each
offers its own delete and this module only calls them in an order that keeps the foreign
keys and the row locks happy: play mode first (it locks seat, then wallet, as a deal and a
move do, so a move in flight finishes before the rows go), then the drill questions (they
point at decisions), the decisions and weak spots, the classes (handed on or archived) and the
memberships, and last the account row.  Either all of it happens or none.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.db import IntegrityError, OperationalError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import user_delete
from classroom.services import ClassHandover, classes_handover_plan, classes_release
from decisions.selectors import decisions_count
from decisions.services import decisions_delete
from game.selectors import rounds_count
from game.services import player_data_delete
from trainer.services import situations_delete

CONFIRM_SALT = "privacy.account-delete"
# How long the confirmation page may stay open before the password is asked again.
CONFIRM_MAX_AGE = 10 * 60
# A write that raced the deletion (a drill answer stored between our read of the rows and the
# delete of the account) breaks a foreign key at commit, or a lock cycle the database breaks by
# aborting us: the whole deletion is tried again.
ATTEMPTS = 3
# PostgreSQL's deadlock_detected and serialization_failure.
RETRY_SQLSTATES = frozenset({"40P01", "40001"})

STAFF_REFUSED = _("A staff account is deleted by an administrator, not from the account page.")


class DeletionRefused(ValueError):
    pass


class DeletionConflict(RuntimeError):
    """Every attempt met a write of the same user's (or a deadlock); nothing was deleted."""


@dataclass(frozen=True)
class DeletionPreview:
    """What the confirmation page says will happen."""

    rounds: int
    decisions: int
    classes: list[ClassHandover]


@dataclass(frozen=True)
class DeletionDone:
    rows: dict[str, int]
    classes: list[ClassHandover]


def deletion_preview(*, user: User) -> DeletionPreview:
    return DeletionPreview(
        rounds=rounds_count(user=user),
        decisions=decisions_count(user=user),
        classes=classes_handover_plan(user=user),
    )


def confirmation_token(*, user: User) -> str:
    """A signed ticket for the confirmation step: this user, with this password, within
    :data:`CONFIRM_MAX_AGE`.  The password enters through the session hash, so a ticket is
    worthless once the password changes."""
    return signing.dumps(
        {"user": user.pk, "hash": user.get_session_auth_hash()}, salt=CONFIRM_SALT, compress=True
    )


def confirmation_valid(*, user: User, token: str) -> bool:
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=CONFIRM_MAX_AGE)
    except signing.BadSignature:  # also SignatureExpired
        return False
    return (
        isinstance(data, dict)
        and data.get("user") == user.pk
        and data.get("hash") == user.get_session_auth_hash()
    )


def _delete_once(user: User) -> DeletionDone:
    with transaction.atomic():
        rows = player_data_delete(user=user)
        rows["drill_questions"] = situations_delete(user=user)
        rows.update(decisions_delete(user=user))
        classes = classes_release(user=user)
        user_delete(user=user)
    return DeletionDone(rows=rows, classes=classes)


def account_delete(*, user: User) -> DeletionDone:
    """Delete the user and everything of theirs; hand their classes on (see
    :func:`classroom.services.classes_release`).  A guest is deleted the same way: for a
    guest that is "forget me", since nothing but the session knows the guest."""
    if user.is_staff or user.is_superuser:
        raise DeletionRefused(STAFF_REFUSED)
    for attempt in range(ATTEMPTS):
        try:
            return _delete_once(user)
        except (IntegrityError, OperationalError) as exc:
            if not _worth_retrying(exc):
                raise  # the database is away, say: the outage page's business
            if attempt == ATTEMPTS - 1:
                raise DeletionConflict from exc
    raise AssertionError("unreachable")


def _worth_retrying(exc: Exception) -> bool:
    """A broken foreign key (a row written meanwhile) or a deadlock the database broke by
    aborting us: the transaction rolled back whole, so trying again is safe."""
    if isinstance(exc, IntegrityError):
        return True
    return getattr(exc.__cause__, "sqlstate", None) in RETRY_SQLSTATES
