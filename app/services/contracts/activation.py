"""Activation and end: the capacity a contract needs (racks, space, GPUs) checked and allocated, its
items handed over and leased on activation, released when it ends."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import false, func, insert, or_, select
from sqlalchemy.orm import Session

from app.domain.errors import RuleViolation
from app.domain.rating import local_midnight
from app.services.entities import flush_versioned
from app.services.contracts.records import HELD
from app.services.gpus import move_gpu
from app.services.space import (  # the GPU lifecycle move: validates, writes GpuHistory, audits
    end_item_leases_in,
    item_space,
    open_lease_in,
    space_problems,
)
from app.store.uow import UnitOfWork
from models import (
    Contract,
    ContractItem,
    GpuAsset,
    GpuLease,
    GpuModel,
    Rack,
    contract_item_gpu,
)
from models.choices import (
    ContractStatus,
    GpuState,
    ItemKind,
    RackStatus,
)


def _effective_start(c: Contract, it: ContractItem) -> dt.date:
    return it.service_start or c.start_date


def _effective_end(c: Contract, it: ContractItem) -> dt.date:
    return it.service_end or c.end_date


def _whole_racks(s: Session, it: ContractItem) -> list[int]:
    """Racks an item leases whole (status leased, with the customer): a rack without a unit range,
    or every rack of a cage."""
    if it.kind != ItemKind.RACK:
        return []
    if it.cage_id is not None:
        return [sp.rack_id for sp in _item_space(s, it)]
    return [it.rack_id] if it.rack_id and it.u_from is None else []


def _item_space(s: Session, it: ContractItem):
    return item_space(s, it.kind, it.rack_id, it.u_from, it.u_to, it.face, it.cage_id)


def _item_gpus(s: Session, item_id: int, lock: bool = True) -> list[GpuAsset]:
    q = (select(GpuAsset).join(contract_item_gpu, contract_item_gpu.c.gpu_id == GpuAsset.id)
         .where(contract_item_gpu.c.item_id == item_id).order_by(GpuAsset.serial))
    return list(s.execute(q.with_for_update(of=GpuAsset) if lock else q).scalars())


def _allocate_gpus(s: Session, c: Contract, it: ContractItem, problems: list[str], *, dry: bool = False) -> None:
    """A model × quantity item gets named GPUs at activation: available ones, same subsidiary first
    (`dry`: only say whether there are enough, as at save, submit and approval)."""
    from models import Device, Room, Site

    want = int(it.quantity)
    local = (select(Site.subsidiary_id).select_from(Device).join(Rack, Rack.id == Device.rack_id)
             .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
             .where(Device.id == GpuAsset.device_id).scalar_subquery())
    taken = select(contract_item_gpu.c.gpu_id).join(ContractItem, ContractItem.id == contract_item_gpu.c.item_id) \
        .join(Contract, Contract.id == ContractItem.contract_id).where(
            Contract.status.in_((ContractStatus.APPROVED,) + HELD))  # incl. this contract's named GPUs
    from app.services.capacity.search import held_gpus_for_others, where_free

    held = held_gpus_for_others(c.customer_id, contract_id=c.id)  # nodes held for another customer's deal
    rows = s.execute(select(GpuAsset.id).where(
        GpuAsset.gpu_model_id == it.gpu_model_id, GpuAsset.state == GpuState.AVAILABLE,
        GpuAsset.id.not_in(taken), GpuAsset.id.not_in(held))
        .order_by((func.coalesce(local, 0) != c.subsidiary_id), GpuAsset.serial).limit(want)).scalars().all()
    if len(rows) < want:
        model = s.get(GpuModel, it.gpu_model_id)
        where = where_free(s, it.gpu_model_id, select(taken.subquery().c.gpu_id).union(held))
        problems.append(f"item “{it.description}” needs {want} × {model.name if model else it.gpu_model_id}, "
                        f"but only {len(rows)} are available, {want - len(rows)} short"
                        + (f"; free now: {where}" if where else "; none is free in any cluster"))
        return
    if dry:
        return
    for g in rows:
        s.execute(insert(contract_item_gpu).values(item_id=it.id, gpu_id=g))


def _capacity_problems(s: Session, c: Contract, *, allocate: bool = False) -> list[str]:
    """What the contract's items need that is not there: space leased or reserved by others over its
    days, racks not available, too few GPUs of a model, named GPUs not available. The one check, run
    at save of a draft, submit, approval and (locking, checking whole racks' status now, and allocating
    GPUs to model × quantity items: `allocate`) activation, so a contract is refused capacity when it
    is written, not only when it is activated."""
    problems: list[str] = []
    for it in c.items:
        for sp in _item_space(s, it):
            if allocate:
                s.execute(select(Rack.id).where(Rack.id == sp.rack_id).with_for_update(of=Rack)).all()
            problems.extend(space_problems(s, c.customer_id, sp, _effective_start(c, it), _effective_end(c, it)))
        # A rack's status says who holds it now; before activation the leases' and reservations' dates
        # above decide (a rack leased until the day before this contract starts is free for it).
        for rack_id in (_whole_racks(s, it) if allocate else ()):
            rack = s.execute(select(Rack).where(Rack.id == rack_id).with_for_update(of=Rack)).scalar_one()
            ours = rack.customer_id == c.customer_id
            if rack.status == RackStatus.LEASED and not ours:
                problems.append(f"rack {rack.name} is leased to another customer")
            elif rack.status == RackStatus.RESERVED and rack.customer_id not in (None, c.customer_id):
                problems.append(f"rack {rack.name} is reserved for another customer")
            elif rack.status not in (RackStatus.AVAILABLE, RackStatus.RESERVED, RackStatus.LEASED):
                problems.append(f"rack {rack.name} is {RackStatus.label(rack.status).lower()}, not available")
        if it.kind == ItemKind.GPU and it.gpu_model_id and not _item_gpus(s, it.id, lock=allocate):
            _allocate_gpus(s, c, it, problems, dry=not allocate)
        if it.kind == ItemKind.GPU:
            from app.services.capacity.search import held_gpus_for_others

            held = set(s.execute(held_gpus_for_others(c.customer_id, contract_id=c.id).where(
                GpuAsset.id.in_(select(contract_item_gpu.c.gpu_id).where(contract_item_gpu.c.item_id == it.id))))
                .scalars())
            for gpu in _item_gpus(s, it.id, lock=allocate):
                if gpu.id in held:
                    problems.append(f"GPU {gpu.serial} is on a node held for another customer's deal")
                    continue
                if gpu.state == GpuState.LEASED and gpu.customer_id == c.customer_id:
                    continue  # renewal or amendment: handed over at activation
                if gpu.state != GpuState.AVAILABLE:
                    problems.append(f"GPU {gpu.serial} is {GpuState.label(gpu.state).lower()}, not available")
    return list(dict.fromkeys(problems))


def refuse_short_capacity(s: Session, c: Contract, verb: str, what: str | None = None) -> None:
    """Refuse (RuleViolation naming what is short) when the contract's items do not fit now."""
    problems = _capacity_problems(s, c)
    if problems:
        raise RuleViolation(f"{what or f'contract {c.number}'} cannot be {verb}: " + "; ".join(problems))


