"""Reading the audit trail: filtered event lists for the log view, exports and reports."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from sqlalchemy import and_, select

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
    flt = AuditFilter(parse_date(date_from, "from"), parse_date(date_to, "to"), actor_login or None, action or None)
    n = write_audit_export(db, actor, flt, path, fmt)
    return f"wrote {n} audit events ({flt.describe()}) to {path}"


def write_audit_export(db: Database, actor: Actor, flt: AuditFilter, path: Path, fmt: str = "csv") -> int:
    """The events `flt` selects to CSV/XLSX, recorded as an export; returns how many were written.
    The command line and the console both export through here."""
    require(actor, "export")
    if flt.date_from is None or flt.date_to is None:
        raise ValidationError({"from": "an export needs a period (from and to)"})
    if flt.date_to < flt.date_from:
        raise ValidationError({"to": "the period ends before it starts"})
    from .importexport import write_export

    n = write_export(EXPORT_HEADERS, (event_row(ev) for ev in iter_events(db, flt)), path, fmt, sheet="audit")
    record_export(db, actor, "audit", flt.describe(), n, path, fmt)
    return n


# --- the audit list's filter ------------------------------------------------------------------
# The console's filter bar (period, user, action, object type) and the free-text box travel as one
# filter text, e.g. "from:2026-11-24 to:2026-11-30 actor:lina action:contract. FZ-2026": the list
# machinery (paging, counting, export of the view) takes a text, and so the rule stays here.
FILTER_KEYS = ("from", "to", "actor", "action", "type")


def parse_filter_text(text: str | None) -> tuple[AuditFilter, str]:
    """(the structured part, the free text left). A token whose value is not valid for its key
    (from:soon) stays in the free text, which then matches nothing rather than everything."""
    values: dict[str, str] = {}
    rest = []
    for word in (text or "").split():
        key, sep, value = word.partition(":")
        if sep and key in FILTER_KEYS and value:
            if key in ("from", "to"):
                try:
                    dt.date.fromisoformat(value)
                except ValueError:
                    rest.append(word)
                    continue
            values[key] = value
        else:
            rest.append(word)
    flt = AuditFilter(dt.date.fromisoformat(values["from"]) if "from" in values else None,
                      dt.date.fromisoformat(values["to"]) if "to" in values else None,
                      values.get("actor"), values.get("action"), values.get("type"))
    return flt, " ".join(rest)


def filter_text(flt: AuditFilter, text: str = "") -> str:
    """The filter text for `flt` plus free text (the inverse of parse_filter_text)."""
    parts = []
    for key, value in (("from", flt.date_from), ("to", flt.date_to), ("actor", flt.actor_login),
                       ("action", flt.action), ("type", flt.object_type)):
        if value:
            parts.append(f"{key}:{value.isoformat() if isinstance(value, dt.date) else value}")
    if (text or "").strip():
        parts.append(text.strip())
    return " ".join(parts)


def audit_choices(db: Database) -> tuple[list[str], list[str], list[str]]:
    """The logins, actions and object types that occur in the trail, for the filter choosers."""
    with db.engine.connect() as conn:
        return tuple(list(conn.execute(select(col).distinct().order_by(col)).scalars())   # type: ignore[return-value]
                     for col in (AuditEvent.actor_login, AuditEvent.action, AuditEvent.object_type))


# --- names of actions and objects ---------------------------------------------------------------
# Codes stay in the trail (and their own columns); people read these names. Labels are English,
# marked for translation; the console translates them in the context "audit".
def _(text: str) -> str:
    return text


OBJECT_NAMES = {
    "site": _("site"), "room": _("room"), "rack": _("rack"), "device": _("device"), "gpu": _("GPU"),
    "gpu_model": _("GPU model"), "customer": _("customer"), "contract": _("contract"), "statement": _("statement"),
    "user": _("user"), "subsidiary": _("subsidiary"), "coverage": _("coverage"), "device_type": _("device type"),
    "region": _("region"), "downtime": _("downtime"), "meter_reading": _("meter reading"),
    "rack_reservation": _("reservation"), "reservation": _("reservation"), "billing": _("billing"),
    "audit": _("audit trail"), "space": _("leased space"), "space_lease": _("leased space"), "cage": _("cage"),
}
VERB_NAMES = {
    "create": _("Create"), "update": _("Update"), "delete": _("Delete"), "retire": _("Retire"),
    "issue": _("Issue"), "credit": _("Credit"), "approve": _("Approve"), "reject": _("Reject"),
    "submit": _("Submit"), "activate": _("Activate"), "suspend": _("Suspend"), "resume": _("Resume"),
    "terminate": _("Terminate"), "expire": _("Expire"), "renew": _("Renew"), "amend": _("Amend"),
    "supersede": _("Supersede"), "install": _("Install"), "uninstall": _("Remove"), "lease": _("Lease"),
    "release": _("Release"), "load": _("Load"), "import": _("Import"), "export": _("Export"), "print": _("Print"),
    "record": _("Record"), "end": _("End"), "cancel": _("Cancel"), "move": _("Move"), "run": _("Run"),
}
# Whole names where "<verb> <object>" reads badly.
ACTION_NAMES = {
    "auth.login": _("Log in"), "gpu.transition": _("GPU lifecycle move"), "statement.fapiao": _("Record fapiao number"),
    "statement.delete_draft": _("Delete draft statement"), "customer.contacts": _("Edit customer contacts"),
    "meter.import": _("Import meter readings"), "billing.run": _("Billing run"),
    "user.password": _("Change own password"),
}


def action_name_parts(action: str, object_type: str | None = None) -> tuple[str, ...]:
    """How to name `action` (English, untranslated): (whole name,) or (verb, object) to join as
    "%1 %2", or (code,) when unknown."""
    if action in ACTION_NAMES:
        return (ACTION_NAMES[action],)
    prefix, dot, verb = action.rpartition(".")
    if not dot:                      # export, import, print: the object is the event's object type
        prefix, verb = object_type or "", action
    if verb in VERB_NAMES and prefix in OBJECT_NAMES:
        return VERB_NAMES[verb], OBJECT_NAMES[prefix]
    if not dot and verb in VERB_NAMES:
        return (VERB_NAMES[verb],)
    return (action,)


# --- one event in full ------------------------------------------------------------------------
@dataclass(frozen=True)
class FieldChange:
    field: str
    before: object
    after: object


@dataclass(frozen=True)
class EventDetail:
    seq: int
    ts: dt.datetime            # UTC
    actor_login: str
    actor_name: str
    actor_role: str
    host: str
    app_version: str
    request_id: str
    action: str
    object_type: str
    object_id: str | None
    object_label: str | None
    reason: str | None
    outcome: str
    prev_hash: str
    hash: str
    changes: tuple[FieldChange, ...]

    @property
    def local_time(self) -> str:
        return to_local(self.ts)


_MISSING = object()


def field_changes(before: str | None, after: str | None) -> tuple[FieldChange, ...]:
    """Every field whose value differs between the two JSON snapshots (a created object: every
    field it got; a deleted one: every field it had), in the order the snapshots list them.
    A snapshot that is not an object is one field named ""."""
    import json

    def load(text):
        if text is None:
            return {}
        value = json.loads(text)
        return value if isinstance(value, dict) else {"": value}
    b, a = load(before), load(after)
    out = []
    for key in list(b) + [k for k in a if k not in b]:
        old, new = b.get(key, _MISSING), a.get(key, _MISSING)
        if old != new:
            out.append(FieldChange(key, None if old is _MISSING else old, None if new is _MISSING else new))
    return tuple(out)


def event_detail(db: Database, seq: int) -> EventDetail | None:
    with db.session() as s:
        ev = s.get(AuditEvent, seq)
        if ev is None:
            return None
        ts = ev.ts if ev.ts.tzinfo else ev.ts.replace(tzinfo=dt.timezone.utc)
        return EventDetail(ev.seq, ts, ev.actor_login, ev.actor_name, ev.actor_role, ev.host, ev.app_version,
                           ev.request_id, ev.action, ev.object_type, ev.object_id, ev.object_label, ev.reason,
                           ev.outcome, ev.prev_hash, ev.hash, field_changes(ev.before, ev.after))
