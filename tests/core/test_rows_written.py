"""Rows written by statements written out once (core.rows.insert_row, and core.rows'
update_statement sent by core.writes.Writes) are the rows the ORM's save() writes: every
field's value, type and default (auto_now_add, JSON)."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.rows import insert_row
from core.writes import Writes
from decisions.models import Decision
from game import services
from game.models import Wallet
from tests.classroom.conftest import user

pytestmark = pytest.mark.django_db


def _row(obj):
    fresh = type(obj)._base_manager.get(pk=obj.pk)
    return {f.attname: getattr(fresh, f.attname) for f in type(obj)._meta.concrete_fields}


def _decision(user, **changes):
    values = dict(
        user=user, source="drill", rules={"decks": 6, "soft": [1, 2]}, rules_key="k",
        hand=["10s", "6d"], dealer_up="10h", removed=[], category="hard", chart_kind="hard",
        chart_row=16, dealer_points=10, choice="stand", best="hit", chart_move="hit",
        ev={"hit": -0.53, "stand": -0.54}, ev_lost=0.01, correct=False, time_taken_ms=None,
    )  # fmt: skip
    values.update(changes)
    return Decision(**values)


def test_an_inserted_row_is_the_orms():
    learner = user("learner")
    written, saved = _decision(learner), _decision(learner)
    with CaptureQueriesContext(connection) as ctx:
        insert_row(written)
    assert len(ctx.captured_queries) == 1
    saved.save()
    assert written.pk is not None
    mine, orm = _row(written), _row(saved)
    assert mine.pop("id") != orm.pop("id")
    assert abs((mine.pop("created_at") - orm.pop("created_at")).total_seconds()) < 5
    assert mine == orm
    assert written.created_at is not None  # set on the object too, as save() sets it
    written.ev_lost = 0
    written.save()  # a later save() of it updates its row, as after the ORM's insert
    assert Decision.objects.filter(user=learner).count() == 2


def update_row(obj, names, **where):
    writes = Writes()
    writes.update(obj, names, **where)
    return writes.send()


def test_an_update_changes_the_named_fields_where_asked():
    learner = user("learner")
    wallet = services.wallet_get_or_create(user=learner)
    before = _row(wallet)
    wallet.balance = Decimal("123.45")
    wallet.created_at = None  # not named: not written
    assert update_row(wallet, ("balance",)) == 1
    after = _row(wallet)
    assert after["balance"] == Decimal("123.45")
    assert after["created_at"] == before["created_at"]
    decision = _decision(learner)
    insert_row(decision)
    decision.ev, decision.correct = {"hit": 0.5}, True
    assert update_row(decision, ("ev", "correct"), chart_row=99) == 0  # the condition holds back
    assert update_row(decision, ("ev", "correct"), chart_row=16) == 1
    assert (_row(decision)["ev"], _row(decision)["correct"]) == ({"hit": 0.5}, True)
    assert Wallet.objects.get(pk=wallet.pk).balance == Decimal("123.45")
