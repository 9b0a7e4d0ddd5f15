"""Health events: NVIDIA XIDs and Ascend fault codes seen on a node, recorded with the catalogue's
action (app/domain/health.py). An event whose action is drain or service moves its node to
triage at the event's time (audited; the node's leased GPUs stop billing through the downtime
rule: app/services/clusters/nodes.py), and opens an incident ticket on the operations desk
(`open_incident`) naming the node and its customer.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import or_, select

from models import (Contract, ContractItem, Customer, Device, GpuAsset, GpuLease, GpuNode, HealthEvent, Rack,
                    Room)
from models.choices import (ContractStatus, HealthVendor, NodeState, TicketKind, TicketObjectType,
                            TicketPriority)

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, local_text, parse_instant
from app.domain.errors import DomainError, ValidationError
from app.domain.health import classify
from app.services.clusters.nodes import node_label, read_rows_file, set_node_state_in
from app.services.clusters.topology import find_node_in
from app.services.operations.tickets import Opened, open_ticket_in
from app.store.db import Database
from app.store.uow import UnitOfWork

# Nodes in these states are out of service already: an event on them is recorded, the state stays.
OUT_OF_SERVICE = frozenset({NodeState.TRIAGE, NodeState.RMA, NodeState.RETIRED, NodeState.ONBOARDING})


def open_incident(uow: UnitOfWork, node: GpuNode, event: HealthEvent, summary: str) -> Opened:
    """An incident ticket on the operations desk for a node a health event sent to triage, in the
    same unit of work (app/services/operations/tickets.open_ticket_in): the node's server as its
    object, the customer whose GPUs it holds (and their running contract) named, P2: the node is
    out of the customer's job, the rest of the cluster serves."""
    s = uow.session
    label = node_label(s, node)
    # opened when the event is recorded (the desk learns of it now: an imported old event does not
    # start its SLA clock in the past); the event's own time is in the description
    now = dt.datetime.now(dt.timezone.utc)
    at = min(event.at, now)
    customer_id = s.execute(select(GpuAsset.customer_id).where(GpuAsset.device_id == node.device_id,
                                                               GpuAsset.customer_id.is_not(None))
                            .order_by(GpuAsset.slot).limit(1)).scalar()
    customer = s.get(Customer, customer_id) if customer_id else None
    contract_id = s.execute(
        select(Contract.id).join(ContractItem, ContractItem.contract_id == Contract.id)
        .join(GpuLease, GpuLease.contract_item_id == ContractItem.id).join(GpuAsset, GpuAsset.id == GpuLease.gpu_id)
        .where(GpuAsset.device_id == node.device_id, Contract.status == ContractStatus.ACTIVE,
               Contract.customer_id == customer_id, GpuLease.start <= at,
               or_(GpuLease.end.is_(None), GpuLease.end > at))
        .order_by(Contract.id.desc()).limit(1)).scalar() if customer_id else None
    site_id = s.execute(select(Room.site_id).join(Rack, Rack.room_id == Room.id).join(Device, Device.rack_id == Rack.id)
                        .where(Device.id == node.device_id)).scalar()
    whose = f" ({customer.name})" if customer else " (no tenant)"
    values = dict(title=f"{label}{whose}: {summary}"[:255], kind=TicketKind.INCIDENT, priority=TicketPriority.P2,
                  customer_id=customer_id, contact_id=None, channel=None, contract_id=contract_id, site_id=site_id,
                  description=(f"Health event on node {label}" + (f", customer {customer.name}" if customer else "")
                               + f" at {local_text(event.at)}: {summary}. The node is in triage (health event"
                               f" #{event.id})."),
                  assignee_id=None, task=None, urgency=None, requested_for=None, carrier=None, tracking_no=None,
                  received_by=None, stored_where=None, delivered_rack_id=None)
    return open_ticket_in(uow, values, [(TicketObjectType.DEVICE, node.device_id)], now)


@dataclass
class HealthImportResult:
    events: int = 0
    triaged: list[str] = field(default_factory=list)  # "node: XID 79 … → triage"
    unknown: list[str] = field(default_factory=list)  # codes not in the catalogue (recorded, action none)


def read_events_file(path: str | Path) -> list[dict]:
    """An events file: CSV (node, gpu, at, vendor, code, note) or JSON (a list of such objects)."""
    return read_rows_file(path)


