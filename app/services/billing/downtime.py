"""GPU and server downtime: recorded and ended here, not billed by the charges."""
from __future__ import annotations

import datetime as dt

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import RuleViolation, ValidationError
from app.services.billing.statements import _fmt_t
from app.services.entities import get_or_404
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Device, Downtime, GpuAsset

# --- downtime -----------------------------------------------------------------------------

def record_downtime(db: Database, actor: Actor, *, start: dt.datetime, reason: str, gpu_id: int | None = None,
                    device_id: int | None = None, end: dt.datetime | None = None) -> int:
    """A GPU (or a whole server) was down from `start` to `end` (open while None): not billed."""
    require(actor, "manage_gpus")
    errors = {}
    if (gpu_id is None) == (device_id is None):
        errors["gpu_id"] = "name the GPU or the server that was down (one of them)"
    if not (reason and reason.strip()):
        errors["reason"] = "say what failed"
    if start is None or start.tzinfo is None:
        errors["start"] = "an aware start time"
    elif end is not None and (end.tzinfo is None or end < start):
        errors["end"] = "ends (aware time) at or after the start"
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        d = record_downtime_in(uow, start=start, reason=reason, gpu_id=gpu_id, device_id=device_id, end=end)
        uow.commit()
        return d.id


def record_downtime_in(uow: UnitOfWork, *, start: dt.datetime, reason: str, gpu_id: int | None = None,
                       device_id: int | None = None, end: dt.datetime | None = None) -> Downtime:
    """The downtime row and its audit event inside the caller's unit of work (a node entering
    triage records one per leased GPU: app/services/clusters/nodes.py)."""
    s = uow.session
    label = (get_or_404(s, GpuAsset, gpu_id, "GPU").serial if gpu_id else
             get_or_404(s, Device, device_id, "device").name)
    d = Downtime(gpu_id=gpu_id, device_id=device_id, start=start, end=end, reason=reason.strip()[:255])
    s.add(d)
    s.flush()
    uow.audit("downtime.record", "downtime", d.id, label, reason=reason.strip(),
              after={"gpu_id": gpu_id, "device_id": device_id, "start": start, "end": end})
    return d


def end_downtime(db: Database, actor: Actor, downtime_id: int, end: dt.datetime) -> None:
    require(actor, "manage_gpus")
    if end is None or end.tzinfo is None:
        raise ValidationError({"end": "an aware end time"})
    with UnitOfWork(db, actor) as uow:
        end_downtime_in(uow, get_or_404(uow.session, Downtime, downtime_id, "downtime record"), end)
        uow.commit()


def end_downtime_in(uow: UnitOfWork, d: Downtime, end: dt.datetime) -> None:
    if d.end is not None:
        raise RuleViolation(f"downtime #{d.id} already ended at {_fmt_t(d.end)}")
    if end < d.start:
        raise ValidationError({"end": f"before the start {_fmt_t(d.start)}"})
    d.end = end
    uow.session.flush()
    uow.audit("downtime.end", "downtime", d.id, d.reason, before={"end": None}, after={"end": end})
