"""The node state machine, drain/undrain, the maintenance flag, burn-in results.

onboarding → burn-in → available → allocated → draining → triage → RMA → retired
(models.choices.NodeState.TRANSITIONS), each move with its reason, who and when (gpu_node_history,
audited). Billing follows health through the one downtime rule (app/services/billing/downtime.py):
entering triage or RMA records downtime for each of the node's GPUs under an open lease from that
instant; leaving them (to a billed state) ends the node's GPUs' open downtime at that instant.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from sqlalchemy import or_, select

from models import Device, Downtime, GpuAsset, GpuCluster, GpuLease, GpuNode, GpuNodeHistory, NodeBurnIn
from models.choices import Fabric, NodeState

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, local_text, parse_instant
from app.domain.errors import DomainError, RuleViolation, ValidationError
from app.services.billing.downtime import end_downtime_in, record_downtime_in
from app.services.clusters.topology import find_node_in, gpus_per_node
from app.services.entities import flush_versioned
from app.store.db import Database
from app.store.uow import UnitOfWork

# What a healthy fabric gives an NCCL all-reduce, as a share of the NICs' line rate (bus bandwidth,
# GB/s, as nccl-tests prints it): below BURN_IN_FLOOR of it a burn-in fails however DCGM went.
NCCL_EFFICIENCY = Decimal("0.92")
BURN_IN_FLOOR = Decimal("0.90")


def node_label(s, node: GpuNode) -> str:
    return s.get(Device, node.device_id).name


def leased_gpus(s, node: GpuNode, at: dt.datetime) -> list[GpuAsset]:
    """The node's GPUs under a lease open at `at`."""
    return list(s.execute(
        select(GpuAsset).join(GpuLease, GpuLease.gpu_id == GpuAsset.id)
        .where(GpuAsset.device_id == node.device_id, GpuLease.start <= at,
               or_(GpuLease.end.is_(None), GpuLease.end > at))
        .order_by(GpuAsset.slot)).scalars().unique())


def set_node_state_in(uow: UnitOfWork, node: GpuNode, to_state: str, reason: str, *,
                      at: dt.datetime | None = None) -> None:
    s = uow.session
    reason = (reason or "").strip()
    label = node_label(s, node)
    if not reason:
        raise ValidationError({"reason": "say why the node's state changes"})
    if to_state not in NodeState.values():
        raise ValidationError({"state": f"a node's state is one of {', '.join(NodeState.values())}"})
    if to_state not in NodeState.TRANSITIONS[node.state]:
        allowed = ", ".join(NodeState.label(x) for x in NodeState.values()
                            if x in NodeState.TRANSITIONS[node.state]) or "none (retired is final)"
        raise RuleViolation(f"node {label} is {NodeState.label(node.state)}; it cannot move to "
                            f"{NodeState.label(to_state)}. Allowed from here: {allowed}")
    now = dt.datetime.now(dt.timezone.utc)
    at = at or now
    if at.tzinfo is None:
        raise ValidationError({"at": "an aware time"})
    if at > now + dt.timedelta(minutes=5):
        raise ValidationError({"at": f"{local_text(at)} is in the future"})
    before = node.state
    was_billed, billed = before not in NodeState.NOT_BILLED, to_state not in NodeState.NOT_BILLED
    if was_billed and not billed:
        short = reason.split(" (")[0]  # a statement note repeats it per GPU: the code, not the catalogue's words
        for gpu in leased_gpus(s, node, at):
            record_downtime_in(uow, start=at, gpu_id=gpu.id,
                               reason=f"node {label} {NodeState.label(to_state).lower()}: {short}"[:255])
    elif not was_billed and billed:
        gpu_ids = [g for (g,) in s.execute(select(GpuAsset.id).where(GpuAsset.device_id == node.device_id))]
        if gpu_ids:
            for d in s.execute(select(Downtime).where(Downtime.gpu_id.in_(gpu_ids), Downtime.end.is_(None))
                               .order_by(Downtime.id)).scalars():
                end_downtime_in(uow, d, max(at, d.start))
    node.state = to_state
    node.state_reason, node.state_by, node.state_at = reason[:255], uow.actor.login, at
    flush_versioned(uow, node, f"node {label}")
    s.add(GpuNodeHistory(node_id=node.id, from_state=before, to_state=to_state, at=at, actor_login=uow.actor.login,
                         reason=reason[:255]))
    uow.audit("node.state", "gpu_node", node.id, label, before={"state": before}, after={"state": to_state, "at": at},
              reason=reason)