def record_event_in(uow: UnitOfWork, node: GpuNode, *, vendor: str, code: str, at: dt.datetime,
                    gpu: GpuAsset | None = None, note: str | None = None, source: str,
                    result: HealthImportResult | None = None) -> HealthEvent:
    s = uow.session
    if vendor not in HealthVendor.values():
        raise ValidationError({"vendor": f"vendor is {' or '.join(HealthVendor.values())}"})
    fault = classify(vendor, code)
    label = node_label(s, node)
    ev = HealthEvent(node_id=node.id, gpu_id=gpu.id if gpu else None, at=at, vendor=vendor, code=fault.code,
                     action=fault.action, note=(note or "").strip() or None, source=source[:128])
    s.add(ev)
    s.flush()
    what = f"{'XID' if vendor == 'nvidia' else 'Ascend'} {fault.code}"
    uow.audit("health.event", "health_event", ev.id, f"{label} {what}",
              after={"node": label, "gpu": gpu.serial if gpu else None, "at": at, "code": fault.code,
                     "action": fault.action, "meaning": fault.meaning})
    if result is not None:
        result.events += 1
        if not fault.known:
            result.unknown.append(f"{label}: {what}")
    if fault.moves_to_triage and node.state not in OUT_OF_SERVICE:
        where = f" on {gpu.serial}" if gpu else ""
        summary = f"{what}{where} ({fault.meaning}); catalogue action: {fault.action}"
        before = node.state
        set_node_state_in(uow, node, NodeState.TRIAGE, summary, at=min(at, dt.datetime.now(dt.timezone.utc)))
        ticket = open_incident(uow, node, ev, summary)
        if result is not None:
            result.triaged.append(f"{label}: {what} — {NodeState.label(before)} → {NodeState.label(NodeState.TRIAGE)}"
                                  f" (ticket {ticket.number})")
    return ev


def record_health_event(db: Database, actor: Actor, node: int | str, *, vendor: str, code: str,
                        at: dt.datetime | None = None, gpu: str | None = None, note: str | None = None) -> int:
    """One event typed by a person (the source is their login)."""
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        n = find_node_in(s, node)
        g = _gpu_of(s, n, gpu) if gpu else None
        ev = record_event_in(uow, n, vendor=vendor, code=code, at=at or dt.datetime.now(dt.timezone.utc), gpu=g,
                             note=note, source=uow.actor.login)
        uow.commit()
        return ev.id


def _gpu_of(s, node: GpuNode, serial: str) -> GpuAsset:
    g = s.execute(select(GpuAsset).where(GpuAsset.serial == serial.strip())).scalar_one_or_none()
    if g is None:
        raise ValidationError({"gpu": f"no GPU with serial {serial}"})
    if g.device_id != node.device_id:
        raise ValidationError({"gpu": f"GPU {serial} is not in {node_label(s, node)}"})
    return g


def import_health_events(db: Database, actor: Actor, rows: list[dict], *, source: str) -> HealthImportResult:
    """`health import`: every row or none (a bad row is refused with its number)."""
    require(actor, "manage_gpus")
    out = HealthImportResult()
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        parsed = []
        for i, row in enumerate(rows, start=1):
            try:
                node = find_node_in(s, str(row.get("node") or "").strip())
                vendor = str(row.get("vendor") or "").strip().lower()
                if vendor in ("huawei", "昇腾"):
                    vendor = "ascend"
                code = str(row.get("code") or "").strip()
                if not code:
                    raise ValidationError({"code": "the event's code (an XID number or an Ascend fault code)"})
                at = parse_instant(row.get("at"), what="event time")
                if at is None:
                    raise ValidationError({"at": "the event's time (YYYY-MM-DD HH:MM, Shanghai)"})
                gpu = _gpu_of(s, node, str(row["gpu"])) if str(row.get("gpu") or "").strip() else None
                if vendor not in HealthVendor.values():
                    raise ValidationError({"vendor": f"vendor is {' or '.join(HealthVendor.values())}, not {vendor!r}"})
            except DateError as exc:
                raise ValidationError({f"row {i}": str(exc)}) from None
            except DomainError as exc:
                raise ValidationError({f"row {i}": exc.message}) from None
            parsed.append((at, i, node, vendor, code, gpu, row.get("note")))
        for at, _i, node, vendor, code, gpu, note in sorted(parsed, key=lambda r: (r[0], r[1])):
            record_event_in(uow, node, vendor=vendor, code=code, at=at, gpu=gpu, note=note, source=source, result=out)
        uow.commit()
    return out
