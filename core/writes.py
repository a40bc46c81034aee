"""Writes sent to the database together: one round trip for the end of a move, not six.

A move ends with up to six writes (its decision, the decision's Leitner box, the seat's shoe,
the round, the ledger and the wallet) whose results nobody reads.  Sent one by one, each waits
for its answer: on PostgreSQL under load, the sync workers waited on those round trips for a
third of every move (issue 17).  :class:`Writes` collects them and sends them at once:

* on PostgreSQL as one statement, each write but the last in a ``WITH`` (a data-modifying
  common table expression), which PostgreSQL runs to completion whether or not anything reads
  it;
* elsewhere (SQLite, in-process: no round trips) one after another, in the order added.

What that asks of the writes: they change different rows, and none reads what another wrote
(PostgreSQL runs them on one snapshot, in no set order).  Each is one written-out statement
(:mod:`core.rows`), so no model signal is sent: a model with save signals is saved by the ORM
at once instead.  An error in any of them rolls back the caller's transaction like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, models, router

from core.rows import has_save_signals, insert_statement, update_statement

# The joined statements, made once per list of statements.
_JOINED: dict[tuple[str, ...], str] = {}


def _joined(statements: tuple[str, ...]) -> str:
    sql = _JOINED.get(statements)
    if sql is None:
        *before, last = statements
        ctes = ", ".join(f"w{i} AS ({s})" for i, s in enumerate(before))
        sql = _JOINED[statements] = f"WITH {ctes} {last}"
    return sql


class Writes:
    """Writes of one transaction, sent by :meth:`send`; see the module's docstring."""

    def __init__(self, using: str = "default") -> None:
        self.connection = connections[using]
        self._sql: list[str] = []
        self._params: list[list[Any]] = []

    def add(self, sql: str, params: Sequence[Any]) -> None:
        """A written-out INSERT, UPDATE or DELETE with its parameters (``%s`` placeholders)."""
        self._sql.append(sql)
        self._params.append(list(params))

    def insert(self, *objs: models.Model) -> None:
        """New rows of one model; their ids are not read back (they stay ``None``, unless
        they were set: taken from the table's sequence beforehand)."""
        if not objs:
            return
        model = type(objs[0])
        assert router.db_for_write(model) == self.connection.alias
        if has_save_signals(model):  # the ORM sends them: saved now, not with the rest
            for obj in objs:
                obj.save(force_insert=True)
            return
        self.add(*insert_statement(objs, self.connection))

    def update(self, obj: models.Model, names: Sequence[str], **where: Any) -> None:
        """The ``names`` fields of ``obj``'s row, where its pk and ``where`` match."""
        assert router.db_for_write(type(obj)) == self.connection.alias
        self.add(*update_statement(obj, names, self.connection, **where))

    def send(self) -> int:
        """Send every write added; returns how many rows the last one changed (on PostgreSQL,
        the statement's own count is its last part's)."""
        statements, params = tuple(self._sql), self._params
        self._sql, self._params = [], []
        changed = 0
        if statements:
            with self.connection.cursor() as cursor:
                if self.connection.vendor == "postgresql" and len(statements) > 1:
                    cursor.execute(_joined(statements), [p for each in params for p in each])
                    changed = cursor.rowcount
                else:
                    for sql, each in zip(statements, params, strict=True):
                        cursor.execute(sql, each)
                        changed = cursor.rowcount
        return changed
