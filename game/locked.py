"""The rows a deal or a move locks, each set read by one statement written out once
(``core.rows.Columns``).

Each is the ORM queries it replaces, column for column, converted as the ORM converts them
(tests/game/test_locked.py holds them to it); what they save is the ORM compiling the same
queries on every move, and a round trip for each kind of row after the first (issue 17).
Without ``SELECT ... FOR UPDATE`` (SQLite) the statements take no row locks, as Django's
``select_for_update`` takes none there: SQLite has one writer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.db import connection, connections

from core.rows import Columns, id_fits
from game.models import Round, Seat, Table, Wallet

_ROUND = Columns(Round, "r")
_SEAT = Columns(Seat, "s", leave_out=frozenset({"shoe"}))  # written back, never read, by a move
_SEAT_WHOLE = Columns(Seat, "s")  # a deal deals from the shoe
_TABLE = Columns(Table, "t")
_WALLET = Columns(Wallet, "w")


def _table(alias: str, model: type[Round | Seat | Table | Wallet]) -> str:
    return connections[alias].ops.quote_name(model._meta.db_table)


def _lock(alias: str, of: str) -> str:
    features = connections[alias].features
    if not features.has_select_for_update:
        return ""
    return f" FOR UPDATE OF {of}" if features.has_select_for_update_of else " FOR UPDATE"


# The statements, written once per database.  Rows are locked in the order the OF list names
# them (PostgreSQL takes a row's marks in that order), so the order is the services' own:
# round, seat, wallet.
@cache
def _round_sql(alias: str) -> str:
    db = connections[alias]
    return (
        f"SELECT {_ROUND.sql(db)}, {_SEAT.sql(db)}, {_TABLE.sql(db)}, {_WALLET.sql(db)}"
        f" FROM {_table(alias, Round)} r JOIN {_table(alias, Seat)} s ON s.id = r.seat_id"
        f" JOIN {_table(alias, Table)} t ON t.id = s.table_id"
        f" JOIN {_table(alias, Wallet)} w ON w.user_id = r.user_id"
        f" WHERE r.id = %s AND r.user_id = %s{_lock(alias, 'r, s, w')}"
    )


@cache
def _seat_sql(alias: str) -> str:
    db = connections[alias]
    rounds = _table(alias, Round)
    # The status is written into the statement, not passed: a prepared statement's generic
    # plan cannot use the partial index ``one_round_in_play_per_seat`` for a parameter (it
    # scanned the rounds instead, 3.5 ms of PostgreSQL's time a deal at 4,000 rounds).
    assert Round.Status.PLAYING.value.isalpha()
    playing = (
        f"EXISTS (SELECT 1 FROM {rounds} p WHERE p.seat_id = s.id"
        f" AND p.status = '{Round.Status.PLAYING.value}')"
    )
    # PostgreSQL: the next round's id too, so that the round is written with the rest of the
    # deal's writes (core.writes) instead of alone to read its id back.  A deal refused burns
    # an id: ids have gaps anyway (a rolled-back insert burns one too).
    next_id = (
        f"nextval(pg_get_serial_sequence('{Round._meta.db_table}', 'id'))"
        if db.vendor == "postgresql"
        else "NULL"
    )
    return (
        f"SELECT {_SEAT_WHOLE.sql(db)}, {_WALLET.sql(db)}, {playing}, {next_id}"
        f" FROM {_table(alias, Seat)} s JOIN {_table(alias, Wallet)} w ON w.user_id = s.user_id"
        f" WHERE s.user_id = %s AND s.table_id = %s{_lock(alias, 's, w')}"
    )


@cache
def _wallet_sql(alias: str) -> str:
    db = connections[alias]
    return (
        f"SELECT {_WALLET.sql(db)} FROM {_table(alias, Wallet)} w"
        f" WHERE w.user_id = %s{_lock(alias, 'w')}"
    )


def round_for_move(*, round_id: int, user_id: int) -> tuple[Round, Wallet]:
    """The user's round with its seat (its shoe deferred) and table, and the user's wallet;
    the round's, the seat's and the wallet's rows locked.  ``Round.DoesNotExist`` for a round
    that is not the user's (a round's user always has a wallet: the deal opened it)."""
    if not id_fits(connection, Round, round_id):
        raise Round.DoesNotExist
    with connection.cursor() as cursor:
        cursor.execute(_round_sql(connection.alias), [round_id, user_id])
        row = cursor.fetchone()
    if row is None:
        raise Round.DoesNotExist
    r = len(_ROUND.fields)
    s = r + len(_SEAT.fields)
    w = s + len(_TABLE.fields)
    rnd = _ROUND.build(connection, row[:r])
    seat = _SEAT.build(connection, row[r:s])
    seat.table = _TABLE.build(connection, row[s:w])
    rnd.seat = seat
    return rnd, _WALLET.build(connection, row[w:])


@dataclass(frozen=True, slots=True)
class DealRows:
    seat: Seat
    wallet: Wallet
    in_play: bool  # a round is in play at the seat
    round_id: int | None  # the id the deal's round takes (PostgreSQL), else None: read back


def seat_for_deal(*, user_id: int, table: Table) -> DealRows | None:
    """The user's seat at ``table`` and the user's wallet, both rows locked, whether a round
    is in play at the seat, and (PostgreSQL) the next round's id; ``None`` until both exist.

    Read in one statement, so "in play" is what the database held when the statement began:
    a deal that waited for another's lock on the seat does not see the round that one made.
    The seat's one round in play is the database's constraint (``one_round_in_play_per_seat``);
    the deal refuses the same way when that stops it (``game.services.round_deal_result``).
    """
    with connection.cursor() as cursor:
        cursor.execute(_seat_sql(connection.alias), [user_id, table.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    s = len(_SEAT_WHOLE.fields)
    seat = _SEAT_WHOLE.build(connection, row[:s])
    seat.table = table
    return DealRows(seat, _WALLET.build(connection, row[s:-2]), bool(row[-2]), row[-1])


def wallet_for_update(*, user_id: int) -> Wallet | None:
    """The user's wallet, its row locked; ``None`` before it is opened."""
    with connection.cursor() as cursor:
        cursor.execute(_wallet_sql(connection.alias), [user_id])
        row = cursor.fetchone()
    return None if row is None else _WALLET.build(connection, row)
