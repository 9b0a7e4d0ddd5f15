"""Reading the audit trail: filtered event lists for the log view, exports and reports."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from sqlalchemy import and_, func, select

from models import AuditEvent

from .audit import Actor
from .auth import require
from .clock import local_midnight, local_text
from .db import Database
from .errors import ValidationError
from .uow import UnitOfWork

EXPORT_HEADERS = ["seq", "time", "actor", "actor_name", "role", "host", "app_version", "request_id", "action",
                  "object_type", "object_id", "object", "before", "after", "reason", "outcome", "prev_hash", "hash"]


@dataclass(frozen=True)
class AuditFilter:
    date_from: dt.date | None = None   # local (Asia/Shanghai) dates, inclusive
    date_to: dt.date | None = None
    actor_login: str | None = None
    action: str | None = None           # exact, or a prefix ending in '.' (e.g. 'gpu.')
    object_type: str | None = None

    def where(self):
        cond = []
        if self.date_from:
            cond.append(AuditEvent.ts >= local_midnight_utc(self.date_from))
        if self.date_to:
            cond.append(AuditEvent.ts < local_midnight_utc(self.date_to + dt.timedelta(days=1)))
        if self.actor_login:
            cond.append(AuditEvent.actor_login == self.actor_login)
        if self.action:
            cond.append(AuditEvent.action.startswith(self.action) if self.action.endswith(".")
                        else AuditEvent.action == self.action)
        if self.object_type:
            cond.append(AuditEvent.object_type == self.object_type)
        return and_(*cond) if cond else None

    def describe(self) -> str:
        parts = []
        if self.date_from or self.date_to:
            parts.append(f"{self.date_from or '…'} – {self.date_to or '…'}")
        if self.actor_login:
            parts.append(f"actor={self.actor_login}")
        if self.action:
            parts.append(f"action={self.action}")
        if self.object_type:
            parts.append(f"object={self.object_type}")
        return ", ".join(parts) or "all events"


local_midnight_utc = local_midnight


def parse_date(text: str, field: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ValidationError({field: f"{text!r} is not a date (YYYY-MM-DD)"}) from None


to_local = local_text


def iter_events(db: Database, flt: AuditFilter, batch: int = 5000) -> Iterator[AuditEvent]:
    q = select(AuditEvent).order_by(AuditEvent.seq)
    cond = flt.where()
    if cond is not None:
        q = q.where(cond)
    with db.session() as s:
        for ev in s.execute(q.execution_options(yield_per=batch)).scalars():
            yield ev


def event_row(ev: AuditEvent) -> list:
    return [ev.seq, to_local(ev.ts), ev.actor_login, ev.actor_name, ev.actor_role, ev.host, ev.app_version,
            ev.request_id, ev.action, ev.object_type, ev.object_id, ev.object_label, ev.before, ev.after,
            ev.reason, ev.outcome, ev.prev_hash, ev.hash]


def summary_by_actor_action(db: Database, flt: AuditFilter) -> list[tuple[str, str, int]]:
    q = (select(AuditEvent.actor_login, AuditEvent.action, func.count())
         .group_by(AuditEvent.actor_login, AuditEvent.action)
         .order_by(AuditEvent.actor_login, AuditEvent.action))
    cond = flt.where()
    if cond is not None:
        q = q.where(cond)
    with db.session() as s:
        return [tuple(r) for r in s.execute(q)]


def last_seq_hash(db: Database, flt: AuditFilter) -> str | None:
    """SEQ:HASH of the last event the filter's period includes (the report's checkpoint).

    The checkpoint is the chain position at the end of the period, not of the filtered
    subset, so that `audit verify --expect-head` can check it.
    """
    q = select(AuditEvent.seq, AuditEvent.hash).order_by(AuditEvent.seq.desc()).limit(1)
    if flt.date_to:
        q = q.where(AuditEvent.ts < local_midnight_utc(flt.date_to + dt.timedelta(days=1)))
    with db.session() as s:
        row = s.execute(q).first()
    return f"{row[0]}:{row[1]}" if row else None


def record_export(db: Database, actor: Actor, kind: str, what: str, rows: int, path: Path, fmt: str,
                  action: str = "export") -> None:
    """Exports and prints leave a trace too."""
    with UnitOfWork(db, actor) as uow:
        uow.audit(action, kind, None, what, after={"rows": rows, "file": Path(path).name, "format": fmt})
        uow.commit()


def export_audit(db: Database, actor: Actor, date_from: str, date_to: str, path: Path, fmt: str = "csv", *,
                 actor_login: str | None = None, action: str | None = None) -> str:
    require(actor, "export")
    flt = AuditFilter(parse_date(date_from, "from"), parse_date(date_to, "to"), actor_login, action)
    if flt.date_to < flt.date_from:
        raise ValidationError({"to": "the period ends before it starts"})
    from .importexport import write_export

    n = write_export(EXPORT_HEADERS, (event_row(ev) for ev in iter_events(db, flt)), path, fmt, sheet="audit")
    record_export(db, actor, "audit", flt.describe(), n, path, fmt)
    return f"wrote {n} audit events ({flt.describe()}) to {path}"
