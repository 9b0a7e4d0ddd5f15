"""Tickets: open (prefilled from an object), acknowledge, move, note, attach, assign, change the
priority, reopen, close; down hours through the billing's downtime rule. Every move and note is a
ticket_event (the timeline the SLA clock is computed from) and an audit event, in one unit of work."""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import (Contact, Contract, ContractItem, CrossConnect, Customer, Device, GpuAsset, GpuLease, PowerFeed,
                    Rack, Room, SpaceLease, Ticket, TicketAttachment, TicketEvent, TicketObject, User)
from models.choices import (ContactChannel, ContractStatus, HandsUrgency, NoteVisibility, RemoteTask, TicketKind,
                            TicketObjectType, TicketPriority, TicketState)

from app.domain.actor import Actor
from app.domain.auth import can, require
from app.domain.clock import local_text
from app.domain import messages as m
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.messages import listed
from app.store.db import Database
from app.store.uow import UnitOfWork
from app.services.entities import flush_versioned, get_or_404
from app.read.settings import TICKET_ATTACHMENT_KB, TICKET_REOPEN_DAYS, setting_in

UTC = dt.timezone.utc
# what a ticket's timeline records (ticket_event.kind)
OPEN, STATE, PRIORITY, NOTE, ASSIGN, ATTACH, ESCALATE, SLA, DOWNTIME = (
    "open", "state", "priority", "note", "assign", "attach", "escalate", "sla", "downtime")


@dataclass(frozen=True)
class Opened:
    id: int
    number: str


@dataclass(frozen=True)
class Prefill:
    """What "Open a ticket for this" fills in from a rack, device, GPU, cross-connect or feed."""

    object_type: str
    object_id: int
    label: str
    customer_id: int | None
    contract_id: int | None
    site_id: int | None
    title: str


def _now(at: dt.datetime | None) -> dt.datetime:
    if at is None:
        return dt.datetime.now(UTC)
    if at.tzinfo is None:
        raise ValidationError({"at": m.TICKET_AT_AWARE()})
    if at > dt.datetime.now(UTC) + dt.timedelta(minutes=5):
        raise ValidationError({"at": m.TICKET_AT_FUTURE(local_text(at))})
    return at.astimezone(UTC)


def _state(value: str):
    """A ticket's state inside a sentence: its label, translated on its own."""
    label = TicketState.label(value)
    return m.TICKET_STATE_LABEL[label]() if label in m.TICKET_STATE_LABEL else label


def ticket_number(year: int, ticket_id: int) -> str:
    return f"T-{year}-{ticket_id:06d}"


def find_ticket(s: Session, key: int | str, lock: bool = False) -> Ticket:
    """By id or by number (T-2026-000123)."""
    q = select(Ticket)
    if isinstance(key, int) or str(key).isdigit():
        q = q.where(Ticket.id == int(key))
    else:
        q = q.where(Ticket.number == str(key).strip().upper())
    if lock:
        q = q.with_for_update()
    t = s.execute(q).scalar_one_or_none()
    if t is None:
        raise NotFound(m.TICKET_NOT_FOUND(key))
    return t


def _event(uow: UnitOfWork, t: Ticket, kind: str, at: dt.datetime, *, from_value=None, to_value=None,
           note: str | None = None, visibility: str = NoteVisibility.INTERNAL, audit: str | None = None,
           extra: dict | None = None) -> TicketEvent:
    last = uow.session.execute(select(func.max(TicketEvent.at)).where(TicketEvent.ticket_id == t.id)).scalar()
    if last is not None and at < last:
        raise ValidationError({"at": m.TICKET_AT_BEFORE_LAST(local_text(last))})
    ev = TicketEvent(ticket_id=t.id, at=at, actor=uow.actor.login, kind=kind, from_value=from_value,
                     to_value=to_value, note=note, visibility=visibility)
    uow.session.add(ev)
    uow.session.flush()
    uow.audit(audit or f"ticket.{kind}", "ticket", t.id, t.number,
              before={"state": from_value} if kind == STATE else ({"priority": from_value} if kind == PRIORITY else None),
              after=dict({k: v for k, v in (("state", t.state), ("priority", t.priority)) if kind in (STATE, PRIORITY)},
                         event=ev.id, at=at, **({"note": note} if note else {}),
                         **({"value": to_value} if to_value and kind not in (STATE, PRIORITY) else {}),
                         **(extra or {})))
    return ev


