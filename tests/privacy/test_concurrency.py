"""Deletions racing each other and the user's own moves (PostgreSQL: real row locks)."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.models import User
from classroom import services as class_services
from classroom.models import Classroom
from decisions.models import Decision
from game import services as game_services
from game.models import LedgerEntry, Round, Wallet
from privacy import services
from tests.classroom.conftest import user as make_user
from tests.game.test_concurrency import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_teachers_of_one_class_leave_at_once(db):
    assert connection.vendor == "postgresql"
    owner = make_user("owner", teacher=True)
    co = make_user("co", teacher=True)
    student = make_user("student")
    klass = class_services.class_create(owner=owner, name="Year 9")
    class_services.co_teacher_add(classroom=klass, username="co")
    class_services.class_join(user=student, classroom=klass)
    results = run_together(
        [lambda: services.account_delete(user=owner), lambda: services.account_delete(user=co)]
    )
    assert all(isinstance(r, services.DeletionDone) for r in results), results
    assert not User.objects.filter(pk__in=[owner.pk, co.pk]).exists()
    klass = Classroom.objects.get(pk=klass.pk)
    # Whoever went first, the class ends with nobody to hand it to: archived, kept.
    assert klass.owner is None and klass.archived_at is not None
    assert not klass.co_teachers.exists() and klass.memberships.count() == 1


def test_a_deletion_during_moves_leaves_nothing_behind(learner, other, tables, rig):
    rig(learner, tables["scribes"], boxes=["5s 6d"], dealer="10h 7c", rest="2d 2c 3c 4d")
    rnd = game_services.round_deal(user=learner, table=tables["scribes"], bets={0: 100})
    rig(other, tables["scribes"], boxes=["5s 6d"], dealer="10h 7c", rest="2d")
    game_services.round_deal(user=other, table=tables["scribes"], bets={0: 100})
    theirs = (
        Round.objects.filter(user=other).count(),
        LedgerEntry.objects.filter(wallet__user=other).count(),
    )

    def move(m: str, seq: int):
        return lambda: game_services.round_apply_move(
            round_id=rnd.pk, user=learner, move=m, seq=seq
        )

    results = run_together(
        [move("hit", 0), lambda: services.account_delete(user=learner), move("hit", 0)]
    )
    assert isinstance(results[1], services.DeletionDone), results
    assert not User.objects.filter(pk=learner.pk).exists()
    assert not Round.objects.filter(user_id=learner.pk).exists()
    assert not Wallet.objects.filter(user_id=learner.pk).exists()
    assert not Decision.objects.filter(user_id=learner.pk).exists()
    assert (
        Round.objects.filter(user=other).count(),
        LedgerEntry.objects.filter(wallet__user=other).count(),
    ) == theirs
