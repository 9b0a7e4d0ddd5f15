"""Exports and prints leave a trace: one audit event per file written (what it holds, how many rows,
the file's name and format). Every export and print is recorded through here."""
from __future__ import annotations

from app.domain.actor import Actor
from app.store.db import Database
from app.store.uow import UnitOfWork


def record_export(db: Database, actor: Actor, object_type: str, label: str, after: dict,
                  action: str = "export") -> None:
    """One `export` (or `print`) event for a file written: `object_type` is what the file holds, `label`
    the event's label, `after` what is recorded of it (rows, file, format …, in the order given)."""
    with UnitOfWork(db, actor) as uow:
        uow.audit(action, object_type, None, label, after=after)
        uow.commit()