# --- prefill from an object -------------------------------------------------------------------

def _site_of_rack(s: Session, rack_id: int | None) -> int | None:
    if rack_id is None:
        return None
    return s.execute(select(Room.site_id).join(Rack, Rack.room_id == Room.id).where(Rack.id == rack_id)).scalar()


def _active_contract(s: Session, item_ids: list[int]) -> int | None:
    if not item_ids:
        return None
    return s.execute(select(Contract.id).join(ContractItem, ContractItem.contract_id == Contract.id)
                     .where(ContractItem.id.in_(item_ids), Contract.status == ContractStatus.ACTIVE)
                     .order_by(Contract.id.desc()).limit(1)).scalar()


def _gpu_items(s: Session, gpu_ids: list[int], at: dt.datetime) -> list[int]:
    if not gpu_ids:
        return []
    return list(s.execute(select(GpuLease.contract_item_id).where(
        GpuLease.gpu_id.in_(gpu_ids), GpuLease.start <= at,
        (GpuLease.end.is_(None)) | (GpuLease.end > at))).scalars())


@dataclass(frozen=True)
class ContactOption:
    id: int
    name: str
    role: str | None
    phone: str | None
    email: str | None


def ticket_contacts(db: Database, customer_id: int | None) -> list[ContactOption]:
    """The customer's contacts, for "who raised it" on a new ticket."""
    if customer_id is None:
        return []
    with db.session() as s:
        return [ContactOption(*r) for r in s.execute(
            select(Contact.id, Contact.name, Contact.role, Contact.phone, Contact.email)
            .where(Contact.customer_id == customer_id).order_by(Contact.id))]


def prefill_for(db: Database, object_type: str, object_id: int, at: dt.datetime | None = None) -> Prefill:
    """The customer, contract and site of an object, for a new ticket about it."""
    at = _now(at)
    with db.session() as s:
        customer = contract = site = None
        if object_type == TicketObjectType.GPU:
            g = get_or_404(s, GpuAsset, object_id, "GPU")
            label = g.serial
            customer = g.customer_id
            contract = _active_contract(s, _gpu_items(s, [g.id], at))
            if g.device_id:
                d = s.get(Device, g.device_id)
                site = _site_of_rack(s, d.rack_id) if d else None
        elif object_type == TicketObjectType.DEVICE:
            d = get_or_404(s, Device, object_id, "device")
            label = d.name
            site = _site_of_rack(s, d.rack_id)
            gpus = list(s.execute(select(GpuAsset.id, GpuAsset.customer_id).where(GpuAsset.device_id == d.id)).all())
            items = _gpu_items(s, [g for g, _c in gpus], at)
            items += list(s.execute(select(ContractItem.id).where(ContractItem.device_id == d.id)).scalars())
            contract = _active_contract(s, items)
            customer = d.owner_customer_id or next((c for _g, c in gpus if c), None)
        elif object_type == TicketObjectType.RACK:
            r = get_or_404(s, Rack, object_id, "rack")
            label = r.name
            site = _site_of_rack(s, r.id)
            today = at.date()
            lease = s.execute(select(SpaceLease).where(SpaceLease.rack_id == r.id, SpaceLease.start_date <= today,
                                                       (SpaceLease.end_date.is_(None)) | (SpaceLease.end_date >= today))
                              .limit(1)).scalar()
            customer = lease.customer_id if lease else None
            contract = _active_contract(s, list(s.execute(select(ContractItem.id).where(ContractItem.rack_id == r.id))
                                                .scalars()))
        elif object_type == TicketObjectType.XCONNECT:
            x = get_or_404(s, CrossConnect, object_id, "cross-connect")
            label, customer, site = x.reference, x.customer_id, _site_of_rack(s, x.rack_id)
        elif object_type in (TicketObjectType.FEED, TicketObjectType.CIRCUIT):
            f = get_or_404(s, PowerFeed, object_id, "power feed")
            label, site = f.name, _site_of_rack(s, f.rack_id)
            # a circuit sold on a contract (its kind-power item): that contract, and its customer below
            contract = _active_contract(s, [f.contract_item_id] if f.contract_item_id else [])
        else:
            raise ValidationError({"object_type": m.TICKET_OPEN_FROM(", ".join(TicketObjectType.values()))})
        if contract is not None and customer is None:
            customer = s.get(Contract, contract).customer_id
        return Prefill(object_type, object_id, label, customer, contract, site,
                       f"{TicketObjectType.label(object_type)} {label}")