def _activate(uow: UnitOfWork, c: Contract, at: dt.datetime) -> dict:
    """Lease the racks and GPUs of every item; transfers what this customer already holds."""
    s = uow.session
    leased_racks, leased_gpus = [], []
    problems = _capacity_problems(s, c, allocate=True)
    if problems:
        raise RuleViolation(f"contract {c.number} cannot be activated: " + "; ".join(problems))
    leased_space = []
    for it in c.items:
        for sp in _item_space(s, it):
            lease = open_lease_in(uow, c.customer_id, sp, _effective_start(c, it), _effective_end(c, it),
                                  contract_item_id=it.id, reason=f"contract {c.number} activated")
            leased_space.append(f"{s.get(Rack, lease.rack_id).name} U{lease.u_from}-{lease.u_to}")
        for rack_id in _whole_racks(s, it):
            rack = s.get(Rack, rack_id)
            if rack.status != RackStatus.LEASED or rack.customer_id != c.customer_id:
                before = {"status": rack.status, "customer_id": rack.customer_id}
                rack.status, rack.customer_id = RackStatus.LEASED, c.customer_id
                flush_versioned(uow, rack, f"rack {rack.name}")
                uow.audit("rack.lease", "rack", rack.id, rack.name, before=before,
                          after={"status": rack.status, "customer_id": rack.customer_id},
                          reason=f"contract {c.number} activated")
            leased_racks.append(rack.name)
        if it.kind == ItemKind.GPU:
            planned = local_midnight(_effective_start(c, it))
            for gpu in _item_gpus(s, it.id):
                # a GPU the customer keeps under an amendment changes contract on the effective date,
                # however late the amendment is activated; any other lease opens at activation at the earliest
                keeps = c.amends_id is not None and gpu.state == GpuState.LEASED and gpu.customer_id == c.customer_id
                start = planned if keeps else max(at, planned)
                open_leases = s.execute(select(GpuLease).where(GpuLease.gpu_id == gpu.id,
                                                               GpuLease.end.is_(None))).scalars().all()
                for lease in open_leases:  # the previous contract's lease ends where this one starts
                    lease.end = max(lease.start, start)
                if gpu.state == GpuState.AVAILABLE:
                    gpu.customer_id = c.customer_id
                    move_gpu(uow, gpu, GpuState.LEASED, f"leased under contract {c.number}")
                s.add(GpuLease(gpu_id=gpu.id, contract_item_id=it.id, start=start))
                leased_gpus.append(gpu.serial)
    if leased_gpus:  # the servers of those GPUs are allocated nodes now (issue 25)
        from app.services.clusters.nodes import follow_leases_in
        s.flush()
        follow_leases_in(uow, [it.id for it in c.items if it.kind == ItemKind.GPU], at,
                         f"contract {c.number} activated")
    from app.services.contracts.handover import (
        hand_over_at_activation,  # items bill from their handover (app/services/contracts/handover.py)
    )
    handed = hand_over_at_activation(c, at, uow.actor.login)
    s.flush()
    return {"racks": leased_racks, "space": leased_space, "gpus": leased_gpus, "handed_over": handed}


