"""Per-kind mapping of rows: resolve (read-only, typed, references looked up) then write through the services."""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any, Callable

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.domain.clock import TZ, DateError, parse_date
from app.domain.errors import ValidationError
from app.domain.messages import message_of
from app.domain.money import AmountError, parse_decimal
from app.domain.validators import column_problems, email_problem, phone_problem, region_level, uscc_problem
from app.importexport.devicetypes import guess_role
from app.importexport.schema import (
    BULK_WRITE,
    FIELD_COLUMN,
    HANDLERS,
    LOCAL_TIME_ZONE,
    LOOKUPS,
    MODEL,
    NETBOX_STATUS,
    ROW_KEY,
    ImportRow,
    _RowRefused,
)
from app.services.common import create_in, create_many_in, update_many_in, upsert_in
from app.services.devicetypes import upsert_device_type
from app.services.entities import flush_or_refuse, flush_versioned, snapshot
from app.services.gpus import GpuToImport, gpus_by_serial, import_gpu_in, import_gpus_in, install_gpu_in
from models import (
    Cage,
    Contact,
    Contract,
    Coverage,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
    GpuModel,
    Rack,
    Region,
    Room,
    Site,
    Subsidiary,
    User,
)
from models.choices import DeviceRole, DeviceStatus, GpuState, RackStatus, SiteStatus

# --- typed cells ------------------------------------------------------------------------

class _Row:
    """One row being resolved: typed getters that collect problems instead of raising."""

    def __init__(self, row: ImportRow):
        self.line = row.line
        self.file = row.file
        self.v = row.values
        self.problems: list[tuple[str | None, str]] = []

    def has(self, col: str) -> bool:
        return col in self.v

    def get(self, col: str) -> str | None:
        value = self.v.get(col)
        return value.strip() if isinstance(value, str) else value

    def err(self, col: str | None, reason: str) -> None:
        self.problems.append((col, reason))

    def decimal(self, col: str) -> Decimal | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        try:  # the one grammar of a number typed by a person (¥/￥, 1,234.5; no 1e400, NaN, Infinity)
            return parse_decimal(raw, currency=True, whole_digits=30)  # each column's own size: column_problems
        except AmountError as exc:
            self.err(col, message_of(exc))
            return None

    def integer(self, col: str) -> int | None:
        d = self.decimal(col)
        if d is None:
            return None
        if d != d.to_integral_value():
            self.err(col, f"{self.get(col)!r} is not a whole number")
            return None
        return int(d)

    def date(self, col: str) -> dt.date | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        text_ = str(raw)
        if len(text_) > 10 and re.fullmatch(r"\d{4}-\d{2}-\d{2}[ T]00:00(:00(\.0+)?)?", text_):
            text_ = text_[:10]  # pandas writes a date column as date-times at midnight
        try:
            return parse_date(text_)
        except DateError as exc:
            self.err(col, message_of(exc))
            return None

    def boolean(self, col: str) -> bool | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        word = str(raw).lower()
        if word in ("true", "yes", "1", "y", "是"):
            return True
        if word in ("false", "no", "0", "n", "否"):
            return False
        self.err(col, f"{raw!r} is not true or false")
        return None

    def check(self) -> None:
        if self.problems:
            raise _RowRefused(self.problems)


# --- lookups -------------------------------------------------------------------------------

def _memo(s: Session, key: tuple, fetch: Callable[[], Any]) -> Any:
    """fetch(), remembered for the rest of this import (session.info[LOOKUPS]): a file names the same
    model, type, room or customer on thousands of rows, and references of another kind do not change
    while it is imported (the cache is dropped when a batch is rolled back)."""
    cache = s.info.get(LOOKUPS)
    if cache is None:
        return fetch()
    if key not in cache:
        cache[key] = fetch()
    return cache[key]


def _customer(s: Session, r: _Row, col: str = "tenant") -> int | None:
    ref = r.get(col)
    if not ref:
        return None
    hits = _memo(s, ("customer", ref), lambda: s.execute(
        select(Customer.id).where(or_(Customer.credit_code == ref.upper(), Customer.name == ref))
        .limit(3)).scalars().all())
    if not hits:
        r.err(col, f"no customer is named {ref!r} or has that credit code; add the customer first (kind "
                   "customers: a new customer needs its unified social credit code)")
    elif len(hits) > 1:
        r.err(col, f"several customers are named {ref!r}; give the credit code instead")
    else:
        return hits[0]
    return None


