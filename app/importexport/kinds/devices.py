"""Import of devices and device types (NetBox's CSV columns; a device type's YAML is read by devicetypes)."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.importexport.devicetypes import guess_role
from app.importexport.kinds.core import (
    _customer,
    _keep,
    _memo,
    _room,
    _Row,
    _site,
    _status,
)
from app.importexport.schema import HANDLERS
from app.services.devicetypes import upsert_device_type
from models import Device, DeviceType, GpuModel, Rack, Room
from models.choices import DeviceRole, DeviceStatus


def _device_type(s: Session, r: _Row) -> DeviceType | None:
    """By slug, or by model (NetBox's `device_type`) within `manufacturer` when that column is given."""
    ref, maker = r.get("device_type"), r.get("manufacturer")
    if not ref:
        return None
    hit, problem = _memo(s, ("device_type", ref, maker), lambda: _find_device_type(s, ref, maker))
    if problem:
        r.err("device_type", problem)
    return hit


def _find_device_type(s: Session, ref: str, maker: str | None) -> tuple[DeviceType | None, str | None]:
    if not maker:
        hit = s.execute(select(DeviceType).where(DeviceType.slug == ref)).scalar_one_or_none()
        if hit is not None:
            return hit, None
    q = select(DeviceType).where(func.lower(DeviceType.model) == ref.lower())
    if maker:
        q = q.where(func.lower(DeviceType.manufacturer) == maker.lower())
    hits = s.execute(q.limit(3)).scalars().all()
    if len(hits) == 1:
        return hits[0], None
    if maker and not hits:
        hit = s.execute(select(DeviceType).where(DeviceType.slug == ref)).scalar_one_or_none()
        if hit is not None and hit.manufacturer.lower() == maker.lower():
            return hit, None
    if hits and maker:
        return None, (f"several device types by {maker!r} are called {ref!r} (slugs "
                      f"{', '.join(h.slug for h in hits)}); give the slug (column device_type.slug)")
    if hits:
        return None, f"several device types are called {ref!r}; add the manufacturer column or give the slug"
    return None, (f"no device type has the slug or model {ref!r}"
                  + (f" by manufacturer {maker!r}" if maker else "") + "; import the device type first")


def _resolve_devices(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"name": r.get("name")}
    dtype = _device_type(s, r)
    if r.get("device_type"):
        v["device_type_id"] = dtype.id if dtype else None
    rack_name = r.get("rack")
    known = len(r.problems)
    room = None
    site = None
    if r.get("site") and r.get("location"):
        room = _room(s, r)
    elif r.get("site"):
        site = _site(s, r)
    if rack_name and len(r.problems) > known:
        v["rack_id"] = None  # the site or room is already wrong
    elif rack_name:
        q = select(Rack.id).join(Room, Room.id == Rack.room_id).where(Rack.name == rack_name)
        if room is not None:
            q = q.where(Rack.room_id == room.id)
        else:
            if site is not None:
                q = q.where(Room.site_id == site.id)
            if r.get("location"):
                q = q.where(Room.name == r.get("location"))
        hits = _memo(s, ("rack", room.id if room is not None else None, site.id if site is not None else None,
                         r.get("location"), rack_name), lambda: s.execute(q.limit(3)).scalars().all())
        if not hits:
            where = " in ".join(x for x in (r.get("location"), r.get("site")) if x)
            r.err("rack", f"no rack is named {rack_name!r}" + (f" in {where}" if where else ""))
        elif len(hits) > 1:
            r.err("rack", f"several racks are named {rack_name!r}; give the site and location too")
        v["rack_id"] = hits[0] if len(hits) == 1 else None
    elif r.get("position"):
        r.err("rack", "a position needs a rack")
    else:
        v["rack_id"] = None
    for col in ("position", "face", "serial", "asset_tag"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("devices", r, DeviceStatus.values(), DeviceStatus.label)
    if v.get("face"):
        v["face"] = v["face"].lower()
    if r.has("comments"):
        v["notes"] = r.get("comments")
    if r.has("tenant"):
        v["owner_customer_id"] = _customer(s, r)
    if not v["name"] and dtype is not None:
        if dtype.role in PASSIVE_ROLES:
            # NetBox leaves patch panels and blanks unnamed; ours get a name from what and where they are
            where = f" {rack_name} U{_u_text(r.get('position'))}" if rack_name and r.get("position") else ""
            v["name"] = f"{dtype.model}{where}" if where else \
                f"{dtype.model} {r.get('asset_tag') or r.get('serial') or ''}".strip()
        else:
            r.err("name", f"a {DeviceRole.label(dtype.role).lower()} needs a name; only passive devices "
                          "(patch panels, blanks, shelves) may be unnamed")
    elif not v["name"] and r.get("device_type"):
        pass  # the device type is already wrong
    elif not v["name"]:
        r.err("name", "a device name is required")
    _keep(v, "status")
    return v


PASSIVE_ROLES = (DeviceRole.PATCH_PANEL, DeviceRole.BLANK, DeviceRole.SHELF)


def _u_text(position: str | None) -> str:
    try:
        d = Decimal(str(position))
    except (InvalidOperation, TypeError):
        return str(position)
    return str(d.quantize(Decimal(1))) if d == d.to_integral_value() else str(d)


def _write_devices(uow, r: _Row, v: dict) -> str:
    s = uow.session
    existing = None
    if v.get("asset_tag"):
        existing = s.execute(select(Device).where(Device.asset_tag == v["asset_tag"])).scalar_one_or_none()
    if existing is None and v.get("serial"):
        hits = s.execute(select(Device).where(Device.serial == v["serial"]).limit(2)).scalars().all()
        existing = hits[0] if len(hits) == 1 else None
    if existing is None:
        q = select(Device).where(Device.name == v["name"])
        q = q.where(Device.rack_id == v["rack_id"]) if v.get("rack_id") else q.where(Device.rack_id.is_(None))
        hits = s.execute(q.limit(2)).scalars().all()
        existing = hits[0] if len(hits) == 1 else None
    from app.services.dcim import write_device_in

    if existing is None:
        write_device_in(uow, None, v)
        return "created"
    return "unchanged" if write_device_in(uow, existing.id, v, only_changes=True) is None else "updated"


def _resolve_device_types(s: Session, r: _Row) -> dict:
    if r.file is not None:  # from YAML: already parsed and checked by devicetypes
        return dict(r.v)
    v: dict[str, Any] = {}
    for col in ("manufacturer", "model", "slug", "part_number", "airflow", "role", "power_flag", "comments"):
        if r.has(col):
            v[col] = r.get(col)
    for col in ("u_height", "weight_kg"):
        if r.has(col):
            v[col] = r.decimal(col)
    for col in ("max_power_w", "typical_power_w", "gpu_slots"):
        if r.has(col):
            v[col] = r.integer(col)
    if r.has("is_full_depth"):
        v["is_full_depth"] = r.boolean("is_full_depth")
    if r.has("gpu_model"):
        name = r.get("gpu_model")
        mid = None
        if name:
            mid = s.execute(select(GpuModel.id).where(func.lower(GpuModel.name) == name.lower())).scalar_one_or_none()
            if mid is None:
                r.err("gpu_model", f"{name!r} is not in the GPU catalogue")
        v["gpu_model_id"] = mid
    _keep(v, "u_height", "is_full_depth", "gpu_slots", "role")
    return v


def _write_device_types(uow, r: _Row, v: dict) -> str:

    if r.file is None and "role" not in v and not uow.session.execute(
            select(DeviceType.id).where(DeviceType.slug == v.get("slug"))).first():
        v = dict(v, role=guess_role(v))   # NetBox's device-type CSV has no role: as from the library's YAML
    return upsert_device_type(uow, v, from_library=r.file is not None)


HANDLERS.update({
    "devices": (_resolve_devices, _write_devices),
    "device-types": (_resolve_device_types, _write_device_types),
})
