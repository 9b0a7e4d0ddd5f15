"""Many new rows of one table, written at the driver's speed (a bulk import's GPUs and their
history): each value through its column's own bind processing, once, and then one
executemany (SQLite) or one COPY (PostgreSQL) on the session's connection, in its transaction.

SQLAlchemy's executemany builds a parameter dict and runs every processor per row and column
through its compiled statement: on a 50,000-row GPU import that was a third of the client's time
(issue 26). The rows go in as SQLAlchemy would write them: the columns' Python-side defaults (version,
times) filled in, each value processed by its type; a driver error is raised as SQLAlchemy's DBAPIError
(IntegrityError …), as an INSERT's would be."""
from __future__ import annotations

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session


def prepared(dialect, table, params: list[dict]) -> tuple[list, list[tuple]]:
    """(columns, rows as tuples of bound values) for `params` (dicts with the same keys)."""
    missing = [c for c in table.columns if c.key not in params[0] and c.default is not None
               and (c.default.is_scalar or c.default.is_callable)]
    if missing:
        filled = {c.key: c.default.arg if c.default.is_scalar else c.default.arg(None) for c in missing}
        params = [{**p, **filled} for p in params]
    keys = list(params[0])
    columns = [table.c[k] for k in keys]
    # a column at a time (map runs each processor in C's loop), then the rows zipped back
    values = []
    for k, c in zip(keys, columns):
        column = [p[k] for p in params]
        process = c.type._cached_bind_processor(dialect)
        values.append(column if process is None else list(map(process, column)))
    return columns, list(zip(*values))


def insert_many(s: Session, table, params: list[dict]) -> None:
    """Insert `params` into `table` (no ids returned: give them in the rows when they are needed)."""
    if not params:
        return
    dialect = s.get_bind().dialect
    columns, rows = prepared(dialect, table, params)
    quote = dialect.identifier_preparer.quote
    names = ", ".join(quote(c.name) for c in columns)
    raw = s.connection().connection.driver_connection
    if dialect.name == "postgresql":
        statement = f"COPY {quote(table.name)} ({names}) FROM STDIN"
        try:
            with raw.cursor() as cursor, cursor.copy(statement) as copy:
                for row in rows:
                    copy.write_row(row)
        except dialect.loaded_dbapi.Error as exc:
            raise DBAPIError.instance(statement, None, exc, dialect.loaded_dbapi.Error) from exc
        return
    statement = f"INSERT INTO {quote(table.name)} ({names}) VALUES ({', '.join('?' * len(columns))})"
    try:
        raw.executemany(statement, rows)
    except dialect.loaded_dbapi.Error as exc:
        raise DBAPIError.instance(statement, None, exc, dialect.loaded_dbapi.Error) from exc