# --- opening -----------------------------------------------------------------------------------

def _validate_open(s: Session, v: dict) -> dict:
    errors = {}
    if not (v.get("title") or "").strip():
        errors["title"] = m.TICKET_TITLE()
    if v["kind"] not in TicketKind.values():
        errors["kind"] = m.TICKET_ONE_OF(", ".join(TicketKind.values()))
    if v["priority"] not in TicketPriority.values():
        errors["priority"] = m.TICKET_PRIORITY()
    if v.get("channel") and v["channel"] not in ContactChannel.values():
        errors["channel"] = m.TICKET_ONE_OF(", ".join(ContactChannel.values()))
    if v.get("task") and v["task"] not in RemoteTask.values():
        errors["task"] = m.TICKET_ONE_OF(", ".join(RemoteTask.values()))
    if v.get("urgency") and v["urgency"] not in HandsUrgency.values():
        errors["urgency"] = m.TICKET_ONE_OF(", ".join(HandsUrgency.values()))
    if v.get("urgency") == HandsUrgency.SCHEDULED and not v.get("requested_for"):
        errors["requested_for"] = m.TICKET_REQUESTED_FOR()
    if v["kind"] == TicketKind.REMOTE_HANDS and not v.get("task"):
        errors["task"] = m.TICKET_TASK()
    if v["kind"] == TicketKind.SHIPMENT and not (v.get("carrier") and v.get("tracking_no")):
        errors["tracking_no"] = m.TICKET_TRACKING()
    if v.get("contact_id"):
        c = s.get(Contact, v["contact_id"])
        if c is None or (v.get("customer_id") and c.customer_id != v["customer_id"]):
            errors["contact_id"] = m.TICKET_CONTACT()
    if v.get("contract_id"):
        c = s.get(Contract, v["contract_id"])
        if c is None:
            errors["contract_id"] = m.TICKET_NO_CONTRACT()
        elif v.get("customer_id") and c.customer_id != v["customer_id"]:
            errors["contract_id"] = m.TICKET_CONTRACT()
    if v.get("customer_id") and s.get(Customer, v["customer_id"]) is None:
        errors["customer_id"] = m.TICKET_NO_CUSTOMER()
    if v.get("assignee_id") and s.get(User, v["assignee_id"]) is None:
        errors["assignee_id"] = m.TICKET_NO_USER()
    if errors:
        raise ValidationError(errors)
    return v


def _object_label(s: Session, object_type: str, object_id: int) -> str:
    model, field, what = {
        TicketObjectType.RACK: (Rack, "name", "rack"), TicketObjectType.DEVICE: (Device, "name", "device"),
        TicketObjectType.GPU: (GpuAsset, "serial", "GPU"), TicketObjectType.XCONNECT: (CrossConnect, "reference", "cross-connect"),
        TicketObjectType.FEED: (PowerFeed, "name", "power feed"), TicketObjectType.CIRCUIT: (PowerFeed, "name", "circuit"),
        TicketObjectType.SPACE_LEASE: (SpaceLease, "id", "lease"),
    }.get(object_type, (None, None, None))
    if model is None:
        raise ValidationError({"objects": m.TICKET_OBJECT(", ".join(TicketObjectType.values()))})
    obj = get_or_404(s, model, object_id, what)
    return str(getattr(obj, field))[:128]


