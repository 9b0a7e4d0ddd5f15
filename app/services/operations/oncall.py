"""On call: a rota per site (or region) and week; who is on call now; escalation of an
unacknowledged P1 (level 1 the secondary, level 2 the site manager) and the notifications that
record who was told, when and why.

Notifications are rows the console shows to their recipient (`notifications_for`); a `Notifier`
registered in NOTIFIERS (an SMS gateway, say) is also handed each one after the commit."""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Notification, OncallShift, Site, Ticket, TicketEvent, User

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_date, local_text
from app.domain.errors import ValidationError
from app.store.db import Database
from app.store.uow import UnitOfWork
from app.services.entities import flush_versioned, get_or_404

UTC = dt.timezone.utc
log = logging.getLogger(__name__)


class Notifier(Protocol):
    def send(self, phone: str | None, user_login: str, message: str) -> None: ...


NOTIFIERS: list[Notifier] = []   # e.g. an SMS gateway; the console's own notifications need none


def week_start(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


@dataclass(frozen=True)
class ShiftInfo:
    id: int
    site_id: int | None
    site: str | None
    region_code: str | None
    week_start: dt.date
    primary_id: int
    primary: str
    secondary_id: int | None
    secondary: str | None
    manager_id: int | None
    manager: str | None
    phone: str | None
    handover_note: str | None
    version: int


def set_shift(db: Database, actor: Actor, *, week: dt.date, primary_id: int, site_id: int | None = None,
              region_code: str | None = None, secondary_id: int | None = None, manager_id: int | None = None,
              phone: str | None = None, handover_note: str | None = None) -> int:
    """Create or replace the shift of a site (or region) for the week containing `week`."""
    require(actor, "manage_oncall")
    with UnitOfWork(db, actor) as uow:
        shift_id = set_shift_in(uow, week=week, primary_id=primary_id, site_id=site_id, region_code=region_code,
                                secondary_id=secondary_id, manager_id=manager_id, phone=phone,
                                handover_note=handover_note)
        uow.commit()
        return shift_id


def set_shift_in(uow: UnitOfWork, *, week: dt.date, primary_id: int, site_id: int | None = None,
                 region_code: str | None = None, secondary_id: int | None = None, manager_id: int | None = None,
                 phone: str | None = None, handover_note: str | None = None) -> int:
    """set_shift inside the caller's unit of work (the console, the CLI and `import oncall`)."""
    if site_id is None and not region_code:
        raise ValidationError({"site_id": "name the site (or the region) the shift covers"})
    if secondary_id is not None and secondary_id == primary_id:
        raise ValidationError({"secondary_id": "the secondary is someone other than the primary"})
    actor = uow.actor
    start = week_start(week)
    s = uow.session
    for uid, what in ((primary_id, "primary_id"), (secondary_id, "secondary_id"), (manager_id, "manager_id")):
        if uid is not None:
            u = s.get(User, uid)
            if u is None or not u.active:
                raise ValidationError({what: "an active user"})
    if site_id is not None:
        get_or_404(s, Site, site_id, "site")
    row = s.execute(select(OncallShift).where(
        OncallShift.week_start == start,
        OncallShift.site_id.is_(None) if site_id is None else OncallShift.site_id == site_id,
        OncallShift.region_code.is_(None) if not region_code else OncallShift.region_code == region_code)).scalar()
    values = dict(primary_id=primary_id, secondary_id=secondary_id, manager_id=manager_id,
                  phone=(phone or "").strip() or None, handover_note=(handover_note or "").strip() or None)
    if row is None:
        row = OncallShift(site_id=site_id, region_code=region_code or None, week_start=start, **values,
                          updated_by=actor.login)
        s.add(row)
        s.flush()
        uow.audit("oncall.create", "oncall_shift", row.id, f"{start}",
                  after=dict(values, site_id=site_id, region_code=region_code or None, week_start=start))
    else:
        before = {k: getattr(row, k) for k in values}
        for k, v in values.items():
            setattr(row, k, v)
        flush_versioned(uow, row, f"on-call shift of {start}")
        uow.audit("oncall.update", "oncall_shift", row.id, f"{start}", before=before, after=values)
    return row.id


def _info(s: Session, r: OncallShift) -> ShiftInfo:
    def name(uid):
        u = s.get(User, uid) if uid else None
        return u.display_name if u else None
    site = s.get(Site, r.site_id) if r.site_id else None
    return ShiftInfo(r.id, r.site_id, site.name if site else None, r.region_code, r.week_start, r.primary_id,
                     name(r.primary_id), r.secondary_id, name(r.secondary_id), r.manager_id, name(r.manager_id),
                     r.phone, r.handover_note, r.version)


def shifts(db: Database, *, week: dt.date | None = None) -> list[ShiftInfo]:
    with db.session() as s:
        q = select(OncallShift).order_by(OncallShift.week_start.desc(), OncallShift.site_id)
        if week is not None:
            q = q.where(OncallShift.week_start == week_start(week))
        return [_info(s, r) for r in s.execute(q).scalars()]


def shift_in(s: Session, site_id: int | None, at: dt.datetime) -> OncallShift | None:
    """The shift covering a site at an instant: the site's own, else its region's, else any of the week."""
    start = week_start(local_date(at))
    rows = list(s.execute(select(OncallShift).where(OncallShift.week_start == start)).scalars())
    if site_id is not None:
        own = next((r for r in rows if r.site_id == site_id), None)
        if own:
            return own
        site = s.get(Site, site_id)
        if site is not None:
            region = next((r for r in rows if r.site_id is None and r.region_code and
                           site.region_code.startswith(r.region_code.rstrip("0")[:2])), None)
            if region:
                return region
    return rows[0] if rows else None


def on_call_now(db: Database, at: dt.datetime | None = None) -> list[ShiftInfo]:
    at = at or dt.datetime.now(UTC)
    with db.session() as s:
        start = week_start(local_date(at))
        return [_info(s, r) for r in s.execute(select(OncallShift).where(OncallShift.week_start == start)
                                               .order_by(OncallShift.site_id)).scalars()]


def notify_in(uow: UnitOfWork, user_id: int, reason: str, message: str, *, ticket_id: int | None = None,
              at: dt.datetime | None = None) -> Notification:
    n = Notification(user_id=user_id, ticket_id=ticket_id, at=at or dt.datetime.now(UTC), reason=reason,
                     message=message[:500])
    uow.session.add(n)
    uow.session.flush()
    u = uow.session.get(User, user_id)
    uow.audit("notification.send", "ticket" if ticket_id else "user", ticket_id or user_id, u.login if u else None,
              after={"user": u.login if u else user_id, "reason": reason, "message": message[:500]})
    return n


def escalate_in(uow: UnitOfWork, t: Ticket, level: int, now: dt.datetime) -> list[int]:
    """Raise a ticket's escalation to `level` and tell who has that duty (recorded)."""
    s = uow.session
    shift = shift_in(s, t.site_id, now)
    whom: list[int] = []
    if shift is not None:
        if level >= 1 and shift.secondary_id:
            whom.append(shift.secondary_id)
        if level >= 2 and shift.manager_id:
            whom.append(shift.manager_id)
        if shift.primary_id not in whom:
            whom.insert(0, shift.primary_id)
    who_label = {1: "secondary on call", 2: "site manager"}[level]
    message = (f"{t.number} {t.priority} not acknowledged in time (opened {local_text(t.opened_at)}): "
               f"escalated to the {who_label}. {t.title}")
    before = t.escalation
    t.escalation = level
    flush_versioned(uow, t, f"ticket {t.number}")
    s.add(TicketEvent(ticket_id=t.id, at=now, actor=uow.actor.login, kind="escalate", from_value=str(before),
                      to_value=str(level), note=message))
    uow.audit("ticket.escalate", "ticket", t.id, t.number, before={"escalation": before}, after={"escalation": level})
    ids = []
    for uid in dict.fromkeys(whom):
        ids.append(notify_in(uow, uid, f"escalation_{level}", message, ticket_id=t.id, at=now).id)
    phone = shift.phone if shift else None
    for notifier in NOTIFIERS:
        try:
            for uid in dict.fromkeys(whom):
                u = s.get(User, uid)
                notifier.send(phone, u.login if u else str(uid), message)
        except Exception:  # a gateway's failure must not lose the record: it is logged and the console still shows it
            log.exception("notifier %r failed for %s", notifier, t.number)
    return ids


@dataclass(frozen=True)
class NotificationRow:
    id: int
    ticket_id: int | None
    at: dt.datetime
    reason: str
    message: str
    seen: bool


def notifications_for(db: Database, user_id: int, *, unseen_only: bool = True, limit: int = 50) -> list[NotificationRow]:
    with db.session() as s:
        q = select(Notification).where(Notification.user_id == user_id).order_by(Notification.at.desc()).limit(limit)
        if unseen_only:
            q = q.where(Notification.seen_at.is_(None))
        return [NotificationRow(n.id, n.ticket_id, n.at, n.reason, n.message, n.seen_at is not None)
                for n in s.execute(q).scalars()]


def mark_seen(db: Database, actor: Actor, ids: list[int]) -> int:
    """The recipient saw them (only one's own)."""
    require(actor, "work_tickets")
    if not ids or actor.id is None:
        return 0
    with UnitOfWork(db, actor) as uow:
        rows = list(uow.session.execute(select(Notification).where(Notification.id.in_(ids),
                                                                  Notification.user_id == actor.id)).scalars())
        now = dt.datetime.now(UTC)
        for n in rows:
            n.seen_at = now
        uow.session.flush()
        if rows:
            uow.audit("notification.seen", "user", actor.id, actor.login, after={"ids": [n.id for n in rows]})
        uow.commit()
        return len(rows)

