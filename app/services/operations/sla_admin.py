"""What an administrator sets of the SLA: the targets per priority (acknowledge, arrive on site, resolve)
of a service level (the default of every contract whose region has that coverage level) or of one
contract (which overrides its level's), and each calendar's mode and business hours per weekday.
The clocks read these rows (sla.load_rules); they are computed from each ticket's history, so a change
applies to every ticket's clock at once, paused minutes kept."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from models import Contract, Customer, SlaCalendar, SlaTarget
from models.choices import CalendarMode, ContractStatus, ServiceLevel, TicketPriority

from app.domain import messages as m
from app.domain import sla as S
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.store.db import Database
from app.store.found import get_or_404
from app.store.uow import UnitOfWork

PRIORITIES = tuple(TicketPriority.values())


@dataclass(frozen=True)
class CalendarRow:
    id: int
    name: str
    mode: str
    hours: str | None
    follows_holidays: bool


@dataclass(frozen=True)
class TargetRow:
    priority: str
    calendar_id: int
    ack_minutes: int
    onsite_minutes: int | None
    resolve_minutes: int
    own: bool            # set on this scope (False: the contract follows its service level's row)


def calendars(db: Database) -> list[CalendarRow]:
    with db.session() as s:
        return [CalendarRow(c.id, c.name, c.mode, c.hours, c.follows_holidays)
                for c in s.execute(select(SlaCalendar).order_by(SlaCalendar.id)).scalars()]


def contract_choices(db: Database) -> list[tuple[int, str, str]]:
    """(id, number, customer) of the contracts a target can be set on: neither expired nor terminated."""
    with db.session() as s:
        return [tuple(r) for r in s.execute(
            select(Contract.id, Contract.number, Customer.name).join(Customer, Customer.id == Contract.customer_id)
            .where(Contract.status.not_in((ContractStatus.EXPIRED, ContractStatus.TERMINATED)))
            .order_by(Contract.number))]


def targets_of(db: Database, *, service_level: str | None = None, contract_id: int | None = None) -> list[TargetRow]:
    """The four priorities' targets of a service level, or of a contract (its own rows, else its level's
    default when `service_level` is given with it)."""
    with db.session() as s:
        rows = {}
        if service_level is not None:
            for t in s.execute(select(SlaTarget).where(SlaTarget.service_level == service_level)).scalars():
                rows[t.priority] = TargetRow(t.priority, t.calendar_id, t.ack_minutes, t.onsite_minutes,
                                             t.resolve_minutes, contract_id is None)
        if contract_id is not None:
            for t in s.execute(select(SlaTarget).where(SlaTarget.contract_id == contract_id)).scalars():
                rows[t.priority] = TargetRow(t.priority, t.calendar_id, t.ack_minutes, t.onsite_minutes,
                                             t.resolve_minutes, True)
        return [rows[p] for p in PRIORITIES if p in rows]


def _minutes(value, field: str, errors: dict, *, optional: bool = False) -> int | None:
    if value in (None, "") and optional:
        return None
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        n = 0
    if n <= 0 or n > 525_600:                     # at most a year
        errors[field] = m.SLA_MINUTES()
        return None
    return n


def set_targets(db: Database, actor: Actor, targets: dict[str, dict], *, service_level: str | None = None,
                contract_id: int | None = None) -> int:
    """Write the targets of one scope, `{priority: {calendar_id, ack_minutes, onsite_minutes (or None),
    resolve_minutes}}`; returns how many rows changed. One unit of work: all or nothing, audited per row."""
    require(actor, "manage_sla")
    if (service_level is None) == (contract_id is None):
        raise ValidationError({"scope": m.SLA_SCOPE()})
    if service_level is not None and service_level not in ServiceLevel.values():
        raise ValidationError({"service_level": m.SLA_LEVEL(service_level, ", ".join(ServiceLevel.values()))})
    errors, clean = {}, {}
    for p, t in targets.items():
        if p not in PRIORITIES:
            errors[p] = m.SLA_PRIORITY(p)
            continue
        ack = _minutes(t.get("ack_minutes"), f"{p}.ack_minutes", errors)
        onsite = _minutes(t.get("onsite_minutes"), f"{p}.onsite_minutes", errors, optional=True)
        resolve = _minutes(t.get("resolve_minutes"), f"{p}.resolve_minutes", errors)
        if ack and resolve and ack > resolve:
            errors[f"{p}.resolve_minutes"] = m.SLA_ORDER(p)
        clean[p] = {"calendar_id": t.get("calendar_id"), "ack_minutes": ack, "onsite_minutes": onsite,
                    "resolve_minutes": resolve}
    if errors:
        raise ValidationError(errors)
    changed = 0
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        label = service_level
        if contract_id is not None:
            label = get_or_404(s, Contract, contract_id, "contract").number
        for p, values in clean.items():
            get_or_404(s, SlaCalendar, values["calendar_id"], "SLA calendar")
            scope = (SlaTarget.contract_id == contract_id) if contract_id is not None else \
                (SlaTarget.service_level == service_level)
            row = s.execute(select(SlaTarget).where(scope, SlaTarget.priority == p)).scalar()
            before = None if row is None else {k: getattr(row, k) for k in values}
            if before == values:
                continue
            if row is None:
                row = SlaTarget(contract_id=contract_id, service_level=service_level, priority=p, **values,
                                updated_by=actor.login)
                s.add(row)
            else:
                for k, v in values.items():
                    setattr(row, k, v)
                row.updated_by = actor.login
            s.flush()
            uow.audit("sla_target.set", "sla_target", row.id, f"{label} {p}", before=before,
                      after=dict(values, priority=p, contract_id=contract_id, service_level=service_level))
            changed += 1
        uow.commit()
    return changed


def set_calendar(db: Database, actor: Actor, calendar_id: int, *, mode: str, hours: str | None,
                 follows_holidays: bool) -> bool:
    """A calendar's mode (7×24 or business hours), its hours per weekday ("mon 09:00-18:00; …") and
    whether it follows China's holidays and make-up days; True when it changed."""
    require(actor, "manage_sla")
    if mode not in CalendarMode.values():
        raise ValidationError({"mode": m.SLA_MODE(", ".join(CalendarMode.values()))})
    hours = (hours or "").strip() or None
    if mode == CalendarMode.ALWAYS:
        hours = None
    else:
        try:
            parsed = S.parse_hours(hours)
        except ValueError as exc:
            raise ValidationError({"hours": m.SLA_HOURS(str(exc))}) from None
        if not parsed:
            raise ValidationError({"hours": m.SLA_NO_HOURS()})
    with UnitOfWork(db, actor) as uow:
        cal = get_or_404(uow.session, SlaCalendar, calendar_id, "SLA calendar")
        before = {"mode": cal.mode, "hours": cal.hours, "follows_holidays": cal.follows_holidays}
        after = {"mode": mode, "hours": hours, "follows_holidays": bool(follows_holidays)}
        if before == after:
            return False
        cal.mode, cal.hours, cal.follows_holidays = mode, hours, bool(follows_holidays)
        cal.updated_by = actor.login
        uow.session.flush()
        uow.audit("sla_calendar.update", "sla_calendar", cal.id, cal.name, before=before, after=after)
        uow.commit()
    return True
