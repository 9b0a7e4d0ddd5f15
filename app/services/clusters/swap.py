"""A leased node replaced by a node of the same fabric (cluster): the item's GPU leases on the old
node end at the swap and new ones start on the replacement's GPUs, the item's GPUs follow, the
old GPUs go to maintenance and the new ones are leased; `node_swap` records which serials served
which hours, and the statement prints it (app/services/billing/charges.py, swap notes)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import delete, insert, or_, select

from models import Contract, ContractItem, GpuAsset, GpuLease, NodeSwap, contract_item_gpu
from models.choices import GpuState, ItemKind, NodeState

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_text
from app.domain.errors import RuleViolation, ValidationError
from app.services.clusters.nodes import node_label, set_node_state_in
from app.services.clusters.topology import find_node_in
from app.services.entities import get_or_404
from app.services.gpus import move_gpu
from app.store.db import Database
from app.store.uow import UnitOfWork


def swap_node(db: Database, actor: Actor, item_id: int, from_node: int | str, to_node: int | str, *, reason: str,
              at: dt.datetime | None = None) -> int:
    require(actor, "manage_gpus")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "say why the node is swapped"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        now = dt.datetime.now(dt.timezone.utc)
        at = at or now
        if at > now + dt.timedelta(minutes=5):
            raise ValidationError({"at": f"{local_text(at)} is in the future"})
        it = get_or_404(s, ContractItem, item_id, "contract item")
        if it.kind != ItemKind.GPU:
            raise RuleViolation(f"item {it.id} is not a GPU rental: only GPU items have nodes to swap")
        c = s.get(Contract, it.contract_id)
        old, new = find_node_in(s, from_node), find_node_in(s, to_node)
        old_label, new_label = node_label(s, old), node_label(s, new)
        if old.id == new.id:
            raise ValidationError({"to_node": "the replacement is another node"})
        if old.cluster_id != new.cluster_id:
            raise RuleViolation(f"{new_label} is in another fabric than {old_label}: a swap stays in the same cluster")
        open_leases = list(s.execute(
            select(GpuLease, GpuAsset).join(GpuAsset, GpuAsset.id == GpuLease.gpu_id)
            .where(GpuLease.contract_item_id == it.id, GpuAsset.device_id == old.device_id, GpuLease.start <= at,
                   or_(GpuLease.end.is_(None), GpuLease.end > at)).order_by(GpuAsset.slot)).all())
        if not open_leases:
            raise RuleViolation(f"contract {c.number} item {it.id} leases no GPU of {old_label} at {local_text(at)}")
        if new.state != NodeState.AVAILABLE or new.maintenance:
            raise RuleViolation(f"{new_label} is {NodeState.label(new.state)}"
                                f"{' and in maintenance' if new.maintenance else ''}: a replacement is available")
        model_id = open_leases[0][1].gpu_model_id
        free = list(s.execute(
            select(GpuAsset).where(GpuAsset.device_id == new.device_id, GpuAsset.state == GpuState.AVAILABLE,
                                   GpuAsset.gpu_model_id == model_id).order_by(GpuAsset.slot)).scalars())
        if len(free) < len(open_leases):
            raise RuleViolation(f"{new_label} has {len(free)} available GPUs of the item's model; "
                                f"{len(open_leases)} are needed")
        taken = free[:len(open_leases)]
        for lease, gpu in open_leases:
            lease.end = at
            s.execute(delete(contract_item_gpu).where(contract_item_gpu.c.item_id == it.id,
                                                      contract_item_gpu.c.gpu_id == gpu.id))
            if gpu.state == GpuState.LEASED:
                move_gpu(uow, gpu, GpuState.MAINTENANCE, f"swapped out of contract {c.number} ({old_label}): {reason}")
        for gpu in taken:
            gpu.customer_id = c.customer_id
            move_gpu(uow, gpu, GpuState.LEASED, f"swapped into contract {c.number} for {old_label}: {reason}")
            s.add(GpuLease(gpu_id=gpu.id, contract_item_id=it.id, start=at))
            s.execute(insert(contract_item_gpu).values(item_id=it.id, gpu_id=gpu.id))
        set_node_state_in(uow, new, NodeState.ALLOCATED, f"replaces {old_label} on contract {c.number}: {reason}",
                          at=at)
        sw = NodeSwap(contract_item_id=it.id, from_node_id=old.id, to_node_id=new.id, at=at,
                      from_serials=", ".join(g.serial for _l, g in open_leases),
                      to_serials=", ".join(g.serial for g in taken), actor_login=uow.actor.login, reason=reason[:255])
        s.add(sw)
        s.flush()
        uow.audit("node.swap", "node_swap", sw.id, f"{c.number} {old_label} → {new_label}",
                  after={"item_id": it.id, "from": old_label, "to": new_label, "at": at,
                         "from_serials": sw.from_serials, "to_serials": sw.to_serials}, reason=reason)
        uow.commit()
        return sw.id

