"""Import of GPUs: row by row, and set-wise for a batch (BULK_WRITE)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.domain.errors import ValidationError
from app.importexport.kinds.core import (
    _customer,
    _device_ref,
    _memo,
    _Row,
    _upsert,
)
from app.importexport.schema import BULK_WRITE, HANDLERS
from app.services.common import create_in, create_many_in, update_many_in
from app.services.gpus import GpuToImport, gpus_by_serial, import_gpu_in, import_gpus_in, install_gpu_in
from models import GpuAsset, GpuModel
from models.choices import GpuState


def _resolve_gpus(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"serial": r.get("serial")}
    model = r.get("model")
    if model:
        # the model itself is remembered: the session holds loaded objects only weakly, and the
        # service's validator looks it up by id on every row
        found = _memo(s, ("gpu_model", model.lower()), lambda: s.execute(
            select(GpuModel).where(func.lower(GpuModel.name) == model.lower())).scalar_one_or_none())
        mid = found.id if found is not None else None
        if mid is None:
            names = ", ".join(s.execute(select(GpuModel.name).order_by(GpuModel.name)).scalars())
            r.err("model", f"{model!r} is not in the GPU catalogue ({names})")
        v["gpu_model_id"] = mid
    if r.get("state"):
        state = r.get("state").lower().replace("-", "_").replace(" ", "_")
        if state not in GpuState.values():
            r.err("state", f"{r.get('state')!r} is not a GPU state ({', '.join(GpuState.values())})")
        v["state"] = state
    for col in ("purchase_date", "warranty_end"):
        if r.has(col):
            v[col] = r.date(col)
    if r.has("purchase_cost"):
        v["purchase_cost"] = r.decimal("purchase_cost")
    if r.get("depreciation_months"):
        v["depreciation_months"] = r.integer("depreciation_months")
    if r.has("device") or r.has("slot"):
        device = _device_ref(s, r)
        slot = r.integer("slot") if r.get("slot") else None
        if device is not None and slot is None:
            r.err("slot", f"say which GPU slot of {device.name}")
        if device is None and slot is not None and not r.get("device"):
            r.err("device", "a slot needs the device it is in")
        v["_device_id"] = device.id if device else None
        v["_slot"] = slot
    if r.has("tenant"):
        v["_customer_id"] = _customer(s, r)
    return v


_UNKNOWN = object()


def _write_gpus(uow, r: _Row, v: dict, existing: Any = _UNKNOWN) -> str:
    s = uow.session
    placing = "_device_id" in v
    device_id, slot = v.pop("_device_id", None), v.pop("_slot", None)
    customer_id = v.pop("_customer_id", None)
    if existing is _UNKNOWN:
        existing = s.execute(select(GpuAsset).where(GpuAsset.serial == v["serial"])).scalar_one_or_none()
    if existing is None and (v.get("state") or device_id is not None):
        v["state"] = v.get("state") or GpuState.ORDERED  # no state column: ordered, which no slot can hold
        # a migration: the GPU comes in the state it is in, with one history row "imported as …"
        import_gpu_in(uow, {k: val for k, val in v.items() if k != "state"}, v["state"], device_id, slot,
                      customer_id)
        return "created"
    if existing is not None:
        refused = _state_change(existing, v)
        if refused is not None:
            raise refused
        v.pop("state", None)
        outcome = _upsert(uow, "gpu", existing, v, existing.serial, validate_as={"device_id": None, "slot": None})
        gpu = existing
    else:
        gpu = create_in(uow, "gpu", v)
        outcome = "created"
    if placing and (gpu.device_id, gpu.slot) != (device_id, slot):
        install_gpu_in(uow, gpu.id, device_id, slot, reason="bulk import")  # the service's own slot rules
        outcome = "updated" if outcome == "unchanged" else outcome
    return outcome


def _state_change(gpu: GpuAsset, v: dict) -> ValidationError | None:
    if v.get("state") and v["state"] != gpu.state:
        return ValidationError({"state": f"GPU {gpu.serial} is {GpuState.label(gpu.state)}; an import does not "
                                         "move GPUs through their lifecycle. Use a lifecycle move"})
    return None


def _write_gpus_many(uow, items: list[tuple[_Row, dict]]) -> list[Any]:
    """_write_gpus for a batch of rows, set-wise (_flavour_groups): runs of new GPUs are checked and created by
    create_many_in (or import_gpus_in for those with a state or a slot, as import_gpu_in takes them),
    runs of existing GPUs checked and updated by update_many_in; an existing GPU whose slot changes is
    then installed row by row (install_gpu_in). Returns each row's outcome, or the error that refused
    it before anything of it was written; a failure while writing is raised (the batch is then checked
    again row by row, _write_gpus)."""
    existing = gpus_by_serial(uow.session, [v["serial"] for _r, v in items if v.get("serial")])
    out: list[Any] = [None] * len(items)
    run: list[int] = []  # rows of one flavour (_flavour_groups)

    def flavour(v: dict) -> str:
        if v.get("serial") in existing:
            return "update"
        return "import" if v.get("state") or v.get("_device_id") is not None else "create"

    def write_run() -> None:
        if not run:
            return
        rows = [items[i][1] for i in run]
        how = flavour(rows[0])
        if how == "import":
            results = import_gpus_in(uow, [GpuToImport(
                _gpu_values(v), v.get("state") or GpuState.ORDERED,  # no state column: ordered (no slot holds it)
                v.get("_device_id"), v.get("_slot"), v.get("_customer_id")) for v in rows])
            outcomes = [result if isinstance(result, Exception) else "created" for result in results]
        elif how == "create":
            outcomes = [result if isinstance(result, Exception) else "created"
                        for result in create_many_in(uow, "gpu", [_gpu_values(v) for v in rows])]
        else:
            outcomes = _update_gpus(uow, [(existing[v["serial"]], v) for v in rows])
        for i, outcome in zip(run, outcomes):
            out[i] = outcome
        run.clear()

    for group in _flavour_groups(items, flavour):
        run.extend(group)
        write_run()
    return out


def _flavour_groups(items: list[tuple[_Row, dict]], flavour) -> list[list[int]]:
    """The batch's rows as runs of one flavour to write together. A realistic file mixes new GPUs with
    and without a state every row or two: written run by run, 10,000 rows were 5,000 runs, each with its
    own checks and inserts (600 rows/s). So each flavour's rows are one run, the flavours in the order
    they first appear, and each run in file order, when no serial comes twice in the batch (which row is
    the duplicate cannot depend on the grouping) and no row places a GPU in a slot (a slot freed by one
    row and taken by a later one keeps its order); otherwise runs of consecutive rows, as written."""
    serials = [v.get("serial") for _r, v in items if v.get("serial")]
    placed = any("_device_id" in v for _r, v in items)   # a device or slot column: a placement, or a removal
    groups: dict[str, list[int]] = {}
    if not placed and len(serials) == len(set(serials)):
        for i, (_r, v) in enumerate(items):
            groups.setdefault(flavour(v), []).append(i)
        return list(groups.values())
    runs: list[list[int]] = []
    for i, (_r, v) in enumerate(items):
        if runs and flavour(items[runs[-1][0]][1]) == flavour(v):
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _update_gpus(uow, rows: list[tuple[GpuAsset, dict]]) -> list[Any]:
    """Existing GPUs of a batch: their state as the file says (an import moves no GPU through its
    lifecycle), their fields through update_many_in, then their slot through install_gpu_in."""
    out: list[Any] = [None] * len(rows)
    todo = []
    for k, (gpu, v) in enumerate(rows):
        out[k] = _state_change(gpu, v)
        if out[k] is None:
            todo.append(k)
    updated = update_many_in(uow, "gpu", [(rows[k][0], _gpu_values(rows[k][1])) for k in todo],
                             validate_as={"device_id": None, "slot": None})
    for k, result in zip(todo, updated):
        if isinstance(result, Exception):
            out[k] = result
            continue
        gpu, v = rows[k]
        outcome = "unchanged" if result is None else "updated"
        if "_device_id" in v and (gpu.device_id, gpu.slot) != (v["_device_id"], v.get("_slot")):
            install_gpu_in(uow, gpu.id, v["_device_id"], v.get("_slot"), reason="bulk import")
            outcome = "updated"
        out[k] = outcome
    return out


def _gpu_values(v: dict) -> dict:
    """A GPU's fields from a resolved row (without the row's slot, tenant and state)."""
    return {k: val for k, val in v.items() if not k.startswith("_") and k != "state"}


BULK_WRITE.update({"gpus": _write_gpus_many})

HANDLERS.update({
    "gpus": (_resolve_gpus, _write_gpus),
})