def open_ticket(db: Database, actor: Actor, *, title: str, kind: str = TicketKind.INCIDENT,
                priority: str = TicketPriority.P3, customer_id: int | None = None, contact_id: int | None = None,
                channel: str | None = None, contract_id: int | None = None, site_id: int | None = None,
                objects: list[tuple[str, int]] = (), description: str | None = None,
                assignee_id: int | None = None, task: str | None = None, urgency: str | None = None,
                requested_for: dt.datetime | None = None, carrier: str | None = None, tracking_no: str | None = None,
                received_by: str | None = None, stored_where: str | None = None,
                delivered_rack_id: int | None = None, at: dt.datetime | None = None) -> Opened:
    require(actor, "raise_tickets")
    at = _now(at)
    values = dict(title=(title or "").strip()[:255], kind=kind, priority=priority, customer_id=customer_id,
                  contact_id=contact_id, channel=channel, contract_id=contract_id, site_id=site_id,
                  description=(description or "").strip() or None, assignee_id=assignee_id, task=task,
                  urgency=urgency, requested_for=requested_for, carrier=carrier, tracking_no=tracking_no,
                  received_by=received_by, stored_where=stored_where, delivered_rack_id=delivered_rack_id)
    with UnitOfWork(db, actor) as uow:
        opened = open_ticket_in(uow, values, objects, at)
        uow.commit()
        return opened


def open_ticket_in(uow: UnitOfWork, values: dict, objects, at: dt.datetime) -> Opened:
    """Open a ticket inside the caller's unit of work (the console, the CLI and `import tickets`)."""
    s = uow.session
    actor = uow.actor
    _validate_open(s, values)
    labels = [(ot, oid, _object_label(s, ot, oid)) for ot, oid in dict.fromkeys(objects or ())]
    t = Ticket(**values, state=TicketState.NEW, opened_at=at, opened_by=actor.login, updated_by=actor.login)
    s.add(t)
    s.flush()
    t.number = ticket_number(at.astimezone(dt.timezone(dt.timedelta(hours=8))).year, t.id)
    for ot, oid, label in labels:
        s.add(TicketObject(ticket_id=t.id, object_type=ot, object_id=oid, label=label))
    s.flush()
    uow.audit("ticket.create", "ticket", t.id, t.number,
              after={k: v for k, v in values.items() if v is not None} | {
                  "number": t.number, "state": t.state, "opened_at": at,
                  "objects": [f"{ot}:{oid}" for ot, oid, _l in labels]})
    s.add(TicketEvent(ticket_id=t.id, at=at, actor=actor.login, kind=OPEN, to_value=t.state,
                      note=values["description"]))
    s.flush()
    return Opened(t.id, t.number)


# --- moves ---------------------------------------------------------------------------------------

def allowed_moves(state: str) -> tuple[str, ...]:
    return TicketState.TRANSITIONS.get(state, ())