def follow_leases_in(uow: UnitOfWork, item_ids: list[int], at: dt.datetime, reason: str) -> None:
    """The nodes holding these items' GPUs follow their leases: an available node with an open lease
    becomes allocated, an allocated one with none left becomes available (contract activation and
    end call this; other states are the operators' and stay)."""
    s = uow.session
    if not item_ids:
        return
    devices = set(s.execute(select(GpuAsset.device_id).join(GpuLease, GpuLease.gpu_id == GpuAsset.id)
                            .where(GpuLease.contract_item_id.in_(item_ids), GpuAsset.device_id.is_not(None))).scalars())
    if not devices:
        return
    now = dt.datetime.now(dt.timezone.utc)
    for node in s.execute(select(GpuNode).where(GpuNode.device_id.in_(devices),
                                                GpuNode.state.in_((NodeState.AVAILABLE, NodeState.ALLOCATED)))
                          .order_by(GpuNode.id)).scalars():
        leased = bool(leased_gpus(s, node, min(at, now)))
        if node.state == NodeState.AVAILABLE and leased:
            set_node_state_in(uow, node, NodeState.ALLOCATED, reason, at=min(at, now))
        elif node.state == NodeState.ALLOCATED and not leased:
            set_node_state_in(uow, node, NodeState.AVAILABLE, reason, at=min(at, now))


def set_node_state(db: Database, actor: Actor, node: int | str, to_state: str, reason: str, *,
                   at: dt.datetime | None = None) -> None:
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        set_node_state_in(uow, find_node_in(uow.session, node), to_state, reason, at=at)
        uow.commit()


def drain_node(db: Database, actor: Actor, node: int | str, reason: str, *, at: dt.datetime | None = None) -> None:
    """Slurm's drain: no new work on the node (its running lease goes on until it is swapped or ends)."""
    set_node_state(db, actor, node, NodeState.DRAINING, reason, at=at)


def undrain_node(db: Database, actor: Actor, node: int | str, reason: str, *, at: dt.datetime | None = None) -> str:
    """Back in service from draining or triage: allocated while a lease is open on its GPUs, else available."""
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        n = find_node_in(s, node)
        if n.state not in (NodeState.DRAINING, NodeState.TRIAGE):
            raise RuleViolation(f"node {node_label(s, n)} is {NodeState.label(n.state)}, not draining or in triage: "
                                "nothing to undrain")
        when = at or dt.datetime.now(dt.timezone.utc)
        target = NodeState.ALLOCATED if leased_gpus(s, n, when) else NodeState.AVAILABLE
        set_node_state_in(uow, n, target, reason, at=when)
        uow.commit()
        return target