def _site(s: Session, r: _Row, col: str = "site") -> Site | None:
    """A site by its code, its name, or NetBox's slug (which an import from NetBox made the code)."""
    ref = r.get(col)
    if not ref:
        return None
    site, problem = _memo(s, ("site", ref), lambda: _find_site(s, ref))
    if problem:
        r.err(col, problem)
    return site


def _find_site(s: Session, ref: str) -> tuple[Site | None, str | None]:
    site = s.execute(select(Site).where(Site.code == ref)).scalar_one_or_none()
    if site is None:
        site = s.execute(select(Site).where(func.lower(Site.slug) == ref.lower())).scalar_one_or_none()
    if site is None:
        hits = s.execute(select(Site).where(or_(Site.name == ref, func.lower(Site.code) == ref.lower()))
                         .limit(3)).scalars().all()
        if len(hits) > 1:
            return None, f"several sites are named {ref!r}; give the site code instead"
        site = hits[0] if hits else None
    if site is None:
        return None, f"no site has the code, name or slug {ref!r}"
    return site, None


def _room(s: Session, r: _Row, site_col: str = "site", room_col: str = "location") -> Room | None:
    room_name = r.get(room_col)
    site = _site(s, r, site_col)
    if site is None:
        return None
    if not room_name:
        r.err(room_col, f"name the room (location) in site {site.code}: every rack here is in a room (NetBox "
                        "allows a rack without a location; import a room, e.g. named after the site, and name it)")
        return None
    room = _memo(s, ("room", site.id, room_name), lambda: s.execute(
        select(Room).where(Room.site_id == site.id, Room.name == room_name)).scalar_one_or_none())
    if room is None:
        r.err(room_col, f"site {site.code} has no room (location) named {room_name!r}")
    return room


def _status(kind: str, r: _Row, values: list[str], labels: Callable[[str], str], *, tenant: bool = False
            ) -> str | None:
    """Our status for the cell: our value or label, or NetBox's value or label (NETBOX_STATUS)."""
    raw = r.get("status")
    if not raw:
        return None
    word = raw.strip().lower().replace(" ", "_").replace("-", "_")
    by_label = {labels(v).lower().replace(" ", "_").replace("-", "_"): v for v in values}
    if word in values:
        return word
    if word in by_label:
        return by_label[word]
    mapped = NETBOX_STATUS.get(kind, {}).get(word)
    if kind == "racks" and word == "active" and not tenant:
        mapped = "available"
    if mapped:
        return mapped
    netbox = ", ".join(NETBOX_STATUS.get(kind, {}))
    r.err("status", f"{raw!r} is not a status; use one of {', '.join(values)}"
          + (f" (or NetBox's {netbox})" if netbox else ""))
    return None


def _region_code(s: Session, r: _Row, col: str) -> str | None:
    """A GB/T 2260 code, also as pandas or Excel wrote it (110000.0), or a region's exact name."""
    ref = r.get(col)
    if not ref:
        return None
    m = re.fullmatch(r"(\d{6})\.0*", ref)
    if m:
        ref = m.group(1)
    if re.fullmatch(r"\d{6}", ref):
        if s.get(Region, ref) is None:
            r.err(col, f"no region has the code {ref!r}")
        return ref
    hits = s.execute(select(Region.code).where(Region.name == ref).limit(3)).scalars().all()
    if len(hits) == 1:
        return hits[0]
    r.err(col, f"{ref!r} is not a region: give its six-digit GB/T 2260 code" if not hits else
          f"several regions are named {ref!r}; give the six-digit code")
    return None


def _find_devices(s: Session, ref: str) -> list[Device]:
    hit = s.execute(select(Device).where(Device.asset_tag == ref)).scalar_one_or_none()
    if hit is not None:
        return [hit]
    return s.execute(select(Device).where(Device.name == ref).limit(3)).scalars().all()


def _device_ref(s: Session, r: _Row, col: str = "device") -> Device | None:
    ref = r.get(col)
    if not ref:
        return None
    hits = _memo(s, ("device", ref), lambda: _find_devices(s, ref))
    if not hits:
        r.err(col, f"no device is named {ref!r} or has that asset tag")
    elif len(hits) > 1:
        r.err(col, f"several devices are named {ref!r}; give its asset tag instead")
    else:
        return hits[0]
    return None


