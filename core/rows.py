"""Deleting many rows in one statement when nothing points at them; reading a few on the
hottest paths through a statement written out once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import signals


def delete_rows(rows: models.QuerySet[Any]) -> int:
    """Delete ``rows``; return how many went.

    Django's ``QuerySet.delete()`` deletes in one statement only when no foreign key of any
    other model points at the rows' model (on_delete other than ``DO_NOTHING``); otherwise it
    fetches the ids and deletes 100 at a time, so a user's 50,000 decisions would be 500
    statements.  Here, when the pointing rows that do exist are none (the account deletion
    removes them first, each app its own), the rows go in one statement; if any exist, or the
    model has delete signals or many-to-many fields, Django's own collector does it all as
    usual.  The database's foreign keys still check the result at commit.
    """
    model = rows.model
    meta = model._meta
    if meta.many_to_many or any(
        signal.has_listeners(model)
        for signal in (signals.pre_delete, signals.post_delete, signals.m2m_changed)
    ):
        return rows.delete()[0]
    for rel in meta.related_objects:
        if rel.many_to_many:
            return rows.delete()[0]
        if rel.on_delete is models.DO_NOTHING:
            continue
        pointing = rel.related_model._base_manager.filter(**{f"{rel.field.name}__in": rows})
        if pointing.exists():
            return rows.delete()[0]
    # Django's own one-statement delete (the collector's fast path), without the collector.
    deleted: int = rows._raw_delete(rows.db)
    return deleted


M = TypeVar("M", bound=models.Model)


class Columns(Generic[M]):
    """A model's columns in a SELECT written out once, read back into instances as the ORM would.

    For the few reads on the hottest paths (a move's locked round, a wallet): compiling the
    same ORM query on every request cost more CPU than the database's whole answer (0.6 ms of
    a locked round's 0.73 ms, issue 17). Each value goes through the converters Django's
    compiler applies (the backend's, then the field's: JSON, decimals, times on SQLite), and
    the instance is made by ``Model.from_db``, as a queryset makes it; the columns left out are
    deferred.
    """

    def __init__(
        self, model: type[M], alias: str, *, leave_out: frozenset[str] = frozenset()
    ) -> None:
        self.model = model
        self.alias = alias
        self.fields = [f for f in model._meta.concrete_fields if f.name not in leave_out]
        self.attnames = [f.attname for f in self.fields]
        self._converters: dict[str, list[tuple[Any, list[Any]]]] = {}

    def sql(self, connection: BaseDatabaseWrapper) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(str(f.column))}" for f in self.fields)

    def build(self, connection: BaseDatabaseWrapper, values: Sequence[Any]) -> M:
        """The instance of this model's part of a row (``values``, in :meth:`sql`'s order)."""
        converters = self._converters.get(connection.alias)
        if converters is None:
            converters = self._converters[connection.alias] = [
                (col, connection.ops.get_db_converters(col) + col.get_db_converters(connection))
                for col in (f.get_col(self.alias) for f in self.fields)
            ]
        out = []
        for value, (col, convert) in zip(values, converters, strict=True):
            for converter in convert:
                value = converter(value, col, connection)
            out.append(value)
        return self.model.from_db(connection.alias, self.attnames, out)