def set_maintenance(db: Database, actor: Actor, node: int | str, on: bool, reason: str) -> None:
    require(actor, "manage_gpus")
    if not (reason or "").strip():
        raise ValidationError({"reason": "say why the maintenance flag changes"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        n = find_node_in(s, node)
        if n.maintenance == bool(on):
            raise RuleViolation(f"node {node_label(s, n)} is {'already' if on else 'not'} in maintenance")
        n.maintenance = bool(on)
        flush_versioned(uow, n, f"node {node_label(s, n)}")
        uow.audit("node.maintenance", "gpu_node", n.id, node_label(s, n), before={"maintenance": not on},
                  after={"maintenance": bool(on)}, reason=reason.strip())
        uow.commit()


# --- burn-in -----------------------------------------------------------------------------------------

def expected_busbw(cluster: GpuCluster, gpus: int) -> Decimal | None:
    """NCCL all-reduce bus bandwidth (GB/s) the fabric should give a node: its GPUs' NICs (one per
    GPU on a rail-optimised fabric, else one per node) at line rate × NCCL_EFFICIENCY."""
    gbps = Fabric.PORT_GBPS.get(cluster.fabric, 0)
    if not gbps:
        return None
    nics = cluster.rails or gpus or 1
    return (Decimal(gbps * nics) / 8 * NCCL_EFFICIENCY).quantize(Decimal("0.01"))


@dataclass
class BurnInResult:
    recorded: int = 0
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)  # "node: burn-in → available"


def read_burn_in_file(path: str | Path) -> list[dict]:
    """A burn-in report: JSON (one object or a list; keys node, at, dcgm_level, passed, duration_s,
    nccl_busbw_gbps) or CSV with those columns."""
    return read_rows_file(path)


def read_rows_file(path: str | Path) -> list[dict]:
    """The rows of a file a node or a collector produces: JSON (one object or a list of them) or CSV."""
    p = Path(path)
    text = p.read_text(encoding="utf-8-sig")
    if p.suffix.lower() == ".json" or text.lstrip().startswith(("{", "[")):
        data = json.loads(text)
        return data if isinstance(data, list) else [data]
    return list(csv.DictReader(io.StringIO(text)))


def _truth(v) -> bool | None:
    if isinstance(v, bool):
        return v
    t = str(v or "").strip().lower()
    if t in ("1", "true", "yes", "pass", "passed", "ok", "通过"):
        return True
    if t in ("0", "false", "no", "fail", "failed", "失败"):
        return False
    return None


def import_burn_in(db: Database, actor: Actor, rows: list[dict], *, source: str, advance: bool = True) -> BurnInResult:
    """Record burn-in results (the console records them; it does not run DCGM). A result fails when
    DCGM failed or the NCCL bus bandwidth is below BURN_IN_FLOOR of what the fabric should give.
    With `advance`, a node in burn-in moves to available when it passed, to triage when it failed.
    All rows or none: a bad row is refused with its number."""
    require(actor, "manage_gpus")
    out = BurnInResult()
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        for i, row in enumerate(rows, start=1):
            where = f"row {i}"
            try:
                node = find_node_in(s, str(row.get("node") or "").strip())
                at = parse_instant(row.get("at"), what="burn-in time") or dt.datetime.now(dt.timezone.utc)
                level = int(row.get("dcgm_level"))
                duration = int(float(row.get("duration_s") or 0))
                ok = _truth(row.get("passed"))
                bw = row.get("nccl_busbw_gbps")
                bw = Decimal(str(bw)) if bw not in (None, "") else None
            except (DateError, ValueError, TypeError, InvalidOperation) as exc:
                raise ValidationError({where: f"{exc}; a row has node, at, dcgm_level (1–4), passed, duration_s, "
                                              "nccl_busbw_gbps (GB/s)"}) from None
            except DomainError as exc:  # no such node: say which row
                raise ValidationError({where: exc.message}) from None
            if not 1 <= level <= 4:
                raise ValidationError({where: f"dcgm_level is 1 to 4, not {level}"})
            if ok is None:
                raise ValidationError({where: f"passed is yes or no, not {row.get('passed')!r}"})
            label = node_label(s, node)
            cluster = s.get(GpuCluster, node.cluster_id)
            expected = expected_busbw(cluster, gpus_per_node(s, s.get(Device, node.device_id)))
            low = bw is not None and expected is not None and bw < expected * BURN_IN_FLOOR
            passed = ok and not low
            b = NodeBurnIn(node_id=node.id, at=at, dcgm_level=level, passed=passed, duration_s=duration,
                           nccl_busbw_gbps=bw, expected_busbw_gbps=expected, source=source[:128])
            s.add(b)
            s.flush()
            why = ("DCGM failed" if not ok else "") + (
                f"{'; ' if not ok else ''}NCCL {bw} GB/s < {BURN_IN_FLOOR:.0%} of {expected} GB/s" if low else "")
            uow.audit("node.burn_in", "gpu_node", node.id, label,
                      after={"dcgm_level": level, "passed": passed, "duration_s": duration,
                             "nccl_busbw_gbps": bw, "expected_busbw_gbps": expected}, reason=why or None)
            out.recorded += 1
            (out.passed if passed else out.failed).append(label)
            if advance and node.state == NodeState.BURN_IN:
                to = NodeState.AVAILABLE if passed else NodeState.TRIAGE
                set_node_state_in(uow, node, to, f"burn-in DCGM level {level} "
                                  + ("passed" if passed else f"failed: {why}") + f" ({source})", at=min(
                                      at, dt.datetime.now(dt.timezone.utc)))
                out.moved.append(f"{label}: {NodeState.label(NodeState.BURN_IN)} → {NodeState.label(to)}")
        uow.commit()
    return out
