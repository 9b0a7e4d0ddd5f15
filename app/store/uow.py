"""Unit of work: one session and one request id per user action, committed explicitly."""
from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.audit.trail import append_event, append_events
from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import PERMISSION_LABELS, PERMISSIONS
from app.domain.changes import report_changes
from app.domain.errors import AuthenticationFailed, Conflict, DomainError, PermissionDenied, StorageFull
from app.store.db import Database, storage_full
from models import User
from models.choices import Role


def current_actor(session: Session, actor: Actor) -> Actor:
    """The actor as the database says they are now, re-read at the start of every unit of work.

    An `Actor` is handed out at login and lives as long as the console is open; an administrator
    may disable or demote that person meanwhile. Disabled (or deleted): refused. A role that lost
    any permission: refused until they log in again (a permission may already have been checked
    against the old role before the unit of work began). Otherwise the current role and name are
    the ones the audit events record.
    """
    if actor.id is None:  # the system, the login attempt itself
        return actor
    row = session.execute(select(User.login, User.display_name, User.role, User.active)
                          .where(User.id == actor.id)).one_or_none()
    if row is None or not row.active:
        raise AuthenticationFailed(f"the account {actor.login} has been disabled by an administrator since "
                                   "it logged in; nothing was saved. Ask an administrator, then log in again")
    if row.role != actor.role:
        lost = sorted(p for p, roles in PERMISSIONS.items() if actor.role in roles and row.role not in roles)
        if lost:
            raise PermissionDenied(
                f"{actor.login}'s role was changed from {Role.label(actor.role)} to {Role.label(row.role)} "
                f"since logging in (it may no longer {', '.join(PERMISSION_LABELS.get(p, p) for p in lost)}); "
                "nothing was saved. Log in again to go on with the new role")
    return Actor(actor.id, row.login, row.display_name, row.role)


class UnitOfWork:
    def __init__(self, db: Database, actor: Actor):
        self.db = db
        self.actor = actor
        self.request_id = str(uuid.uuid4())
        self.session: Session | None = None
        self.changes: set[str] = set()
        self._pending: list | None = None  # audit events held back by defer_audit()

    def __enter__(self) -> "UnitOfWork":
        self.session = self.db.sessionmaker()   # a transaction always, inside reading() too
        try:
            self.actor = current_actor(self.session, self.actor)
        except BaseException:
            self.session.close()
            raise
        return self

    def __exit__(self, exc_type, exc, _tb):
        try:
            if exc_type is not None:
                self.session.rollback()
        finally:
            self.session.close()
        if exc is not None and not isinstance(exc, DomainError) and storage_full(exc):
            # what the database said (SQLite: "database or disk is full", then "no such savepoint"
            # when the import rolls its batch back) names neither the cause nor that nothing was lost
            raise StorageFull(M.DISK_FULL(self.db.describe_storage())) from exc

    def commit(self) -> None:
        self.flush_audit()
        try:
            self.session.commit()
        except StaleDataError as exc:  # raised at flush inside commit
            self.session.rollback()
            raise Conflict("Someone else saved this record since you opened it; reload it and try again.") from exc
        self.db.committed()
        report_changes(self.changes)

    def rollback(self) -> None:
        self.session.rollback()

    def audit(self, action: str, object_type: str, object_id: Any = None, label: str | None = None,
              before: dict | None = None, after: dict | None = None, reason: str | None = None,
              outcome: str = "success"):
        self.changes.add(object_type)
        if self._pending is not None:
            self._pending.append(dict(action=action, object_type=object_type, object_id=object_id,
                                      object_label=label, before=before, after=after, reason=reason,
                                      outcome=outcome))
            return None
        return append_event(self.session, self.actor, request_id=self.request_id, action=action,
                            object_type=object_type, object_id=object_id, object_label=label,
                            before=before, after=after, reason=reason, outcome=outcome)

    # --- batched audit (bulk use cases) ---------------------------------------------------------
    def defer_audit(self) -> None:
        """Hold this unit of work's audit events back and append them in batches (flush_audit, and
        commit): a bulk import's thousands of events then cost one head update per batch instead of
        one each. Events keep their order; each is hashed exactly as append_event hashes it."""
        if self._pending is None:
            self._pending = []

    def flush_audit(self) -> None:
        """Append the held-back events (one head update for the lot)."""
        if self._pending:
            events, self._pending = self._pending, []
            append_events(self.session, self.actor, request_id=self.request_id, events=events)

    def audit_mark(self) -> int:
        """A mark to drop_audit back to when the writes since are rolled back (a savepoint)."""
        return len(self._pending or ())

    def drop_audit(self, mark: int) -> None:
        if self._pending is not None:
            del self._pending[mark:]
