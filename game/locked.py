"""The rows a deal or a move locks, read by statements written out once (``core.rows.Columns``).

Each is the ORM query it replaces, column for column, converted as the ORM converts them
(tests/game/test_locked.py holds them to it); what they save is the ORM compiling the same
query on every move (issue 17). Without ``SELECT ... FOR UPDATE`` (SQLite) the statements take
no row locks, as Django's ``select_for_update`` takes none there: SQLite has one writer.
"""

from __future__ import annotations

from functools import cache

from django.db import connection, connections

from core.rows import Columns
from game.models import Round, Seat, Table, Wallet

_ROUND = Columns(Round, "r")
_SEAT = Columns(Seat, "s", leave_out=frozenset({"shoe"}))  # written back, never read, by a move
_TABLE = Columns(Table, "t")
_WALLET = Columns(Wallet, "w")


def _table(alias: str, model: type[Round | Seat | Table | Wallet]) -> str:
    return connections[alias].ops.quote_name(model._meta.db_table)


def _lock(alias: str, of: str) -> str:
    features = connections[alias].features
    if not features.has_select_for_update:
        return ""
    return f" FOR UPDATE OF {of}" if features.has_select_for_update_of else " FOR UPDATE"


# The statements, written once per database.
@cache
def _round_sql(alias: str) -> str:
    db = connections[alias]
    return (
        f"SELECT {_ROUND.sql(db)}, {_SEAT.sql(db)}, {_TABLE.sql(db)}"
        f" FROM {_table(alias, Round)} r JOIN {_table(alias, Seat)} s ON s.id = r.seat_id"
        f" JOIN {_table(alias, Table)} t ON t.id = s.table_id"
        f" WHERE r.id = %s AND r.user_id = %s{_lock(alias, 'r, s')}"
    )


@cache
def _wallet_sql(alias: str) -> str:
    db = connections[alias]
    return (
        f"SELECT {_WALLET.sql(db)} FROM {_table(alias, Wallet)} w"
        f" WHERE w.user_id = %s{_lock(alias, 'w')}"
    )


def round_for_move(*, round_id: int, user_id: int) -> Round:
    """The user's round with its seat (its shoe deferred) and table; the round's and the seat's
    rows locked. ``Round.DoesNotExist`` for a round that is not the user's."""
    low, high = connection.ops.integer_field_range(Round._meta.pk.get_internal_type())
    if not low <= round_id <= high:  # an address no id can have: the ORM finds nothing too
        raise Round.DoesNotExist
    with connection.cursor() as cursor:
        cursor.execute(_round_sql(connection.alias), [round_id, user_id])
        row = cursor.fetchone()
    if row is None:
        raise Round.DoesNotExist
    r, s = len(_ROUND.fields), len(_ROUND.fields) + len(_SEAT.fields)
    rnd = _ROUND.build(connection, row[:r])
    seat = _SEAT.build(connection, row[r:s])
    seat.table = _TABLE.build(connection, row[s:])
    rnd.seat = seat
    return rnd


def wallet_for_update(*, user_id: int) -> Wallet | None:
    """The user's wallet, its row locked; ``None`` before it is opened."""
    with connection.cursor() as cursor:
        cursor.execute(_wallet_sql(connection.alias), [user_id])
        row = cursor.fetchone()
    return None if row is None else _WALLET.build(connection, row)