def _release(uow: UnitOfWork, c: Contract, last_day: dt.date, now: dt.datetime) -> dict:
    """End the service on `last_day` (inclusive): close leases, free GPUs and racks no one else holds."""
    s = uow.session
    lease_end = min(now, local_midnight(last_day + dt.timedelta(days=1)))
    released_gpus, released_racks = [], []
    for it in c.items:
        if _effective_end(c, it) > last_day:
            it.service_end = max(last_day, _effective_start(c, it) - dt.timedelta(days=1))
    item_ids = [it.id for it in c.items]
    leases = s.execute(select(GpuLease).where(GpuLease.contract_item_id.in_(item_ids),
                                              GpuLease.end.is_(None))).scalars().all()
    for lease in leases:
        lease.end = max(lease.start, lease_end)
    s.flush()
    for lease in leases:
        gpu = s.execute(select(GpuAsset).where(GpuAsset.id == lease.gpu_id).with_for_update(of=GpuAsset)).scalar_one()
        still = s.execute(select(func.count()).select_from(GpuLease).where(
            GpuLease.gpu_id == gpu.id, GpuLease.end.is_(None))).scalar_one()
        if not still and gpu.state == GpuState.LEASED:
            move_gpu(uow, gpu, GpuState.AVAILABLE, f"contract {c.number} ended")
            released_gpus.append(gpu.serial)
    if leases:  # nodes with no open lease left are available again (issue 25)
        from app.services.clusters.nodes import follow_leases_in
        s.flush()
        follow_leases_in(uow, item_ids, lease_end, f"contract {c.number} ended")
    freed = end_item_leases_in(uow, item_ids, last_day, f"contract {c.number} ended")
    for it in c.items:
        for rack_id in _whole_racks(s, it):  # a rack item's rack, or each rack of its cage
            cage_id = s.get(Rack, rack_id).cage_id
            others = s.execute(select(func.count()).select_from(ContractItem).join(Contract).where(
                or_(ContractItem.rack_id == rack_id, ContractItem.cage_id == cage_id if cage_id else false()),
                ContractItem.kind == ItemKind.RACK, ContractItem.u_from.is_(None), Contract.id != c.id,
                Contract.status.in_(HELD))).scalar_one()
            rack = s.get(Rack, rack_id)
            if not others and rack.status == RackStatus.LEASED:
                before = {"status": rack.status, "customer_id": rack.customer_id}
                rack.status, rack.customer_id = RackStatus.AVAILABLE, None
                flush_versioned(uow, rack, f"rack {rack.name}")
                uow.audit("rack.release", "rack", rack.id, rack.name, before=before,
                          after={"status": rack.status, "customer_id": None}, reason=f"contract {c.number} ended")
                released_racks.append(rack.name)
    return {"racks": released_racks, "space": freed, "gpus": released_gpus, "last_day": last_day.isoformat()}
