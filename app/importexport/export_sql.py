"""CSV exports whose cells the database writes: the rows go from the driver to the file untouched.

The file is byte for byte what the Python export writes (`write_export` over `export_rows`); this
is only a faster way to the same bytes for a whole kind (no text filter):

* PostgreSQL: `COPY (SELECT …) TO STDOUT (FORMAT csv)`, each column an SQL expression whose text is
  exactly the Python export's: text neutralised as `neutralise_cell` does (a regular expression of
  the same rule) and empty text as NULL (COPY quotes an empty string, csv.writer does not), dates
  `YYYY-MM-DD`, numerics as they are (`numeric_out` writes what `str(Decimal)` writes for a scale of
  at most 6), booleans `true`/`false`. COPY ends its lines with LF where csv.writer writes CRLF: the
  blocks are rewritten outside quoted fields. A kind with a column no expression covers (a time
  shown in Asia/Shanghai, a float, a contract's GPU serials) is not exported here.
* SQLite: the same SELECT's rows go from sqlite3's cursor straight to csv.writer. Numbers and dates
  are formatted by SQL where that is exact (an integer, a real that is already a whole number of
  cents, a date in its ISO form); every other value (a text that could start a formula, an oddly
  stored number, a local time) is formatted by the Python export's own functions, registered as SQL
  functions and called for those values only.

docs/performance.md gives the profile that led here and the figures against the driver's floor.
"""
from __future__ import annotations

import csv
import io
from typing import Any, Callable

from sqlalchemy import Integer, Text, and_, case, cast, func, literal, not_, null, type_coerce
from sqlalchemy.sql import sqltypes

from app.importexport.schema import FORMULA_STARTS, _Cancelled

ROWS_PER_READ = 2000
_RISKY = tuple(FORMULA_STARTS) + ("'",)
# neutralise_cell as PostgreSQL regular expressions (schema.py keeps the two in step; a test
# compares them on awkward texts): the first character after any apostrophes starts a formula ...
_PG_FORMULA = "^'*[-=+@\t\r]"
# ... unless the text, not starting with an apostrophe, is a plain number (schema._PLAIN_NUMBER)
_PG_NUMBER = "^[+-]?([0-9][0-9,]*([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?%?$"


class _Failure:
    """An exception raised inside an SQLite function (sqlite3 reports only that one was raised)."""

    def __init__(self):
        self.exc: BaseException | None = None


def _python_cell(steps: list[Callable[[Any], Any]], csv_text: Callable[[Any], Any], failure: _Failure):
    def cell(value):
        try:
            for f in steps:
                value = f(value)
            return csv_text(value)
        except BaseException as exc:  # re-raised by write_sqlite, as the Python export would raise it
            failure.exc = exc
            raise
    return cell


def _numeric_scale(t) -> int | None:
    if isinstance(t, sqltypes.Numeric) and not isinstance(t, sqltypes.Float) and t.asdecimal and t.scale is not None:
        return t.scale
    return None


def sqlite_select(stmt, dialect, fns: dict[int, Callable], whole: set[int], csv_text: Callable[[Any], Any]):
    """(the SELECT with formatting columns, {SQL function name: Python function}, failure holder)."""
    cols, udfs, failure = [], {}, _Failure()
    risky = [literal(c) for c in _RISKY]
    for i, col in enumerate(stmt.selected_columns):
        t = col.type.dialect_impl(dialect)
        proc = t.result_processor(dialect, None)
        conv = fns.get(i)
        name = f"idc_export_cell_{i}"
        udfs[name] = _python_cell([f for f in (proc, conv) if f is not None], csv_text, failure)
        python = getattr(func, name)(col)
        scale = _numeric_scale(t)
        if proc is None and (conv is None or i in whole):  # (a whole-units rule changes only Decimals)
            # the driver's value is what the Python export sees: only a text that could start a formula
            # (or starts with an apostrophe) goes to neutralise_cell
            expr = case((and_(func.typeof(col) == "text", func.substr(col, 1, 1).in_(risky)), python), else_=col)
        elif scale is not None and (conv is None or i in whole):
            n = type_coerce(col, Integer)
            if i in whole:   # a position: 10, not 10.0 (the converter's rule for whole numbers)
                expr = case((col.is_(None), null()),
                            (and_(func.typeof(col) == "integer", func.abs(n) < 10**15), cast(col, Text)),
                            else_=python)
            else:
                # Decimal("%.{scale}f" % value), SQLAlchemy's processor: exact from an integer below 2**53,
                # and from a real within 1e12 that is already a whole number of its smallest unit
                # (round() gives it back unchanged), whose printf is then the nearest such decimal
                zeros = "." + "0" * scale if scale else ""
                expr = case((col.is_(None), null()),
                            (and_(func.typeof(col) == "integer", func.abs(n) < 10**15),
                             func.printf("%d" + zeros, col)),
                            (and_(func.typeof(col) == "real", func.abs(col) < 10**12, col != 0,
                                  func.round(col, scale) == col),
                             func.printf(f"%.{scale}f", col)),
                            else_=python)
        elif isinstance(t, sqltypes.Date) and not isinstance(t, sqltypes.DateTime) and conv is None:
            # stored as ISO text: date() gives a valid date back unchanged
            expr = case((col.is_(None), null()), (func.date(col) == col, col), else_=python)
        elif isinstance(t, sqltypes.Boolean) and conv is None:
            n = type_coerce(col, Integer)
            expr = case((col.is_(None), null()), (n == 1, literal("true")), (n == 0, literal("false")), else_=python)
        else:
            expr = python
        cols.append(expr)
    return stmt.with_only_columns(*cols, maintain_column_froms=True), udfs, failure