# --- one upsert for the EntitySpec kinds -----------------------------------------------------

def _upsert(uow, kind: str, existing, values: dict, label: str, *,
            validate_as: dict | None = None) -> str:
    """Create, or update only what differs, through the service (services.common.upsert_in);
    returns 'created', 'updated' or 'unchanged'."""
    return upsert_in(uow, kind, existing, values, validate_as=validate_as)[1]


def _keep(values: dict, *keys: str) -> None:
    """Empty cells in columns with a default mean 'the default' (new) or 'unchanged' (existing)."""
    for k in keys:
        if values.get(k) in (None, ""):
            values.pop(k, None)


# --- per-kind import: resolve (read-only) then write --------------------------------------------

def _resolve_regions(s: Session, r: _Row) -> dict:
    code = r.get("code") or ""
    if not re.fullmatch(r"\d{6}", code):
        r.err("code", f"{code!r} is not a six-digit GB/T 2260 code")
    name = r.get("name") or ""
    if not name:
        r.err("name", "required")
    elif len(name) > 64:
        r.err("name", "longer than 64 characters")
    parent = r.get("parent") or None
    level = 1
    if parent:
        p = s.get(Region, parent)
        if p is None:
            r.err("parent", f"no region has the code {parent!r} (list parents before their children)")
        elif parent == code:
            r.err("parent", "a region cannot be its own parent")
        elif p.level >= 3:
            r.err("parent", f"{p.name} ({parent}) is a district; it has no sub-regions")
        else:   # GB/T 2260 says the level: 东城区 110101 is county level right under 北京市
            level = max(p.level + 1, region_level(code) if len(code) == 6 else 0)
    return {"code": code, "name": name, "parent_code": parent, "level": level}


def _write_regions(uow, r: _Row, v: dict) -> str:
    s = uow.session
    existing = s.get(Region, v["code"])
    if existing is None:
        region = Region(**v, updated_by=uow.actor.login)
        s.add(region)
        flush_or_refuse(s)
        uow.audit("region.create", "region", region.code, region.name, after=snapshot(region))
        return "created"
    before = snapshot(existing)
    changed = [k for k in ("name", "parent_code", "level") if getattr(existing, k) != v[k]]
    if not changed:
        return "unchanged"
    if "level" in changed:
        children = s.execute(select(func.count()).select_from(Region)
                             .where(Region.parent_code == existing.code)).scalar_one()
        if children:
            raise ValidationError({"parent_code": f"{existing.name} has {children} sub-region(s); "
                                                  "it cannot move to another level"})
    for k in changed:
        setattr(existing, k, v[k])
    flush_versioned(uow, existing, f"region {existing.code}")
    uow.audit("region.update", "region", existing.code, existing.name,
              before={k: before[k] for k in changed}, after={k: v[k] for k in changed})
    return "updated"


def _resolve_sites(s: Session, r: _Row) -> dict:
    v = {"code": r.get("code"), "name": r.get("name")}
    if r.has("slug"):
        v["slug"] = r.get("slug")
        if not v["code"] and v["slug"]:  # NetBox without a facility: the site that has the slug, else the slug
            v["code"] = s.execute(select(Site.code).where(func.lower(Site.slug) == v["slug"].lower())
                                  ).scalar_one_or_none() or v["slug"]
    if not v["code"]:
        r.err("code", "a site needs a code (or NetBox's facility or slug)")
    for col in ("address", "latitude", "longitude", "cooling", "power_capacity_kw"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("sites", r, SiteStatus.values(), SiteStatus.label)
    if r.has("region"):
        v["region_code"] = _region_code(s, r, "region")
    sub = r.get("subsidiary")
    if sub:
        sid = s.execute(select(Subsidiary.id).where(or_(Subsidiary.code == sub, Subsidiary.name == sub))
                        ).scalar_one_or_none()
        if sid is None:
            r.err("subsidiary", f"no subsidiary has the code {sub!r}")
        v["subsidiary_id"] = sid
    elif v.get("region_code") and not s.execute(select(Site.id).where(Site.code == v["code"])).first():
        v["subsidiary_id"] = _serving_subsidiary(s, r, v["region_code"])
    _keep(v, "status", "cooling", "power_capacity_kw", "slug")
    return v


def _serving_subsidiary(s: Session, r: _Row, region_code: str) -> int | None:
    """A new site without a subsidiary column (NetBox has none): the only subsidiary, or the one whose
    coverage holds the site's region or the nearest region above it."""
    subs = s.execute(select(Subsidiary.id, Subsidiary.code)).all()
    if len(subs) == 1:
        return subs[0][0]
    code: str | None = region_code
    while code:
        ids = sorted(set(s.execute(select(Coverage.subsidiary_id).where(Coverage.region_code == code)).scalars()))
        if len(ids) == 1:
            return ids[0]
        if len(ids) > 1:
            break
        code = s.execute(select(Region.parent_code).where(Region.code == code)).scalar_one_or_none()
    r.err("subsidiary", f"say which subsidiary operates this site (column subsidiary, one of "
          f"{', '.join(c for _i, c in subs) or 'none yet'}): region {region_code} is covered by "
          + ("several" if code else "none"))
    return None


def _write_sites(uow, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Site).where(Site.code == v["code"])).scalar_one_or_none()
    return _upsert(uow, "site", existing, v, v["code"])


