"""Many rows written in one statement, without a model instance per row.

Django's bulk_create and bulk_update build and prepare a model instance for every row; at the Day
close's tens of thousands of rows that Python work, not the database, was most of the time. On
PostgreSQL these send one array per column (``INSERT ... SELECT FROM unnest``) or one JSON document
(``UPDATE ... FROM json_to_recordset``); elsewhere (SQLite in development) they fall back to the ORM's bulk
helpers with the same result. Rows nobody needs the keys of go in by ``COPY``.

Values must already be in database form: ids for foreign keys (name them by attname, ``bill_id``),
aware datetimes, no defaults filled in for you. The SQL is built from quoted table and column names
only; every value is a bound parameter.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import date, time
from typing import Any, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)


def _json_value(value: Any) -> str:
    """Dates and times in full ISO form (Django's JSON encoder would drop the microseconds)."""
    if isinstance(value, date | time):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} cannot be written by update_rows: give its database form.")


def _columns(model: type[models.Model], fields: Sequence[str]) -> list[models.Field]:
    return [model._meta.get_field(name) for name in fields]  # type: ignore[misc]


def _arrays(columns: Sequence[models.Field], rows: Sequence[Sequence[Any]]) -> tuple[str, list[list[Any]]]:
    """``unnest(%s::type[], ...)`` for the columns, and the column arrays to bind to it."""
    casts = ", ".join(f"%s::{column.db_type(connection)}[]" for column in columns)
    return f"unnest({casts})", [list(values) for values in zip(*rows, strict=True)]


def insert_rows(model: type[models.Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[int]:
    """Insert `rows` (tuples of values in the order of `fields`) and return their new primary keys, in order."""
    if not rows:
        return []
    if connection.vendor != "postgresql":
        created = model._default_manager.bulk_create([model(**dict(zip(fields, row, strict=True))) for row in rows])
        return [obj.pk for obj in created]
    quote = connection.ops.quote_name
    columns = _columns(model, fields)
    source, params = _arrays(columns, rows)
    table, names, pk = quote(model._meta.db_table), ", ".join(quote(c.column) for c in columns), model._meta.pk
    sql = f"INSERT INTO {table} ({names}) SELECT * FROM {source} RETURNING {quote(pk.column)}"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [pk for (pk,) in cursor.fetchall()]


def insert_objects(objects: Sequence[M], fields: Sequence[str]) -> list[M]:
    """bulk_create for model instances whose `fields` (attnames) hold values in database form: one INSERT ... SELECT
    FROM unnest on PostgreSQL, without the ORM compiling and preparing every value. A field's pre_save runs as
    on a save only where it fills the value in (auto_now, auto_now_add); the instances get their primary keys and
    count as saved."""
    if not objects:
        return []
    if connection.vendor != "postgresql":
        return type(objects[0])._default_manager.bulk_create(objects)
    columns = _columns(type(objects[0]), fields)
    filled = [c for c in columns if getattr(c, "auto_now", False) or getattr(c, "auto_now_add", False)]
    for obj in objects:
        for column in filled:
            column.pre_save(obj, True)
    rows = [[getattr(obj, column.attname) for column in columns] for obj in objects]
    for obj, pk in zip(objects, insert_rows(type(objects[0]), fields, rows), strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, connection.alias
    return list(objects)


def copy_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert rows whose primary keys nobody needs back; on PostgreSQL through ``COPY``, the fastest
    way in (each value adapted in C, no SQL text built for the whole batch)."""
    if connection.vendor != "postgresql":
        insert_rows(model, fields, list(rows))
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column.column) for column in _columns(model, fields))
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def update_rows(model: type[models.Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Set `fields` on many rows at once; each row is ``(primary key, *values in the order of fields)``.

    On PostgreSQL an UPDATE joined to json_to_recordset() of one JSON document: bulk_update's CASE WHEN per
    row makes the database test every row against every id, which grows with the square of the rows (20 s
    for 5,000 armies), and json.dumps builds the whole document in C where arrays are adapted value by value
    in Python."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(
            [model(pk=row[0], **dict(zip(fields, row[1:], strict=True))) for row in rows], list(fields))
        return
    quote = connection.ops.quote_name
    pk = model._meta.pk
    columns = [pk, *_columns(model, fields)]
    names = [column.column for column in columns]  # type: ignore[union-attr]
    document = json.dumps([dict(zip(names, row, strict=True)) for row in rows], default=_json_value)
    shape = ", ".join(f"{quote(c.column)} {c.db_type(connection)}" for c in columns)  # type: ignore[union-attr]
    sets = ", ".join(f"{quote(name)} = source.{quote(name)}" for name in names[1:])
    table, key = quote(model._meta.db_table), quote(names[0])
    sql = f"UPDATE {table} SET {sets} FROM json_to_recordset(%s::json) AS source({shape}) WHERE {table}.{key} = source.{key}"  # noqa: S608,E501
    with connection.cursor() as cursor:
        cursor.execute(sql, [document])