def move_ticket(db: Database, actor: Actor, key: int | str, state: str, *, note: str | None = None,
                at: dt.datetime | None = None, expected_version: int | None = None) -> str:
    """Move a ticket along its lifecycle (new → acknowledged → on site → in progress → waiting →
    resolved → closed). Resolving needs a note saying what was done."""
    require(actor, "work_tickets")
    at = _now(at)
    if state not in TicketState.values():
        raise ValidationError({"state": m.TICKET_ONE_OF(", ".join(TicketState.values()))})
    with UnitOfWork(db, actor) as uow:
        t = find_ticket(uow.session, key, lock=True)
        if expected_version is not None and t.version != expected_version:
            from app.services.entities import check_version
            check_version(t, expected_version, f"ticket {t.number}")
        if state == TicketState.IN_PROGRESS and t.state in (TicketState.RESOLVED,):
            raise RuleViolation(m.TICKET_RESOLVED(t.number))
        if state not in allowed_moves(t.state):
            moves = listed(_state(x) for x in allowed_moves(t.state)) or m.TICKET_NO_MOVES()
            raise RuleViolation(m.TICKET_CANNOT_MOVE(t.number, _state(t.state), moves, _state(state)))
        if state == TicketState.RESOLVED and not (note and note.strip()):
            raise ValidationError({"note": m.TICKET_RESOLVE_NOTE()})
        before = t.state
        t.state = state
        if state == TicketState.RESOLVED:
            t.resolved_at = at
        if state == TicketState.CLOSED:
            t.closed_at = at
        flush_versioned(uow, t, f"ticket {t.number}")
        _event(uow, t, STATE, at, from_value=before, to_value=state, note=(note or "").strip() or None,
               visibility=NoteVisibility.CUSTOMER if state == TicketState.RESOLVED else NoteVisibility.INTERNAL,
               extra={"resolved_at": at} if state == TicketState.RESOLVED else
               ({"closed_at": at} if state == TicketState.CLOSED else None))
        uow.commit()
        return state


def acknowledge(db: Database, actor: Actor, key: int | str, *, at: dt.datetime | None = None) -> str:
    """Acknowledge a new ticket (stops the acknowledge clock); unassigned, it is the acknowledger's."""
    require(actor, "work_tickets")
    state = move_ticket(db, actor, key, TicketState.ACKNOWLEDGED, at=at)
    with db.session() as s:
        t = find_ticket(s, key)
        unassigned = t.assignee_id is None
    if unassigned and actor.id is not None:
        assign(db, actor, key, actor.id, at=at)
    return state


def reopen_ticket(db: Database, actor: Actor, key: int | str, reason: str, *, at: dt.datetime | None = None) -> str:
    """A resolved (or closed) ticket back to work, within the reopen setting's days of its resolution;
    the resolve clock runs on from the minutes it had."""
    require(actor, "work_tickets")
    at = _now(at)
    if not (reason and reason.strip()):
        raise ValidationError({"reason": m.TICKET_REOPEN_REASON()})
    with UnitOfWork(db, actor) as uow:
        t = find_ticket(uow.session, key, lock=True)
        if t.state not in (TicketState.RESOLVED, TicketState.CLOSED):
            raise RuleViolation(m.TICKET_NOT_REOPENABLE(t.number, _state(t.state)))
        days = setting_in(uow.session, TICKET_REOPEN_DAYS)
        if t.resolved_at is not None and at - t.resolved_at > dt.timedelta(days=days):
            raise RuleViolation(m.TICKET_REOPEN_LATE(t.number, local_text(t.resolved_at), days))
        before = t.state
        t.state = TicketState.IN_PROGRESS
        t.closed_at = None
        flush_versioned(uow, t, f"ticket {t.number}")
        _event(uow, t, STATE, at, from_value=before, to_value=t.state, note=reason.strip(), audit="ticket.reopen",
               extra={"closed_at": None})
        uow.commit()
        return t.state


def change_priority(db: Database, actor: Actor, key: int | str, priority: str, reason: str, *,
                    at: dt.datetime | None = None) -> str:
    """A new priority: every SLA clock is recomputed from the history against its targets."""
    require(actor, "work_tickets")
    at = _now(at)
    if priority not in TicketPriority.values():
        raise ValidationError({"priority": m.TICKET_PRIORITY()})
    if not (reason and reason.strip()):
        raise ValidationError({"reason": m.TICKET_PRIORITY_REASON()})
    with UnitOfWork(db, actor) as uow:
        t = find_ticket(uow.session, key, lock=True)
        if t.state == TicketState.CLOSED:
            raise RuleViolation(m.TICKET_CLOSED(t.number))
        if t.priority == priority:
            raise RuleViolation(m.TICKET_SAME_PRIORITY(t.number, priority))
        before = t.priority
        t.priority = priority
        flush_versioned(uow, t, f"ticket {t.number}")
        _event(uow, t, PRIORITY, at, from_value=before, to_value=priority, note=reason.strip())
        uow.commit()
        return priority