def _resolve_subsidiaries(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"code": r.get("code"), "name": r.get("name"),
                         "credit_code": _credit_code(r)}
    for col in ("name_en", "address", "address_en", "phone", "bank_name", "bank_name_en", "bank_account"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("region"):
        v["region_code"] = _region_code(s, r, "region")
    return v


def _write_subsidiaries(uow, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Subsidiary).where(Subsidiary.code == v["code"])).scalar_one_or_none()
    return _upsert(uow, "subsidiary", existing, v, v["code"] or "")


def _resolve_rooms(s: Session, r: _Row) -> dict:
    site = _site(s, r)
    v: dict[str, Any] = {"site_id": site.id if site else None, "name": r.get("name")}
    if r.has("cooling"):
        v["cooling"] = (r.get("cooling") or "").lower() or None
    for col in ("power_capacity_kw", "cooling_capacity_kw"):
        if r.has(col):
            v[col] = r.decimal(col)
    for col in ("grid_rows", "grid_cols"):
        if r.has(col):
            v[col] = r.integer(col)
    if r.has("notes"):
        v["notes"] = r.get("notes")
    _keep(v, "cooling", "power_capacity_kw", "cooling_capacity_kw", "grid_rows", "grid_cols")
    return v


def _write_rooms(uow, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Room).where(Room.site_id == v["site_id"], Room.name == v["name"])
                                   ).scalar_one_or_none()
    return _upsert(uow, "room", existing, v, v["name"] or "")


