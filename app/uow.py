"""Unit of work: one session and one request id per user action, committed explicitly."""
from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.orm import Session

from .audit import Actor, append_event
from .db import Database
from .errors import Conflict


class UnitOfWork:
    def __init__(self, db: Database, actor: Actor):
        self.db = db
        self.actor = actor
        self.request_id = str(uuid.uuid4())
        self.session: Session | None = None
        self.changes: set[str] = set()

    def __enter__(self) -> "UnitOfWork":
        self.session = self.db.session()
        return self

    def __exit__(self, exc_type, *_):
        try:
            if exc_type is not None:
                self.session.rollback()
        finally:
            self.session.close()

    def commit(self) -> None:
        try:
            self.session.commit()
        except StaleDataError as exc:  # raised at flush inside commit
            self.session.rollback()
            raise Conflict("Someone else saved this record since you opened it; reload it and try again.") from exc

    def rollback(self) -> None:
        self.session.rollback()

    def audit(self, action: str, object_type: str, object_id: Any = None, label: str | None = None,
              before: dict | None = None, after: dict | None = None, reason: str | None = None,
              outcome: str = "success"):
        self.changes.add(object_type)
        return append_event(self.session, self.actor, request_id=self.request_id, action=action,
                            object_type=object_type, object_id=object_id, object_label=label,
                            before=before, after=after, reason=reason, outcome=outcome)