def add_note(db: Database, actor: Actor, key: int | str, text: str, *, visibility: str = NoteVisibility.INTERNAL,
             at: dt.datetime | None = None) -> int:
    require(actor, "raise_tickets")
    at = _now(at)
    if not (text and text.strip()):
        raise ValidationError({"note": m.TICKET_NOTE()})
    if visibility not in NoteVisibility.values():
        raise ValidationError({"visibility": m.TICKET_VISIBILITY()})
    with UnitOfWork(db, actor) as uow:
        t = find_ticket(uow.session, key, lock=True)
        ev = _event(uow, t, NOTE, at, note=text.strip(), visibility=visibility)
        uow.commit()
        return ev.id


def assign(db: Database, actor: Actor, key: int | str, user_id: int | None, *, at: dt.datetime | None = None) -> None:
    require(actor, "work_tickets")
    at = _now(at)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        t = find_ticket(s, key, lock=True)
        user = get_or_404(s, User, user_id, "user") if user_id is not None else None
        if user is not None and (not user.active or user.role not in ("operator", "admin")):
            raise RuleViolation(m.TICKET_ASSIGNEE(user.display_name))
        before = t.assignee_id
        t.assignee_id = user_id
        flush_versioned(uow, t, f"ticket {t.number}")
        _event(uow, t, ASSIGN, at, from_value=str(before) if before else None,
               to_value=user.login if user else None, extra={"assignee_id": user_id})
        uow.commit()


def attach(db: Database, actor: Actor, key: int | str, filename: str, data: bytes, *,
           content_type: str | None = None, at: dt.datetime | None = None) -> int:
    """A photo or file kept in the database with the ticket; refused above the size setting."""
    require(actor, "raise_tickets")
    at = _now(at)
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name:
        raise ValidationError({"filename": m.TICKET_FILENAME()})
    if not data:
        raise ValidationError({"data": m.TICKET_FILE_EMPTY(name)})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        limit_kb = setting_in(s, TICKET_ATTACHMENT_KB)
        if len(data) > limit_kb * 1024:
            raise RuleViolation(m.TICKET_FILE_TOO_LARGE(name, f"{len(data) / 1024:,.0f}", f"{limit_kb:,}"))
        t = find_ticket(s, key, lock=True)
        digest = hashlib.sha256(data).hexdigest()
        a = TicketAttachment(ticket_id=t.id, filename=name[:255], content_type=(content_type or "")[:64] or None,
                             size=len(data), sha256=digest, data=data, added_at=at, added_by=actor.login)
        s.add(a)
        s.flush()
        _event(uow, t, ATTACH, at, to_value=str(a.id), note=f"{name} ({len(data):,} bytes, sha256 {digest[:12]}…)")
        uow.commit()
        return a.id


def attachment_bytes(db: Database, attachment_id: int) -> tuple[str, bytes]:
    with db.session() as s:
        a = get_or_404(s, TicketAttachment, attachment_id, "attachment")
        return a.filename, a.data


