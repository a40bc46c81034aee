"""Writes sent together (core.writes.Writes) write what the ORM writes, one statement on
PostgreSQL, and all or nothing."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from core.writes import Writes
from decisions.models import Decision
from game import services
from game.models import LedgerEntry, Wallet
from tests.classroom.conftest import user
from tests.core.test_rows_written import _decision, _row

pytestmark = pytest.mark.django_db


def _entry(wallet, amount):
    return LedgerEntry(
        wallet=wallet,
        kind=LedgerEntry.Kind.TOP_UP,
        amount=Decimal(amount),
        balance_after=wallet.balance,
    )


def test_the_rows_are_the_orms_and_the_count_is_the_last_writes():
    learner = user("learner")
    wallet = services.wallet_get_or_create(user=learner)
    mine, orm = _decision(learner), _decision(learner)
    entries = [_entry(wallet, "5.00"), _entry(wallet, "7.00")]
    wallet.balance = Decimal("1012.00")
    writes = Writes()
    writes.insert(mine)
    writes.insert(*entries)
    writes.update(wallet, ("balance",))
    writes.update(mine, ("ev",), chart_row=99)  # held back by its condition: 0 rows
    with CaptureQueriesContext(connection) as ctx:
        assert writes.send() == 0
    assert len(ctx.captured_queries) == (1 if connection.vendor == "postgresql" else 4)
    assert mine.pk is None  # written, its id not read back
    orm.save()
    written = Decision.objects.exclude(pk=orm.pk).get()
    theirs, ours = _row(orm), _row(written)
    for name in ("id", "created_at"):
        theirs.pop(name), ours.pop(name)
    assert ours == theirs and written.created_at is not None
    assert sorted(e.amount for e in wallet.entries.exclude(kind="opening")) == [5, 7]
    assert all(e.created_at is not None for e in wallet.entries.all())
    assert Wallet.objects.get(pk=wallet.pk).balance == Decimal("1012.00")
    writes.update(wallet, ("balance",))
    assert writes.send() == 1  # the list starts again after each send
    assert Writes().send() == 0  # nothing to send: no statement
    assert _row(wallet)["balance"] == Decimal("1012.00")


def test_one_write_refused_writes_none_of_them():
    learner = user("learner")
    wallet = services.wallet_get_or_create(user=learner)
    writes = Writes()
    writes.insert(_entry(wallet, "5.00"))
    wallet.balance = Decimal("-1.00")  # the wallet's check constraint refuses it
    writes.update(wallet, ("balance",))
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.send()
    assert wallet.entries.count() == 1  # the opening entry only
    assert Wallet.objects.get(pk=wallet.pk).balance == Decimal("1000.00")


def test_a_model_with_save_signals_is_saved_at_once_by_the_orm():
    writes = Writes()
    someone = User(username="ptah")
    someone.set_password("x")
    writes.insert(someone)  # accounts.signals listens to the user's saves
    assert someone.pk is not None and User.objects.filter(username="ptah").exists()
    assert writes.send() == 0
