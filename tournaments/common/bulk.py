"""Writing many rows' changed fields in one statement per chunk.

Django's ``bulk_update`` builds a ``CASE WHEN pk = ... THEN ...`` expression per row and field,
whose building costs seconds of CPU for a few thousand rows (a duplicate round publishes a deal:
every table's tally and every player's total changes at once). ``rows_update`` sends
``WITH v AS (VALUES ...) UPDATE ... FROM v`` instead (PostgreSQL, and SQLite since 3.33), with
the values prepared by the fields themselves, so the database does the matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models

CHUNK = 500


def rows_update(model: type[models.Model], rows: Sequence[Any], fields: Sequence[str]) -> None:
    """Write ``fields`` of ``rows`` (saved instances of ``model``), as ``bulk_update`` would."""
    if not rows or not fields:
        return
    meta = model._meta
    targets: list[models.Field[Any, Any]] = []
    for name in fields:
        field = meta.get_field(name)
        assert isinstance(field, models.Field), name  # a column of the model, not a relation
        targets.append(field)
    assert meta.pk is not None
    ops = connection.ops
    table = ops.quote_name(str(meta.db_table))
    pk = ops.quote_name(str(meta.pk.column))
    aliases = ["k", *(f"v{i}" for i in range(len(targets)))]
    sets = ", ".join(
        f"{ops.quote_name(str(f.column))} = CAST(v.{alias} AS {f.db_type(connection)})"
        for f, alias in zip(targets, aliases[1:], strict=True)
    )
    key_type = meta.pk.db_type(connection)
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start : start + CHUNK]
        params: list[Any] = []
        for row in chunk:
            params.append(row.pk)
            for f in targets:
                params.append(f.get_db_prep_save(getattr(row, f.attname), connection))
        width = 1 + len(targets)
        one = "(" + ", ".join(["%s"] * width) + ")"
        values = ", ".join([one] * len(chunk))
        sql = (
            f"WITH v({', '.join(aliases)}) AS (VALUES {values}) "
            f"UPDATE {table} SET {sets} FROM v WHERE {table}.{pk} = CAST(v.k AS {key_type})"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