def postgresql_select(stmt, dialect, fns: dict[int, Callable], whole: set[int]):
    """The SELECT whose every column COPY writes as the Python export would, or None."""
    cols = []
    for i, col in enumerate(stmt.selected_columns):
        t = col.type.dialect_impl(dialect)
        conv = fns.get(i)
        if isinstance(t, (sqltypes.TypeDecorator, sqltypes.Enum)) or (conv is not None and i not in whole):
            return None
        if isinstance(t, sqltypes.String):
            # the first character first: a comparison, where the regular expressions cost ~0.2 s per 400k rows
            formula = and_(func.left(col, 1).in_([literal(c) for c in _RISKY]), col.regexp_match(_PG_FORMULA),
                           not_(and_(func.left(col, 1) != "'", col.regexp_match(_PG_NUMBER))))
            cols.append(case((formula, literal("'", Text) + col), else_=func.nullif(col, "")))
        elif isinstance(t, sqltypes.Integer) and (conv is None or i in whole):
            cols.append(col)
        elif (scale := _numeric_scale(t)) is not None and scale <= 6:
            # numeric_out writes what str(Decimal) writes for these scales
            if i in whole:
                cols.append(case((col == func.trunc(col), cast(func.trunc(col), Text)), else_=cast(col, Text)))
            else:
                cols.append(col)
        elif isinstance(t, sqltypes.Date) and not isinstance(t, sqltypes.DateTime) and conv is None:
            cols.append(func.to_char(col, "YYYY-MM-DD"))
        elif isinstance(t, sqltypes.Boolean) and conv is None:
            cols.append(case((col.is_(True), literal("true")), (col.is_(False), literal("false"))))
        else:
            return None
    return stmt.with_only_columns(*cols, maintain_column_froms=True)


def header_bytes(headers: list[str], bom: str) -> bytes:
    buf = io.StringIO()
    csv.writer(buf).writerow(headers)
    return (bom + buf.getvalue()).encode("utf-8")


def write_sqlite(raw, sql: str, udfs: dict, failure: _Failure, f, progress, cancelled) -> int:
    """Rows of `sql` on the sqlite3 connection `raw` to the text file f through csv.writer."""
    import sqlite3

    for name, fn in udfs.items():
        raw.create_function(name, 1, fn, deterministic=True)
    cur = raw.cursor()
    count = 0
    try:
        w = csv.writer(f)
        cur.execute(sql)
        while True:
            if cancelled is not None and cancelled():
                raise _Cancelled()
            batch = cur.fetchmany(ROWS_PER_READ)
            if not batch:
                break
            w.writerows(batch)
            count += len(batch)
            if progress is not None:
                progress(count)
    except sqlite3.OperationalError:
        if failure.exc is not None:
            raise failure.exc from None
        raise
    finally:
        cur.close()
        for name in udfs:
            raw.create_function(name, 1, None)
    return count


def to_crlf(block: bytes, inside: bool) -> tuple[bytes, bool, int]:
    """COPY's block with its record ends (LF outside quotes) as CRLF: (block, inside quotes at its end,
    records ended in it). In CSV every quote toggles inside/outside (a doubled one toggles twice)."""
    if b'"' not in block:
        if inside:
            return block, True, 0
        return block.replace(b"\n", b"\r\n"), False, block.count(b"\n")
    parts = block.split(b'"')
    rows = 0
    last = len(parts) - 1
    for k, part in enumerate(parts):
        if not inside and b"\n" in part:
            rows += part.count(b"\n")
            parts[k] = part.replace(b"\n", b"\r\n")
        if k < last:
            inside = not inside
    return b'"'.join(parts), inside, rows


def copy_postgresql(raw, sql: str, f, progress, cancelled) -> int:
    """COPY (sql) TO STDOUT as CSV on the psycopg connection `raw`, into the binary file f."""
    count, inside = 0, False
    with raw.cursor() as cur, cur.copy(f"COPY ({sql}) TO STDOUT (FORMAT csv)") as copy:
        for block in copy:
            if cancelled is not None and cancelled():
                raise _Cancelled()   # the transaction is then aborted; the connection's return rolls it back
            data, inside, rows = to_crlf(bytes(block), inside)
            f.write(data)
            if rows:
                count += rows
                if progress is not None:
                    progress(count)
    return count