def record_ticket_downtime(db: Database, actor: Actor, key: int | str, *, start: dt.datetime,
                           end: dt.datetime | None = None, reason: str | None = None,
                           at: dt.datetime | None = None) -> list[int]:
    """Down hours of the ticket's GPUs or servers, through the one downtime rule of the billing
    (app/services/billing/downtime.record_downtime): those hours are not billed."""
    from app.services.billing.downtime import record_downtime

    require(actor, "work_tickets")
    with db.session() as s:
        t = find_ticket(s, key)
        number, ticket_id = t.number, t.id
        objs = list(s.execute(select(TicketObject.object_type, TicketObject.object_id)
                              .where(TicketObject.ticket_id == t.id,
                                     TicketObject.object_type.in_((TicketObjectType.GPU, TicketObjectType.DEVICE)))))
        why = (reason or t.title).strip()
    if not objs:
        raise RuleViolation(m.TICKET_NO_DOWN_OBJECT(number))
    ids = []
    for ot, oid in objs:
        ids.append(record_downtime(db, actor, start=start, end=end, reason=f"{number}: {why}"[:255],
                                   gpu_id=oid if ot == TicketObjectType.GPU else None,
                                   device_id=oid if ot == TicketObjectType.DEVICE else None))
    with UnitOfWork(db, actor) as uow:
        t = uow.session.get(Ticket, ticket_id)
        when = _now(at) if at is not None else (end.astimezone(UTC) if end is not None else _now(None))
        _event(uow, t, DOWNTIME, max(when, _last_at(uow.session, t.id)), to_value=",".join(map(str, ids)),
               note=f"{local_text(start)[:16]} – {local_text(end)[:16] if end else '…'}")
        uow.commit()
    return ids


def _last_at(s: Session, ticket_id: int) -> dt.datetime:
    return s.execute(select(func.max(TicketEvent.at)).where(TicketEvent.ticket_id == ticket_id)).scalar()


# --- reading ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EventRow:
    id: int
    at: dt.datetime
    actor: str | None
    kind: str
    from_value: str | None
    to_value: str | None
    note: str | None
    visibility: str


@dataclass(frozen=True)
class TicketView:
    id: int
    number: str
    kind: str
    state: str
    priority: str
    title: str
    description: str | None
    customer_id: int | None
    customer: str | None
    contact: str | None
    channel: str | None
    contract_id: int | None
    contract: str | None
    site_id: int | None
    assignee_id: int | None
    assignee: str | None
    opened_at: dt.datetime
    resolved_at: dt.datetime | None
    escalation: int
    version: int
    objects: tuple[tuple[str, int, str], ...]
    events: tuple[EventRow, ...]
    attachments: tuple[tuple[int, str, int], ...]
    moves: tuple[str, ...]


def get_ticket(db: Database, key: int | str) -> TicketView:
    with db.session() as s:
        t = find_ticket(s, key)
        cust = s.get(Customer, t.customer_id) if t.customer_id else None
        contact = s.get(Contact, t.contact_id) if t.contact_id else None
        contract = s.get(Contract, t.contract_id) if t.contract_id else None
        user = s.get(User, t.assignee_id) if t.assignee_id else None
        objs = tuple(s.execute(select(TicketObject.object_type, TicketObject.object_id, TicketObject.label)
                               .where(TicketObject.ticket_id == t.id).order_by(TicketObject.id)).all())
        evs = tuple(EventRow(e.id, e.at, e.actor, e.kind, e.from_value, e.to_value, e.note, e.visibility)
                    for e in s.execute(select(TicketEvent).where(TicketEvent.ticket_id == t.id)
                                       .order_by(TicketEvent.at, TicketEvent.id)).scalars())
        atts = tuple(s.execute(select(TicketAttachment.id, TicketAttachment.filename, TicketAttachment.size)
                               .where(TicketAttachment.ticket_id == t.id).order_by(TicketAttachment.id)).all())
        return TicketView(t.id, t.number, t.kind, t.state, t.priority, t.title, t.description, t.customer_id,
                          cust.name if cust else None, contact.name if contact else None, t.channel,
                          t.contract_id, contract.number if contract else None, t.site_id, t.assignee_id,
                          user.display_name if user else None, t.opened_at, t.resolved_at, t.escalation, t.version,
                          tuple(tuple(o) for o in objs), evs, tuple(tuple(a) for a in atts), allowed_moves(t.state))


def may_work(actor: Actor) -> bool:
    return can(actor, "work_tickets")
