"""Import of contracts, one item a row (a migration from another system: services.migration)."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.importexport.kinds.core import (
    _customer,
    _device_ref,
    _local_datetime,
    _Row,
)
from app.importexport.schema import HANDLERS, _RowRefused
from models import Cage, Contract, GpuModel, Rack, Room, Site, Subsidiary


def _resolve_contracts(s: Session, r: _Row) -> dict:
    from app.services.contracts import ItemSpec
    from app.services.migration import gpu_ids_by_serial
    from models.choices import ItemKind

    h = _contract_header(s, r)
    kind = (r.get("item_kind") or "").lower()
    if kind not in ItemKind.values():
        r.err("item_kind", f"{r.get('item_kind')!r} is not an item kind ({', '.join(ItemKind.values())})")
    rack_id = _item_rack(s, r)
    cage_id = _item_cage(s, r)
    face = (r.get("face") or "").lower() or None
    device = _device_ref(s, r, "device")
    gpu_model_id = None
    if r.get("gpu_model"):
        gpu_model_id = s.execute(select(GpuModel.id).where(func.lower(GpuModel.name) == r.get("gpu_model").lower())
                                 ).scalar_one_or_none()
        if gpu_model_id is None:
            r.err("gpu_model", f"{r.get('gpu_model')!r} is not in the GPU catalogue")
    serials = re.split(r"[\s,;]+", r.get("gpus") or "")
    gpu_ids, missing = gpu_ids_by_serial(s, [x for x in serials if x])
    if missing:
        r.err("gpus", f"GPU(s) {', '.join(repr(x) for x in missing)} are not in the fleet; import the GPUs first")
    dec = {c: r.decimal(c) for c in ("quantity", "unit_price", "power_allowance_kw", "kwh_price", "included_hours",
                                     "hourly_rate")}
    item = None
    if not r.problems:
        item = ItemSpec(kind=kind, description=r.get("item_description") or "", unit_price=dec["unit_price"],
                        price_unit=(r.get("price_unit") or "").lower(),
                        quantity=dec["quantity"] if dec["quantity"] is not None else Decimal(1),
                        tax_category=(r.get("tax_category") or "").lower() or None, rack_id=rack_id,
                        u_from=r.integer("u_from"), u_to=r.integer("u_to"), cage_id=cage_id, face=face,
                        device_id=device.id if device else None, gpu_model_id=gpu_model_id, gpu_ids=tuple(gpu_ids),
                        service_start=r.date("service_start"), service_end=r.date("service_end"),
                        power_allowance_kw=dec["power_allowance_kw"], kwh_price=dec["kwh_price"],
                        included_hours=dec["included_hours"], hourly_rate=dec["hourly_rate"], mbps=r.integer("mbps"),
                        setup_price=r.decimal("setup_price"),
                        description_en=r.get("item_description_en") or None)
    handover = {"handover_at": _local_datetime(r, "handover_at") if r.get("handover_at") else None,
                "handover_by": r.get("handover_by"), "handover_note": r.get("handover_note")}
    return {"number": r.get("number"), "_header": h, "_item": item, "_handover": handover}


def _contract_header(s: Session, r: _Row) -> dict:
    """The contract's own columns of a row: subsidiary, customer, status, title, dates, language,
    the contract it renews or amends."""
    from models.choices import ContractStatus

    h: dict[str, Any] = {}
    sub = r.get("subsidiary")
    h["subsidiary_id"] = s.execute(select(Subsidiary.id).where(Subsidiary.code == sub)).scalar_one_or_none() \
        if sub else None
    if sub and h["subsidiary_id"] is None:
        r.err("subsidiary", f"no subsidiary has the code {sub!r}")
    if r.get("credit_code"):
        h["customer_id"] = _customer(s, r, "credit_code")
    else:
        h["customer_id"] = _customer(s, r, "tenant")
        if not r.get("tenant"):
            r.err("tenant", "name the customer (tenant) or give its credit code")
    status = (r.get("status") or "").lower().replace(" ", "_")
    by_label = {ContractStatus.label(x).lower().replace(" ", "_"): x for x in ContractStatus.values()}
    h["status"] = by_label.get(status, status)
    if h["status"] not in ContractStatus.values():
        r.err("status", f"{r.get('status')!r} is not a contract status ({', '.join(ContractStatus.values())})")
    h["title"] = r.get("title")
    for col in ("start_date", "end_date", "effective_date"):
        h[col] = r.date(col)
    h["revision"] = r.integer("revision") if r.get("revision") else 1
    h["language"] = (r.get("language") or "zh").lower()
    h["service_level"], h["terms"] = r.get("service_level"), r.get("terms")
    for col, key in (("renewal_of", "renewal_of_id"), ("amends", "amends_id")):
        ref = r.get(col)
        h[key] = s.execute(select(Contract.id).where(Contract.number == ref)).scalar_one_or_none() if ref else None
        if ref and h[key] is None:
            r.err(col, f"no contract has the number {ref!r} (list it before the contracts that refer to it)")
    return h


def _item_rack(s: Session, r: _Row) -> int | None:
    """The item's rack: site/room/rack, or its asset tag or name."""
    rack_id = None
    if r.get("rack"):
        ref = r.get("rack")
        parts = ref.split("/")
        q = select(Rack.id).join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
        if len(parts) == 3:
            q = q.where(Site.code == parts[0], Room.name == parts[1], Rack.name == parts[2])
        else:
            q = q.where(or_(Rack.asset_tag == ref, Rack.name == ref))
        hits = s.execute(q.limit(2)).scalars().all()
        if len(hits) != 1:
            r.err("rack", f"no rack {ref!r} (write site/room/rack or its asset tag)" if not hits else
                  f"several racks are named {ref!r}; write site/room/rack")
        rack_id = hits[0] if len(hits) == 1 else None
    return rack_id


def _item_cage(s: Session, r: _Row) -> int | None:
    """The item's cage: site/room/cage, or its name."""
    cage_id = None
    if r.get("cage"):
        ref = r.get("cage")
        parts = ref.split("/")
        q = select(Cage.id).join(Room, Room.id == Cage.room_id).join(Site, Site.id == Room.site_id)
        q = q.where(Site.code == parts[0], Room.name == parts[1], Cage.name == parts[2]) if len(parts) == 3 \
            else q.where(Cage.name == ref)
        hits = s.execute(q.limit(2)).scalars().all()
        if len(hits) != 1:
            r.err("cage", f"no cage {ref!r} (write site/room/cage)" if not hits else
                  f"several cages are named {ref!r}; write site/room/cage")
        cage_id = hits[0] if len(hits) == 1 else None
    return cage_id


def _write_contracts(uow, r: _Row, v: dict) -> str:
    from app.services.migration import import_contract_item_in

    if not v["number"]:
        raise _RowRefused([("number", "a contract number is required")])
    new = uow.__dict__.setdefault("_imported_contracts", set())
    return import_contract_item_in(uow, v["number"], v["_header"], v["_item"], v["_handover"], new)


HANDLERS.update({
    "contracts": (_resolve_contracts, _write_contracts),
})
