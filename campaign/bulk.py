"""Many rows written in one statement, without a model instance per row.

Django's bulk_create and bulk_update build and prepare a model instance for every row; at the Day
close's tens of thousands of rows that Python work, not the database, was most of the time. On
PostgreSQL these send one array per column (``INSERT ... SELECT FROM unnest`` and
``UPDATE ... FROM unnest``); elsewhere (SQLite in development) they fall back to the ORM's bulk
helpers with the same result. Rows nobody needs the keys of go in by ``COPY``.

Values must already be in database form: ids for foreign keys (name them by attname, ``bill_id``),
aware datetimes, no defaults filled in for you. The SQL is built from quoted table and column names
only; every value is a bound parameter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models


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
    """Set `fields` on many rows at once; each row is ``(primary key, *values in the order of fields)``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(
            [model(pk=row[0], **dict(zip(fields, row[1:], strict=True))) for row in rows], list(fields))
        return
    quote = connection.ops.quote_name
    pk = model._meta.pk
    columns = _columns(model, fields)
    source, params = _arrays([pk, *columns], rows)  # type: ignore[list-item]
    names = ["pk", *(f"v{i}" for i in range(len(columns)))]
    table = quote(model._meta.db_table)
    assignments = ", ".join(f"{quote(c.column)} = source.v{i}" for i, c in enumerate(columns))
    where = f"{table}.{quote(pk.column)} = source.pk"
    sql = f"UPDATE {table} SET {assignments} FROM {source} AS source({', '.join(names)}) WHERE {where}"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
