"""Deleting many rows in one statement when nothing points at them; reading and writing a
few on the hottest paths through statements written out once instead of compiled each time
(sent together by :mod:`core.writes`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import signals


def delete_statement(
    model: type[models.Model], connection: BaseDatabaseWrapper, where: dict[str, Any]
) -> tuple[str, list[Any]]:
    """``DELETE FROM`` the model's table where each column named (by its attname, as
    ``user_id``) equals its value, or with ``__in`` is one of its values."""
    meta = model._meta
    quote = connection.ops.quote_name
    conditions, params = [], []
    for name, value in where.items():
        attname, _, lookup = name.partition("__")
        column = quote(str(_field(meta, attname).column))  # a name or an attname
        if lookup == "in":
            values = list(value)
            conditions.append(
                f"{column} IN ({', '.join(['%s'] * len(values))})" if values else "1 = 0"
            )
            params += values
        else:
            assert not lookup, name
            conditions.append(f"{column} = %s")
            params.append(value)
    return f"DELETE FROM {quote(meta.db_table)} WHERE {' AND '.join(conditions)}", params


def delete_rows(model: type[models.Model], **where: Any) -> int:
    """Delete ``model``'s rows where each of ``where``'s columns (``user_id=…``,
    ``wallet_id__in=[…]``) matches; return how many went.

    Django's ``QuerySet.delete()`` deletes in one statement only when no foreign key of any
    other model points at the rows' model (on_delete other than ``DO_NOTHING``); otherwise it
    fetches the ids and deletes 100 at a time, so a user's 50,000 decisions would be 500
    statements.  Here, when the pointing rows that do exist are none (the account deletion
    removes them first, each app its own), the rows go in one statement of our own; if any
    exist, or the model has delete signals or many-to-many fields, Django's own
    ``QuerySet.delete()`` does it all as usual.  The database's foreign keys still check the
    result at commit.
    """
    # The documented managers for code that handles any model ("Default managers", Django's
    # managers topic): the base manager sees every row, whatever a model's default filters.
    rows = model._base_manager.filter(**where)
    meta = model._meta
    if meta.many_to_many or any(
        signal.has_listeners(model)
        for signal in (signals.pre_delete, signals.post_delete, signals.m2m_changed)
    ):
        return int(rows.delete()[0])
    for rel in meta.related_objects:
        if rel.many_to_many:
            return int(rows.delete()[0])
        if rel.on_delete is models.DO_NOTHING:
            continue
        pointing = rel.related_model._base_manager.filter(**{f"{rel.field.name}__in": rows})
        if pointing.exists():
            return int(rows.delete()[0])
    connection = connections[router.db_for_write(model)]
    with connection.cursor() as cursor:
        cursor.execute(*delete_statement(model, connection, where))
        return int(cursor.rowcount)


M = TypeVar("M", bound=models.Model)


def id_fits(connection: BaseDatabaseWrapper, model: type[models.Model], pk: int) -> bool:
    """``pk`` can be an id of ``model`` on ``connection``: a written-out read is given only such
    ids (an address beyond the column's range finds nothing through the ORM; passed to the
    database, it overflows SQLite's integers and makes PostgreSQL refuse the statement)."""
    low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
    return bool(low <= pk <= high)


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


# Written-out statements, made once per model, columns and database.
_STATEMENTS: dict[tuple[Any, ...], str] = {}


def _field(meta: Any, name: str) -> models.Field[Any, Any]:
    field = meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def has_save_signals(model: type[models.Model]) -> bool:
    return any(signal.has_listeners(model) for signal in (signals.pre_save, signals.post_save))


def insert_statement(
    objs: Sequence[models.Model], connection: BaseDatabaseWrapper, *, returning: bool = False
) -> tuple[str, list[Any]]:
    """The INSERT of the new rows ``objs`` (one model), with the values ``save()`` writes:
    each field's ``pre_save``, then its ``get_db_prep_save`` (``auto_now_add`` and JSON
    included); ``returning`` reads the new ids back.  Rows whose ids are set already (taken
    from the table's sequence) are inserted with them."""
    model = type(objs[0])
    meta = model._meta
    with_ids = objs[0].pk is not None
    assert all((obj.pk is not None) is with_ids for obj in objs)
    fields = [f for f in meta.concrete_fields if with_ids or not f.primary_key]
    key = ("insert", model, len(objs), returning, with_ids, connection.alias)
    sql = _STATEMENTS.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        columns = ", ".join(quote(str(f.column)) for f in fields)
        values = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * len(objs))
        back = f" RETURNING {quote(str(meta.pk.column))}" if returning else ""
        sql = _STATEMENTS[key] = (
            f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {values}{back}"
        )
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    return sql, params


def update_statement(
    obj: models.Model, names: Sequence[str], connection: BaseDatabaseWrapper, **where: Any
) -> tuple[str, list[Any]]:
    """The UPDATE of the ``names`` fields of ``obj``'s row (the pk, and ``where``'s
    equalities) to ``obj``'s values, prepared as ``save(update_fields=names)`` prepares them."""
    model = type(obj)
    meta = model._meta
    fields = [_field(meta, n) for n in names]
    key = ("update", model, tuple(names), tuple(where), connection.alias)
    sql = _STATEMENTS.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sets = ", ".join(f"{quote(str(f.column))} = %s" for f in fields)
        conditions = " AND ".join(
            f"{quote(str(_field(meta, n).column))} = %s" for n in (meta.pk.name, *where)
        )
        sql = _STATEMENTS[key] = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {conditions}"
    params = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
    params += [obj.pk, *where.values()]
    return sql, params


def insert_row(obj: models.Model) -> None:
    """``obj.save()`` for a new row, without compiling the INSERT on every call: the same
    values and the new id read back; for a model without save signals, on a database that
    returns the id from its INSERT (SQLite 3.35+, PostgreSQL).  The instance's own record of
    where it was saved (Django's, no public way to set it) stays that of a new one: a later
    ``save()`` of it, with its id, updates the row as usual."""
    model, connection = type(obj), connections[router.db_for_write(type(obj))]
    if not connection.features.can_return_columns_from_insert or has_save_signals(model):
        obj.save(force_insert=True)
        return
    sql, params = insert_statement([obj], connection, returning=True)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    assert row is not None
    obj.pk = row[0]
