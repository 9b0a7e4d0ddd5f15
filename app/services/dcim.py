"""Racks, reservations, device types and devices: where a server may go.

Rules: a device fits in its rack and overlaps no other device on the same face (a
full-depth device takes both faces); typical power above the rack's capacity needs an
explicit, audited override; above the breaker limit it is always refused.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from sqlalchemy import func, or_, select

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import RuleViolation, ValidationError
from app.domain.power import power_draw_w
from app.services.entities import (
    EntitySpec,
    check_version,
    flush_or_refuse,
    flush_versioned,
    get_or_404,
    refuse_unstorable,
    register,
    require_reason,
    snapshot,
)
from app.services.space import placement_refusal
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Customer, Device, DeviceType, GpuAsset, GpuModel, Rack, RackReservation, Room
from models.choices import DeviceRole, DeviceStatus, Face, GpuState, RackStatus, ReservationStatus

BREAKER_HEADROOM = Decimal("1.25")  # default hard limit when a rack records none
HALF = Decimal("0.5")


def _dec(errors: dict, values: dict, key: str, *, lo=None, hi=None, step: Decimal | None = None,
         required=False) -> None:
    raw = values.get(key)
    if raw in (None, ""):
        values[key] = None
        if required:
            errors[key] = "required"
        return
    try:
        d = Decimal(str(raw))
    except InvalidOperation:
        errors[key] = M.NOT_A_NUMBER.quoting(raw)
        return
    if lo is not None and d < lo:
        errors[key] = f"must be at least {lo}"
    elif hi is not None and d > hi:
        errors[key] = f"must be at most {hi}"
    elif step is not None and (d / step) % 1 != 0:
        errors[key] = f"must be a multiple of {step}"
    values[key] = d


# --- racks -----------------------------------------------------------------------------

def validate_rack(s, v: dict) -> dict[str, str]:
    errors = {}
    if not v.get("name"):
        errors["name"] = "a rack name is required"
    room = s.get(Room, v.get("room_id")) if v.get("room_id") else None
    if room is None:
        errors["room_id"] = "choose the room"
    try:
        v["u_height"] = int(v.get("u_height") or 42)
        if not 1 <= v["u_height"] <= 60:
            errors["u_height"] = "a rack is 1 to 60 U high"
    except (TypeError, ValueError):
        errors["u_height"] = "the height is a whole number of units"
    _dec(errors, v, "power_capacity_kw", lo=0, hi=1000)
    if v.get("power_capacity_kw") is None and "power_capacity_kw" not in errors:
        v["power_capacity_kw"] = Decimal(8)
    _dec(errors, v, "breaker_limit_kw", lo=0, hi=1000)
    if v.get("status", RackStatus.AVAILABLE) not in RackStatus.values():
        errors["status"] = f"status must be one of {', '.join(RackStatus.values())}"
    v["asset_tag"] = (v.get("asset_tag") or "").strip() or None
    if room is not None and v.get("name"):
        clash = s.execute(select(Rack.id).where(Rack.room_id == room.id, Rack.name == v["name"],
                                                Rack.id != v.get("_id", -1))).first()
        if clash:
            errors["name"] = f"room {room.name} already has a rack named {v['name']}"
    if v.get("asset_tag"):
        clash = s.execute(select(Rack.id).where(Rack.asset_tag == v["asset_tag"], Rack.id != v.get("_id", -1))).first()
        if clash:
            errors["asset_tag"] = f"asset tag {v['asset_tag']} is already on another rack"
    if "_id" in v and "u_height" not in errors:
        top = s.execute(select(func.max(Device.position + DeviceType.u_height - 1))
                        .join(DeviceType, DeviceType.id == Device.device_type_id)
                        .where(Device.rack_id == v["_id"])).scalar()
        if top is not None and top > v["u_height"]:
            errors["u_height"] = f"devices reach U{top}; the rack cannot be lower than that"
    v.pop("_id", None)
    return errors


register(EntitySpec("rack", Rack, validate_rack, "name"))


def rack_label(rack: Rack) -> str:
    return f"{rack.room.site.code}/{rack.room.name}/{rack.name}"


# --- device types ---------------------------------------------------------------------------

def validate_device_type(s, v: dict) -> dict[str, str]:
    errors = {}
    for key in ("manufacturer", "model", "slug"):
        if not v.get(key):
            errors[key] = "required"
    if v.get("slug") and not all(c.isalnum() or c in "-_" for c in v["slug"]):
        errors["slug"] = "a slug is lower-case letters, digits, '-' and '_'"
    _dec(errors, v, "u_height", lo=0, hi=60, step=HALF)
    if v.get("u_height") is None and "u_height" not in errors:
        v["u_height"] = Decimal(1)
    for key in ("max_power_w", "typical_power_w"):
        if v.get(key) in ("", None):
            v[key] = None
        else:
            try:
                v[key] = int(v[key])
                if v[key] < 0:
                    errors[key] = "power cannot be negative"
            except (TypeError, ValueError):
                errors[key] = "watts, a whole number"
    try:
        v["gpu_slots"] = int(v.get("gpu_slots") or 0)
        if v["gpu_slots"] < 0:
            errors["gpu_slots"] = M.CANNOT_BE_NEGATIVE()
    except (TypeError, ValueError):
        errors["gpu_slots"] = "a whole number"
    if v.get("role", DeviceRole.SERVER) not in DeviceRole.values():
        errors["role"] = f"role must be one of {', '.join(DeviceRole.values())}"
    if v.get("gpu_model_id") and s.get(GpuModel, v["gpu_model_id"]) is None:
        errors["gpu_model_id"] = "unknown GPU model"
    if (v.get("max_power_w") and v.get("typical_power_w") and v["typical_power_w"] > v["max_power_w"]):
        errors["typical_power_w"] = "typical draw cannot exceed the maximum draw"
    if v.get("manufacturer") and v.get("model") and "model" not in errors:
        twin = same_make_and_model(s, v["manufacturer"], v["model"], v.get("_id"))
        if twin:
            errors["model"] = (f"{v['manufacturer']} already has a device type {v['model']!r} (slug {twin}); "
                               "NetBox allows one type per manufacturer and model: give this one another model "
                               "name, or change that type")
    if v.get("_id") and not errors:
        errors.update(installed_type_change_problems(s, v["_id"], v))
    v.pop("_id", None)
    return errors


def same_make_and_model(s, manufacturer: str, model: str, other_than: int | None = None) -> str | None:
    """The slug of a device type with this manufacturer and model (NetBox's unique pair), if any."""
    q = select(DeviceType.slug).where(DeviceType.manufacturer == manufacturer, DeviceType.model == model)
    if other_than:
        q = q.where(DeviceType.id != other_than)
    return s.execute(q.limit(1)).scalar_one_or_none()


def _names(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def installed_type_change_problems(s, type_id: int, v: dict) -> dict[str, str]:
    """What installed devices of this type a new height, depth or GPU bay count would break.

    A type change moves every device of the type at once: each must still fit in its rack,
    overlap nothing (devices of the same type included, at their new height), and keep a
    slot for every GPU it carries. Returns {field: message naming the devices}.
    """
    stored = s.get(DeviceType, type_id)
    if stored is None:
        return {}
    height = Decimal(v["u_height"]) if v.get("u_height") is not None else Decimal(stored.u_height)
    full = bool(v["is_full_depth"]) if v.get("is_full_depth") is not None else stored.is_full_depth
    slots = v["gpu_slots"] if v.get("gpu_slots") is not None else stored.gpu_slots
    errors: dict[str, str] = {}
    what = f"{stored.manufacturer} {stored.model}"
    if slots < stored.gpu_slots:
        rows = s.execute(select(Device.name, func.max(GpuAsset.slot), func.count(GpuAsset.id))
                         .join(GpuAsset, GpuAsset.device_id == Device.id)
                         .where(Device.device_type_id == type_id)
                         .group_by(Device.id, Device.name).having(func.max(GpuAsset.slot) > slots)
                         .order_by(Device.name)).all()
        if rows:
            errors["gpu_slots"] = (
                f"{what} cannot have {slots} GPU slot(s): {len(rows)} installed device(s) hold GPUs in higher "
                f"slots: {_names([f'{n} ({c} GPU(s), up to slot {m})' for n, m, c in rows])}. "
                "Remove those GPUs first, or import the type under a new slug")
    if height == Decimal(stored.u_height) and full == stored.is_full_depth:
        return errors
    mine = s.execute(select(Device.id, Device.name, Device.rack_id, Device.position, Device.face)
                     .where(Device.device_type_id == type_id, Device.rack_id.is_not(None))).all()
    if not mine:
        return errors
    problems: list[tuple[str, str]] = []  # (device name, what would happen to it)
    clashes: list[tuple[str, str]] = []
    racks = {r.id: r for r in s.execute(select(Rack).where(Rack.id.in_({m.rack_id for m in mine}))).scalars()}
    for m in mine:
        rack = racks[m.rack_id]
        if height > 0 and m.position is None:
            problems.append((m.name, f"{m.name} (rack {rack_label(rack)}, no position) would need a position"))
        elif height == 0 and m.position is not None:
            problems.append((m.name, f"{m.name} ({fmt_u(m.position)} of rack {rack_label(rack)}) would have no height"))
        elif height > 0 and m.position + height - 1 > rack.u_height:
            problems.append((m.name, f"{m.name} at {fmt_u(m.position)} would reach {fmt_u(m.position + height - 1)} "
                                     f"of rack {rack_label(rack)} ({rack.u_height}U)"))
    # Overlaps, rack by rack, with every device of this type at its new height.
    others = s.execute(
        select(Device.id, Device.name, Device.rack_id, Device.position, Device.face, Device.device_type_id,
               DeviceType.u_height, DeviceType.is_full_depth)
        .join(DeviceType, DeviceType.id == Device.device_type_id)
        .where(Device.rack_id.in_(list(racks)), Device.position.is_not(None))).all()
    by_rack: dict[int, list] = {}
    for o in others:
        mine_too = o.device_type_id == type_id
        by_rack.setdefault(o.rack_id, []).append(
            (o.name, Decimal(o.position), height if mine_too else Decimal(o.u_height),
             full if mine_too else o.is_full_depth, o.face, mine_too))
    for rack_id, items in by_rack.items():
        items.sort(key=lambda i: i[1])
        for i, a in enumerate(items):
            for b in items[i + 1:]:
                if b[1] >= a[1] + a[2]:
                    break
                if not (a[5] or b[5]) or a[2] == 0 or b[2] == 0:
                    continue
                if a[3] or b[3] or a[4] == b[4]:
                    first, second = (a, b) if a[5] else (b, a)
                    clashes.append((first[0], f"{first[0]} would overlap {second[0]} "
                                                   f"in rack {rack_label(racks[rack_id])}"))
    if problems or clashes:
        parts = []
        if clashes:
            parts.append(f"{len(clashes)} overlap(s): {_names([t for _n, t in sorted(clashes)], 5)}")
        if problems:
            parts.append(f"{len(problems)} device(s) would not fit: {_names([t for _n, t in sorted(problems)], 5)}")
        errors["u_height" if height != Decimal(stored.u_height) else "is_full_depth"] = (
            f"{what} cannot become {height.normalize():f}U{' full-depth' if full else ''} while its devices are "
            f"installed: {'; '.join(parts)}. Move those devices first, or import the changed type under a new slug")
    return errors


register(EntitySpec("device_type", DeviceType, validate_device_type, "slug"))


# --- devices and placement -------------------------------------------------------------------
def fmt_u(value) -> str:
    """U10, U10.5: unit numbers without trailing zeros."""
    d = Decimal(value)
    return f"U{d.quantize(Decimal(1)) if d == d.to_integral_value() else d.normalize()}"


def _occupied(position: Decimal, height: Decimal) -> tuple[Decimal, Decimal]:
    """Half-open unit interval [bottom, top) a device takes."""
    return position, position + height


def check_placement(s, rack: Rack, dtype: DeviceType, position: Decimal | None, face: str | None,
                    device_id: int | None, *, power_override: bool, device_status: str | None = None,
                    owner_customer_id: int | None = None, check_space: bool = False) -> list[str]:
    """Raise RuleViolation when the device does not fit; return notes (e.g. an override used)."""
    notes: list[str] = []
    height = Decimal(dtype.u_height)
    label = rack_label(rack)
    if rack.status == RackStatus.DECOMMISSIONED:
        raise RuleViolation(f"rack {label} is decommissioned; nothing can be placed in it")
    if height > 0:
        if position is None:
            raise ValidationError({"position": f"a {height}U device needs a position (its lowest unit) in rack {label}"})
        if position < 1 or (position / HALF) % 1 != 0:
            raise ValidationError({"position": "the position is a unit number from 1, in steps of 0.5"})
        if position + height - 1 > rack.u_height:
            raise ValidationError({"position": f"{dtype.label} is {height.normalize():f}U: at {fmt_u(position)} it would reach "
                                               f"{fmt_u(position + height - 1)}, but rack {label} has {rack.u_height}U. "
                                               f"The highest position that fits is {fmt_u(rack.u_height - height + 1)}"})
        face = face or Face.FRONT
        bottom, top = _occupied(position, height)
        others = s.execute(
            select(Device.id, Device.name, Device.position, Device.face, DeviceType.u_height, DeviceType.is_full_depth)
            .join(DeviceType, DeviceType.id == Device.device_type_id)
            .where(Device.rack_id == rack.id, Device.position.is_not(None),
                   Device.id != (device_id or -1))).all()
        for _oid, oname, opos, oface, oheight, ofull in others:
            ob, ot = _occupied(Decimal(opos), Decimal(oheight))
            shares_face = dtype.is_full_depth or ofull or oface == face
            if shares_face and bottom < ot and ob < top:
                side = "both faces" if (dtype.is_full_depth or ofull) else f"the {face} face"
                raise RuleViolation(
                    f"{fmt_u(position)}–{fmt_u(position + height - 1)} of rack {label} overlap {oname} "
                    f"({fmt_u(opos)}–{fmt_u(Decimal(opos) + Decimal(oheight) - 1)}) on {side}. Choose free units or move {oname} first")
        # Leases and reservations (app/services/space.py). The provider's passive cabling (patch panels,
        # blanks, shelves) goes into a customer's rack as part of the service, as in NetBox exports.
        passive_infra = owner_customer_id is None and dtype.role in (DeviceRole.PATCH_PANEL, DeviceRole.BLANK,
                                                                     DeviceRole.SHELF)
        if check_space and not passive_infra:
            refusal = placement_refusal(s, rack, bottom, top, face, bool(dtype.is_full_depth), owner_customer_id)
            if refusal:
                raise RuleViolation(refusal)
    elif position is not None:
        raise ValidationError({"position": "a 0U device has no position"})
    # Power: typical draw of everything in the rack, this device included (power_draw_w).
    own = power_draw_w(dtype)
    if own is not None:
        rows = s.execute(
            select(DeviceType.role, DeviceType.typical_power_w, DeviceType.max_power_w)
            .join(Device, Device.device_type_id == DeviceType.id)
            .where(Device.rack_id == rack.id, Device.id != (device_id or -1),
                   Device.status != DeviceStatus.DECOMMISSIONING)).all()
        total_w, by_max = own[0], int(own[1])
        for role, typical, maximum in rows:
            draw = power_draw_w(DeviceType(role=role, typical_power_w=typical, max_power_w=maximum))
            if draw is not None:
                total_w += draw[0]
                by_max += draw[1]
        new_kw = Decimal(total_w) / 1000
        basis = "typical" + (f" (the maximum for {by_max} device(s) whose type gives no typical draw)"
                             if by_max else "")
        capacity = Decimal(rack.power_capacity_kw)
        limit = Decimal(rack.breaker_limit_kw) if rack.breaker_limit_kw is not None else capacity * BREAKER_HEADROOM
        if new_kw > limit:
            raise RuleViolation(f"rack {label} would draw {new_kw:.2f} kW {basis}, over its breaker limit of "
                                f"{limit:.2f} kW; this is never allowed. Choose another rack")
        if new_kw > capacity:
            if not power_override:
                raise RuleViolation(f"rack {label} would draw {new_kw:.2f} kW {basis} against a capacity of "
                                    f"{capacity:.2f} kW. Place it with a power override (and a reason) "
                                    "if the customer's contract allows it")
            notes.append(f"power override: {new_kw:.2f} kW typical > capacity {capacity:.2f} kW")
    return notes


def validate_device(s, v: dict) -> dict[str, str]:
    errors = {}
    if not v.get("name"):
        errors["name"] = "a device name is required"
    dtype = s.get(DeviceType, v.get("device_type_id")) if v.get("device_type_id") else None
    if dtype is None:
        errors["device_type_id"] = "choose the device type"
    if v.get("status", DeviceStatus.ACTIVE) not in DeviceStatus.values():
        errors["status"] = f"status must be one of {', '.join(DeviceStatus.values())}"
    if v.get("face") not in (None, "", *Face.values()):
        errors["face"] = "face is front or rear"
    v["face"] = v.get("face") or None
    v["asset_tag"] = (v.get("asset_tag") or "").strip() or None
    v["serial"] = (v.get("serial") or "").strip() or None
    if v.get("owner_customer_id") and s.get(Customer, v["owner_customer_id"]) is None:
        errors["owner_customer_id"] = "unknown customer"
    _dec(errors, v, "position", lo=1, hi=60, step=HALF)
    if v.get("asset_tag"):
        clash = s.execute(select(Device.name).where(Device.asset_tag == v["asset_tag"],
                                                    Device.id != v.get("_id", -1))).first()
        if clash:
            errors["asset_tag"] = f"asset tag {v['asset_tag']} is already on {clash[0]}"
    if errors:
        return errors
    if v.get("rack_id"):
        rack = s.execute(select(Rack).where(Rack.id == v["rack_id"]).with_for_update(of=Rack)).scalar_one_or_none()
        if rack is None:
            return {"rack_id": "unknown rack"}
        v["face"] = v["face"] or (Face.FRONT if dtype.u_height > 0 else None)
        where = (v["rack_id"], v.get("position"), v["face"], v.get("owner_customer_id"))
        notes = check_placement(s, rack, dtype, v.get("position"), v["face"], v.get("_id"),
                                power_override=bool(v.get("_power_override")),
                                owner_customer_id=v.get("owner_customer_id"),
                                check_space=where != v.get("_placed"))
        v["_notes"] = notes
    else:
        v["position"] = v["face"] = None
    return errors


def _strip_private(v: dict) -> dict:
    return {k: val for k, val in v.items() if not k.startswith("_")}


def place_device(db: Database, actor: Actor, values: dict, *, power_override: bool = False,
                 reason: str | None = None) -> int:
    """Create a device, in a rack or not. A power override needs the permission and a reason."""
    return _write_device(db, actor, None, values, None, power_override, reason)


def update_device(db: Database, actor: Actor, device_id: int, values: dict, expected_version: int | None = None,
                  *, power_override: bool = False, reason: str | None = None) -> int:
    return _write_device(db, actor, device_id, values, expected_version, power_override, reason)


def move_device(db: Database, actor: Actor, device_id: int, rack_id: int | None, position, face: str | None,
                expected_version: int | None = None, *, power_override: bool = False,
                reason: str | None = None) -> int:
    return _write_device(db, actor, device_id, {"rack_id": rack_id, "position": position, "face": face},
                         expected_version, power_override, reason, action="device.move")


def _write_device(db, actor, device_id, values, expected_version, power_override, reason, action=None) -> int:
    with UnitOfWork(db, actor) as uow:
        device = write_device_in(uow, device_id, values, expected_version, power_override=power_override,
                                 reason=reason, action=action)
        uow.commit()
        return device.id


def write_device_in(uow: UnitOfWork, device_id: int | None, values: dict, expected_version: int | None = None, *,
                    power_override: bool = False, reason: str | None = None, action: str | None = None,
                    only_changes: bool = False) -> Device | None:
    """Create (device_id None) or change a device inside an open unit of work: the one create-or-update
    path of devices (the form, moves and imports). With `only_changes` (an import row), a device whose
    given fields all equal what is stored is left alone and None is returned."""
    actor = uow.actor
    require(actor, "manage_dcim")
    if power_override:
        require(actor, "override_power")
        if not reason:
            raise ValidationError({"reason": "a power override needs a reason for the audit trail"})
    s = uow.session
    if device_id is None:
        merged = dict(values)
        before = None
        obj = None
    else:
        obj = get_or_404(s, Device, device_id, "device")
        check_version(obj, expected_version, f"device {obj.name}")
        before = snapshot(obj)
        merged = {k: getattr(obj, k) for k in before}
        merged.update(values)
        merged["_id"] = obj.id
        merged["_placed"] = (obj.rack_id, obj.position, obj.face, obj.owner_customer_id)  # unchanged: not re-checked
        _refuse_if_leased_gpus(s, obj, values)
    merged["_power_override"] = power_override
    refuse_unstorable(Device, values)  # 1e400, NaN, a NUL, too long: before the checks that do arithmetic
    errors = validate_device(s, merged)
    if errors:
        raise ValidationError(errors)
    notes = merged.get("_notes") or []
    clean = _strip_private(merged)
    clean.pop("id", None)
    if obj is not None and only_changes and all(getattr(obj, k) == clean[k] for k in values
                                                 if not k.startswith("_") and k in clean):
        return None
    if obj is None:
        obj = Device(**clean, updated_by=actor.login)
        s.add(obj)
        flush_or_refuse(s)
    else:
        for k, v in clean.items():
            setattr(obj, k, v)
        flush_versioned(uow, obj, f"device {obj.name}")
    after = snapshot(obj)
    if before is None:
        b, a = None, after
    else:
        changed = [k for k in after if after[k] != before[k]]
        b, a = {k: before[k] for k in changed}, {k: after[k] for k in changed}
    full_reason = "; ".join(x for x in [reason, *notes] if x) or None
    uow.audit(action or ("device.create" if before is None else "device.update"), "device", obj.id, obj.name,
              before=b, after=dict(a, power_override=True) if notes else a, reason=full_reason)
    return obj


def _refuse_if_leased_gpus(s, device: Device, values: dict) -> None:
    if "rack_id" in values and values["rack_id"] != device.rack_id:
        leased = s.execute(select(func.count()).select_from(GpuAsset).where(
            GpuAsset.device_id == device.id, GpuAsset.state == GpuState.LEASED)).scalar_one()
        if leased:
            raise RuleViolation(f"{device.name} carries {leased} leased GPU(s); it cannot leave its rack "
                                "while a customer is using them")


# Generic create/update would skip the override; they are used for deletes and imports.
register(EntitySpec("device", Device, validate_device, "name"))


# --- reservations -------------------------------------------------------------------------------

def reserve_units(db: Database, actor: Actor, rack_id: int, customer_id: int, face: str, u_from: int, u_to: int,
                  start_date: dt.date, end_date: dt.date | None = None, note: str | None = None) -> int:
    """Hold units for a customer; two active reservations never overlap on units, face and dates."""
    require(actor, "reserve_racks")
    errors = {}
    if face not in Face.values():
        errors["face"] = "face is front or rear"
    if u_from < 1 or u_to < u_from:
        errors["u_to"] = "the unit range runs from a lower to a higher unit, starting at 1"
    if end_date is not None and end_date < start_date:
        errors["end_date"] = "the reservation ends before it starts"
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        rack = s.execute(select(Rack).where(Rack.id == rack_id).with_for_update(of=Rack)).scalar_one_or_none()
        if rack is None:
            raise ValidationError({"rack_id": "unknown rack"})
        customer = get_or_404(s, Customer, customer_id, "customer")
        if u_to > rack.u_height:
            raise ValidationError({"u_to": f"rack {rack_label(rack)} has {rack.u_height}U"})
        far_future = dt.date(9999, 12, 31)
        clash = s.execute(
            select(RackReservation, Customer.name).join(Customer, Customer.id == RackReservation.customer_id)
            .where(RackReservation.rack_id == rack.id, RackReservation.face == face,
                   RackReservation.status == ReservationStatus.ACTIVE,
                   RackReservation.u_from <= u_to, RackReservation.u_to >= u_from,
                   RackReservation.start_date <= (end_date or far_future),
                   or_(RackReservation.end_date.is_(None), RackReservation.end_date >= start_date))).first()
        if clash:
            r, cname = clash
            raise RuleViolation(f"U{u_from}–U{u_to} ({face}) of rack {rack_label(rack)} are already reserved for "
                                f"{cname}: U{r.u_from}–U{r.u_to} from {r.start_date} to {r.end_date or 'open end'}")
        from app.services.space import Space, space_problems  # another customer's lease on an overlapping day
        leased = [p for p in space_problems(s, customer.id, Space(rack.id, u_from, u_to, face), start_date, end_date)
                  if " are leased to " in p]
        if leased:
            raise RuleViolation(f"U{u_from}–U{u_to} ({face}) of rack {rack_label(rack)} cannot be reserved: "
                                + "; ".join(leased))
        res = RackReservation(rack_id=rack.id, customer_id=customer.id, face=face, u_from=u_from, u_to=u_to,
                              start_date=start_date, end_date=end_date, note=note, updated_by=actor.login)
        s.add(res)
        flush_or_refuse(s)
        uow.audit("reservation.create", "rack_reservation", res.id,
                  f"{rack_label(rack)} U{u_from}-{u_to} {face} → {customer.name}", after=snapshot(res))
        uow.commit()
        return res.id


def cancel_reservation(db: Database, actor: Actor, reservation_id: int, reason: str,
                       expected_version: int | None = None) -> None:
    require(actor, "reserve_racks")
    if not reason:
        raise ValidationError({"reason": "say why the reservation is cancelled"})
    with UnitOfWork(db, actor) as uow:
        res = get_or_404(uow.session, RackReservation, reservation_id, "reservation")
        check_version(res, expected_version, f"reservation {reservation_id}")
        if res.status != ReservationStatus.ACTIVE:
            raise RuleViolation(f"reservation {reservation_id} is {res.status}, not active")
        res.status = ReservationStatus.CANCELLED
        flush_versioned(uow, res, f"reservation {reservation_id}")
        uow.audit("reservation.cancel", "rack_reservation", res.id, None,
                  before={"status": "active"}, after={"status": "cancelled"}, reason=reason)
        uow.commit()


# --- retiring -------------------------------------------------------------------------------

def retire_device(db: Database, actor: Actor, device_id: int, reason: str,
                  expected_version: int | None = None) -> int:
    """Take a device out of service (decommissioning); the reason goes into the audit trail."""
    reason = require_reason(reason, "device")
    with UnitOfWork(db, actor) as uow:
        device = write_device_in(uow, device_id, {"status": DeviceStatus.DECOMMISSIONING}, expected_version,
                                 reason=reason, action="device.retire")
        uow.commit()
        return device.version
