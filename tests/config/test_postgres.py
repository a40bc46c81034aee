"""Run only when DATABASE_URL points at PostgreSQL (deselected on SQLite, see conftest)."""

import pytest
from django.db import connection, transaction

from accounts.models import User

pytestmark = pytest.mark.postgres


@pytest.mark.django_db
def test_suite_really_runs_on_postgresql():
    assert connection.vendor == "postgresql"
    assert connection.pg_version >= 130000


@pytest.mark.django_db
def test_row_lock_is_taken():
    """Services lock the wallet and the round with select_for_update; PostgreSQL honours it."""
    user = User.objects.create_user(username="locker", password="irrelevant-pass-42")
    with transaction.atomic():
        locked = User.objects.select_for_update(nowait=True).get(pk=user.pk)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' "
                "AND pid = pg_backend_pid()"
            )
            (held,) = cursor.fetchone()
    assert locked.pk == user.pk
    assert held >= 1
