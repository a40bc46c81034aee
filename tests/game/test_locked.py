"""The rows a deal or a move locks, read by written-out statements (game/locked.py), are the
ORM's."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from game import locked, services
from game.models import Round, Seat, Wallet
from tests.game.test_views import deal_rigged

pytestmark = pytest.mark.django_db


def _fields(obj, *, leave_out=()):
    return {
        f.attname: getattr(obj, f.attname)
        for f in type(obj)._meta.concrete_fields
        if f.name not in leave_out
    }


def test_the_locked_round_is_the_orms_round_seat_and_table(learner, tables, rig):
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 7c")
    with transaction.atomic():
        mine, wallet = locked.round_for_move(round_id=rnd.pk, user_id=learner.pk)
    orm = Round.objects.select_related("seat__table").get(pk=rnd.pk)
    assert _fields(wallet) == _fields(Wallet.objects.get(user=learner))
    assert _fields(mine) == _fields(orm)
    assert _fields(mine.seat, leave_out=("shoe",)) == _fields(orm.seat, leave_out=("shoe",))
    assert _fields(mine.seat.table) == _fields(orm.seat.table)
    # The types the engine and the templates use, as the ORM gives them.
    assert type(mine.state) is dict and type(mine.staked) is type(orm.staked)
    assert mine.created_at == orm.created_at and mine.created_at.tzinfo is not None
    assert "shoe" in mine.seat.get_deferred_fields()
    assert mine.seat.shoe == Seat.objects.get(pk=rnd.seat_id).shoe  # fetched when asked
    assert not mine._state.adding and mine._state.db == "default"


def test_another_users_round_is_not_found(learner, other, tables, rig):
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 7c")
    with transaction.atomic(), pytest.raises(Round.DoesNotExist):
        locked.round_for_move(round_id=rnd.pk, user_id=other.pk)
    for missing in (rnd.pk + 1000, 10**21, -(10**21)):  # the last two fit no id column
        with transaction.atomic(), pytest.raises(Round.DoesNotExist):
            locked.round_for_move(round_id=missing, user_id=learner.pk)


def test_the_deals_seat_and_wallet_are_the_orms(learner, tables, rig):
    table = tables["scribes"]
    with transaction.atomic():
        assert locked.seat_for_deal(user_id=learner.pk, table=table) is None  # none yet
    rnd = deal_rigged(learner, tables, rig, boxes=["10s 6d"], dealer="10h 7c")
    with transaction.atomic():
        found = locked.seat_for_deal(user_id=learner.pk, table=table)
    assert found is not None
    seat = found.seat
    assert _fields(seat) == _fields(Seat.objects.get(pk=rnd.seat_id))  # the shoe too
    assert seat.table is table and not seat.get_deferred_fields()
    assert _fields(found.wallet) == _fields(Wallet.objects.get(user=learner))
    assert found.in_play
    if connection.vendor == "postgresql":  # the next round's id, from the table's sequence
        assert isinstance(found.round_id, int) and found.round_id > rnd.pk
    else:  # read back from the round's INSERT
        assert found.round_id is None
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.SETTLED)
    with transaction.atomic():
        found = locked.seat_for_deal(user_id=learner.pk, table=table)
    assert found is not None and found.in_play is False
    with transaction.atomic():  # another table's seat is not this one
        assert locked.seat_for_deal(user_id=learner.pk, table=tables["pharaohs"]) is None


def test_the_locked_wallet_is_the_orms(learner):
    with transaction.atomic():
        assert locked.wallet_for_update(user_id=learner.pk) is None
    services.wallet_get_or_create(user=learner)
    with transaction.atomic():
        mine = locked.wallet_for_update(user_id=learner.pk)
    assert mine is not None and _fields(mine) == _fields(Wallet.objects.get(user=learner))


def test_a_move_to_a_round_no_id_can_be_is_not_found(client, learner, tables):
    client.force_login(learner)
    response = client.post(
        "/en/play/round/999999999999999999999/move/", {"move": "hit", "seq": "0"}
    )
    assert response.status_code == 404


@pytest.mark.postgres
@pytest.mark.parametrize("statement", ["seat", "round", "wallet"])
def test_the_locked_reads_plans_use_indexes_as_prepared_statements(statement):
    """psycopg prepares a statement run a fifth time on a connection, and PostgreSQL may then
    keep one generic plan for it, made without the parameters' values.  Such a plan could not
    use the partial index of the seat's round in play while the status was a parameter: every
    deal scanned the seat's rounds (or the whole table), 3 ms at 4,000 rounds (issue 17)."""
    sql = {"seat": locked._seat_sql, "round": locked._round_sql, "wallet": locked._wallet_sql}
    text = sql[statement](connection.alias)
    n = text.count("%s")
    numbered = text.replace("%s", "{}").format(*(f"${i + 1}" for i in range(n)))
    with transaction.atomic(), connection.cursor() as cursor:
        # Small test tables are scanned whole when that is cheapest; with scans off, the plan
        # shows which indexes the statement can use at all.
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"PREPARE locked_read AS {numbered}")
        cursor.execute(f"EXPLAIN EXECUTE locked_read({', '.join(['1'] * n)})")
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("DEALLOCATE locked_read")
    assert "Seq Scan" not in plan, plan
    if statement == "seat":
        assert "one_round_in_play_per_seat" in plan, plan
