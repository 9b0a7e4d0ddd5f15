"""The GPU fleet: catalogue, assets, slots and the lifecycle.

Allowed moves are models.choices.GpuState.TRANSITIONS; every move needs a reason and
leaves a history row and an audit event. A leased GPU cannot be retired or taken out
of its server.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Callable, Iterable

from sqlalchemy import String, any_, literal, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import lazyload

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import RuleViolation, ValidationError
from app.services.bulk import insert_rows
from app.services.entities import (
    EntitySpec,
    btree_lookups,
    check_version,
    create_in,
    create_many_in,
    flush_versioned,
    get_or_404,
    register,
)
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Device, DeviceType, GpuAsset, GpuHistory, GpuModel
from models.choices import FormFactor, GpuState


def allowed_moves(state: str) -> list[str]:
    return [s for s in GpuState.values() if s in GpuState.TRANSITIONS.get(state, ())]


def move_gpu(uow: UnitOfWork, gpu: GpuAsset, to_state: str, reason: str) -> None:
    """One lifecycle move inside an open unit of work (contracts use it to lease).

    The calling use case has checked its own permission (manage_gpus, or a contract's).
    """
    if not reason or not reason.strip():
        raise ValidationError({"reason": "every lifecycle move needs a reason"})
    if to_state not in GpuState.values():
        raise ValidationError({"state": f"unknown state {to_state!r}"})
    if to_state not in GpuState.TRANSITIONS[gpu.state]:
        allowed = ", ".join(GpuState.label(s) for s in allowed_moves(gpu.state)) or "none (retired is final)"
        raise RuleViolation(f"GPU {gpu.serial} is {GpuState.label(gpu.state)}; it cannot move to "
                            f"{GpuState.label(to_state)}. Allowed from here: {allowed}")
    before = gpu.state
    history_reason = reason.strip()
    if to_state in GpuState.LEAVES_SLOT and gpu.device_id is not None:
        where = _take_out_of_slot(uow, gpu, f"{GpuState.label(to_state)}: {reason.strip()}")
        history_reason = f"{history_reason} (taken out of {where})"[:255]
    gpu.state = to_state
    if to_state != GpuState.LEASED:
        gpu.customer_id = None
    flush_versioned(uow, gpu, f"GPU {gpu.serial}")
    uow.session.add(GpuHistory(gpu_id=gpu.id, from_state=before, to_state=to_state, actor_login=uow.actor.login,
                               reason=history_reason, at=dt.datetime.now(dt.timezone.utc)))
    uow.audit("gpu.transition", "gpu", gpu.id, gpu.serial, before={"state": before}, after={"state": to_state},
              reason=reason.strip())


def _take_out_of_slot(uow: UnitOfWork, gpu: GpuAsset, reason: str) -> str:
    """Empty the GPU's slot (a move to RMA or retired), audited as gpu.uninstall; returns where it was."""
    device = uow.session.get(Device, gpu.device_id)
    where = f"{device.name} slot {gpu.slot}" if device is not None else f"device {gpu.device_id} slot {gpu.slot}"
    before = {"device_id": gpu.device_id, "slot": gpu.slot, "where": where}
    gpu.device_id, gpu.slot = None, None
    uow.audit("gpu.uninstall", "gpu", gpu.id, gpu.serial, before=before,
              after={"device_id": None, "slot": None, "where": None}, reason=reason)
    return where


def transition_gpu(db: Database, actor: Actor, gpu_id: int, to_state: str, reason: str,
                   expected_version: int | None = None) -> int:
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        gpu = uow.session.execute(select(GpuAsset).where(GpuAsset.id == gpu_id).with_for_update(of=GpuAsset)).scalar_one_or_none()
        if gpu is None:
            raise ValidationError({"gpu": f"GPU {gpu_id} does not exist"})
        check_version(gpu, expected_version, f"GPU {gpu.serial}")
        move_gpu(uow, gpu, to_state, reason)
        uow.commit()
        return gpu.version


@dataclass(frozen=True)
class BulkResult:
    moved: int
    refused: list[tuple[int, str]]  # (gpu id, message)
    cancelled: bool


def transition_gpus(db: Database, actor: Actor, gpu_ids: Iterable[int], to_state: str, reason: str, *,
                    progress: Callable[[int, int], None] | None = None,
                    cancelled: Callable[[], bool] | None = None, batch: int = 200) -> BulkResult:
    """Bulk move, e.g. 64 GPUs received. One request id per batch; refusals are listed, not fatal."""
    require(actor, "manage_gpus")
    ids = list(gpu_ids)
    moved, refused = 0, []
    for start in range(0, len(ids), batch):
        if cancelled and cancelled():
            return BulkResult(moved, refused, True)
        chunk = ids[start:start + batch]
        with UnitOfWork(db, actor) as uow:
            gpus = uow.session.execute(select(GpuAsset).where(GpuAsset.id.in_(chunk)).with_for_update(of=GpuAsset)).scalars().all()
            for gpu in gpus:
                if to_state not in GpuState.TRANSITIONS[gpu.state]:
                    refused.append((gpu.id, f"{gpu.serial}: {GpuState.label(gpu.state)} cannot move to "
                                            f"{GpuState.label(to_state)}"))
                    continue
                move_gpu(uow, gpu, to_state, reason)
                moved += 1
            uow.commit()
        if progress:
            progress(min(start + batch, len(ids)), len(ids))
    return BulkResult(moved, refused, False)


def install_gpu(db: Database, actor: Actor, gpu_id: int, device_id: int | None, slot: int | None,
                reason: str | None = None, expected_version: int | None = None) -> None:
    """Put a GPU into a slot of a device, or take it out (device_id None)."""
    with UnitOfWork(db, actor) as uow:
        install_gpu_in(uow, gpu_id, device_id, slot, reason, expected_version)
        uow.commit()


def install_gpu_in(uow: UnitOfWork, gpu_id: int, device_id: int | None, slot: int | None,
                   reason: str | None = None, expected_version: int | None = None) -> None:
    require(uow.actor, "manage_gpus")
    s = uow.session
    gpu = get_or_404(s, GpuAsset, gpu_id, "GPU")
    check_version(gpu, expected_version, f"GPU {gpu.serial}")
    before = {"device_id": gpu.device_id, "slot": gpu.slot}
    if gpu.state == GpuState.LEASED and device_id != gpu.device_id:
        raise RuleViolation(f"GPU {gpu.serial} is leased; it cannot be taken out of its server while a "
                            "customer is using it. End or move the lease first")
    if gpu.state == GpuState.RETIRED and device_id is not None:
        raise RuleViolation(f"GPU {gpu.serial} is retired and cannot be installed")
    if (device_id is not None and device_id != gpu.device_id and gpu.state != GpuState.ORDERED
            and gpu.state not in GpuState.INSTALLABLE):
        # ORDERED passes only for import_gpu_in, which creates the GPU as ordered, installs it, then sets its state.
        raise RuleViolation(f"GPU {gpu.serial} is {GpuState.label(gpu.state)} and cannot be installed into a "
                            f"server; move it to Available first (or Received when it comes back from RMA)")
    label = None
    if device_id is not None:
        device = s.execute(select(Device).where(Device.id == device_id).with_for_update(of=Device)).scalar_one_or_none()
        occupant = None
        if device is not None and slot is not None:
            occupant = s.execute(select(GpuAsset.serial).where(GpuAsset.device_id == device_id, GpuAsset.slot == slot,
                                                               GpuAsset.id != gpu.id)).scalar()
        problem = _slot_problem(s, device, slot, gpu.serial, gpu.gpu_model_id, occupant)
        if problem is not None:
            raise problem
        label = f"{device.name} slot {slot}"
    else:
        slot = None
    gpu.device_id, gpu.slot = device_id, slot
    flush_versioned(uow, gpu, f"GPU {gpu.serial}")
    action = ("gpu.move" if device_id is not None and before["device_id"] == device_id
              else "gpu.install" if device_id else "gpu.uninstall")
    uow.audit(action, "gpu", gpu.id, gpu.serial,
              before=before, after={"device_id": device_id, "slot": slot, "where": label}, reason=reason)


def _slot_problem(s, device: Device | None, slot: int | None, serial: str, gpu_model_id: int,
                  occupant: str | None) -> Exception | None:
    """THE rules of putting a GPU into a slot of a device (install_gpu_in, import_gpus_in): the device
    exists, has that slot and takes this model, and no other GPU (`occupant`) is in the slot."""
    if device is None:
        return ValidationError({"device_id": "unknown device"})
    dtype: DeviceType = device.device_type
    if slot is None or not 1 <= slot <= dtype.gpu_slots:
        return ValidationError({"slot": f"{device.name} ({dtype.label}) has {dtype.gpu_slots or 'no'} GPU slots"
                                        + (f": choose 1–{dtype.gpu_slots}" if dtype.gpu_slots else "")})
    if dtype.gpu_model_id and dtype.gpu_model_id != gpu_model_id:
        wanted = s.get(GpuModel, dtype.gpu_model_id).name
        return RuleViolation(f"{device.name} takes {wanted} GPUs; {serial} is a {s.get(GpuModel, gpu_model_id).name}")
    if occupant:
        return RuleViolation(f"slot {slot} of {device.name} already holds GPU {occupant}")
    return None


def move_gpu_slot(db: Database, actor: Actor, gpu_id: int, to_slot: int, reason: str | None = None,
                  expected_version: int | None = None) -> None:
    """Move an installed GPU to another slot of the same server (audited as gpu.move)."""
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        gpu = get_or_404(uow.session, GpuAsset, gpu_id, "GPU")
        if gpu.device_id is None:
            raise RuleViolation(f"GPU {gpu.serial} is not in a server; install it into a slot instead")
        if gpu.slot == to_slot:
            raise RuleViolation(f"GPU {gpu.serial} is already in slot {to_slot}")
        install_gpu_in(uow, gpu_id, gpu.device_id, to_slot, reason, expected_version)
        uow.commit()


def import_gpu_in(uow: UnitOfWork, values: dict, state: str, device_id: int | None, slot: int | None,
                  customer_id: int | None = None) -> GpuAsset:
    """A GPU brought over from another system in the state it is in (a migration, not a lifecycle move):
    created, installed through install_gpu_in's slot rules, and given its state with one history row
    "imported as …". An ordered or retired GPU cannot sit in a server slot; a leased one is in a server
    and has its customer."""
    require(uow.actor, "manage_gpus")
    problem = _import_state_problem(state, device_id, customer_id)
    if problem is not None:
        raise problem
    gpu = create_in(uow, "gpu", {**values, "state": GpuState.ORDERED}, reason=f"imported as {state}")
    if device_id is not None:
        install_gpu_in(uow, gpu.id, device_id, slot, reason="imported")
    if state != GpuState.ORDERED:
        gpu.state = state
        gpu.customer_id = customer_id if state == GpuState.LEASED else None
        flush_versioned(uow, gpu, f"GPU {gpu.serial}")
        uow.audit("gpu.import", "gpu", gpu.id, gpu.serial, before=None,
                  after={"state": state, "customer_id": gpu.customer_id})
    uow.session.add(GpuHistory(gpu_id=gpu.id, from_state=None, to_state=state, actor_login=uow.actor.login,
                               reason=f"imported as {GpuState.label(state)}", at=dt.datetime.now(dt.timezone.utc)))
    return gpu


def _import_state_problem(state: str, device_id: int | None, customer_id: int | None) -> Exception | None:
    """What refuses a GPU imported in `state` (in a server slot when device_id is given)."""
    if state not in GpuState.values():
        return ValidationError({"state": f"{state!r} is not a GPU state ({', '.join(GpuState.values())})"})
    if device_id is not None and (state == GpuState.ORDERED or state in GpuState.LEAVES_SLOT):
        return RuleViolation(f"an {GpuState.label(state).lower()} GPU cannot be in a server slot; leave device "
                             "and slot empty or give its real state")
    if state == GpuState.LEASED and (device_id is None or customer_id is None):
        return RuleViolation("a leased GPU is in a server slot and has its customer (tenant)")
    return None


@dataclass(frozen=True)
class GpuToImport:
    """One GPU of import_gpus_in: its fields, the state it is in, and where it is (device and slot)."""
    values: dict
    state: str
    device_id: int | None = None
    slot: int | None = None
    customer_id: int | None = None


def import_gpus_in(uow: UnitOfWork, gpus: list[GpuToImport]) -> list[int | Exception]:
    """import_gpu_in for many new GPUs, checked and written set-wise: the same rules (the state's,
    the record's through create_many_in, the slot's through _slot_problem, against the fleet and the
    GPUs before it in `gpus`) and the same records (created as ordered, installed, given their state,
    one history row "imported as …" each; their events). The devices are locked, and their occupied
    slots read, once for all. Returns, for each GPU, its new id or the error that refused it (nothing
    is written for a refused GPU)."""
    require(uow.actor, "manage_gpus")
    s = uow.session
    out: list[int | Exception | None] = [None] * len(gpus)
    todo = []
    for i, g in enumerate(gpus):
        problem = _import_state_problem(g.state, g.device_id, g.customer_id)
        if problem is not None:
            out[i] = problem
        else:
            todo.append(i)
    device_ids = sorted({gpus[i].device_id for i in todo if gpus[i].device_id is not None})
    devices: dict[int, Device] = {}
    taken: dict[tuple[int, int], str] = {}
    for at in range(0, len(device_ids), 500):
        chunk = device_ids[at:at + 500]
        devices.update((d.id, d) for d in s.execute(select(Device).where(Device.id.in_(chunk))
                                                    .with_for_update(of=Device)).scalars())
        taken.update(((d, n), serial) for d, n, serial in s.execute(
            select(GpuAsset.device_id, GpuAsset.slot, GpuAsset.serial).where(GpuAsset.device_id.in_(chunk))))

    def slots(checked: list[tuple[int, dict]]) -> list[Exception | None]:
        """The slot rules for the GPUs that passed the record's, in order (an earlier one takes its slot)."""
        found = []
        for k, values in checked:
            g = gpus[todo[k]]
            if g.device_id is None:
                found.append(None)
                continue
            problem = _slot_problem(s, devices.get(g.device_id), g.slot, values["serial"], values["gpu_model_id"],
                                    taken.get((g.device_id, g.slot)))
            if problem is None:
                taken[g.device_id, g.slot] = values["serial"]
            found.append(problem)
        return found

    now = dt.datetime.now(dt.timezone.utc)

    def placed_in(g: GpuToImport) -> bool:
        return g.device_id is not None or g.state != GpuState.ORDERED

    def stored(k: int) -> dict:
        """Where and in what state the GPU is, written by its INSERT: its create event shows it ordered,
        its install and import events the rest (what an UPDATE after the INSERT wrote before, version
        and time included: 50,000 rows' UPDATE was an eighth of a realistic import, issue 26)."""
        g = gpus[todo[k]]
        moved = placed_in(g)
        return {"device_id": g.device_id, "slot": g.slot, "state": g.state,
                "customer_id": g.customer_id if g.state == GpuState.LEASED else None,
                "version": 2 if moved else 1, "updated_at": now}
    created = create_many_in(uow, "gpu", [{**gpus[i].values, "state": GpuState.ORDERED} for i in todo],
                             reasons=[f"imported as {gpus[i].state}" for i in todo], then=slots, stored=stored)
    history = []
    for i, result in zip(todo, created):
        out[i] = result
        if isinstance(result, Exception):
            continue
        g = gpus[i]
        customer_id = g.customer_id if g.state == GpuState.LEASED else None
        serial = g.values.get("serial")
        if g.device_id is not None:
            uow.audit("gpu.install", "gpu", result, serial, before={"device_id": None, "slot": None},
                      after={"device_id": g.device_id, "slot": g.slot,
                             "where": f"{devices[g.device_id].name} slot {g.slot}"}, reason="imported")
        if g.state != GpuState.ORDERED:
            uow.audit("gpu.import", "gpu", result, serial, before=None,
                      after={"state": g.state, "customer_id": customer_id})
        history.append({"gpu_id": result, "from_state": None, "to_state": g.state, "actor_login": uow.actor.login,
                        "reason": f"imported as {GpuState.label(g.state)}", "at": now})
    insert_rows(s, GpuHistory.__table__, history, ids=False)
    return out


def validate_gpu(s, v: dict) -> dict[str, str]:
    serial = (v.get("serial") or "").strip()
    taken = bool(serial) and s.execute(select(GpuAsset.id).where(GpuAsset.serial == serial,
                                                                 GpuAsset.id != v.get("_id", -1))).first() is not None
    model_known = bool(v.get("gpu_model_id")) and s.get(GpuModel, v["gpu_model_id"]) is not None
    return _gpu_problems(v, serial_taken=taken, model_known=model_known)


def validate_gpus(s, rows: list[dict]) -> list[dict[str, str]]:
    """validate_gpu for many GPUs (create_many_in, update_many_in; an existing one has its `_id`): the
    serials and the models are asked for once for all rows. A serial given twice is refused on its
    second row, as the second of two writes would be."""
    owners: dict[str, set] = {}
    for serial, gpu_id in _by_serials(s, select(GpuAsset.serial, GpuAsset.id),
                                      {(v.get("serial") or "").strip() for v in rows} - {""}):
        owners.setdefault(serial, set()).add(gpu_id)
    model_ids = {v.get("gpu_model_id") for v in rows if v.get("gpu_model_id")}
    known = set(s.execute(select(GpuModel.id).where(GpuModel.id.in_(model_ids))).scalars()) if model_ids else set()
    out = []
    for at, v in enumerate(rows):
        serial = (v.get("serial") or "").strip()
        own = v.get("_id", ("new", at))
        taken = any(gpu_id != own for gpu_id in owners.get(serial, ()))
        out.append(_gpu_problems(v, serial_taken=taken, model_known=v.get("gpu_model_id") in known))
        if serial:
            owners.setdefault(serial, set()).add(own)
    return out


def gpus_by_serial(s, serials) -> dict[str, GpuAsset]:
    """The fleet's GPUs with these serials, by serial. Their model is not joined to every row (the
    relationship's default): a handful of models, each loaded once from the identity map when asked
    (a bulk update's 50,000 GPUs built 50,000 model rows more, issue 26)."""
    query = select(GpuAsset).options(lazyload(GpuAsset.gpu_model))
    return {gpu.serial: gpu for gpu, in _by_serials(s, query, serials)}


def _by_serials(s, query, serials) -> list:
    """The rows of `query` for the GPUs with these serials, 500 serials per statement (an IN list; on
    PostgreSQL one array parameter, so that the statement's text, and its prepared plan, is the same
    every time)."""
    ordered = sorted(set(serials))
    postgresql = s.get_bind().dialect.name == "postgresql"
    rows: list = []
    if not ordered:
        return rows
    with btree_lookups(s):
        for at in range(0, len(ordered), 500):
            chunk = ordered[at:at + 500]
            where = GpuAsset.serial == any_(literal(chunk, ARRAY(String))) if postgresql else GpuAsset.serial.in_(chunk)
            rows.extend(s.execute(query.where(where)).all())
    return rows


def _gpu_problems(v: dict, *, serial_taken: bool, model_known: bool) -> dict[str, str]:
    """THE record rules of a GPU (a form's save, an import's rows): field -> problem; normalises `v`
    in place. What they need from the database (is the serial taken, is the model known) is asked
    by the caller, once per record (validate_gpu) or once for many (validate_gpus)."""
    errors = {}
    v["serial"] = (v.get("serial") or "").strip()
    if not v["serial"]:
        errors["serial"] = "a serial number is required"
    elif serial_taken:
        errors["serial"] = f"serial {v['serial']} is already in the fleet"
    if not v.get("gpu_model_id") or not model_known:
        errors["gpu_model_id"] = "choose the GPU model"
    if "_id" not in v:
        v.setdefault("state", GpuState.ORDERED)
        if v["state"] not in (GpuState.ORDERED, GpuState.RECEIVED):
            errors["state"] = "a new GPU starts as ordered or received; later states come through lifecycle moves"
    if v.get("purchase_cost") not in (None, ""):
        try:
            v["purchase_cost"] = Decimal(str(v["purchase_cost"]))
            if v["purchase_cost"] < 0:
                errors["purchase_cost"] = M.CANNOT_BE_NEGATIVE()
        except InvalidOperation:
            errors["purchase_cost"] = "not an amount"
    else:
        v["purchase_cost"] = None
    try:
        v["depreciation_months"] = int(v.get("depreciation_months") or 36)
        if v["depreciation_months"] <= 0:
            errors["depreciation_months"] = "a positive number of months"
    except (TypeError, ValueError):
        errors["depreciation_months"] = "a whole number of months"
    if v.get("device_id") is not None or v.get("slot") is not None:
        errors["device_id"] = "install a GPU into a slot through 'install', which checks the slot"
    v.pop("_id", None)
    return errors


register(EntitySpec("gpu", GpuAsset, validate_gpu, "serial", validate_many=validate_gpus))


def validate_gpu_model(s, v: dict) -> dict[str, str]:
    errors = {}
    for key in ("name", "vendor"):
        if not v.get(key):
            errors[key] = "required"
    try:
        v["memory_gb"] = int(v.get("memory_gb"))
        if v["memory_gb"] <= 0:
            errors["memory_gb"] = "memory is a positive number of GB"
    except (TypeError, ValueError):
        errors["memory_gb"] = "memory is a whole number of GB"
    if v.get("form_factor") not in FormFactor.values():
        errors["form_factor"] = f"form factor is one of {', '.join(FormFactor.values())}"
    v.pop("_id", None)
    return errors


register(EntitySpec("gpu_model", GpuModel, validate_gpu_model, "name"))


@dataclass(frozen=True)
class HistoryRow:
    at: dt.datetime
    from_state: str | None
    to_state: str
    actor: str
    reason: str


def gpu_history(db: Database, gpu_id: int) -> list[HistoryRow]:
    with db.session() as s:
        rows = s.execute(select(GpuHistory).where(GpuHistory.gpu_id == gpu_id).order_by(GpuHistory.id)).scalars()
        return [HistoryRow(r.at, r.from_state, r.to_state, r.actor_login, r.reason) for r in rows]
