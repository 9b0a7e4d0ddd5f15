"""Holds: offered nodes kept for a customer over a window while the deal is agreed.

A hold expires after the setting `capacity_hold_days` (default 7); the search treats it as gone
from that instant, and the sweep (`expire_holds`, called by the console's timer and by
`hold sweep`) records it as expired. Converting a hold moves it to the contract made from it: it
keeps its nodes while that contract is drafted, submitted and approved, after which the
contract's own GPUs take them.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from models import Customer, Device, GpuModel, Subsidiary
from models.capacity import CapacityHold, capacity_hold_node
from models.choices import HoldStatus
from models.cluster import GpuCluster, GpuNode

from app.domain.actor import Actor
from app.domain.auth import can, require
from app.domain.clock import local_text
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.services.capacity.search import free_nodes, window_of
from app.read.settings import CAPACITY_HOLD_DAYS, setting_in
from app.store.db import Database
from app.store.uow import UnitOfWork


@dataclass(frozen=True)
class HoldInfo:
    id: int
    number: str
    customer_id: int
    customer: str
    subsidiary_id: int
    gpu_model: str | None
    start_date: dt.date
    end_date: dt.date | None
    expires_at: dt.datetime
    status: str
    contract_id: int | None
    node_ids: tuple[int, ...]
    nodes: tuple[str, ...]      # the servers' names
    clusters: tuple[str, ...]
    gpus: int
    created_by: str
    version: int


def _info(s: Session, h: CapacityHold) -> HoldInfo:
    rows = s.execute(select(GpuNode.id, Device.name, GpuCluster.name)
                     .join(capacity_hold_node, capacity_hold_node.c.node_id == GpuNode.id)
                     .join(Device, Device.id == GpuNode.device_id).join(GpuCluster, GpuCluster.id == GpuNode.cluster_id)
                     .where(capacity_hold_node.c.hold_id == h.id).order_by(Device.name)).all()
    from models import GpuAsset

    gpus = s.execute(select(func.count()).select_from(GpuAsset).where(
        GpuAsset.device_id.in_([d for d in s.execute(select(GpuNode.device_id).join(
            capacity_hold_node, capacity_hold_node.c.node_id == GpuNode.id).where(
            capacity_hold_node.c.hold_id == h.id)).scalars()]))).scalar_one()
    model = s.get(GpuModel, h.gpu_model_id) if h.gpu_model_id else None
    return HoldInfo(h.id, h.number, h.customer_id, s.get(Customer, h.customer_id).name, h.subsidiary_id,
                    model.name if model else None, h.start_date, h.end_date, h.expires_at, h.status, h.contract_id,
                    tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(dict.fromkeys(r[2] for r in rows)),
                    int(gpus), h.created_by, h.version)


def find_numbered(s: Session, model: type, key: int | str, what: str):
    """A hold or a quote by its number (e.g. FZ-H2026-0001) or, failing that, by id."""
    text = str(key).strip()
    row = s.execute(select(model).where(model.number == text)).scalar_one_or_none()
    if row is None and text.isdigit():
        row = s.get(model, int(text))
    if row is None:
        raise NotFound(f"there is no {what} numbered {text}")
    return row


def find_hold(s: Session, key: int | str) -> CapacityHold:
    return find_numbered(s, CapacityHold, key, "hold")


def get_hold(db: Database, key: int | str) -> HoldInfo:
    with db.session() as s:
        return _info(s, find_hold(s, key))


def list_holds(db: Database, *, status: str | None = HoldStatus.ACTIVE) -> list[HoldInfo]:
    """Holds (the active ones by default), the soonest to expire first."""
    with db.session() as s:
        q = select(CapacityHold)
        if status:
            q = q.where(CapacityHold.status == status)
        return [_info(s, h) for h in s.execute(q.order_by(CapacityHold.expires_at, CapacityHold.id)).scalars()]


def hold_capacity_in(uow: UnitOfWork, *, customer_id: int, subsidiary_id: int, node_ids: list[int],
                     start: dt.date, end: dt.date | None = None, months: int | None = None,
                     gpu_model_id: int | None = None, note: str | None = None,
                     now: dt.datetime | None = None) -> CapacityHold:
    s = uow.session
    now = now or dt.datetime.now(dt.timezone.utc)
    errors: dict[str, str] = {}
    customer = s.get(Customer, customer_id)
    if customer is None:
        errors["customer_id"] = f"customer {customer_id} does not exist"
    if s.get(Subsidiary, subsidiary_id) is None:
        errors["subsidiary_id"] = f"subsidiary {subsidiary_id} does not exist"
    ids = list(dict.fromkeys(node_ids or ()))
    if not ids:
        errors["node_ids"] = "hold at least one node (search first, then hold an offer)"
    if errors:
        raise ValidationError(errors)
    first, last = window_of(start, months, end)
    models = list(s.execute(select(GpuModel.id)).scalars()) if gpu_model_id is None else [gpu_model_id]
    free = free_nodes(s, models, first, last, now=now).subquery()
    # lock the nodes so that two holds of the same node queue (PostgreSQL; SQLite writes one at a time)
    s.execute(select(GpuNode.id).where(GpuNode.id.in_(ids)).with_for_update(of=GpuNode)).all()
    ok = set(s.execute(select(free.c.node_id).where(free.c.node_id.in_(ids))).scalars())
    taken = [i for i in ids if i not in ok]
    if taken:
        names = s.execute(select(Device.name).join(GpuNode, GpuNode.device_id == Device.id)
                          .where(GpuNode.id.in_(taken)).order_by(Device.name)).scalars().all()
        raise RuleViolation(f"{len(taken)} of the {len(ids)} nodes are no longer free from {first}"
                            f"{f' to {last}' if last else ''}: {', '.join(names) or taken}; search again")
    sub = s.get(Subsidiary, subsidiary_id)
    from app.services.entities import next_document_number

    year = now.year
    n = next_document_number(s, subsidiary_id, "hold", str(year))
    days = int(setting_in(s, CAPACITY_HOLD_DAYS))
    h = CapacityHold(number=f"{sub.code}-H{year}-{n:04d}", customer_id=customer_id, subsidiary_id=subsidiary_id,
                     gpu_model_id=gpu_model_id, start_date=first, end_date=last,
                     expires_at=now + dt.timedelta(days=days), status=HoldStatus.ACTIVE,
                     note=(note or "").strip() or None, created_by=uow.actor.login, created_at=now,
                     updated_by=uow.actor.login)
    s.add(h)
    s.flush()
    s.execute(insert(capacity_hold_node), [{"hold_id": h.id, "node_id": i} for i in ids])
    uow.audit("hold.create", "hold", h.id, h.number,
              after={"number": h.number, "customer_id": customer_id, "subsidiary_id": subsidiary_id,
                     "gpu_model_id": gpu_model_id, "start_date": first.isoformat(),
                     "end_date": last.isoformat() if last else None, "expires_at": h.expires_at.isoformat(),
                     "status": h.status, "node_ids": sorted(ids)},
              reason=f"held for {customer.name} until {local_text(h.expires_at)}")
    return h


def hold_capacity(db: Database, actor: Actor, **values) -> HoldInfo:
    """Hold free nodes for a customer over a window; refused, naming them, when any is no longer free."""
    require(actor, "draft_contracts")
    with UnitOfWork(db, actor) as uow:
        h = hold_capacity_in(uow, **values)
        info = _info(uow.session, h)
        uow.commit()
        return info


_VERBS = {HoldStatus.RELEASED: "release", HoldStatus.EXPIRED: "expire", HoldStatus.CONVERTED: "convert"}


def _end(uow: UnitOfWork, h: CapacityHold, status: str, reason: str, now: dt.datetime, **extra) -> None:
    before = {"status": h.status}
    h.status, h.ended_at, h.ended_by = status, now, uow.actor.login
    h.updated_by = uow.actor.login
    for k, v in extra.items():
        setattr(h, k, v)
    uow.session.flush()
    uow.audit(f"hold.{_VERBS[status]}", "hold",
              h.id, h.number, before=before, after=dict({"status": status}, **extra), reason=reason)


def release_hold(db: Database, actor: Actor, key: int | str, reason: str, *, now: dt.datetime | None = None) -> HoldInfo:
    """Give the nodes back before the hold expires (the customer declined, the search changed)."""
    require(actor, "draft_contracts")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "say why the hold is released"})
    now = now or dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        h = find_hold(uow.session, key)
        if h.status != HoldStatus.ACTIVE:
            raise RuleViolation(f"hold {h.number} is {HoldStatus.label(h.status).lower()}; only a held one is released")
        _end(uow, h, HoldStatus.RELEASED, reason.strip(), now)
        info = _info(uow.session, h)
        uow.commit()
        return info


def expire_holds(db: Database, actor: Actor, *, now: dt.datetime | None = None) -> list[str]:
    """The sweep: every active hold past its expiry is recorded as expired (its nodes are already
    free to every search from that instant). Returns the numbers expired; nothing for a role that
    does not write holds (an operator's or auditor's console leaves it to the next one)."""
    if not can(actor, "draft_contracts"):
        return []
    now = now or dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        due = s.execute(select(CapacityHold).where(CapacityHold.status == HoldStatus.ACTIVE,
                                                   CapacityHold.expires_at <= now)
                        .order_by(CapacityHold.id).with_for_update()).scalars().all()
        for h in due:
            _end(uow, h, HoldStatus.EXPIRED, f"expired {local_text(h.expires_at)}", now)
        uow.commit()
        return [h.number for h in due]


def convert_hold_in(uow: UnitOfWork, h: CapacityHold, contract_id: int, number: str, now: dt.datetime) -> None:
    """The hold moves to the contract made from it (it keeps the nodes until that is approved)."""
    if h.status != HoldStatus.ACTIVE or h.expires_at <= now:
        raise RuleViolation(f"hold {h.number} is {'expired' if h.status == HoldStatus.ACTIVE else HoldStatus.label(h.status).lower()}"
                            "; search again and hold the nodes before making the contract")
    _end(uow, h, HoldStatus.CONVERTED, f"moved to contract {number}", now, contract_id=contract_id)


def hold_node_devices(s: Session, hold_id: int) -> list[int]:
    """The device ids of a hold's nodes, in name order."""
    return list(s.execute(select(GpuNode.device_id).join(capacity_hold_node, capacity_hold_node.c.node_id == GpuNode.id)
                          .join(Device, Device.id == GpuNode.device_id)
                          .where(capacity_hold_node.c.hold_id == hold_id).order_by(Device.name)).scalars())
