"""Counting what a piece of the console sends to the database (a click, a panel, an open)."""
from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy import event


@contextmanager
def statements_sent(db):
    """The SQL text of every statement `db`'s engine executes inside the block, in order."""
    sent: list[str] = []

    def on(_conn, _cursor, statement, *_rest):
        sent.append(statement)
    event.listen(db.engine, "before_cursor_execute", on)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", on)