def _resolve_racks(s: Session, r: _Row) -> dict:
    room = _room(s, r)
    v = {"room_id": room.id if room else None, "name": r.get("name")}
    for col in ("u_height", "power_capacity_kw", "asset_tag"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("racks", r, RackStatus.values(), RackStatus.label, tenant=bool(r.get("tenant")))
    if r.has("tenant"):
        v["customer_id"] = _customer(s, r)
    if r.has("cage"):
        v["_cage"] = r.get("cage") or None  # the cage (of this room) the rack belongs to; made when new
    _keep(v, "u_height", "power_capacity_kw", "status")
    return v


def _write_racks(uow, r: _Row, v: dict) -> str:
    s = uow.session
    if "_cage" in v:
        name = v.pop("_cage")
        cage_id = None
        if name:
            cage_id = s.execute(select(Cage.id).where(Cage.room_id == v["room_id"], Cage.name == name)).scalar()
            if cage_id is None:
                cage = Cage(room_id=v["room_id"], name=name, updated_by=uow.actor.login)
                s.add(cage)
                flush_or_refuse(s)
                cage_id = cage.id
                uow.audit("cage.create", "cage", cage.id, name, after=snapshot(cage))
        v["cage_id"] = cage_id
    existing = s.execute(select(Rack).where(Rack.room_id == v["room_id"], Rack.name == v["name"])
                         ).scalar_one_or_none()
    return _upsert(uow, "rack", existing, v, v["name"] or "")


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
    """_write_gpus for a batch of rows, in order, set-wise: runs of new GPUs are checked and created by
    create_many_in (or import_gpus_in for those with a state or a slot, as import_gpu_in takes them),
    runs of existing GPUs checked and updated by update_many_in; an existing GPU whose slot changes is
    then installed row by row (install_gpu_in). Returns each row's outcome, or the error that refused
    it before anything of it was written; a failure while writing is raised (the batch is then checked
    again row by row, _write_gpus)."""
    existing = gpus_by_serial(uow.session, [v["serial"] for _r, v in items if v.get("serial")])
    out: list[Any] = [None] * len(items)
    run: list[int] = []  # consecutive rows of one flavour

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

    for i, (_r, v) in enumerate(items):
        if run and flavour(items[run[0]][1]) != flavour(v):
            write_run()
        run.append(i)
    write_run()
    return out


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


def _credit_code(r: _Row, col: str = "credit_code") -> str:
    """The code as text; one that Excel turned into a number (all digits, 1.2E+17, 110000.0) gets a hint."""
    raw = (r.get(col) or "").strip()
    code = raw.upper()
    m = re.fullmatch(r"(\d+)\.0+", code)
    if m:  # pandas wrote an all-digit code as a float
        code = m.group(1)
    if code and (re.fullmatch(r"[\d.]+E\+?\d+", code) or (code.isdigit() and uscc_problem(code))):
        r.err(col, f"{raw!r} is not a valid credit code ({uscc_problem(code) if code.isdigit() else 'a number'}); "
                   "Excel stores an all-digit code as a number and drops its last digits: format the column as "
                   "Text and type the code again")
    return code


def _resolve_customers(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"name": r.get("name"), "credit_code": _credit_code(r)}
    if r.has("region"):
        v["region_code"] = r.get("region")
    for col in ("address", "status"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("account_manager"):
        login = r.get("account_manager")
        uid = None
        if login:
            uid = s.execute(select(User.id).where(User.login == login)).scalar_one_or_none()
            if uid is None:
                r.err("account_manager", f"no user has the login {login!r}")
        v["account_manager_id"] = uid
    contact = {k: r.get(f"contact_{k}") for k in ("name", "phone", "email", "role") if r.has(f"contact_{k}")}
    if contact.get("phone") and re.fullmatch(r"\d+\.0", contact["phone"]):
        contact["phone"] = contact["phone"][:-2]  # pandas read the phone column as numbers
    if any(contact.values()):
        if not contact.get("name"):
            r.err("contact_name", "a contact needs a name")
        for key, check in (("phone", phone_problem), ("email", email_problem)):
            problem = check(contact.get(key))
            if problem:
                r.err(f"contact_{key}", problem)
        v["_contact"] = contact
    _keep(v, "status")
    return v


def _write_customers(uow, r: _Row, v: dict) -> str:
    s = uow.session
    contact = v.pop("_contact", None)
    existing = s.execute(select(Customer).where(Customer.credit_code == v["credit_code"])).scalar_one_or_none()
    outcome = _upsert(uow, "customer", existing, v, v["name"] or "")
    customer = existing or s.execute(select(Customer).where(Customer.credit_code == v["credit_code"])).scalar_one()
    if contact:
        # the row's contact, added or changed by name, through the customer's contacts use case
        from app.services.customers import CONTACT_FIELDS, replace_contacts_in

        contacts = [{k: getattr(c, k) for k in CONTACT_FIELDS} for c in customer.contacts]
        current = next((c for c in contacts if c["name"] == contact["name"]), None)
        if current is None:
            contacts.append({k: contact.get(k) for k in CONTACT_FIELDS})
        else:
            current.update(contact)
        if replace_contacts_in(uow, customer, contacts):
            outcome = "updated" if outcome == "unchanged" else outcome
    return outcome


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


def _resolve_users(s: Session, r: _Row) -> dict:
    from models.choices import Role

    v: dict[str, Any] = {"login": r.get("login"), "display_name": r.get("display_name")}
    role = (r.get("role") or "").lower().replace(" ", "_")
    by_label = {Role.label(x).lower().replace(" ", "_"): x for x in Role.values()}
    v["role"] = by_label.get(role, role)
    if v["role"] not in Role.values():
        r.err("role", f"{r.get('role')!r} is not a role ({', '.join(Role.values())})")
    active = r.boolean("active") if r.get("active") else None
    v["active"] = True if active is None else active
    v["created_at"] = _local_datetime(r, "created_at") if r.get("created_at") else None
    return v


def _local_datetime(r: _Row, col: str) -> dt.datetime | None:
    """A date-time as exported (Shanghai local time) or with its own offset, as UTC."""
    raw = r.get(col) or ""
    try:
        value = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        r.err(col, f"{raw!r} is not a date and time (write YYYY-MM-DD HH:MM:SS, {LOCAL_TIME_ZONE} time)")
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=TZ)
    return value.astimezone(dt.timezone.utc)


def _write_users(uow, r: _Row, v: dict) -> str:
    from app.services.users import import_user_in

    return import_user_in(uow, v["login"], v["display_name"], v["role"], v["active"], v["created_at"])


def _resolve_contracts(s: Session, r: _Row) -> dict:
    from app.services.contracts import ItemSpec
    from app.services.migration import gpu_ids_by_serial
    from models.choices import ContractStatus, ItemKind

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
    kind = (r.get("item_kind") or "").lower()
    if kind not in ItemKind.values():
        r.err("item_kind", f"{r.get('item_kind')!r} is not an item kind ({', '.join(ItemKind.values())})")
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


def _write_contracts(uow, r: _Row, v: dict) -> str:
    from app.services.migration import import_contract_item_in

    if not v["number"]:
        raise _RowRefused([("number", "a contract number is required")])
    new = uow.__dict__.setdefault("_imported_contracts", set())
    return import_contract_item_in(uow, v["number"], v["_header"], v["_item"], v["_handover"], new)


def _write_device_types(uow, r: _Row, v: dict) -> str:

    if r.file is None and "role" not in v and not uow.session.execute(
            select(DeviceType.id).where(DeviceType.slug == v.get("slug"))).first():
        v = dict(v, role=guess_role(v))   # NetBox's device-type CSV has no role: as from the library's YAML
    return upsert_device_type(uow, v, from_library=r.file is not None)


MODEL.update({"contracts": Contract, "users": User, "regions": Region, "subsidiaries": Subsidiary, "rooms": Room,
              "sites": Site, "racks": Rack, "devices": Device, "gpus": GpuAsset, "customers": Customer,
              "device-types": DeviceType})


def _refuse_unstorable(kind: str, r: _Row, values: dict) -> None:
    """Values their column cannot hold (1e400, Infinity, NaN, a NUL, too long), as row errors."""
    cols = FIELD_COLUMN.get(kind, {})
    problems = [(cols.get(k, k), why) for k, why in column_problems(MODEL[kind], values).items()]
    contact = values.get("_contact")
    if contact:
        problems += [(f"contact_{k}", why) for k, why in column_problems(Contact, contact).items()]
    if problems:
        raise _RowRefused(problems)


_ROW_KEYS: dict[str, Callable[[dict], Any]] = {
    "regions": lambda v: v.get("code"), "sites": lambda v: v.get("code"),
    "subsidiaries": lambda v: v.get("code"), "users": lambda v: v.get("login"),
    "rooms": lambda v: (v.get("site_id"), v.get("name")) if v.get("site_id") else None,
    "racks": lambda v: (v.get("room_id"), v.get("name")) if v.get("room_id") else None,
    "gpus": lambda v: v.get("serial"),
    "customers": lambda v: (v.get("credit_code"), (v.get("_contact") or {}).get("name")),
    "device-types": lambda v: v.get("slug"),
    "devices": lambda v: v.get("asset_tag") and ("tag", v["asset_tag"]),
}


def _row_key(kind: str, v: dict) -> Any:
    """What makes two rows of one file the same record (duplicates are refused); None: no check."""
    key = ROW_KEY.get(kind) or _ROW_KEYS.get(kind)
    return key(v) if key is not None else None


BULK_WRITE.update({"gpus": _write_gpus_many})

HANDLERS.update({
    "regions": (_resolve_regions, _write_regions),
    "subsidiaries": (_resolve_subsidiaries, _write_subsidiaries),
    "rooms": (_resolve_rooms, _write_rooms),
    "users": (_resolve_users, _write_users),
    "contracts": (_resolve_contracts, _write_contracts),
    "sites": (_resolve_sites, _write_sites),
    "racks": (_resolve_racks, _write_racks),
    "devices": (_resolve_devices, _write_devices),
    "gpus": (_resolve_gpus, _write_gpus),
    "customers": (_resolve_customers, _write_customers),
    "device-types": (_resolve_device_types, _write_device_types),
})
